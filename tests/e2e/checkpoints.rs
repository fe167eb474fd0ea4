//! A run's index in bounded segments, and checkpoints that keep an interrupted run's work.
//!
//! Readers refuse an index object over 256 MiB (about 6.5 million blobs), so a run of
//! more blobs, and `delete`'s consolidated index of a large repository, must be written
//! as several segments, each committed by a head of its own. The testing build's
//! `TANGLE_TEST_SEGMENT_BLOBS` lowers the bound to a few dozen blobs, so a few hundred KiB
//! of data (64 KiB test extents) make a run of several segments. A long backup also
//! commits what it has stored along the way (a checkpoint), so that a run killed part way
//! keeps it: the next run does not upload it again.

use std::path::Path;

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{run_ok, spawn_stopped, tangle_std};
use crate::support::manifest::manifest;
use crate::support::remote_dirs::object_paths;
use crate::support::repo::{Client, Repo};
use crate::support::report::{expect_code, run_report, verify_findings};

/// Blobs a segment may hold in these tests (a 64 KiB test extent holds about 16).
const SEGMENT_BLOBS: &str = "40";

fn init_small() -> Repo {
    Repo::init_small_extents()
}

/// `index/` objects on every remote (each holds every one).
fn segments(repo: &Repo) -> usize {
    let n = object_paths(&repo.remotes[0], "index").len();
    for r in &repo.remotes[1..] {
        assert_eq!(object_paths(r, "index").len(), n, "{}", r.display());
    }
    n
}

fn heads(repo: &Repo) -> usize {
    object_paths(&repo.remotes[0], "heads").len()
}

/// `verify` without the password through remote 2 must be clean: every segment
/// committed, nothing left over.
fn assert_verify_clean(repo: &Repo, what: &str) {
    let (code, v) = run_report(
        repo.cmd_as(Client::via(2).no_password().fresh_home())
            .args(["verify", "--read-data", "--json"]),
        what,
    );
    expect_code(code, 0, &v, what);
    assert!(verify_findings(&v).is_empty(), "{what}: {v:#}");
}

fn snapshot_id(report: &serde_json::Value) -> String {
    let id = report["snapshot_id"].as_str();
    id.unwrap_or_else(|| panic!("no snapshot id: {report:#}"))
        .to_string()
}

fn backup_bounded(repo: &Repo, src: &Path) -> serde_json::Value {
    let out = run_ok(
        repo.cmd()
            .env("TANGLE_TEST_SEGMENT_BLOBS", SEGMENT_BLOBS)
            .args(["backup", "--json", "--no-progress"])
            .arg(src),
    );
    serde_json::from_slice(&out.stdout).expect("backup --json")
}

