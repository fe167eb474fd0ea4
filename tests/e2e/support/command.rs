//! Running the `tangle` binary: a clean environment per command (no user HOME, cache,
//! config or password leaks in), and the checks every command's output gets.

use std::ffi::OsStr;
use std::fs;
use std::path::Path;
use std::process::Output;
use std::time::Duration;

use assert_cmd::Command;

use super::fsutil::is_root;
use crate::shared::servers;

pub const PASSWORD: &str = "correct horse battery staple";
/// Upper bound for any single command, so that a hang (e.g. opening a FIFO, waiting
/// for a password on a terminal) fails the test instead of blocking CI forever.
pub const CMD_TIMEOUT: Duration = Duration::from_secs(240);

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_tangle")
}

/// A command running `program pre_args...` with a clean environment: only PATH, and
/// HOME / XDG dirs pointing at `home` (so no user cache, config or profile leaks in).
/// No password and no repository are set.
pub fn clean_command(program: &OsStr, pre_args: &[&OsStr], home: &Path) -> Command {
    let mut std_cmd = clean_std_command(program, home);
    std_cmd.args(pre_args);
    let mut c = Command::from_std(std_cmd);
    c.timeout(CMD_TIMEOUT);
    c
}

/// The environment every test command runs in: only PATH, and HOME / XDG dirs under
/// `home`, so no user cache, config or profile leaks in.
fn clean_std_command(program: &OsStr, home: &Path) -> std::process::Command {
    fs::create_dir_all(home).unwrap();
    let mut c = std::process::Command::new(program);
    c.env_clear();
    if let Some(p) = std::env::var_os("PATH") {
        c.env("PATH", p);
    }
    c.env("HOME", home)
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("NO_COLOR", "1")
        .env("TERM", "dumb");
    c
}

/// `tangle` with a clean environment and no password / repository.
pub fn tangle_bare(home: &Path) -> Command {
    clean_command(OsStr::new(bin()), &[], home)
}

/// [`tangle_bare`] without a terminal, so that nothing can prompt: `setsid` detaches
/// from any controlling terminal, so /dev/tty cannot be opened even when the tests run
/// from an interactive shell.
pub fn tangle_without_terminal(home: &Path) -> Command {
    let setsid = Path::new("/usr/bin/setsid");
    let mut c = if setsid.exists() {
        clean_command(
            setsid.as_os_str(),
            &[OsStr::new("-w"), OsStr::new(bin())],
            home,
        )
    } else {
        tangle_bare(home)
    };
    c.timeout(Duration::from_secs(60));
    c
}

/// `tangle` with a clean environment under `home` (no password, no repository) that
/// cannot read the mode-000 file `unreadable`: as root, who reads such files, it runs
/// under `setpriv` without CAP_DAC_OVERRIDE / CAP_DAC_READ_SEARCH. `None`, with a note,
/// where root cannot drop them here: the caller skips.
pub fn tangle_unprivileged(home: &Path, unreadable: &Path) -> Option<Command> {
    if !is_root() {
        return Some(tangle_bare(home));
    }
    let pre = ["--bounding-set", "-dac_override,-dac_read_search", "--"];
    let probe = std::process::Command::new("setpriv")
        .args(pre)
        .arg("cat")
        .arg(unreadable)
        .output();
    let works = std::process::Command::new("setpriv")
        .args(pre)
        .arg("true")
        .status();
    if !(probe.is_ok_and(|p| !p.status.success()) && works.is_ok_and(|w| w.success())) {
        eprintln!("skipped: running as root and cannot drop CAP_DAC_OVERRIDE with setpriv");
        return None;
    }
    let mut pre_os: Vec<&OsStr> = pre.iter().map(OsStr::new).collect();
    pre_os.push(OsStr::new(bin()));
    Some(clean_command(OsStr::new("setpriv"), &pre_os, home))
}

