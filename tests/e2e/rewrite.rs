//! `tangle rewrite` (restic's `rewrite`): a new snapshot without the paths the exclude
//! patterns match (backup's semantics), its new trees committed like a backup's, the
//! rest of it byte for byte the old one's; the old snapshot stays unless `--forget`,
//! which deletes it by a record. A later `delete` then frees what only the left-out
//! paths used, and everything still verifies and restores.

use serde_json::{Value, json};

use crate::locks::stopped_backup;
use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{run_code, run_ok, stderr_str};
use crate::support::manifest::{Entry, manifest};
use crate::support::remote_dirs::object_paths;
use crate::support::repo::{Client, Repo};
use crate::support::report::{is_hex, json_ok};
use crate::writers::owner_and_writer_snapshots;

/// `tangle rewrite ARGS... --json`, exit 0.
fn rewrite(repo: &Repo, args: &[&str]) -> Value {
    json_ok(
        repo.cmd().arg("rewrite").args(args).arg("--json"),
        &format!("rewrite {args:?}"),
    )
}

/// The one rewritten snapshot's new id in a report.
fn new_id(r: &Value) -> String {
    assert_eq!(r["rewritten"].as_array().map(Vec::len), Some(1), "{r:#}");
    let id = r["rewritten"][0]["new_id"].as_str().unwrap_or_default();
    assert!(is_hex(id, 64), "{r:#}");
    id.to_string()
}

/// `manifest` without the entries `gone` says are left out.
fn without(all: &[Entry], gone: impl Fn(&str) -> bool) -> Vec<Entry> {
    (all.iter())
        .filter(|e| !gone(&String::from_utf8_lossy(&e.path)))
        .cloned()
        .collect()
}

#[test]
fn a_rewritten_snapshot_lacks_the_excluded_paths_and_keeps_the_rest_byte_identical() {
    let repo = Repo::init();
    let src = repo.dir("src");
    write_file(&src.join("keep/a.bin"), &pseudo_random(11, 2_000_000));
    write_file(&src.join("keep/image.iso"), &pseudo_random(12, 1_000_000));
    write_file(&src.join("skip/b.bin"), &pseudo_random(13, 6_000_000));
    write_file(&src.join("skip/deeper/c.txt"), b"c\n");
    write_file(&src.join("notes.txt"), b"notes\n");
    let all = manifest(&src);
    let expected = without(&all, |p| p.starts_with("skip") || p.ends_with(".iso"));
    assert_eq!(all.len(), expected.len() + 5, "{all:#?}");
    let old = repo.backup(&[&src], &[]).snapshot_id;
    let skip = src.join("skip");
    let skip = skip.to_str().unwrap_or_default();

    let dry = repo.unchanged_by("rewrite --dry-run", || {
        rewrite(
            &repo,
            &[&old, "--exclude", "*.iso", "-e", skip, "--dry-run"],
        )
    });
    assert_eq!(dry["dry_run"], true, "{dry:#}");
    assert_eq!(dry["rewritten"][0]["new_id"], Value::Null, "{dry:#}");
    assert_eq!(dry["rewritten"][0]["entries_removed"], 2, "{dry:#}");
    assert_eq!(dry["rewritten"][0]["files_removed"], 3, "{dry:#}");
    assert_eq!(dry["rewritten"][0]["bytes_removed"], 7_000_002, "{dry:#}");
    assert!(dry["trees_written"].as_u64() >= Some(3), "{dry:#}");

    // Patterns from a file, as backup reads them.
    let patterns = repo.path("excludes.txt");
    write_file(
        &patterns,
        format!("# what goes\n*.iso\n{skip}\n").as_bytes(),
    );
    let r = rewrite(
        &repo,
        &[
            &old[..8],
            "--exclude-file",
            patterns.to_str().unwrap_or_default(),
        ],
    );
    let new = new_id(&r);
    assert_eq!(r["unchanged"], json!([]), "{r:#}");
    assert!(r["bytes_written"].as_u64() > Some(0), "{r:#}");
    // Without --forget the old snapshot stays, whole.
    let mut ids = vec![old.clone(), new.clone()];
    ids.sort();
    assert_eq!(repo.snapshot_ids(), ids);
    let listed: Vec<Value> = repo.snapshots();
    let (o, n) = (
        listed
            .iter()
            .find(|s| s["id"] == old.as_str())
            .cloned()
            .unwrap_or_default(),
        listed
            .iter()
            .find(|s| s["id"] == new.as_str())
            .cloned()
            .unwrap_or_default(),
    );
    for key in ["time", "host", "paths", "tags", "user"] {
        assert_eq!(o[key], n[key], "{key}: {o:#} vs {n:#}");
    }
    assert_ne!(o["tree"], n["tree"]);
    assert_eq!(
        n["files"],
        o["files"].as_u64().unwrap_or_default() - 3,
        "{n:#}"
    );
    for via in 0..3 {
        repo.assert_restore_matches(via, &new, &src, &expected, "the rewritten snapshot");
    }
    repo.assert_restore_matches(1, &old, &src, &all, "the original");
    run_ok(repo.cmd().args(["verify", "--read-data"]));

    // Nothing left to exclude: left alone.
    let again = repo.unchanged_by("rewrite with nothing to exclude", || {
        rewrite(&repo, &[&new, "--exclude", "*.iso"])
    });
    assert_eq!(again["rewritten"], json!([]), "{again:#}");
    assert_eq!(again["unchanged"], json!([new]), "{again:#}");

    // --forget: the original goes, by a record; the same trees again, none stored.
    let r = rewrite(&repo, &[&old, "--exclude", "*.iso", "-e", skip, "--forget"]);
    let newer = new_id(&r);
    assert_eq!(r["trees_written"], 0, "{r:#}");
    let mut ids = vec![new.clone(), newer.clone()];
    ids.sort();
    assert_eq!(repo.snapshot_ids(), ids);
    for r in &repo.remotes {
        let snaps = object_paths(r, "snapshots");
        assert!(!snaps.contains(&format!("snapshots/{old}")), "{snaps:?}");
        assert_eq!(object_paths(r, "deletions").len(), 1, "{}", r.display());
    }

    // What only the left-out paths used is unused now: a delete frees it, and both
    // rewritten snapshots still restore and verify.
    let d = json_ok(
        repo.cmd().args(["delete", "--keep-last", "10", "--json"]),
        "delete after rewrite --forget",
    );
    assert!(d["bytes_freed"].as_u64() >= Some(6_000_000), "{d:#}");
    for id in [&new, &newer] {
        repo.assert_restore_matches(2, id, &src, &expected, "after the delete");
    }
    run_ok(
        repo.cmd_as(Client::via(1).no_password())
            .args(["verify", "--read-data"]),
    );
    run_ok(repo.cmd().args(["verify", "--read-data"]));
}

