//! Ctrl-C (SIGINT) and a service stop (SIGTERM) end a run at once with the documented
//! exit code (130; 143 for SIGTERM), after removing the run's lock from every remote:
//! other clients need not wait for it to go stale. What was being written is left as a
//! kill leaves it (`interrupt`), so the next backup completes and restores.

use crate::shared::files::{pseudo_random, write_file};
use crate::shared::servers::{self, sftp_server, sftp_server_command};
use crate::support::command::{SERVER_ENV, run_ok, tangle_std, three_s3_remotes, wait_until};
use crate::support::manifest::manifest;
use crate::support::remote_dirs::object_paths;
use crate::support::repo::{Client, Repo};
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

/// Objects under `locks/` of a remote directory.
fn locks(remote: &Path) -> Vec<String> {
    object_paths(remote, "locks")
}

/// Start a backup of `src`, send `signal` once its lock is on the remotes and it is
/// writing shards, and return (exit code, stderr).
fn signalled_backup(repo: &Repo, src: &Path, signal: libc::c_int) -> (Option<i32>, String) {
    let log = repo.path(&format!("backup-{signal}.stderr"));
    let child = repo.spawn_backup(src, &[], &log);
    signal_when(child, &log, signal, || {
        repo.remotes.iter().all(|r| !locks(r).is_empty())
            && !object_paths(&repo.remotes[0], "shards").is_empty()
    })
}

/// Send `signal` to `child` once `writing()` says so; return (exit code, stderr from
/// the file `log`).
fn signal_when(
    mut child: std::process::Child,
    log: &Path,
    signal: libc::c_int,
    writing: impl Fn() -> bool,
) -> (Option<i32>, String) {
    wait_until(&mut child, log, writing);
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
    let signalled = Instant::now();
    let status = child.wait().expect("waiting for the signalled tangle");
    // Each lock removal waits at most 5 s: well inside this, whatever a remote does.
    assert!(
        signalled.elapsed() < Duration::from_secs(30),
        "the run took {:?} to stop after the signal",
        signalled.elapsed()
    );
    (status.code(), fs::read_to_string(log).unwrap_or_default())
}

#[test]
fn sigint_and_sigterm_end_a_backup_with_its_code_and_remove_its_lock() {
    let repo = Repo::init();
    let src = repo.dir("src");
    for i in 0..5 {
        write_file(
            &src.join(format!("big-{i}.bin")),
            &pseudo_random(i, 16 << 20),
        );
    }
    for (signal, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let (exit, stderr) = signalled_backup(&repo, &src, signal);
        assert_eq!(exit, Some(code), "signal {signal}: stderr:\n{stderr}");
        assert!(
            stderr.contains("tangle: interrupted"),
            "signal {signal}: stderr:\n{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        for r in &repo.remotes {
            assert_eq!(
                locks(r),
                Vec::<String>::new(),
                "signal {signal}: lock left on {}",
                r.display()
            );
        }
    }
    // The next backup completes, and restores identically.
    let expected = manifest(&src);
    let report = repo.backup(&[&src], &[]);
    repo.assert_restore_matches(0, &report.snapshot_id, &src, &expected, "after the signals");
}

