//! Ctrl-C (SIGINT) and a service stop (SIGTERM) end a run at once with the documented
//! exit code (130; 143 for SIGTERM), after removing the run's lock from every remote:
//! other clients need not wait for it to go stale. What was being written is left as a
//! kill leaves it (tests/cli_interrupt.rs), so the next backup completes and restores.

mod common;

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use common::*;

/// Objects under `locks/` of a remote directory.
fn locks(remote: &Path) -> Vec<String> {
    object_paths(remote, "locks")
}

/// Start a backup of `src`, send `signal` once its lock is on the remotes and it is
/// writing shards, and return (exit code, stderr).
fn signalled_backup(repo: &Repo, src: &Path, signal: libc::c_int) -> (Option<i32>, String) {
    let log = repo.path(&format!("backup-{signal}.stderr"));
    let mut child = repo.spawn_backup(src, &[], &log);
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waiting for tangle") {
            panic!(
                "the backup ended ({status}) before the signal was sent:\n{}",
                fs::read_to_string(&log).unwrap_or_default()
            );
        }
        let writing = repo.remotes.iter().all(|r| !locks(r).is_empty())
            && !object_paths(&repo.remotes[0], "shards").is_empty();
        if writing {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the backup took no lock"
        );
        // Polling interval, not synchronisation: the remotes are re-read until they change.
        std::thread::sleep(Duration::from_micros(200));
    }
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
    let status = child.wait().expect("waiting for the signalled tangle");
    (status.code(), fs::read_to_string(&log).unwrap_or_default())
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
