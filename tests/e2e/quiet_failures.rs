//! Failures that used to pass in silence: a rolled-back state listed or restored as if
//! current, a backup into a vanished (unmounted) local remote, and verify aborting when
//! the key files cannot be read. Each now says so, with its documented code.

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{
    assert_stderr_has, assert_stderr_lacks, assert_stdout_has, run_code, run_ok, stderr_str,
    stdout_str,
};
use crate::support::fsutil::copy_tree;
use crate::support::manifest::{assert_tree_matches, manifest};
use crate::support::remote_dirs::{flip_bytes, object_paths, replace_dir};
use crate::support::repo::{Client, Repo, restored_path};
use crate::support::report::{assert_has_finding, expect_code, json_ok, run_json, run_report};
use std::fs;

/// Every remote rolled back to the state before the latest backup (a restored disk
/// image, a provider's snapshot): `snapshots` and `restore` still work on what is there
/// but warn that this client saw a newer state, in text and in `--json`.
#[test]
fn snapshots_and_restore_warn_about_an_older_state_than_seen() {
    let (repo, src) = Repo::with_source("a.txt", b"first\n");
    let expected_first = manifest(&src);
    repo.backup(&[&src], &[]);
    let old = repo.dir("old-state");
    for (i, r) in repo.remotes.iter().enumerate() {
        copy_tree(r, &old.join(i.to_string()));
    }
    write_file(&src.join("a.txt"), b"second\n");
    repo.backup(&[&src], &[]);
    for (i, r) in repo.remotes.iter().enumerate() {
        replace_dir(r, &old.join(i.to_string()));
    }

    let out = run_ok(repo.cmd().arg("snapshots"));
    assert_stdout_has(&out, "1 snapshots");
    assert!(
        stderr_str(&out).contains("older state than this client last saw"),
        "snapshots says nothing about the rollback:\n{}",
        stderr_str(&out)
    );
    let v = json_ok(repo.cmd().args(["snapshots", "--json"]), "snapshots --json");
    assert_eq!(v[0]["repository_stale"], true, "{v:#}");

    let target = repo.path("restored");
    let (code, v, out) = run_json(
        repo.cmd()
            .args(["restore", "latest", "--json", "--target"])
            .arg(&target),
        "restore --json of a rolled-back state",
    );
    assert_eq!(code, 0, "{}", stderr_str(&out));
    assert!(
        v["warnings"].as_array().is_some_and(|w| w.iter().any(|m| m
            .as_str()
            .is_some_and(|m| m.contains("older state than this client last saw")))),
        "restore --json has no warning about the rollback:\n{v:#}"
    );
    assert_stderr_has(&out, "older state");
    assert_tree_matches(
        &expected_first,
        &restored_path(&target, &src),
        "rolled-back restore",
    );

    // A sound state says nothing.
    let fresh = Repo::init();
    fresh.backup(&[&src], &[]);
    let out = run_ok(fresh.cmd().arg("snapshots"));
    assert_stderr_lacks(&out, "older state");
    let v = json_ok(
        fresh.cmd().args(["snapshots", "--json"]),
        "snapshots --json",
    );
    assert_eq!(v[0]["repository_stale"], false, "{v:#}");
}

/// A local remote whose directory vanished (an unmounted disk) is down, not recreated
/// empty: the backup succeeds degraded with a warning naming it, the directory stays
/// absent, and `repair` rebuilds it later.
#[test]
fn a_vanished_local_remote_is_down_not_recreated() {
    let (repo, src) = Repo::with_source("a.bin", &pseudo_random(8, 300_000));
    let expected = manifest(&src);
    let away = repo.path("unmounted");
    fs::rename(&repo.remotes[2], &away).unwrap();

    let out = run_ok(repo.cmd().args(["backup", "--json"]).arg(&src));
    assert!(
        !repo.remotes[2].exists(),
        "the backup recreated the vanished remote"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let degraded = v["degraded_remotes"].to_string();
    assert!(
        degraded.contains(&repo.url(2)) && degraded.contains("missing"),
        "the report does not name the vanished remote as degraded:\n{v:#}"
    );
    let out = run_ok(repo.cmd().arg("backup").arg(&src));
    assert!(
        stderr_str(&out).contains(&repo.url(2)),
        "no warning names the vanished remote:\n{}",
        stderr_str(&out)
    );
    assert!(!repo.remotes[2].exists(), "the second backup recreated it");

    // The disk comes back; repair fills in what it missed.
    fs::rename(&away, &repo.remotes[2]).unwrap();
    run_ok(repo.cmd_as(Client::via(0).no_password()).arg("repair"));
    run_ok(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "--read-data"]),
    );
    let target = repo.path("restored");
    run_ok(
        repo.cmd_as(Client::via(2))
            .args(["restore", "latest", "--target"])
            .arg(&target),
    );
    assert_tree_matches(&expected, &restored_path(&target, &src), "after repair");
}

/// A local remote that was wiped, directory and all: the backup's warning says that
/// `repair` recreates it (not `mkdir`), and `repair` does, filling it (exit 0).
#[test]
fn a_wiped_local_remote_is_recreated_by_repair_as_the_warning_says() {
    let (repo, src) = Repo::with_snapshot_of("a.bin", &pseudo_random(9, 200_000));
    fs::remove_dir_all(&repo.remotes[1]).unwrap();

    let out = run_ok(repo.cmd().arg("backup").arg(&src));
    let err = stderr_str(&out);
    let warning = err
        .lines()
        .find(|l| l.contains(&repo.url(1)) && l.contains("is missing"))
        .unwrap_or_else(|| panic!("no warning names the wiped remote:\n{err}"));
    assert!(
        warning.contains("only `tangle repair` recreates it") && !warning.contains("mkdir"),
        "the warning does not lead to repair: {warning}"
    );
    assert!(!repo.remotes[1].exists(), "the backup recreated it");

    let out = run_ok(
        repo.cmd_as(Client::via(0).no_password())
            .args(["repair", "--json"]),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["actions"]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x["kind"] == "create-remote")),
        "repair made no create-remote action: {v:#}"
    );
    assert!(repo.remotes[1].join("config").is_file());
    run_ok(
        repo.cmd_as(Client::via(1).no_password())
            .args(["verify", "--read-data"]),
    );
}

/// `verify` with the password, when no key file can be read anywhere: not an abort
/// (exit 1) but the damage, reported with its code (21: the keys are lost).
#[test]
fn verify_with_password_reports_unreadable_keys() {
    let (repo, _) = Repo::with_snapshot_of("a.txt", b"keys\n");
    for r in &repo.remotes {
        for key in object_paths(r, "keys") {
            flip_bytes(&r.join(key));
        }
    }
    let (code, v) = run_report(repo.cmd().args(["verify", "--json"]), "verify --json");
    expect_code(code, 21, &v, "verify with password and unreadable keys");
    assert_has_finding(&v, "keys-unreadable", "verify");
    let out = run_code(repo.cmd().arg("verify"), 21);
    assert!(
        stdout_str(&out).contains("key"),
        "the text report does not mention the keys:\n{}",
        stdout_str(&out)
    );
    // Without the password the same damage shows (the key copies are corrupt).
    run_code(repo.cmd_as(Client::via(0).no_password()).arg("verify"), 21);
}
