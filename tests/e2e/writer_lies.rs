//! Remotes that lie to a writer key's backup (issue 35, DESIGN.md §17 and §14a), and a
//! granted writer that forges another's lock:
//!
//! * a remote that already holds other bytes under a name the writer is about to create
//!   (its create-only put answers "exists"): that write is not counted as done, the
//!   backup ends degraded on that remote alone (exit 0, the remote named), the honest
//!   remotes take the real object, the owner restores byte for byte, and `verify` names
//!   the lying remote;
//! * a forged `locks/<id>-end` for a writer's lock that is still held (signed by another
//!   granted writer, or the lock itself served as its end): an owner's `delete` from
//!   another machine still finds the lock held (exit 11) and names the remotes serving
//!   the forgery, `verify` reports it as a trust violation on those remotes, `repair`
//!   removes it, and the holder's own end, once written, does release the lock.
//!
//! Each writer run is caught at a known point by the `testing` hooks
//! (`TANGLE_TEST_STOP_BEFORE_CERTIFICATE`, `TANGLE_TEST_STOP_AFTER_LOCK`).

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use tangle::crypto::Signer;
use tangle::crypto::envelope::{ObjectKind, seal};
use tangle::crypto::writer::WriterKey;

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{
    resume_stopped, run_code, run_ok, spawn_stopped, stderr_str, tangle_std,
};
use crate::support::manifest::manifest;
use crate::support::remote_dirs::object_paths;
use crate::support::repo::{Client, Repo};
use crate::support::report::{
    expect_code, repair_actions, run_report, show_findings, verify_findings,
};

/// `writer add LABEL --out <root>/LABEL.key` as the owner; the key file.
fn add_writer(repo: &Repo, label: &str) -> PathBuf {
    let key = repo.path(&format!("{label}.key"));
    run_ok(repo.cmd().args(["writer", "add", label, "--out"]).arg(&key));
    key
}

/// `backup --json SRC` with the writer key `key` and no password, from the backup host's
/// HOME `home` (another machine: its own boot id), stdout to `out`.
fn writer_backup(
    repo: &Repo,
    home: &Path,
    key: &Path,
    src: &Path,
    out: &Path,
) -> std::process::Command {
    let mut c = tangle_std(home);
    c.env_remove("TANGLE_PASSWORD")
        .env("TANGLE_TEST_BOOT_ID", "the-backup-host")
        .arg("-r")
        .arg(&repo.remotes[0])
        .args(["backup", "--json", "--no-progress", "--writer-key"])
        .arg(key)
        .arg(src)
        .stdout(fs::File::create(out).expect("the backup's stdout"));
    c
}

/// `verify --json` without the password: its exit code and report.
fn verify(repo: &Repo, what: &str) -> (i32, Value) {
    run_report(
        repo.cmd_as(Client::via(0).no_password().fresh_home())
            .args(["verify", "--json"]),
        what,
    )
}

/// The findings of `report` about `path` on remote `url`.
fn findings_at(report: &Value, url: &str, path: &str) -> Vec<Value> {
    (verify_findings(report).into_iter())
        .filter(|f| f["remote"].as_str() == Some(url) && f["path"].as_str() == Some(path))
        .collect()
}

