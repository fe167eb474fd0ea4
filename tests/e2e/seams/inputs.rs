//! Seams between commands (issue 31), on the local inputs: passwords are their exact
//! bytes whatever the source, long file names restore over existing files, and password
//! files, profiles and password commands are read within bounds.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{
    PASSWORD, bin, clean_command, run_any, run_code, run_ok, stderr_str,
};
use crate::support::fsutil::set_mode;
use crate::support::manifest::{manifest, manifest_diff};
use crate::support::repo::{Client, Repo, restored_path};
use assert_cmd::Command;

// ---------------------------------------------------------------------------------------
// Passwords are bytes.

/// Two passwords that are not UTF-8 and that a lossy conversion makes the same (four
/// U+FFFD each).
const PW_A: &[u8] = &[0xff, 0xfe, 0xfd, 0xfc];
const PW_B: &[u8] = &[0x80, 0x81, 0x82, 0x83];

#[derive(Clone, Copy, Debug)]
enum Source {
    Env,
    File,
    Command,
}

const SOURCES: [Source; 3] = [Source::Env, Source::File, Source::Command];

/// `printf` arguments that print `bytes` exactly (octal escapes).
fn printf_octal(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\{b:03o}")).collect()
}

/// Give `cmd` the password `pw` through `source`; files are written under `dir`.
fn with_password(cmd: &mut Command, source: Source, pw: &[u8], dir: &Path) {
    match source {
        Source::Env => {
            cmd.env("TANGLE_PASSWORD", OsStr::from_bytes(pw));
        }
        Source::File => {
            let n = fs::read_dir(dir).map(|d| d.count()).unwrap_or(0);
            let f = dir.join(format!("pw-{n}"));
            // With the newline `echo` would write: only the first line is the password.
            let mut text = pw.to_vec();
            text.push(b'\n');
            write_file(&f, &text);
            set_mode(&f, 0o600);
            cmd.arg("--password-file").arg(f);
        }
        Source::Command => {
            cmd.arg("--password-command")
                .arg(format!("printf '{}\\n'", printf_octal(pw)));
        }
    }
}

#[test]
fn non_utf8_passwords_are_their_exact_bytes_from_every_source() {
    for made_by in SOURCES {
        let repo = Repo::uninit();
        let pw_dir = repo.dir("passwords");
        let mut init = repo.cmd_as(Client::no_repo().no_password());
        init.arg("init");
        for r in &repo.remotes {
            init.arg("--remote").arg(r);
        }
        with_password(&mut init, made_by, PW_A, &pw_dir);
        let o = run_any(&mut init);
        assert!(
            o.status.success(),
            "init with a non-UTF-8 password from {made_by:?} failed ({:?}):\n{}",
            o.status.code(),
            stderr_str(&o)
        );
        for opened_by in SOURCES {
            let mut open = repo.cmd_as(Client::via(0).no_password());
            with_password(&mut open, opened_by, PW_A, &pw_dir);
            let o = run_any(open.args(["snapshots", "--json"]));
            assert!(
                o.status.success(),
                "made with {made_by:?}, the same bytes through {opened_by:?} do not open it ({:?}):\n{}",
                o.status.code(),
                stderr_str(&o)
            );

            let mut wrong = repo.cmd_as(Client::via(0).no_password());
            with_password(&mut wrong, opened_by, PW_B, &pw_dir);
            let o = run_any(wrong.args(["snapshots", "--json"]));
            assert_eq!(
                o.status.code(),
                Some(12),
                "made with {made_by:?} from {PW_A:02x?}, {PW_B:02x?} (the same after a lossy \
                 conversion) through {opened_by:?} is not refused as a wrong password:\n{}",
                stderr_str(&o)
            );
        }
    }
}

