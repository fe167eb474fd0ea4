//! Where two writing commands meet (issue 31): a lock held on another machine or in
//! another PID namespace with the same host name, by a host whose clock is off, by a
//! holder that stalls past its lease; remote changes and password-less repairs against
//! a delete; two remote changes at once. Each holder is a real second process, caught
//! at a known point by `TANGLE_TEST_STOP_AFTER_LOCK` (it stops itself once it holds its
//! lock); "another machine" is a PID namespace of its own (`unshare`, as root) or a
//! boot id of its own (`TANGLE_TEST_BOOT_ID`).

use std::ffi::OsStr;
use std::fs;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{
    CMD_TIMEOUT, PASSWORD, assert_stderr_has, bin, clean_command, run_code, run_code_saying,
    run_ok, stderr_str, stdout_str, tangle_bare, tangle_std, wait_until,
};
use crate::support::fsutil::files_under;
use crate::support::manifest::manifest;
use crate::support::remote_dirs::{DirItem, object_paths};
use crate::support::repo::{Client, Repo};
use crate::support::report::{expect_code, run_report};
use assert_cmd::Command;

/// Lock timings for the tests that wait for a lock to go stale: refresh every second,
/// lease 3 s, stale after 6 s watched (long enough that a loaded machine renews in time).
const FAST: (&str, &str) = ("TANGLE_TEST_LOCK_REFRESH_MS", "1000");

/// `tangle ARGS` in the background from `home`, with `env`, stopped by itself once it
/// holds its lock (or repair marker). Panics if it ends first.
fn stopped_holder(repo: &Repo, home: &Path, args: &[&str], env: &[(&str, &str)]) -> Child {
    let log = repo.path(&format!(
        "holder-{}.stderr",
        args.join("-").replace('/', "_")
    ));
    let mut cmd = tangle_std(home);
    cmd.arg("-r")
        .arg(&repo.remotes[0])
        .args(args)
        .env("TANGLE_TEST_STOP_AFTER_LOCK", "1")
        .stdout(Stdio::null())
        .stderr(fs::File::create(&log).expect("holder log"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("spawning the holder");
    let pid = child.id();
    wait_until(&mut child, &log, || is_stopped(pid));
    child
}

/// Whether process `pid` is stopped (state `T` in `/proc/PID/stat`).
fn is_stopped(pid: u32) -> bool {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    after.split_whitespace().next() == Some("T")
}

/// The processes whose parent is `pid`.
fn children(pid: u32) -> Vec<u32> {
    let parent = pid.to_string();
    (fs::read_dir("/proc").into_iter().flatten().flatten())
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|child| {
            let stat = fs::read_to_string(format!("/proc/{child}/stat")).unwrap_or_default();
            let after = stat.rsplit(')').next().unwrap_or("");
            after.split_whitespace().nth(1) == Some(parent.as_str())
        })
        .collect()
}

/// Let a stopped holder go on, and its exit code and stderr once it ends.
fn resume(mut child: Child, repo: &Repo, args: &[&str]) -> (i32, String) {
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGCONT) },
        0
    );
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("waiting for the holder") {
            break s;
        }
        assert!(started.elapsed() < CMD_TIMEOUT, "the holder did not end");
        std::thread::sleep(Duration::from_millis(5));
    };
    let log = repo.path(&format!(
        "holder-{}.stderr",
        args.join("-").replace('/', "_")
    ));
    (
        status.code().unwrap_or(-1),
        fs::read_to_string(log).unwrap_or_default(),
    )
}

/// `tangle -r remotes[0]` from `home` with the password, run through `wrapper` (a
/// command line that ends by running the program it is given, e.g. `unshare --pid
/// --fork --mount-proc`).
fn tangle_wrapped(repo: &Repo, home: &Path, wrapper: &[&str]) -> Command {
    let (program, pre) = wrapper.split_first().expect("a wrapper");
    let mut pre: Vec<&OsStr> = pre.iter().map(OsStr::new).collect();
    pre.push(OsStr::new(bin()));
    let mut c = clean_command(OsStr::new(program), &pre, home);
    c.env("TANGLE_PASSWORD", PASSWORD)
        .arg("-r")
        .arg(&repo.remotes[0]);
    c
}

/// Whether `wrapper true` works here (unshare needs root; faketime must be installed).
fn can_wrap(wrapper: &[&str]) -> bool {
    let ok = std::process::Command::new(wrapper[0])
        .args(&wrapper[1..])
        .arg("true")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipping: `{} true` does not work here", wrapper.join(" "));
    }
    ok
}