#[test]
fn a_remote_that_holds_other_bytes_under_a_writers_new_name_gets_no_credit_for_it() {
    let repo = Repo::init();
    let key = add_writer(&repo, "db");
    let src = repo.dir("src");
    write_file(&src.join("big"), &pseudo_random(21, 400_000));
    write_file(&src.join("sub/small"), b"small\n");
    let expected = manifest(&src);

    // The writer's run, caught once the shards of its first extent are stored and its
    // certificate is not: the certificate's name is the shards' directory.
    let (log, out) = (repo.path("writer.stderr"), repo.path("writer.json"));
    let home = repo.dir("writer-home");
    let mut backup = writer_backup(&repo, &home, &key, &src, &out);
    backup.env("TANGLE_TEST_STOP_BEFORE_CERTIFICATE", "1");
    let child = spawn_stopped(&mut backup, &log);
    let extents: Vec<String> = (object_paths(&repo.remotes[0], "shards").iter())
        .filter_map(|p| p.split('/').nth(1).map(str::to_string))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    // Usually one; the run's other extent may have been stored by another thread before
    // the stop. Any of them will get its certificate once the run goes on.
    assert!(!extents.is_empty(), "shards are stored before the stop");
    let cert = format!("extents/{}", extents[0]);

    // Remote 2 lies: it already holds, under that name, an object a stranger signed.
    let stranger = Signer::from_seed(&[0x5a; 32]);
    let forged = seal(
        ObjectKind::Extent,
        b"not this extent's certificate",
        &stranger,
    );
    let lying = repo.remotes[2].join(&cert);
    fs::create_dir_all(lying.parent().unwrap()).unwrap();
    fs::write(&lying, &forged).unwrap();

    let code = resume_stopped(child);
    let err = fs::read_to_string(&log).unwrap();
    assert_eq!(code, 0, "a degraded backup still succeeds: {err}");
    let report: Value = serde_json::from_slice(&fs::read(&out).unwrap()).unwrap();
    let degraded: Vec<&str> = (report["degraded_remotes"].as_array().unwrap().iter())
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(degraded.len(), 1, "{report:#}");
    assert!(
        degraded[0].starts_with(&format!("{}: ", repo.url(2))) && degraded[0].contains(&cert),
        "the lying remote and the name it lied about: {report:#}"
    );
    assert!(err.contains(&repo.url(2)), "stderr names the remote: {err}");
    for i in [0, 1] {
        assert!(!err.contains(&format!("{}:", repo.url(i))), "{i}: {err}");
    }
    let id = report["snapshot_id"].as_str().unwrap().to_string();

    // The honest remotes took the real certificate; the lying one kept its own bytes.
    let real = fs::read(repo.remotes[0].join(&cert)).unwrap();
    assert_eq!(fs::read(repo.remotes[1].join(&cert)).unwrap(), real);
    assert_ne!(real, forged);
    assert_eq!(fs::read(&lying).unwrap(), forged, "never overwritten");

    repo.assert_restore_matches(1, &id, &src, &expected, "the writer's snapshot");

    // verify names the lying remote where it serves the forgery (a trust violation).
    let (code, v) = verify(&repo, "verify after the lie");
    expect_code(code, 22, &v, "verify after the lie");
    let at = findings_at(&v, &repo.url(2), &cert);
    assert!(
        at.iter().any(|f| f["kind"] == "bad-signature"),
        "{}",
        show_findings(&v)
    );
    assert!(
        findings_at(&v, &repo.url(0), &cert).is_empty()
            && findings_at(&v, &repo.url(1), &cert).is_empty(),
        "{}",
        show_findings(&v)
    );
    // The owner's repair puts the real certificate there (and what the run left out).
    run_ok(repo.cmd().args(["repair"]));
    assert_eq!(fs::read(&lying).unwrap(), real);
    let (code, v) = verify(&repo, "verify after repair");
    expect_code(code, 0, &v, "verify after repair");
}

/// The names under `dir/locks`, sorted.
fn lock_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = (object_paths(dir, "locks").iter())
        .filter_map(|p| p.strip_prefix("locks/").map(str::to_string))
        .collect();
    names.sort();
    names
}