#[test]
fn utf8_passwords_keep_their_newline_rules() {
    let repo = Repo::init();
    let dir = repo.dir("passwords");
    let file = |name: &str, text: &str| {
        let f = dir.join(name);
        write_file(&f, text.as_bytes());
        set_mode(&f, 0o600);
        f
    };
    // The file's first line (a CRLF ending is a line ending), the command's output
    // without its trailing CR and LF, the profile's and the environment's as given.
    let opens = |cmd: &mut Command, what: &str| {
        let o = run_any(cmd.args(["snapshots", "--json"]));
        assert!(
            o.status.success(),
            "{what}: the password does not open the repository:\n{}",
            stderr_str(&o)
        );
    };
    for text in [
        format!("{PASSWORD}\n"),
        format!("{PASSWORD}\r\nsecond line\n"),
        PASSWORD.to_string(),
    ] {
        let f = file("pw", &text);
        opens(
            repo.cmd_as(Client::via(0).no_password())
                .arg("--password-file")
                .arg(&f),
            &format!("password file {text:?}"),
        );
    }
    opens(
        repo.cmd_as(Client::via(0).no_password())
            .arg("--password-command")
            .arg(format!("printf '{PASSWORD}\\r\\n\\n'")),
        "password command with CR LF LF",
    );
    let profile = repo.path("p.toml");
    write_file(
        &profile,
        format!("[repository]\npassword = {PASSWORD:?}\n").as_bytes(),
    );
    set_mode(&profile, 0o600);
    opens(
        repo.cmd_as(Client::via(0).no_password())
            .arg("-P")
            .arg(&profile),
        "the profile's password",
    );
    // A trailing CR without LF stays part of the file's line.
    let f = file("pw-cr", &format!("{PASSWORD}\r"));
    run_code(
        repo.cmd_as(Client::via(0).no_password())
            .arg("--password-file")
            .arg(&f)
            .arg("snapshots"),
        12,
    );
}

// ---------------------------------------------------------------------------------------
// Long names restore over existing files.

#[test]
fn names_up_to_255_bytes_restore_over_existing_files() {
    let repo = Repo::init();
    let src = repo.dir("src");
    let mut names: Vec<OsString> = vec![
        OsString::from("a".repeat(255)),
        OsString::from("b".repeat(230)),
        OsString::from("c".repeat(227)),
        // 254 bytes of two-byte characters and one more: a cut must not split one.
        OsString::from(format!("{}x", "é".repeat(127))),
    ];
    // A name that is not UTF-8 either.
    let mut raw_name = vec![0xffu8; 200];
    raw_name.extend(std::iter::repeat_n(b'r', 55));
    names.push(OsStr::from_bytes(&raw_name).to_os_string());
    for (i, n) in names.iter().enumerate() {
        assert!(n.len() >= 227 && n.len() <= 255);
        write_file(&src.join(n), &pseudo_random(i as u64 + 1, 1000 + i * 100));
    }
    let expected = manifest(&src);
    repo.backup(&[&src], &[]);

    let target = repo.path("target");
    let restore = |what: &str| {
        let o = run_any(
            repo.cmd()
                .args(["restore", "latest", "--no-progress", "--target"])
                .arg(&target),
        );
        assert!(
            o.status.success(),
            "{what}: restore failed ({:?}):\n{}",
            o.status.code(),
            stderr_str(&o)
        );
        let root = restored_path(&target, &src);
        if let Some(d) = manifest_diff(&expected, &manifest(&root)) {
            panic!("{what}: {d}");
        }
        let leftovers: Vec<PathBuf> = (fs::read_dir(&root).unwrap())
            .map(|e| e.unwrap().path())
            .filter(|p| (p.file_name().unwrap().as_bytes()).starts_with(b".tangle"))
            .collect();
        assert!(
            leftovers.is_empty(),
            "{what}: temporary files left: {leftovers:?}"
        );
    };
    restore("first restore");
    restore("restore again over the same files");
    let root = restored_path(&target, &src);
    for n in &names {
        write_file(&root.join(n), b"something else entirely");
    }
    restore("restore over other files at those names");
}

// ---------------------------------------------------------------------------------------
// Bounded local inputs.

