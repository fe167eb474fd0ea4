//! Locks between backups and deletes: a live holder makes the other side wait (exit 11,
//! naming it), a dead one's lock goes stale, and a lock a remote planted (signed with
//! a key of its own, or junk) never makes anyone wait: it is warned about, reported by
//! `verify` on that remote, and removed by `repair` and `unlock`.

use std::fs;

use crate::shared::files::{mkfifo, pseudo_random, write_file};
use crate::support::command::{assert_stdout_has, run_code, run_ok, stderr_str, wait_until};
use crate::support::manifest::manifest;
use crate::support::remote_dirs::object_paths;
use crate::support::repo::{Client, Repo};
use crate::support::report::{
    expect_code, finding_kind, json_ok, repair_actions, run_report, show_findings, verify_findings,
};
use tangle::crypto::Signer;
use tangle::crypto::envelope::{self, ObjectKind};
use tangle::repo::Config;

/// Objects under `locks/` of each remote directory.
pub(crate) fn locks(repo: &Repo) -> Vec<Vec<String>> {
    repo.remotes
        .iter()
        .map(|r| object_paths(r, "locks"))
        .collect()
}

/// A backup running in the background, stopped (`SIGSTOP`) once its lock is on every
/// remote: a live holder, whatever the machine's speed.
pub(crate) fn stopped_backup(repo: &Repo) -> std::process::Child {
    let big = repo.dir("big");
    for i in 0..3 {
        write_file(
            &big.join(format!("b-{i}.bin")),
            &pseudo_random(40 + i, 16 << 20),
        );
    }
    let log = repo.path("held-backup.stderr");
    let mut child = repo.spawn_backup(&big, &[], &log);
    wait_until(&mut child, &log, || {
        locks(repo).iter().all(|l| !l.is_empty())
    });
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGSTOP) },
        0
    );
    child
}

#[test]
fn a_live_backups_lock_makes_delete_wait_and_a_dead_ones_goes_stale() {
    let (repo, src) = Repo::with_source("f.txt", b"one\n");
    let id = repo.backup(&[&src], &[]).snapshot_id;
    write_file(&src.join("f.txt"), b"two\n");
    repo.backup(&[&src], &[]);

    let mut held = stopped_backup(&repo);
    let before = repo.remote_state();
    let out = run_code(repo.cmd().args(["delete", &id]), 11);
    let err = stderr_str(&out);
    assert!(
        err.contains("busy") && err.contains(&format!("backup (pid {}", held.id())),
        "{err}"
    );
    assert_eq!(
        repo.remote_state(),
        before,
        "a delete refused as busy changed something"
    );
    // Backups do not block each other.
    repo.backup(&[&src], &[]);

    // The holder dies: its lock stays, stale (its process is gone), and is ignored.
    held.kill().expect("killing the held backup");
    held.wait().expect("waiting for the killed backup");
    assert!(
        locks(&repo).iter().all(|l| l.len() == 1),
        "{:?}",
        locks(&repo)
    );
    repo.backup(&[&src], &[]);
    let out = run_ok(repo.cmd_as(Client::via(0).no_password()).arg("unlock"));
    assert_stdout_has(&out, "removed the lock of backup");
    assert_eq!(locks(&repo), vec![Vec::<String>::new(); 3]);
    run_ok(repo.cmd().args(["delete", &id]));
    // Nothing of the locks stays behind after the commands.
    assert_eq!(locks(&repo), vec![Vec::<String>::new(); 3]);
    let (code, v) = run_report(
        repo.cmd_as(Client::via(1).no_password())
            .args(["verify", "--read-data", "--json"]),
        "verify after the delete",
    );
    expect_code(code, 0, &v, "verify after the delete");
}

/// An exclusive "delete" lock refreshed far in the future, in an envelope signed by
/// `signer`, naming repository `repo_id` and its own path.
fn planted_lock(path: &str, repo_id: &[u8; 16], signer: &Signer) -> Vec<u8> {
    let text = format!(
        "tangle lock v2\nrepo {}\nid {}\nkind exclusive\nhost elsewhere\npid 1\ncommand delete\nsince 0\nrefreshed 4102444800\n",
        hex::encode(repo_id),
        path.trim_start_matches("locks/")
    );
    envelope::seal(ObjectKind::Lock, text.as_bytes(), signer)
}