pub fn stdout_str(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr_str(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Run and require exit code 0; returns the output.
pub fn run_ok(cmd: &mut Command) -> Output {
    let out = cmd.assert().success().get_output().clone();
    assert_stderr_lacks(&out, "panicked");
    out
}

/// Run and require exactly `code`; returns the output. A panic on some thread that the
/// process survived (it still printed `panicked`) fails too.
pub fn run_code(cmd: &mut Command, code: i32) -> Output {
    let out = cmd.assert().code(code).get_output().clone();
    assert_stderr_lacks(&out, "panicked");
    out
}

/// [`run_code`], and stderr says `text`: a refusal and its message.
#[track_caller]
pub fn run_code_saying(cmd: &mut Command, code: i32, text: &str) -> Output {
    let out = run_code(cmd, code);
    assert_stderr_has(&out, text);
    out
}

/// `o`'s stderr contains `text` (the failure shows all of stderr).
#[track_caller]
pub fn assert_stderr_has(o: &Output, text: &str) {
    let err = stderr_str(o);
    assert!(err.contains(text), "stderr does not say {text:?}:\n{err}");
}

/// `o`'s stdout contains `text` (the failure shows all of stdout).
#[track_caller]
pub fn assert_stdout_has(o: &Output, text: &str) {
    let out = stdout_str(o);
    assert!(out.contains(text), "stdout does not say {text:?}:\n{out}");
}

/// `o`'s stderr does not contain `text` (the failure shows all of stderr).
#[track_caller]
pub fn assert_stderr_lacks(o: &Output, text: &str) {
    let err = stderr_str(o);
    assert!(!err.contains(text), "stderr says {text:?}:\n{err}");
}

/// `o`'s stdout does not contain `text` (the failure shows all of stdout).
#[track_caller]
pub fn assert_stdout_lacks(o: &Output, text: &str) {
    let out = stdout_str(o);
    assert!(!out.contains(text), "stdout says {text:?}:\n{out}");
}

/// Run and return the output whatever the exit status (but fail on timeout).
pub fn run_any(cmd: &mut Command) -> Output {
    cmd.output().expect("failed to run tangle (timeout?)")
}

/// The binary exited normally (no panic, no signal), whatever its exit code.
pub fn assert_no_panic(o: &Output, what: &str) {
    let err = stderr_str(o);
    assert_ne!(
        o.status.code(),
        Some(101),
        "{what}: exit code 101 (panic)\nstderr:\n{err}"
    );
    assert!(
        !err.contains("panicked"),
        "{what}: binary panicked\nstderr:\n{err}"
    );
    assert!(o.status.code().is_some(), "{what}: killed by a signal");
}

/// Common checks for a failing command: a message on stderr, no panic.
pub fn assert_clean_failure(o: &Output, what: &str) {
    let err = stderr_str(o);
    assert!(
        !o.status.success(),
        "{what}: expected failure, got success\nstdout:\n{}\nstderr:\n{err}",
        stdout_str(o)
    );
    assert_no_panic(o, what);
    assert!(
        !err.trim().is_empty(),
        "{what}: failed without any message on stderr (exit {:?})",
        o.status.code()
    );
}

/// Environment through which `tangle` reaches the S3, SFTP and Azure test servers (written by
/// `scripts/test-servers.sh env`); [`pass_env`] copies them into a clean command.
pub const SERVER_ENV: &[&str] = &[
    "AWS_ENDPOINT",
    "AWS_ALLOW_HTTP",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_DEFAULT_REGION",
    "AWS_REGION",
    "TANGLE_SSH_COMMAND",
    "AZURE_STORAGE_USE_EMULATOR",
    "AZURITE_BLOB_STORAGE_URL",
];

/// Copy `vars` that are set in the test's own environment into `cmd` (whose
/// environment was cleared).
pub fn pass_env<'a>(cmd: &'a mut Command, vars: &[&str]) -> &'a mut Command {
    for v in vars {
        if let Some(val) = std::env::var_os(v) {
            cmd.env(v, val);
        }
    }
    cmd
}