/// `tangle ARGS` under a 1 GiB address-space limit, so that an unbounded read fails
/// quickly instead of taking the machine's memory; stdin closed.
fn tangle_limited(home: &Path) -> Command {
    let mut c = clean_command(
        OsStr::new("sh"),
        &[
            OsStr::new("-c"),
            OsStr::new("ulimit -v 1048576; exec \"$0\" \"$@\""),
            OsStr::new(bin()),
        ],
        home,
    );
    c.timeout(Duration::from_secs(60));
    c
}

/// Run, and require exit 1 within `within` with a message containing every one of
/// `wanted`.
fn fails_quickly_saying(cmd: &mut Command, within: Duration, wanted: &[&str], what: &str) {
    let started = Instant::now();
    let o: Output = run_any(cmd);
    let took = started.elapsed();
    let err = stderr_str(&o);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{what}: exit {:?} after {took:?}\nstderr:\n{err}",
        o.status.code()
    );
    for w in wanted {
        assert!(
            err.contains(w),
            "{what}: the message does not say {w:?}:\n{err}"
        );
    }
    assert!(
        err.lines().filter(|l| l.contains("error")).count() == 1,
        "{what}: not one error message:\n{err}"
    );
    assert!(took < within, "{what}: took {took:?}");
}

#[test]
fn password_file_and_profile_reads_stop_at_their_limits() {
    let repo = Repo::init();
    fails_quickly_saying(
        tangle_limited(&repo.home)
            .arg("-r")
            .arg(&repo.remotes[0])
            .args(["--password-file", "/dev/zero", "snapshots"]),
        Duration::from_secs(30),
        &["/dev/zero", "64 KiB"],
        "--password-file /dev/zero",
    );
    fails_quickly_saying(
        tangle_limited(&repo.home)
            .arg("-r")
            .arg(&repo.remotes[0])
            .args(["key", "add", "--new-password-file", "/dev/zero"])
            .env("TANGLE_PASSWORD", PASSWORD),
        Duration::from_secs(30),
        &["/dev/zero", "64 KiB"],
        "key add --new-password-file /dev/zero",
    );
    fails_quickly_saying(
        tangle_limited(&repo.home)
            .arg("-r")
            .arg(&repo.remotes[0])
            .args(["-P", "/dev/zero", "snapshots"]),
        Duration::from_secs(30),
        &["/dev/zero", "1 MiB"],
        "-P /dev/zero",
    );
    // Just over the limits, as regular files; just under works.
    let big = repo.path("big-pw");
    let mut text = PASSWORD.as_bytes().to_vec();
    text.push(b'\n');
    text.resize(64 * 1024 + 1, b'x');
    write_file(&big, &text);
    set_mode(&big, 0o600);
    fails_quickly_saying(
        repo.cmd_as(Client::via(0).no_password())
            .arg("--password-file")
            .arg(&big)
            .arg("snapshots"),
        Duration::from_secs(30),
        &["64 KiB"],
        "a password file of 64 KiB + 1",
    );
    text.truncate(64 * 1024);
    write_file(&big, &text);
    run_ok(
        repo.cmd_as(Client::via(0).no_password())
            .arg("--password-file")
            .arg(&big)
            .arg("snapshots"),
    );
    let profile = repo.path("big.toml");
    let mut toml = format!("[repository]\npassword = {PASSWORD:?}\n").into_bytes();
    toml.resize(1024 * 1024 + 1, b'\n');
    write_file(&profile, &toml);
    set_mode(&profile, 0o600);
    fails_quickly_saying(
        repo.cmd_as(Client::via(0).no_password())
            .arg("-P")
            .arg(&profile)
            .arg("snapshots"),
        Duration::from_secs(30),
        &["1 MiB"],
        "a profile of 1 MiB + 1",
    );
    toml.truncate(1024 * 1024);
    write_file(&profile, &toml);
    run_ok(
        repo.cmd_as(Client::via(0).no_password())
            .arg("-P")
            .arg(&profile)
            .arg("snapshots"),
    );
}