#[test]
fn a_forged_end_does_not_release_a_writers_lock_that_is_still_held() {
    let repo = Repo::init();
    let src = repo.dir("src");
    write_file(&src.join("a"), &pseudo_random(31, 200_000));
    let owners = repo.backup(&[&src], &[]).snapshot_id;
    let key_a = add_writer(&repo, "a");
    let key_b = add_writer(&repo, "b");
    write_file(&src.join("b"), &pseudo_random(32, 150_000));
    let expected = manifest(&src);

    // Writer a's backup, on the backup host, caught holding its lock.
    let (log, out) = (repo.path("a.stderr"), repo.path("a.json"));
    let home = repo.dir("a-home");
    let mut backup = writer_backup(&repo, &home, &key_a, &src, &out);
    backup.env("TANGLE_TEST_STOP_AFTER_LOCK", "1");
    let holder = spawn_stopped(&mut backup, &log);
    let names = lock_names(&repo.remotes[0]);
    assert_eq!(names.len(), 1, "{names:?}");
    let lock = format!("locks/{}", names[0]);
    let end = format!("{lock}-end");

    // Remote 1 serves an end that writer b signed (a granted writer: its signature is
    // good, but the lock is not its own); remote 2 serves a's own lock as its end (the
    // name says released, the text does not).
    let b = WriterKey::from_file_text(&fs::read_to_string(&key_b).unwrap()).unwrap();
    let text = format!(
        "tangle lock v2\nrepo {}\nid {}\nkind shared\nhost forger\npid 1\ncommand backup\n\
         since 0\nrefreshed 0\nbeat 1\nreleased 1\n",
        hex::encode(b.repo_id),
        names[0]
    );
    fs::write(
        repo.remotes[1].join(&end),
        seal(ObjectKind::Lock, text.as_bytes(), &b.signer()),
    )
    .unwrap();
    fs::copy(repo.remotes[2].join(&lock), repo.remotes[2].join(&end)).unwrap();

    // The owner, on another machine, cannot see the holder's process: only a real end
    // would let its delete go ahead. It is refused as for any held lock, and the
    // remotes serving the forgery are named.
    let delete = || {
        let mut c = repo.cmd_as(Client::via(0).fresh_home());
        c.env("TANGLE_TEST_BOOT_ID", "the-owners-laptop")
            .args(["delete", &owners]);
        c
    };
    let refused = run_code(&mut delete(), 11);
    let err = stderr_str(&refused);
    assert!(
        err.contains("repository busy") && err.contains("backup"),
        "{err}"
    );
    assert!(
        err.contains(&format!("ignoring a lock that is not authentic: {end}")),
        "{err}"
    );
    for i in [1, 2] {
        assert!(err.contains(&repo.url(i)), "remote {i} not named: {err}");
    }
    assert!(repo.snapshot_ids().contains(&owners), "deleted anyway");

    // verify: a trust violation on each remote that serves the forgery, and nowhere else.
    let (code, v) = verify(&repo, "verify with the forged ends");
    expect_code(code, 22, &v, "verify with the forged ends");
    for i in [1, 2] {
        let at = findings_at(&v, &repo.url(i), &end);
        assert!(
            at.iter().any(|f| f["kind"] == "bad-signature"),
            "remote {i}: {}",
            show_findings(&v)
        );
    }
    assert!(
        findings_at(&v, &repo.url(0), &end).is_empty(),
        "{}",
        show_findings(&v)
    );
    // repair (no password needed) removes both forgeries and nothing of the held lock.
    let (_, r) = run_report(
        repo.cmd_as(Client::via(0).no_password().fresh_home())
            .args(["repair", "--json"]),
        "repair",
    );
    let mut removed: Vec<(String, String)> = (repair_actions(&r).iter())
        .filter(|a| a["kind"] == "remove-bad-lock")
        .map(|a| {
            let field = |k: &str| a[k].as_str().unwrap_or_default().to_string();
            (field("remote"), field("path"))
        })
        .collect();
    removed.sort();
    let forgeries = vec![(repo.url(1), end.clone()), (repo.url(2), end.clone())];
    assert_eq!(removed, forgeries, "{r:#}");
    for (i, d) in repo.remotes.iter().enumerate() {
        assert_eq!(lock_names(d), vec![names[0].clone()], "remote {i}");
    }

    // The holder finishes: its own end releases the lock, and the delete goes ahead.
    let code = resume_stopped(holder);
    assert_eq!(code, 0, "{}", fs::read_to_string(&log).unwrap());
    let report: Value = serde_json::from_slice(&fs::read(&out).unwrap()).unwrap();
    assert_eq!(
        report["degraded_remotes"],
        serde_json::json!([]),
        "{report:#}"
    );
    let id = report["snapshot_id"].as_str().unwrap().to_string();
    run_ok(&mut delete());
    assert!(!repo.snapshot_ids().contains(&owners));
    for (i, d) in repo.remotes.iter().enumerate() {
        assert_eq!(lock_names(d), Vec::<String>::new(), "remote {i}");
    }
    repo.assert_restore_matches(2, &id, &src, &expected, "writer a's snapshot");
}