/// A repository with two snapshots of a small tree; the first one's id.
fn two_snapshots(repo: &Repo) -> (std::path::PathBuf, String) {
    let src = repo.dir("src");
    write_file(&src.join("a.bin"), &pseudo_random(1, 300_000));
    let first = repo.backup(&[&src], &[]).snapshot_id;
    write_file(&src.join("b.bin"), &pseudo_random(2, 300_000));
    repo.backup(&[&src], &[]);
    (src, first)
}

fn verify_read_data(repo: &Repo, want: i32, what: &str) {
    let (code, v) = run_report(
        repo.cmd_as(Client::via(1).no_password().fresh_home())
            .args(["verify", "--read-data", "--json"]),
        what,
    );
    expect_code(code, want, &v, what);
}

const PID_NAMESPACE: [&str; 4] = ["unshare", "--pid", "--fork", "--mount-proc"];

/// Issue 31, case 1: a lock's pid means nothing in another PID namespace, whatever the
/// host name says. A delete there (same host name, its own /proc) used to find the
/// backup's pid missing, call the lock stale and delete what the backup dedups against.
#[test]
fn a_backup_seen_from_another_pid_namespace_or_machine_holds_off_a_delete() {
    let repo = Repo::init();
    let (src, first) = two_snapshots(&repo);
    write_file(&src.join("c.bin"), &pseudo_random(3, 300_000));
    let backup = ["backup", "--no-progress", src.to_str().expect("UTF-8")];
    let holder = stopped_holder(&repo, &repo.home, &backup, &[]);
    let before = repo.remote_state();

    let mut refusals = Vec::new();
    if can_wrap(&PID_NAMESPACE) {
        refusals.push(run_code(
            tangle_wrapped(&repo, &repo.home, &PID_NAMESPACE).args(["delete", &first]),
            11,
        ));
    }
    // Another machine (a boot of its own), no root needed.
    refusals.push(run_code(
        repo.cmd_as(Client::via(0).fresh_home())
            .env("TANGLE_TEST_BOOT_ID", "another-machine")
            .args(["delete", &first]),
        11,
    ));
    for out in &refusals {
        let err = stderr_str(out);
        assert!(
            err.contains("repository busy")
                && err.contains(&format!("backup (pid {}", holder.id()))
                && err.contains("watched from here"),
            "{err}"
        );
        assert!(err.contains("--retry-lock"), "no way out offered: {err}");
    }
    assert_eq!(
        repo.remote_state(),
        before,
        "a refused delete changed something"
    );

    let (code, err) = resume(holder, &repo, &backup);
    assert_eq!(code, 0, "{err}");
    run_ok(repo.cmd().args(["delete", &first]));
    verify_read_data(&repo, 0, "verify after the backup and the delete");
    repo.assert_restore_matches(0, "latest", &src, &manifest(&src), "the held backup");
}

