//! `tangle tag` (restic's `tag`): a snapshot whose tags change is replaced by a copy with
//! the new tags (same tree, time, host, paths) and the old one is deleted by a deletion
//! record, under the exclusive lock; the copy restores byte for byte and the repository
//! verifies. One whose tags would not change, a dry run, bad input and a writer's
//! snapshot change nothing.

use serde_json::{Value, json};

use crate::locks::stopped_backup;
use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{run_code, run_ok, stderr_str};
use crate::support::manifest::manifest;
use crate::support::remote_dirs::object_paths;
use crate::support::repo::{Client, Repo};
use crate::support::report::{is_hex, json_ok};
use crate::writers::owner_and_writer_snapshots;

/// The snapshot `id` as `snapshots --json` lists it.
fn listed(repo: &Repo, id: &str) -> Value {
    let all = repo.snapshots();
    all.iter()
        .find(|s| s["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("snapshot {id} is not listed: {all:#?}"))
}

/// `tangle tag ARGS... --json`, exit 0.
fn tag(repo: &Repo, args: &[&str]) -> Value {
    json_ok(
        repo.cmd().arg("tag").args(args).arg("--json"),
        &format!("tag {args:?}"),
    )
}

/// The tags each listed snapshot of `host` has.
fn tags_of_host(repo: &Repo, host: &str) -> Vec<Value> {
    (repo.snapshots().iter())
        .filter(|s| s["host"] == host)
        .map(|s| s["tags"].clone())
        .collect()
}

#[test]
fn a_retagged_snapshot_replaces_the_old_one_and_restores_byte_identical() {
    let repo = Repo::init();
    let src = repo.dir("src");
    write_file(&src.join("big.bin"), &pseudo_random(7, 3_000_000));
    write_file(&src.join("note.txt"), b"a note\n");
    let expected = manifest(&src);
    let old = repo.backup(&[&src], &["--tag", "daily"]).snapshot_id;
    let other = repo.backup(&[&src], &[]).snapshot_id;
    let before = listed(&repo, &old);

    let dry = repo.unchanged_by("tag --dry-run", || {
        tag(
            &repo,
            &[
                &old,
                "--add",
                "keep,weekly",
                "--remove",
                "daily",
                "--dry-run",
            ],
        )
    });
    assert_eq!(dry["dry_run"], true, "{dry:#}");
    assert_eq!(dry["changed"][0]["old_id"], old.as_str(), "{dry:#}");
    assert_eq!(dry["changed"][0]["new_id"], Value::Null, "{dry:#}");
    assert_eq!(
        dry["changed"][0]["tags_before"],
        json!(["daily"]),
        "{dry:#}"
    );
    assert_eq!(
        dry["changed"][0]["tags_after"],
        json!(["keep", "weekly"]),
        "{dry:#}"
    );
    assert_eq!(listed(&repo, &old)["tags"], json!(["daily"]));

    let r = tag(
        &repo,
        &[
            &old[..8],
            "--add",
            "keep",
            "--add",
            "weekly",
            "--remove",
            "daily",
        ],
    );
    assert_eq!(r["dry_run"], false, "{r:#}");
    assert_eq!(r["changed"].as_array().map(Vec::len), Some(1), "{r:#}");
    assert_eq!(r["unchanged"], json!([]), "{r:#}");
    let new = r["changed"][0]["new_id"]
        .as_str()
        .unwrap_or_else(|| panic!("no new_id: {r:#}"))
        .to_string();
    assert!(is_hex(&new, 64) && new != old, "{r:#}");

    // The new snapshot says what the old one said, with the new tags; the old one is gone.
    let mut ids = vec![new.clone(), other.clone()];
    ids.sort();
    assert_eq!(repo.snapshot_ids(), ids);
    let after = listed(&repo, &new);
    assert_eq!(after["tags"], json!(["keep", "weekly"]), "{after:#}");
    for key in [
        "time", "tree", "host", "user", "paths", "parent", "files", "bytes",
    ] {
        assert_eq!(after[key], before[key], "{key}: {before:#} vs {after:#}");
    }
    assert_eq!(listed(&repo, &other)["tags"], json!([]));
    for r in &repo.remotes {
        let snaps = object_paths(r, "snapshots");
        assert!(
            snaps.contains(&format!("snapshots/{new}"))
                && !snaps.contains(&format!("snapshots/{old}")),
            "{}: {snaps:?}",
            r.display()
        );
        assert_eq!(object_paths(r, "deletions").len(), 1, "{}", r.display());
    }

    // Its data is all there: byte for byte through every remote, from a fresh cache, and
    // verify reads every shard without a finding.
    for via in 0..3 {
        repo.assert_restore_matches(via, &new, &src, &expected, "the retagged snapshot");
    }
    run_ok(repo.cmd().args(["verify", "--read-data"]));
    run_ok(
        repo.cmd_as(Client::via(2).no_password())
            .args(["verify", "--read-data"]),
    );
    let out = run_code(repo.cmd().args(["ls", &old]), 1);
    assert!(
        stderr_str(&out).contains("no snapshot matches"),
        "{}",
        stderr_str(&out)
    );

    // Tags that would not change (in any order) leave the snapshot alone.
    let again = repo.unchanged_by("tag to the same tags", || {
        tag(&repo, &[&new, "--set", "weekly,keep"])
    });
    assert_eq!(again["changed"], json!([]), "{again:#}");
    assert_eq!(again["unchanged"], json!([new]), "{again:#}");

    // Backups go on from it (dedup: nothing new stored).
    let b = repo.backup(&[&src], &[]);
    assert!(b.bytes_added < 100_000, "{:?}", b.json);
}

#[test]
fn without_a_snapshot_named_the_filters_choose_which_change() {
    let (repo, src) = Repo::with_source("f.txt", b"one\n");
    repo.backup(&[&src], &["--host", "alpha", "--tag", "daily"]);
    repo.backup(&[&src], &["--host", "beta", "--tag", "daily"]);
    repo.backup(&[&src], &["--host", "beta"]);

    let r = tag(&repo, &["--host", "alpha", "--set", "monthly,keep"]);
    assert_eq!(r["changed"].as_array().map(Vec::len), Some(1), "{r:#}");
    assert_eq!(
        tags_of_host(&repo, "alpha"),
        vec![json!(["monthly", "keep"])]
    );
    assert_eq!(
        tags_of_host(&repo, "beta"),
        vec![json!(["daily"]), json!([])]
    );

    // --tag selects; --set '' removes every tag.
    let r = tag(&repo, &["--tag", "daily", "--set", ""]);
    assert_eq!(r["changed"].as_array().map(Vec::len), Some(1), "{r:#}");
    assert_eq!(tags_of_host(&repo, "beta"), vec![json!([]), json!([])]);

    // No filter: every snapshot; those that already have the tag stay as they are.
    tag(&repo, &["--host", "beta", "--add", "x"]);
    let r = tag(&repo, &["--add", "x"]);
    assert_eq!(r["changed"].as_array().map(Vec::len), Some(1), "{r:#}");
    assert_eq!(r["unchanged"].as_array().map(Vec::len), Some(2), "{r:#}");
    assert_eq!(
        tags_of_host(&repo, "alpha"),
        vec![json!(["monthly", "keep", "x"])]
    );
    assert_eq!(repo.snapshot_ids().len(), 3);

    // Filters that select nothing change nothing, and that is no error.
    let r = repo.unchanged_by("tag of no snapshot", || {
        tag(&repo, &["--host", "gamma", "--add", "y"])
    });
    assert_eq!(r["changed"], json!([]), "{r:#}");
    run_ok(
        repo.cmd_as(Client::via(1).no_password())
            .args(["verify", "--read-data"]),
    );
}

#[test]
fn bad_input_gets_one_message_exit_1_and_changes_nothing() {
    let (repo, _src) = Repo::with_snapshot_of("f.txt", b"one\n");
    let id = repo.snapshot_ids().remove(0);
    let cases: [(&[&str], &str); 5] = [
        (&["tag", &id], "nothing to change"),
        (
            &["tag", &id, "--set", "a", "--add", "b"],
            "--set replaces every tag",
        ),
        (
            &["tag", &id, "--set", "a", "--remove", "b"],
            "--set replaces every tag",
        ),
        (
            &["tag", "deadbeef", "--add", "x"],
            "no snapshot matches \"deadbeef\"",
        ),
        (
            &["tag", "latest", "--host", "nowhere", "--add", "x"],
            "no snapshot matches --host nowhere",
        ),
    ];
    for (args, says) in cases {
        let out = repo.unchanged_by(&format!("{args:?}"), || run_code(repo.cmd().args(args), 1));
        let err = stderr_str(&out);
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.matches("error:").count(), 1, "{args:?}: {err}");
    }
    assert_eq!(repo.snapshot_ids(), vec![id]);
}

#[test]
fn a_live_lock_makes_tag_wait_and_a_dry_run_takes_none() {
    let (repo, src) = Repo::with_snapshot_of("f.txt", b"one\n");
    let id = repo.snapshot_ids().remove(0);
    let mut held = stopped_backup(&repo);
    let out = repo.unchanged_by("tag refused as busy", || {
        run_code(repo.cmd().args(["tag", &id, "--add", "x"]), 11)
    });
    let err = stderr_str(&out);
    assert!(
        err.contains("busy") && err.contains(&format!("backup (pid {}", held.id())),
        "{err}"
    );
    let dry = repo.unchanged_by("tag --dry-run beside a lock", || {
        tag(&repo, &[&id, "--add", "x", "--dry-run"])
    });
    assert_eq!(dry["changed"][0]["tags_after"], json!(["x"]), "{dry:#}");

    // The holder dies: its lock is stale (its process is gone on this machine).
    held.kill().expect("killing the held backup");
    held.wait().expect("waiting for the killed backup");
    let r = tag(&repo, &[&id, "--add", "x"]);
    let new = r["changed"][0]["new_id"].as_str().unwrap_or_default();
    assert_eq!(listed(&repo, new)["tags"], json!(["x"]));
    repo.assert_restore_matches(1, new, &src, &manifest(&src), "after the lock");
}

#[test]
fn a_writers_snapshot_is_refused_and_nothing_changes() {
    let (repo, owner, theirs) = owner_and_writer_snapshots();

    // Named, or among the snapshots chosen: nothing changes, not even the owner's.
    for args in [
        vec!["tag", &theirs, "--add", "x"],
        vec!["tag", "--add", "x"],
    ] {
        let out = repo.unchanged_by(&format!("{args:?}"), || run_code(repo.cmd().args(&args), 1));
        let err = stderr_str(&out);
        assert!(
            err.contains("written with a writer key") && err.contains(&theirs[..8]),
            "{args:?}: {err}"
        );
    }
    // The owner's alone still can.
    tag(&repo, &[&owner, "--add", "x"]);
    assert_eq!(listed(&repo, &theirs)["tags"], json!([]));
    let mine: Vec<Value> = (repo.snapshots().iter())
        .filter(|s| s["writer"].is_null())
        .map(|s| s["tags"].clone())
        .collect();
    assert_eq!(mine, vec![json!(["x"])]);
}