/// Three new remotes on the S3 test server, `s3://BUCKET/DIR/NAME-…-{a,b,c}` (`NAME`
/// made [`servers::unique`]), or `None` where that server is not configured (see
/// [`servers::require`]).
pub fn three_s3_remotes(dir: &str, name: &str) -> Option<Vec<String>> {
    if !servers::require("S3", servers::S3_VARS) {
        return None;
    }
    let bucket = servers::var("TANGLE_TEST_S3_BUCKET").expect("bucket");
    let name = servers::unique(name);
    Some(
        ["a", "b", "c"]
            .iter()
            .map(|r| format!("s3://{bucket}/{dir}/{name}-{r}"))
            .collect(),
    )
}

/// `tangle -r URL` with the password, reaching the test servers ([`SERVER_ENV`]).
pub fn tangle_via_url(home: &Path, url: &str) -> Command {
    let mut c = tangle_bare(home);
    c.env("TANGLE_PASSWORD", PASSWORD).arg("-r").arg(url);
    pass_env(&mut c, SERVER_ENV);
    c
}

/// Like [`clean_command`] but a `std::process::Command` running `tangle`, for a process
/// the test spawns and controls itself (e.g. to kill it): clean environment, HOME / XDG
/// dirs under `home`, the password set. stdin is closed.
pub fn tangle_std(home: &Path) -> std::process::Command {
    let mut c = clean_std_command(OsStr::new(bin()), home);
    c.env("TANGLE_PASSWORD", PASSWORD)
        .stdin(std::process::Stdio::null());
    c
}

/// Return once `ready()` holds, while `child` (whose stderr goes to the file `log`)
/// still runs: a test that acts on a command in the middle of its work. Panics if the
/// child ends first or `ready()` takes over two minutes.
pub fn wait_until(child: &mut std::process::Child, log: &Path, ready: impl Fn() -> bool) {
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waiting for tangle") {
            panic!(
                "tangle ended ({status}) before the test could act:\n{}",
                fs::read_to_string(log).unwrap_or_default()
            );
        }
        if ready() {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "tangle did not get there in two minutes:\n{}",
            fs::read_to_string(log).unwrap_or_default()
        );
        // Polling interval, not synchronisation: the condition is re-read until it holds.
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// Whether process `pid` is stopped (state `T` in `/proc/PID/stat`).
pub fn is_stopped(pid: u32) -> bool {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    after.split_whitespace().next() == Some("T")
}

/// Spawn `cmd`, whose stderr goes to the file `log`, and return once it has stopped
/// itself (`TANGLE_TEST_STOP_AFTER_LOCK`, `TANGLE_TEST_STOP_BEFORE_CERTIFICATE`): a run
/// caught at a known point, whatever the machine's speed. Panics if it ends first.
pub fn spawn_stopped(cmd: &mut std::process::Command, log: &Path) -> std::process::Child {
    cmd.stderr(fs::File::create(log).expect("the stopped run's log"));
    let mut child = cmd.spawn().expect("spawning tangle");
    let pid = child.id();
    wait_until(&mut child, log, || is_stopped(pid));
    child
}

/// Let a run [`spawn_stopped`] caught go on, and its exit code once it ends (within
/// [`CMD_TIMEOUT`]).
pub fn resume_stopped(mut child: std::process::Child) -> i32 {
    // SAFETY: kill has no preconditions; the pid is our own child's, not yet reaped.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGCONT) },
        0
    );
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waiting for tangle") {
            return status.code().unwrap_or(-1);
        }
        assert!(
            started.elapsed() < CMD_TIMEOUT,
            "the resumed run did not end"
        );
        // Polling interval, not synchronisation: the exit status is re-read until it is there.
        std::thread::sleep(Duration::from_millis(5));
    }
}