/// A backup of about 170 blobs with room for 40 in a segment writes several segments,
/// each with its head; a client with an empty cache loads them all (restore through
/// another remote is identical), the next backup dedups against all of them, and
/// `delete`'s consolidated index is split the same way.
#[test]
fn a_run_of_more_blobs_than_a_segment_holds_commits_several_that_all_load() {
    let repo = init_small();
    let src = repo.dir("src");
    write_file(&src.join("big.bin"), &pseudo_random(7, 500_000));
    for i in 0..40 {
        write_file(
            &src.join(format!("small/{i}.txt")),
            format!("file {i}\n").as_bytes(),
        );
    }
    let expected = manifest(&src);
    let first = backup_bounded(&repo, &src);
    let blobs = first["blobs_added"].as_u64().expect("blobs_added");
    assert!(blobs > 120, "{first:#}");
    let (segments_1, heads_1) = (segments(&repo), heads(&repo));
    assert!(
        segments_1 >= 3,
        "{blobs} blobs at 40 a segment, {segments_1} segments"
    );
    assert!(
        heads_1 >= segments_1,
        "{heads_1} heads, {segments_1} segments"
    );
    let id = snapshot_id(&first);
    repo.assert_restore_matches(1, &id, &src, &expected, "restore from an empty cache");
    assert_verify_clean(&repo, "verify after the backup");

    // Every segment counts: an unchanged file is found unchanged, and a changed one's
    // chunks are deduplicated against all of them (only new trees are stored).
    let again = backup_bounded(&repo, &src);
    assert_eq!(again["files_unchanged"], 41, "{again:#}");
    std::fs::write(src.join("big.bin"), pseudo_random(7, 500_000)).expect("rewrite");
    let touched = backup_bounded(&repo, &src);
    assert_eq!(touched["files_changed"], 1, "{touched:#}");
    assert!(
        touched["bytes_added"].as_u64().expect("bytes_added") < 10_000,
        "{touched:#}"
    );
    write_file(&src.join("new.txt"), b"one more\n");
    let third = backup_bounded(&repo, &src);
    assert!(
        third["bytes_added"].as_u64().expect("bytes_added") < 10_000,
        "{third:#}"
    );

    // delete rewrites the whole index: in bounded segments too.
    run_ok(
        repo.cmd()
            .env("TANGLE_TEST_SEGMENT_BLOBS", SEGMENT_BLOBS)
            .args(["delete", "--keep-last", "1"]),
    );
    assert!(
        segments(&repo) >= 3,
        "{} segments after delete",
        segments(&repo)
    );
    let latest = repo.snapshot_ids().pop().expect("a snapshot");
    repo.assert_restore_matches(2, &latest, &src, &manifest(&src), "restore after delete");
    assert_verify_clean(&repo, "verify after delete");
}

/// A backup killed after its checkpoints keeps what they committed: no snapshot, but the
/// next backup of the same data stores only what came after the last checkpoint, and
/// its snapshot restores identical. Checkpoints by blob count (a segment's worth) and by
/// time (`TANGLE_TEST_CHECKPOINT_SECS=0`: at every extent sealed).
#[test]
fn an_interrupted_backup_keeps_what_its_checkpoints_committed() {
    killed_and_resumed(("TANGLE_TEST_SEGMENT_BLOBS", SEGMENT_BLOBS));
}

#[test]
fn an_interrupted_backup_keeps_what_its_timed_checkpoints_committed() {
    killed_and_resumed(("TANGLE_TEST_CHECKPOINT_SECS", "0"));
}

fn killed_and_resumed(checkpoints: (&str, &str)) {
    let repo = init_small();
    let src = repo.dir("src");
    write_file(&src.join("big.bin"), &pseudo_random(3, 900_000));
    let expected = manifest(&src);
    let log = repo.path("killed.stderr");
    let mut cmd = tangle_std(&repo.home);
    cmd.arg("-r")
        .arg(&repo.remotes[0])
        .args(["backup", "--no-progress"])
        .arg(&src)
        .env(checkpoints.0, checkpoints.1)
        // Stopped (then killed) once the shards of its 10th extent are stored.
        .env("TANGLE_TEST_STOP_BEFORE_CERTIFICATE", "10")
        .stdout(std::process::Stdio::null());
    let mut child = spawn_stopped(&mut cmd, &log);
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    assert!(
        repo.snapshot_ids().is_empty(),
        "the killed run made a snapshot"
    );
    let checkpoints = heads(&repo);
    assert!(
        checkpoints >= 2,
        "{checkpoints} checkpoint heads before the kill"
    );

    let resumed = backup_bounded(&repo, &src);
    let added = resumed["bytes_added"].as_u64().expect("bytes_added");
    // At least the 4 extents' worth (of 64 KiB) two checkpoints commit is not stored again.
    assert!(
        added < 900_000 - 4 * 60_000,
        "the run after the kill stored {added} of 900,000 bytes again"
    );
    let id = snapshot_id(&resumed);
    repo.assert_restore_matches(1, &id, &src, &expected, "restore after the resumed run");
    // What the killed run left after its last checkpoint is prune's (verify says so as
    // leftovers, which are not damage); afterwards verify is clean.
    run_ok(repo.cmd().arg("prune"));
    assert_verify_clean(&repo, "verify after prune");
}