/// Issue 31, case 2: a holder whose clock is an hour behind writes a lock that looks an
/// hour old. Nobody compares clocks any more: a reader elsewhere watches it instead.
#[test]
fn a_holder_whose_clock_is_an_hour_behind_still_holds_its_lock() {
    let repo = Repo::init();
    let (src, first) = two_snapshots(&repo);
    write_file(&src.join("c.bin"), &pseudo_random(3, 300_000));
    let backup = ["backup", "--no-progress", src.to_str().expect("UTF-8")];
    let elsewhere_home = repo.fresh_home();
    let ids_before = repo.snapshot_ids();
    // The real thing where the tools are there: the backup under faketime, the delete on
    // another host name in another PID namespace. Else the testing feature's overrides.
    let faketime = ["faketime", "-f", "-1h"];
    let other_host = [
        "unshare",
        "--uts",
        "--pid",
        "--fork",
        "--mount-proc",
        "sh",
        "-c",
        "hostname elsewhere && exec \"$0\" \"$@\"",
    ];
    let real = can_wrap(&faketime) && can_wrap(&PID_NAMESPACE);
    let holder = if real {
        let log = repo.path("skewed.stderr");
        let mut cmd = std::process::Command::new("faketime");
        cmd.args(["-f", "-1h"])
            .arg(bin())
            .arg("-r")
            .arg(&repo.remotes[0])
            .args(backup)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &repo.home)
            .env("XDG_CACHE_HOME", repo.home.join("cache"))
            .env("TANGLE_PASSWORD", PASSWORD)
            .env("FAKETIME_DONT_FAKE_MONOTONIC", "1")
            .env("TANGLE_TEST_STOP_AFTER_LOCK", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(fs::File::create(&log).expect("log"));
        let mut child = cmd.spawn().expect("faketime");
        // faketime runs tangle as its child: wait for that one to stop.
        let pid = child.id();
        wait_until(&mut child, &log, || {
            children(pid).into_iter().any(is_stopped)
        });
        child
    } else {
        stopped_holder(
            &repo,
            &repo.home,
            &backup,
            &[("TANGLE_TEST_CLOCK_OFFSET_SECS", "-3600")],
        )
    };
    let out = if real {
        run_code(
            tangle_wrapped(&repo, &elsewhere_home, &other_host).args(["delete", &first]),
            11,
        )
    } else {
        run_code(
            repo.cmd_as(Client::via(0).fresh_home())
                .env("TANGLE_TEST_BOOT_ID", "another-machine")
                .args(["delete", &first]),
            11,
        )
    };
    let err = stderr_str(&out);
    assert!(
        err.contains("repository busy") && err.contains("backup (pid"),
        "{err}"
    );
    let (code, err) = if real {
        let mut holder = holder;
        for pid in children(holder.id()) {
            unsafe { libc::kill(pid as libc::pid_t, libc::SIGCONT) };
        }
        let status = holder.wait().expect("the skewed backup");
        (
            status.code().unwrap_or(-1),
            fs::read_to_string(repo.path("skewed.stderr")).unwrap_or_default(),
        )
    } else {
        resume(holder, &repo, &backup)
    };
    assert_eq!(code, 0, "{err}");
    run_ok(repo.cmd().args(["delete", &first]));
    verify_read_data(&repo, 0, "verify after the skewed backup and the delete");
    // Its snapshot is dated an hour back, so it is not `latest`: name it.
    let skewed = (repo.snapshot_ids().into_iter())
        .find(|id| !ids_before.contains(id))
        .expect("the skewed backup's snapshot");
    repo.assert_restore_matches(0, &skewed, &src, &manifest(&src), "the skewed backup");
}

/// Issue 31, case 3 and 5: a rebalance re-signs certificates as a delete does, and two
/// remote changes at once used to leave a config without one of them: remote changes are
/// exclusive, so each waits for the other (exit 11, naming the holder).
#[test]
fn remote_changes_are_alone_against_a_delete_and_each_other() {
    let repo = Repo::init();
    let (src, first) = two_snapshots(&repo);
    let delete = ["delete", first.as_str()];
    let holder = stopped_holder(&repo, &repo.home, &delete, &[]);
    let before = repo.remote_state();
    let fourth = repo.root.join("remote3");
    for args in [
        vec!["remote", "rebalance"],
        vec!["remote", "add", fourth.to_str().expect("UTF-8")],
        vec!["remote", "replace", "2", fourth.to_str().expect("UTF-8")],
    ] {
        let out = run_code(repo.cmd_as(Client::via(1).fresh_home()).args(&args), 11);
        let err = stderr_str(&out);
        assert!(
            err.contains("repository busy")
                && err.contains(&format!("delete (pid {}", holder.id())),
            "{args:?}: {err}"
        );
    }
    assert_eq!(
        repo.remote_state(),
        before,
        "a refused remote change changed something"
    );
    assert!(!fourth.join("config").exists());
    let (code, err) = resume(holder, &repo, &delete);
    assert_eq!(code, 0, "{err}");

    // Two `remote add` at once: the second waits for the first.
    let fifth = repo.root.join("remote4");
    let add = ["remote", "add", fourth.to_str().expect("UTF-8")];
    let holder = stopped_holder(&repo, &repo.home, &add, &[]);
    run_code_saying(
        repo.cmd_as(Client::via(1).fresh_home()).args([
            "remote",
            "add",
            fifth.to_str().expect("UTF-8"),
        ]),
        11,
        "remote add (pid",
    );
    let (code, err) = resume(holder, &repo, &add);
    assert_eq!(code, 0, "{err}");
    run_ok(repo.cmd_as(Client::via(1).fresh_home()).args([
        "remote",
        "add",
        fifth.to_str().expect("UTF-8"),
    ]));
    let list = stdout_str(&run_ok(
        repo.cmd_as(Client::via(0).fresh_home())
            .args(["remote", "list"]),
    ));
    for r in [&fourth, &fifth] {
        assert!(list.contains(r.to_str().expect("UTF-8")), "{list}");
    }
    verify_read_data(&repo, 0, "verify after the remote changes");
    repo.assert_restore_matches(
        0,
        "latest",
        &src,
        &manifest(&src),
        "after the remote changes",
    );
}