#[test]
fn password_command_output_is_bounded() {
    let repo = Repo::init();
    fails_quickly_saying(
        tangle_limited(&repo.home)
            .arg("-r")
            .arg(&repo.remotes[0])
            .args(["--password-command", "yes", "snapshots"]),
        Duration::from_secs(30),
        &["`yes`", "64 KiB"],
        "--password-command yes",
    );
}

/// Whether a process runs `sleep SECS` (it was not killed).
fn sleeping(secs: &str) -> bool {
    let Ok(dir) = fs::read_dir("/proc") else {
        return false;
    };
    dir.flatten().any(|e| {
        fs::read(e.path().join("cmdline")).is_ok_and(|c| c == format!("sleep\0{secs}\0").as_bytes())
    })
}

#[test]
fn a_hanging_password_command_is_killed_after_its_timeout() {
    let repo = Repo::init();
    // The shell forks `sleep` (it is not the last command), so the command's child holds
    // the output pipe too: it is killed with it.
    let cmd = "sleep 7301; echo never";
    let mut c = repo.cmd_as(Client::via(0).no_password());
    c.env("TANGLE_PASSWORD_COMMAND_TIMEOUT", "1")
        .args(["--password-command", cmd, "snapshots"])
        .timeout(Duration::from_secs(60));
    fails_quickly_saying(
        &mut c,
        Duration::from_secs(15),
        &[cmd, "1 s", "TANGLE_PASSWORD_COMMAND_TIMEOUT"],
        "a password command sleeping, with TANGLE_PASSWORD_COMMAND_TIMEOUT=1",
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(!sleeping("7301"), "the password command's child still runs");

    // The profile's key, and the environment over the profile.
    let profile = repo.path("p.toml");
    write_file(
        &profile,
        format!(
            "[repository]\nremotes = [{:?}]\npassword-command = \"sleep 7302\"\npassword-command-timeout = 2\n",
            repo.url(0)
        )
        .as_bytes(),
    );
    set_mode(&profile, 0o600);
    let mut c = repo.cmd_as(Client::no_repo().no_password());
    c.arg("-P")
        .arg(&profile)
        .arg("snapshots")
        .timeout(Duration::from_secs(60));
    fails_quickly_saying(
        &mut c,
        Duration::from_secs(15),
        &["`sleep 7302`", "2 s", "password-command-timeout"],
        "a password command sleeping, with the profile's password-command-timeout = 2",
    );
    let mut c = repo.cmd_as(Client::no_repo().no_password());
    c.arg("-P")
        .arg(&profile)
        .env("TANGLE_PASSWORD_COMMAND_TIMEOUT", "1s")
        .arg("snapshots")
        .timeout(Duration::from_secs(60));
    fails_quickly_saying(
        &mut c,
        Duration::from_secs(15),
        &["`sleep 7302`", "1 s"],
        "the environment's timeout over the profile's",
    );
    assert!(!sleeping("7302"), "the password command still runs");

    // A bad value is refused, naming where it came from.
    let mut c = repo.cmd_as(Client::via(0).no_password());
    c.env("TANGLE_PASSWORD_COMMAND_TIMEOUT", "soon").args([
        "--password-command",
        "echo x",
        "snapshots",
    ]);
    fails_quickly_saying(
        &mut c,
        Duration::from_secs(30),
        &["TANGLE_PASSWORD_COMMAND_TIMEOUT"],
        "TANGLE_PASSWORD_COMMAND_TIMEOUT=soon",
    );
    // A command that finishes in time still works with a short timeout.
    let mut c = repo.cmd_as(Client::via(0).no_password());
    c.env("TANGLE_PASSWORD_COMMAND_TIMEOUT", "30")
        .arg("--password-command")
        .arg(format!("sleep 0.2; echo '{PASSWORD}'"))
        .arg("snapshots");
    run_ok(&mut c);
}