#[test]
fn a_planted_lock_makes_no_one_wait_and_verify_names_its_remote() {
    let (repo, src) = Repo::with_source("a.bin", &pseudo_random(1, 200_000));
    let first = repo.backup(&[&src], &[]).snapshot_id;
    let config = Config::from_object(&fs::read(repo.remotes[0].join("config")).unwrap()).unwrap();
    // Remote 1 plants an exclusive lock signed with a key of its own; remote 2 serves junk
    // under a lock's name.
    let forged = format!("locks/{}", "ab".repeat(32));
    let junk = format!("locks/{}", "cd".repeat(32));
    let attacker = Signer::from_seed(&[0x66; 32]);
    let plant = || {
        write_file(
            &repo.remotes[1].join(&forged),
            &planted_lock(&forged, &config.id, &attacker),
        );
        write_file(
            &repo.remotes[2].join(&junk),
            b"tangle lock v1\nkind exclusive\n",
        );
    };
    plant();

    // A backup and a delete go ahead, warning about both and naming who served them.
    write_file(&src.join("b.bin"), &pseudo_random(2, 200_000));
    for args in [&["backup", "--no-progress"][..], &["delete", &first]] {
        let mut cmd = repo.cmd();
        cmd.args(args);
        if args[0] == "backup" {
            cmd.arg(&src);
        }
        let out = run_ok(&mut cmd);
        let err = stderr_str(&out);
        for (path, remote) in [(&forged, 1), (&junk, 2)] {
            let warnings = err
                .lines()
                .filter(|l| l.contains("not authentic") && l.contains(path.as_str()))
                .collect::<Vec<_>>();
            assert!(
                warnings.len() == 1 && warnings[0].contains(&repo.url(remote)),
                "{args:?}: not one warning naming {path} on {}:\n{err}",
                repo.url(remote)
            );
        }
    }
    // The honest remotes never got either.
    for r in [0, 2] {
        assert!(!repo.remotes[r].join(&forged).exists());
    }
    assert!(!repo.remotes[0].join(&junk).exists() && !repo.remotes[1].join(&junk).exists());

    // verify (no password, as in CI) names the planting remote: a trust violation.
    let v = verify_from_fresh_client(&repo, 22, "verify with planted locks");
    let findings = verify_findings(&v);
    let about = |path: &str| -> Vec<&serde_json::Value> {
        findings.iter().filter(|f| f["path"] == path).collect()
    };
    let f = about(&forged);
    assert!(
        f.len() == 1 && finding_kind(f[0]) == "bad-signature" && f[0]["remote"] == repo.url(1),
        "{}",
        show_findings(&v)
    );
    let f = about(&junk);
    assert!(
        f.len() == 1 && f[0]["severity"] != "trust" && f[0]["remote"] == repo.url(2),
        "{}",
        show_findings(&v)
    );

    // repair removes both from the remotes that served them; verify is clean again.
    let (code, v) = run_report(
        repo.cmd_as(Client::via(0).no_password().fresh_home())
            .args(["repair", "--json"]),
        "repair of planted locks",
    );
    assert_eq!(code, 0, "{v:#}");
    let removed: Vec<(String, String)> = repair_actions(&v)
        .iter()
        .filter(|a| a["kind"] == "remove-bad-lock")
        .map(|a| {
            (
                a["path"].as_str().unwrap_or("").to_string(),
                a["remote"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        removed.len(),
        2,
        "{:?}: {}",
        removed,
        serde_json::to_string_pretty(&v).unwrap()
    );
    assert!(removed.contains(&(forged.clone(), repo.url(1))));
    assert!(removed.contains(&(junk.clone(), repo.url(2))));
    assert_eq!(locks(&repo), vec![Vec::<String>::new(); 3]);
    verify_from_fresh_client(&repo, 0, "verify after repair");

    // `unlock` removes them too, and says which.
    plant();
    let v = json_ok(
        repo.cmd_as(Client::via(0).no_password())
            .args(["unlock", "--json"]),
        "unlock of planted locks",
    );
    let mut gone: Vec<&str> = (v["not_authentic"].as_array())
        .map(|a| a.iter().filter_map(|p| p.as_str()).collect())
        .unwrap_or_default();
    gone.sort();
    assert_eq!(gone, vec![forged.as_str(), junk.as_str()], "{v:#}");
    assert_eq!(v["removed"], serde_json::json!([]), "{v:#}");
    assert_eq!(locks(&repo), vec![Vec::<String>::new(); 3]);
    repo.assert_restore_matches(0, "latest", &src, &manifest(&src), "after planted locks");
}

/// A FIFO and a 1 GiB sparse file among a remote's locks: no command waits on them or
/// reads them whole, and a backup goes ahead. The giant is a lock copy refused for its
/// size: verify names its remote (repairable) and repair removes it. The FIFO is no
/// object at all (a local remote lists regular files only), so nothing reads it.
#[test]
fn a_fifo_or_giant_lock_holds_no_one_up() {
    let (repo, src) = Repo::with_snapshot_of("a.bin", &pseudo_random(3, 100_000));
    let fifo = format!("locks/{}", "ef".repeat(32));
    let giant = format!("locks/{}", "01".repeat(32));
    fs::create_dir_all(repo.remotes[1].join("locks")).unwrap();
    mkfifo(&repo.remotes[1].join(&fifo));
    fs::File::create(repo.remotes[1].join(&giant))
        .unwrap()
        .set_len(1 << 30)
        .unwrap();

    let started = std::time::Instant::now();
    write_file(&src.join("b.bin"), &pseudo_random(4, 100_000));
    repo.backup(&[&src], &[]);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "the backup was held up"
    );
    let v = verify_from_fresh_client(&repo, 20, "verify with a FIFO and a giant lock");
    assert!(
        verify_findings(&v)
            .iter()
            .any(|f| f["path"] == giant.as_str() && f["remote"] == repo.url(1)),
        "verify does not name {giant} on remote 1:\n{}",
        show_findings(&v)
    );
    let (code, v) = run_report(
        repo.cmd_as(Client::via(0).no_password().fresh_home())
            .args(["repair", "--json"]),
        "repair of a FIFO and a giant lock",
    );
    assert_eq!(code, 0, "{v:#}");
    assert!(!repo.remotes[1].join(&giant).exists());
    verify_from_fresh_client(&repo, 0, "verify after the repair");
}

/// `verify --json` without the password from a client with no cache, as CI runs it;
/// its report, after checking that it exits `want`.
fn verify_from_fresh_client(repo: &Repo, want: i32, what: &str) -> serde_json::Value {
    let (code, v) = run_report(
        repo.cmd_as(Client::via(0).no_password().fresh_home())
            .args(["verify", "--json"]),
        what,
    );
    expect_code(code, want, &v, what);
    v
}