/// The remotes' state but for the directory repair markers come and go in.
fn state_without_markers(
    repo: &Repo,
) -> Vec<std::collections::BTreeMap<std::path::PathBuf, DirItem>> {
    let mut state = repo.remote_state();
    for s in &mut state {
        s.retain(|p, _| !p.starts_with("repairs"));
    }
    state
}

/// Shard files of the repository on remote `r`.
fn shard_files(dir: &Path) -> Vec<std::path::PathBuf> {
    files_under(&dir.join("shards"))
}

/// Issue 31, case 4: a password-less repair (CI's `verify --read-data || repair`) during
/// a delete used to write the old parity back under the delete's new certificates. It
/// now refuses while a delete holds its lock; and a repair that stalls past its lease
/// writes nothing once it wakes, while the delete, which waited for its marker to stop
/// changing, went ahead.
#[test]
fn a_password_less_repair_and_a_delete_never_write_at_once() {
    let repo = Repo::init();
    let (src, first) = two_snapshots(&repo);
    let lost = shard_files(&repo.remotes[2]);
    assert!(!lost.is_empty());
    for f in &lost {
        fs::remove_file(f).expect("removing a shard");
    }

    // A delete holds its lock: the repair refuses and writes nothing.
    let delete = ["delete", first.as_str()];
    let holder = stopped_holder(&repo, &repo.home, &delete, &[]);
    let before = state_without_markers(&repo);
    let out = run_code(
        repo.cmd_as(Client::via(1).no_password().fresh_home())
            .arg("repair"),
        11,
    );
    let err = stderr_str(&out);
    assert!(
        err.contains("repository busy") && err.contains(&format!("delete (pid {}", holder.id())),
        "{err}"
    );
    assert_eq!(
        state_without_markers(&repo),
        before,
        "the refused repair wrote"
    );
    let (code, err) = resume(holder, &repo, &delete);
    assert_eq!(code, 0, "{err}");

    // A repair stalls once it has announced itself; the delete waits for its marker to
    // stop changing, then goes ahead; the repair wakes past its lease and writes nothing.
    write_file(&src.join("c.bin"), &pseudo_random(4, 300_000));
    let third = repo.backup(&[&src], &[]).snapshot_id;
    let second = repo
        .snapshot_ids()
        .into_iter()
        .find(|s| *s != third)
        .expect("the second snapshot");
    for f in shard_files(&repo.remotes[2]) {
        fs::remove_file(f).expect("removing a shard");
    }
    let repair_home = repo.fresh_home();
    let mut cmd = tangle_std(&repair_home);
    cmd.env_remove("TANGLE_PASSWORD");
    let log = repo.path("stalled-repair.stderr");
    let mut repair = cmd
        .arg("-r")
        .arg(&repo.remotes[1])
        .arg("repair")
        .env("TANGLE_TEST_STOP_AFTER_LOCK", "1")
        .env(FAST.0, FAST.1)
        .stdout(Stdio::null())
        .stderr(fs::File::create(&log).expect("log"))
        .spawn()
        .expect("repair");
    let pid = repair.id();
    wait_until(&mut repair, &log, || is_stopped(pid));
    let out = run_ok(repo.cmd().env(FAST.0, FAST.1).args(["delete", &second]));
    assert_stderr_has(&out, "waiting for repair (pid");
    // Damage for the repair to find when it wakes (the delete may have rewritten what
    // was missing before).
    for f in shard_files(&repo.remotes[2]) {
        fs::remove_file(f).expect("removing a shard");
    }
    let after_delete = state_without_markers(&repo);
    assert_eq!(
        unsafe { libc::kill(repair.id() as libc::pid_t, libc::SIGCONT) },
        0
    );
    let status = repair.wait().expect("the stalled repair");
    let err = fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(status.code(), Some(11), "{err}");
    assert!(err.contains("lost the lock"), "{err}");
    assert_eq!(
        state_without_markers(&repo),
        after_delete,
        "the stalled repair wrote after its lease"
    );
    // What is left to repair, a repair now does; and every parity shard matches.
    run_ok(
        repo.cmd_as(Client::via(1).no_password().fresh_home())
            .arg("repair"),
    );
    verify_read_data(&repo, 0, "verify after the delete and the repairs");
    repo.assert_restore_matches(0, "latest", &src, &manifest(&src), "after the repairs");
}