/// The same over three S3 remotes (the lock is an object on each): Ctrl-C in the middle
/// of a backup removes it from all three.
#[test]
fn sigint_removes_the_lock_from_s3_remotes() {
    let Some(urls) = three_s3_remotes("cli-signals", "signals") else {
        return;
    };
    let repo = Repo::uninit();
    let tangle = || {
        let mut c = tangle_std(&repo.home);
        for v in SERVER_ENV {
            if let Some(value) = std::env::var_os(v) {
                c.env(v, value);
            }
        }
        c
    };
    let mut init = tangle();
    init.arg("init");
    for u in &urls {
        init.args(["--remote", u]);
    }
    assert!(init.output().expect("init").status.success());
    // Enough data that the backup is still uploading when the test has seen it start
    // (each look lists the remotes: 0.1-0.5 s on a loaded machine).
    let src = repo.dir("src");
    for i in 0..6 {
        write_file(
            &src.join(format!("big-{i}.bin")),
            &pseudo_random(10 + i, 16 << 20),
        );
    }
    let remotes: Vec<_> = urls
        .iter()
        .map(|u| tangle::remote::open(u).expect("open S3 remote"))
        .collect();
    let rt = servers::runtime();
    let count = |prefix: &str| -> Vec<usize> {
        let lists = remotes.iter().map(|r| r.list(prefix));
        (rt.block_on(futures::future::join_all(lists)).into_iter())
            .map(|l| l.map_or(0, |l| l.len()))
            .collect()
    };
    let log = repo.path("backup.stderr");
    let child = tangle()
        .args(["-r", &urls[0], "backup", "--no-progress"])
        .arg(&src)
        .stdout(std::process::Stdio::null())
        .stderr(fs::File::create(&log).unwrap())
        .spawn()
        .expect("spawning tangle backup");
    let (exit, stderr) = signal_when(child, &log, libc::SIGINT, || {
        count("locks/").iter().all(|&n| n > 0) && count("shards/")[0] > 0
    });
    assert_eq!(exit, Some(130), "stderr:\n{stderr}");
    assert_eq!(
        count("locks/"),
        vec![0, 0, 0],
        "locks left; stderr:\n{stderr}"
    );
}

/// A remote that stops answering cannot hold up the way out: with one of three remotes
/// stalled (an SFTP "server" that keeps the connection and never speaks, timeout 1 s),
/// Ctrl-C in the middle of a backup still exits 130 within a few seconds and removes
/// the lock from the two remotes that answer.
#[test]
fn sigint_with_a_stalled_remote_exits_in_bounded_time() {
    let Some(sftp_server) = sftp_server() else {
        return;
    };
    let repo = Repo::uninit();
    let sftp_dir = repo.dir("sftp-remote");
    let sftp_url = format!("sftp://localhost{}", sftp_dir.display());
    let profile = |name: &str, ssh_command: String| {
        let path = repo.path(&format!("{name}.toml"));
        write_file(
            &path,
            format!("[remote.\"{sftp_url}\"]\nssh_command = \"{ssh_command}\"\ntimeout = 1\n")
                .as_bytes(),
        );
        path
    };
    let good = profile("good", sftp_server_command(sftp_server));
    let stalled = profile("stalled", "sh -c 'exec sleep 60' --".to_string());
    run_ok(
        repo.cmd_as(Client::no_repo())
            .arg("-P")
            .arg(&good)
            .args(["init", "--remote"])
            .arg(&repo.remotes[0])
            .arg("--remote")
            .arg(&repo.remotes[1])
            .args(["--remote", &sftp_url]),
    );
    let src = repo.dir("src");
    for i in 0..5 {
        write_file(
            &src.join(format!("big-{i}.bin")),
            &pseudo_random(40 + i, 16 << 20),
        );
    }
    let log = repo.path("stalled.stderr");
    let child = tangle_std(&repo.home)
        .arg("-P")
        .arg(&stalled)
        .arg("-r")
        .arg(&repo.remotes[0])
        .args(["backup", "--no-progress"])
        .arg(&src)
        .stdout(std::process::Stdio::null())
        .stderr(fs::File::create(&log).unwrap())
        .spawn()
        .expect("spawning tangle backup");
    let answering = &repo.remotes[..2];
    let (exit, stderr) = signal_when(child, &log, libc::SIGINT, || {
        answering.iter().all(|r| !locks(r).is_empty())
            && !object_paths(&repo.remotes[0], "shards").is_empty()
    });
    assert_eq!(exit, Some(130), "stderr:\n{stderr}");
    for r in answering {
        assert_eq!(
            locks(r),
            Vec::<String>::new(),
            "lock left on {}",
            r.display()
        );
    }
}