#[test]
fn bad_input_a_writers_snapshot_and_a_live_lock_change_nothing() {
    let (repo, owner, theirs) = owner_and_writer_snapshots();
    let empty = repo.path("empty.txt");
    write_file(&empty, b"# nothing\n");
    let empty = empty.to_str().unwrap_or_default();
    let missing = repo.path("missing.txt");
    let missing = missing.to_str().unwrap_or_default();

    let cases: [(&[&str], &str); 5] = [
        (&["rewrite", &owner], "nothing to leave out"),
        (
            &["rewrite", &owner, "--exclude-file", empty],
            "nothing to leave out",
        ),
        (
            &["rewrite", &owner, "--exclude-file", missing],
            "missing.txt",
        ),
        (
            &["rewrite", "deadbeef", "-e", "*.txt"],
            "no snapshot matches \"deadbeef\"",
        ),
        (
            &["rewrite", &theirs, "-e", "*.txt"],
            "written with a writer key",
        ),
    ];
    for (args, says) in cases {
        let out = repo.unchanged_by(&format!("{args:?}"), || run_code(repo.cmd().args(args), 1));
        let err = stderr_str(&out);
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.matches("error:").count(), 1, "{args:?}: {err}");
    }

    let mut held = stopped_backup(&repo);
    let out = repo.unchanged_by("rewrite refused as busy", || {
        run_code(repo.cmd().args(["rewrite", &owner, "-e", "*.txt"]), 11)
    });
    let err = stderr_str(&out);
    assert!(
        err.contains("busy") && err.contains(&format!("backup (pid {}", held.id())),
        "{err}"
    );
    held.kill().expect("killing the held backup");
    held.wait().expect("waiting for the killed backup");
    let r = rewrite(&repo, &[&owner, "-e", "*.txt"]);
    let new = new_id(&r);
    let out = run_ok(repo.cmd().args(["ls", &new]));
    let listing = String::from_utf8_lossy(&out.stdout);
    assert!(
        !listing.contains("f.txt") && listing.contains("src"),
        "{listing}"
    );
}