/// A holder that stalls past its lease (a suspended laptop): a delete elsewhere that
/// watched its lock stay unchanged goes ahead (`--retry-lock` waits for that), and the
/// holder, on waking, writes nothing more and says so (exit 11): no snapshot that points
/// into what the delete removed.
#[test]
fn a_backup_stalled_past_its_lease_writes_no_snapshot_after_a_delete() {
    let repo = Repo::init();
    let (src, first) = two_snapshots(&repo);
    write_file(&src.join("c.bin"), &pseudo_random(3, 300_000));
    let backup = ["backup", "--no-progress", src.to_str().expect("UTF-8")];
    let holder = stopped_holder(&repo, &repo.home, &backup, &[FAST]);
    let snapshots_before = repo.snapshot_ids();

    // Without waiting: refused, with advice that works.
    let elsewhere = |c: &mut Command| {
        c.env("TANGLE_TEST_BOOT_ID", "another-machine")
            .env(FAST.0, FAST.1);
    };
    let mut cmd = repo.cmd_as(Client::via(0).fresh_home());
    elsewhere(&mut cmd);
    run_code(cmd.args(["delete", &first]), 11);
    // Waiting: the lock stays unchanged, goes stale, and the delete goes ahead.
    let mut cmd = repo.cmd_as(Client::via(0).fresh_home());
    elsewhere(&mut cmd);
    let out = run_ok(cmd.args(["--retry-lock", "2m", "delete", &first]));
    assert_stderr_has(&out, "waiting up to 2m");

    let (code, err) = resume(holder, &repo, &backup);
    assert_eq!(code, 11, "{err}");
    assert!(err.contains("lost the lock"), "{err}");
    let mut left = snapshots_before;
    left.retain(|s| *s != first);
    assert_eq!(
        repo.snapshot_ids(),
        left,
        "the stalled backup wrote a snapshot"
    );
    verify_read_data(&repo, 0, "verify after the stalled backup");
    let (code, v) = run_report(
        repo.cmd_as(Client::via(1).fresh_home())
            .args(["verify", "--read-data", "--json"]),
        "verify with the password",
    );
    expect_code(code, 0, &v, "verify with the password");
}

/// Issue 31, case 12: a dead holder's lock seen from another machine. `unlock` there
/// cannot tell it is dead yet: it says so, and what works (`--remove-all`).
#[test]
fn unlock_elsewhere_says_what_it_kept_and_what_works() {
    let repo = Repo::init();
    let (_src, first) = two_snapshots(&repo);
    let mut holder = stopped_holder(&repo, &repo.home, &["delete", &first], &[]);
    holder.kill().expect("killing the holder");
    holder.wait().expect("the killed holder");

    let elsewhere = repo.fresh_home();
    let unlock = |args: &[&str]| {
        let mut c = tangle_bare(&elsewhere);
        c.env("TANGLE_TEST_BOOT_ID", "another-machine")
            .arg("-r")
            .arg(&repo.remotes[0])
            .arg("unlock")
            .args(args);
        run_ok(&mut c)
    };
    let out = stdout_str(&unlock(&[]));
    assert!(
        out.contains("kept the lock of delete")
            && out.contains("--remove-all")
            && out.contains("0 locks removed"),
        "{out}"
    );
    let v: serde_json::Value =
        serde_json::from_slice(&unlock(&["--json"]).stdout).expect("unlock --json");
    assert_eq!(v["kept"].as_array().map(Vec::len), Some(1), "{v:#}");
    assert_eq!(v["removed"], serde_json::json!([]), "{v:#}");
    // On the holder's own machine the dead process's lock is stale at once.
    run_ok(repo.cmd().args(["delete", &first]));
    let out = stdout_str(&unlock(&["--remove-all"]));
    assert!(out.contains("removed the lock of delete"), "{out}");
    assert!(object_paths(&repo.remotes[0], "locks").is_empty());
}

/// A repair marker is unsigned, so a lying remote can plant one (junk, or a giant): it
/// holds a delete up only until it has been watched unchanged, then the delete goes
/// ahead and removes it.
#[test]
fn a_planted_repair_marker_holds_a_delete_up_only_briefly() {
    let repo = Repo::init();
    let (_src, first) = two_snapshots(&repo);
    let junk = repo.remotes[1].join(format!("repairs/{}", "ab".repeat(32)));
    write_file(&junk, b"tangle repair marker v1\npid 1\nhost planted\n");
    let giant = repo.remotes[2].join(format!("repairs/{}", "cd".repeat(32)));
    fs::create_dir_all(repo.remotes[2].join("repairs")).expect("repairs/");
    fs::File::create(&giant)
        .and_then(|f| f.set_len(1 << 30))
        .expect("a giant marker");
    let out = run_ok(repo.cmd().env(FAST.0, FAST.1).args(["delete", &first]));
    assert_stderr_has(&out, "waiting for");
    assert!(
        !junk.exists() && !giant.exists(),
        "the planted markers stayed"
    );
    verify_read_data(&repo, 0, "verify after the delete");
}
