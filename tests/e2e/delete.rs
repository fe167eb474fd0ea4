//! `tangle delete`: space comes back, kept snapshots stay whole and fully protected
//! (codewords that pointed into removed extents are re-encoded), the deletion is signed
//! history that verify and repair respect, and a remote that missed it is cleaned later.

use std::collections::HashSet;
use std::fs;

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{
    PASSWORD, assert_no_panic, bin, run_any, run_code, run_code_saying, run_ok, stderr_str,
    stdout_str,
};
use crate::support::fsutil::{files_under, set_mtime};
use crate::support::manifest::{Entry, assert_tree_matches, manifest};
use crate::support::remote_dirs::{assert_remotes_unchanged, flip_bytes, object_paths};
use crate::support::repo::{Client, Repo, restored_path};
use crate::support::report::{
    expect_code, finding_kind, json_ok, run_json, run_report, show_findings, verify_damage,
    verify_findings,
};
use tangle::extent::{Certificate, ExtentName};

struct Fx {
    repo: Repo,
    a: String,
    kept: Vec<(String, std::path::PathBuf, Vec<Entry>)>,
}

/// Snapshots A (24 MB of unique incompressible data), B (16 MB, whose extent can point
/// into A's) and C (small).
fn setup() -> Fx {
    let repo = Repo::init();
    let (a, b, c) = (repo.dir("a"), repo.dir("b"), repo.dir("c"));
    write_file(&a.join("big.bin"), &pseudo_random(1, 24_000_000));
    write_file(&b.join("mid.bin"), &pseudo_random(2, 16_000_000));
    write_file(&b.join("note.txt"), b"b\n");
    write_file(&c.join("small.txt"), b"c\n");
    let ida = repo.backup(&[&a], &[]).snapshot_id;
    let idb = repo.backup(&[&b], &[]).snapshot_id;
    let idc = repo.backup(&[&c], &[]).snapshot_id;
    Fx {
        kept: vec![
            (idb, b.clone(), manifest(&b)),
            (idc, c.clone(), manifest(&c)),
        ],
        a: ida,
        repo,
    }
}

fn total_bytes(repo: &Repo) -> u64 {
    repo.remotes
        .iter()
        .flat_map(|r| files_under(r))
        .map(|p| fs::metadata(p).map(|m| m.len()).unwrap_or(0))
        .sum()
}

fn restore_kept(fx: &Fx, via: usize, what: &str) {
    for (id, src, expected) in &fx.kept {
        let target = fx
            .repo
            .path(&format!("restore-{what}-{via}-{}", &id[..8]).replace(' ', "_"));
        run_ok(
            fx.repo
                .cmd_as(Client::via(via).fresh_home())
                .args(["restore", id, "--target"])
                .arg(&target),
        );
        assert_tree_matches(expected, &restored_path(&target, src), what);
    }
}

/// Every certificate on remote `r`, parsed (the test reads them as an independent reader).
fn certificates(fx: &Fx, r: usize) -> Vec<Certificate> {
    let config = fs::read(fx.repo.remotes[r].join("config")).unwrap();
    let owner = tangle::repo::Config::from_object(&config).unwrap().owner;
    object_paths(&fx.repo.remotes[r], "extents")
        .iter()
        .map(|p| {
            let name = ExtentName::parse(p.trim_start_matches("extents/")).unwrap();
            let bytes = fs::read(fx.repo.remotes[r].join(p)).unwrap();
            Certificate::from_object(&bytes, &tangle::crypto::Signers::owner_only(owner), &name)
                .unwrap()
        })
        .collect()
}

#[test]
fn deleting_a_snapshot_frees_its_space_and_keeps_the_rest_whole() {
    let fx = setup();
    let before = total_bytes(&fx.repo);
    let certs_before: HashSet<ExtentName> = certificates(&fx, 0).iter().map(|c| c.name()).collect();

    let dry = json_ok(
        fx.repo.cmd().args(["delete", "--dry-run", "--json", &fx.a]),
        "delete --dry-run",
    );
    assert_eq!(
        total_bytes(&fx.repo),
        before,
        "--dry-run changed the remotes"
    );
    assert!(
        dry["bytes_freed"].as_u64().unwrap() >= 40_000_000,
        "{dry:#}"
    );

    let r = json_ok(fx.repo.cmd().args(["delete", "--json", &fx.a]), "delete A");
    assert_eq!(r["snapshots_removed"][0], fx.a.as_str(), "{r:#}");
    // The dry run said what the delete did, and estimated what it moved.
    assert_eq!(dry["bytes_freed"], r["bytes_freed"], "{dry:#}\n{r:#}");
    assert_eq!(dry["extents_reencoded"], r["extents_reencoded"]);
    for key in ["bytes_read", "bytes_written"] {
        let (est, real) = (dry[key].as_u64().unwrap(), r[key].as_u64().unwrap());
        assert!(
            est > 0 && est <= real * 2 && real <= est * 2,
            "{key}: estimated {est}, moved {real}"
        );
    }
    assert!(
        r["extents_reencoded"].as_u64().unwrap() >= 1,
        "B's extent pointed into A: {r:#}"
    );
    let after = total_bytes(&fx.repo);
    assert!(
        before - after >= 40_000_000,
        "only {} bytes freed (before {before}, after {after})",
        before - after
    );

    // No certificate points into a removed extent; no object of one remains anywhere.
    let certs_after = certificates(&fx, 0);
    let live: HashSet<ExtentName> = certs_after.iter().map(|c| c.name()).collect();
    let removed: Vec<&ExtentName> = certs_before.difference(&live).collect();
    assert!(!removed.is_empty());
    for c in &certs_after {
        for p in &c.pointers {
            assert!(
                live.contains(&p.extent),
                "extent {:?} still points into a removed extent",
                c.name()
            );
        }
    }
    for r in &fx.repo.remotes {
        for name in &removed {
            let hex = name.hex();
            let left: Vec<String> = (object_paths(r, "extents").into_iter())
                .chain(object_paths(r, "shards"))
                .filter(|p| p.contains(&hex))
                .collect();
            assert!(
                left.is_empty(),
                "objects of a removed extent remain: {left:?}"
            );
        }
    }

    // The rest is sound (parity of re-encoded codewords included) and restores, with
    // the password (snapshots checked) and without; also with any one remote lost.
    run_ok(
        fx.repo
            .cmd_as(Client::via(1).no_password())
            .args(["verify", "--read-data"]),
    );
    run_ok(fx.repo.cmd().args(["verify", "--read-data"]));
    let ids: Vec<String> = fx.repo.snapshot_ids();
    assert_eq!(ids.len(), 2, "{ids:?}");
    restore_kept(&fx, 0, "after delete");
    for lost in 0..3 {
        let away = fx.repo.path("away");
        fs::rename(&fx.repo.remotes[lost], &away).unwrap();
        restore_kept(
            &fx,
            (lost + 1) % 3,
            &format!("after delete, remote {lost} lost"),
        );
        fs::rename(&away, &fx.repo.remotes[lost]).unwrap();
    }
    // Backups go on: dedup against what stays, restore identical.
    let b2 = fx.repo.backup(&[&fx.kept[0].1], &[]);
    assert!(
        b2.files_unchanged > 0 || b2.bytes_added < 1_000_000,
        "{:?}",
        b2.json
    );
    run_ok(
        fx.repo
            .cmd_as(Client::via(2).no_password())
            .args(["verify", "--read-data"]),
    );
}

#[test]
fn a_remote_away_during_delete_is_cleaned_by_repair_never_resurrected() {
    let fx = setup();
    let away = fx.repo.path("away");
    fs::rename(&fx.repo.remotes[2], &away).unwrap();
    let before = fx.repo.remote_state();

    let out = run_code(fx.repo.cmd().args(["delete", &fx.a]), 1);
    assert!(
        stderr_str(&out).contains(&fx.repo.url(2)),
        "the refusal does not name the unreachable remote:\n{}",
        stderr_str(&out)
    );
    assert_eq!(
        fx.repo.remote_state(),
        before,
        "a refused delete changed something"
    );

    run_ok(fx.repo.cmd().args(["delete", "--allow-degraded", &fx.a]));
    fs::rename(&away, &fx.repo.remotes[2]).unwrap();
    // The returning remote missed the delete's writes (repairable) and still holds A,
    // which is reclaimable information, never damage or something to copy back.
    let (code, v) = run_report(
        fx.repo
            .cmd_as(Client::via(2).no_password())
            .args(["verify", "--json"]),
        "verify after the remote returns",
    );
    expect_code(code, 20, &v, "verify after the remote returns");
    let a_path = format!("snapshots/{}", fx.a);
    assert!(
        verify_damage(&v)
            .iter()
            .all(|f| f["path"] != a_path.as_str()),
        "snapshot A is reported as damage:\n{}",
        show_findings(&v)
    );
    assert!(
        verify_findings(&v)
            .iter()
            .any(|f| finding_kind(f) == "leftover" && f["remote"] == fx.repo.url(2).as_str()),
        "the deleted objects on the returning remote are not reported as reclaimable:\n{}",
        show_findings(&v)
    );
    run_ok(fx.repo.cmd_as(Client::via(0).no_password()).arg("repair"));
    for r in &fx.repo.remotes {
        assert!(
            !r.join(format!("snapshots/{}", fx.a)).exists(),
            "snapshot A came back on {}",
            r.display()
        );
    }
    let ids = fx.repo.snapshots_via(2);
    assert_eq!(ids.len(), 2, "{ids:?}");
    run_ok(
        fx.repo
            .cmd_as(Client::via(2).no_password())
            .args(["verify", "--read-data"]),
    );
    restore_kept(&fx, 2, "after degraded delete and repair");
}

#[test]
fn a_policy_keeps_what_it_says_and_dry_run_explains_why() {
    let repo = Repo::init();
    let src = repo.dir("src");
    let mut newest = String::new();
    for i in 0..4u8 {
        write_file(&src.join("f.txt"), format!("version {i}\n").as_bytes());
        newest = repo.backup(&[&src], &[]).snapshot_id;
    }
    let before = repo.remote_state();
    let v = json_ok(
        repo.cmd()
            .args(["delete", "--keep-last", "1", "--dry-run", "--json"]),
        "delete --keep-last 1 --dry-run",
    );
    assert_eq!(repo.remote_state(), before, "--dry-run changed the remotes");
    let decisions = v["decisions"].as_array().unwrap();
    assert_eq!(decisions.len(), 4, "{v:#}");
    let kept: Vec<&serde_json::Value> = decisions.iter().filter(|d| d["keep"] == true).collect();
    assert_eq!(kept.len(), 1, "{v:#}");
    assert_eq!(kept[0]["id"], newest.as_str());
    assert!(kept[0]["reasons"].to_string().contains("last"), "{v:#}");

    run_ok(repo.cmd().args(["delete", "--keep-last", "1"]));
    assert_eq!(repo.snapshot_ids(), vec![newest.clone()]);
    run_ok(repo.cmd().args(["verify", "--read-data"]));
    let target = repo.path("restored");
    run_ok(
        repo.cmd_as(Client::via(1).fresh_home())
            .args(["restore", "latest", "--target"])
            .arg(&target),
    );
    assert_eq!(
        fs::read(restored_path(&target, &src).join("f.txt")).unwrap(),
        b"version 3\n"
    );

    // No policy and no snapshot: a usage error, nothing touched.
    run_code_saying(repo.cmd().arg("delete"), 1, "no policy");
}

/// `kill -9` of a delete at random moments: the repository stays verifiable (no data
/// loss, no trust violation), the kept snapshots restore identical, and running the
/// delete again (after a repair) finishes the job with a clean verify.
#[test]
fn a_delete_killed_at_random_moments_leaves_a_sound_repository() {
    let mut rng_state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        rng_state ^= rng_state << 13;
        rng_state ^= rng_state >> 7;
        rng_state ^= rng_state << 17;
        rng_state
    };
    for round in 0..20 {
        let repo = Repo::init();
        let (a, b) = (repo.dir("a"), repo.dir("b"));
        write_file(&a.join("big.bin"), &pseudo_random(round, 3_000_000));
        write_file(&b.join("mid.bin"), &pseudo_random(100 + round, 2_000_000));
        repo.backup(&[&a], &[]);
        repo.backup(&[&b], &[]);
        let expected = manifest(&b);
        let mut child = spawn_tangle(&repo, &["delete", "--keep-last", "1", "--group-by", ""]);
        // The moment is the adversary's choice, not a synchronisation.
        std::thread::sleep(std::time::Duration::from_millis(next() % 400));
        let _ = child.kill();
        let _ = child.wait();
        let what = format!("round {round}: verify after a killed delete");
        let out = run_any(repo.cmd_as(Client::via(1).no_password()).arg("verify"));
        assert_no_panic(&out, &what);
        assert!(
            matches!(out.status.code(), Some(0) | Some(20)),
            "{what}: exit {:?}\n{}",
            out.status.code(),
            stdout_str(&out)
        );
        let target = repo.path("kept");
        run_ok(
            repo.cmd_as(Client::via(2).fresh_home())
                .args(["restore", "latest", "--target"])
                .arg(&target),
        );
        assert_tree_matches(&expected, &restored_path(&target, &b), &what);
        run_ok(repo.cmd_as(Client::via(0).no_password()).arg("repair"));
        run_ok(
            repo.cmd()
                .args(["delete", "--keep-last", "1", "--group-by", ""]),
        );
        assert_eq!(repo.snapshot_ids().len(), 1, "round {round}");
        let out = run_ok(repo.cmd_as(Client::via(2).no_password()).args([
            "verify",
            "--read-data",
            "--json",
        ]));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(
            verify_findings(&v).iter().all(|f| f["severity"] == "info"),
            "round {round}: not clean after the second delete:\n{}",
            show_findings(&v)
        );
    }
}

/// A delete and a backup started together, ten times: one may be told the repository is
/// busy (exit 11), but every backup that reports a snapshot has it restorable, and the
/// repository verifies clean.
#[test]
fn delete_and_backup_started_together_never_lose_the_backup() {
    let repo = Repo::init();
    let src = repo.dir("src");
    let spawn = |args: &[&str]| spawn_tangle(&repo, args);
    let mut saved: Vec<(String, Vec<Entry>)> = Vec::new();
    for round in 0..10u64 {
        write_file(&src.join("data.bin"), &pseudo_random(round, 1_500_000));
        let expected = manifest(&src);
        let delete = spawn(&["delete", "--keep-last", "2", "--group-by", ""]);
        let backup = spawn(&["backup", "--json", &src.to_string_lossy()]);
        let (d, b) = (
            delete.wait_with_output().unwrap(),
            backup.wait_with_output().unwrap(),
        );
        assert!(
            matches!(d.status.code(), Some(0) | Some(11)),
            "round {round}: delete exit {:?}: {}",
            d.status.code(),
            String::from_utf8_lossy(&d.stderr)
        );
        match b.status.code() {
            Some(0) => {
                let v: serde_json::Value = serde_json::from_slice(&b.stdout).unwrap();
                saved.push((v["snapshot_id"].as_str().unwrap().to_string(), expected));
            }
            Some(11) => {}
            other => panic!(
                "round {round}: backup exit {other:?}: {}",
                String::from_utf8_lossy(&b.stderr)
            ),
        }
        // Every backup that reported a snapshot and that no delete has removed since
        // restores identical.
        let ids = repo.snapshot_ids();
        for (id, expected) in saved.iter().filter(|(id, _)| ids.contains(id)) {
            let target = repo.path(&format!("r{round}-{}", &id[..8]));
            run_ok(repo.cmd().args(["restore", id, "--target"]).arg(&target));
            assert_tree_matches(expected, &restored_path(&target, &src), "concurrent backup");
        }
        // The newest successful backup is never removed by a delete that ran beside it.
        if b.status.code() == Some(0) {
            assert!(
                ids.contains(&saved.last().unwrap().0),
                "round {round}: the new snapshot is gone"
            );
        }
    }
    assert!(!saved.is_empty());
    let out =
        run_ok(
            repo.cmd_as(Client::via(1).no_password())
                .args(["verify", "--read-data", "--json"]),
        );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        verify_findings(&v).iter().all(|f| f["severity"] == "info"),
        "{}",
        show_findings(&v)
    );
}

/// `tangle -r remotes[0] ARGS` with the password, started in the background (output
/// captured) so that a test can kill it or run another command beside it.
fn spawn_tangle(repo: &Repo, args: &[&str]) -> std::process::Child {
    std::process::Command::new(bin())
        .arg("-r")
        .arg(repo.url(0))
        .args(args)
        .env_clear()
        .env("HOME", &repo.home)
        .env("XDG_CACHE_HOME", repo.home.join("cache"))
        .env("TANGLE_PASSWORD", PASSWORD)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// A remote that plants a deletion record signed with its own key (naming a kept
/// snapshot) is named as a trust violation; nothing it names is removed or hidden, and
/// repair spreads nothing.
#[test]
fn a_forged_deletion_record_is_named_and_never_honoured() {
    let (repo, src) = Repo::with_source("f.txt", b"keep me\n");
    let id = repo.backup(&[&src], &[]).snapshot_id;
    let config = fs::read(repo.remotes[1].join("config")).unwrap();
    let repo_id = tangle::repo::Config::from_object(&config).unwrap().id;
    let forged = tangle::extent::Deletion {
        repo_id,
        time: 1,
        snapshots: vec![id.clone()],
        ..Default::default()
    }
    .to_object(&tangle::crypto::Signer::from_seed(&[9; 32]))
    .unwrap();
    let path = format!(
        "deletions/{}",
        tangle::crypto::envelope::content_id(&forged)
    );
    write_file(&repo.remotes[1].join(&path), &forged);

    let (code, v) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "--json"]),
        "verify with a forged deletion record",
    );
    expect_code(code, 22, &v, "verify with a forged deletion record");
    assert!(
        verify_findings(&v)
            .iter()
            .any(|f| f["remote"] == repo.url(1).as_str() && f["path"] == path.as_str()),
        "the forging remote is not named:\n{}",
        show_findings(&v)
    );
    run_any(repo.cmd_as(Client::via(0).no_password()).arg("repair"));
    for (i, r) in repo.remotes.iter().enumerate() {
        assert!(
            r.join(format!("snapshots/{id}")).exists(),
            "snapshot gone from remote {i}"
        );
        if i != 1 {
            assert!(
                !r.join(&path).exists(),
                "repair spread the forged record to remote {i}"
            );
        }
    }
    assert_eq!(repo.snapshots_via(1).len(), 1);
}

/// Snapshot 1 of A and B (6 MB each, one extent), then snapshot 2 of B only; returns
/// the repository, snapshot 1's id, the source and what it holds now.
fn a_and_b_then_b_only() -> (Repo, String, std::path::PathBuf, Vec<Entry>) {
    let (repo, src) = Repo::with_source("a.bin", &pseudo_random(11, 6_000_000));
    write_file(&src.join("b.bin"), &pseudo_random(12, 6_000_000));
    let first = repo.backup(&[&src], &[]).snapshot_id;
    fs::remove_file(src.join("a.bin")).unwrap();
    repo.backup(&[&src], &[]);
    let expected = manifest(&src);
    (repo, first, src, expected)
}

/// Snapshot 1 holds A and B in one extent, snapshot 2 only B: deleting snapshot 1 leaves
/// that extent half unused. Over `--max-unused` (default 5%) it is repacked: B's blobs
/// move to a new extent and A's bytes come back; with `--max-unused unlimited` they stay.
fn half_used_extent(
    max_unused: &str,
) -> (Repo, u64, serde_json::Value, Vec<Entry>, std::path::PathBuf) {
    let (repo, first, src, expected) = a_and_b_then_b_only();
    let before = total_bytes(&repo);
    let (code, v, _) = run_json(
        repo.cmd()
            .args(["delete", "--json", "--max-unused", max_unused, &first]),
        "delete of the first snapshot",
    );
    assert_eq!(code, 0, "{v:#}");
    (repo, before, v, expected, src)
}

#[test]
fn a_partly_used_extent_is_repacked_and_its_unused_bytes_come_back() {
    let (repo, before, v, expected, src) = half_used_extent("5%");
    assert_eq!(v["extents_repacked"], 1, "{v:#}");
    assert!(v["bytes_repacked"].as_u64().unwrap() >= 6_000_000, "{v:#}");
    let freed = before.saturating_sub(total_bytes(&repo));
    // A's 6 MB as data plus parity, at least.
    assert!(freed >= 9_000_000, "only {freed} bytes freed: {v:#}");
    // The report counts what was removed; the repack wrote B's bytes again.
    assert!(
        v["bytes_freed"].as_u64().unwrap() >= freed + 6_000_000,
        "{v:#}"
    );

    // Clean, and B restores from any two remotes.
    let out =
        run_ok(
            repo.cmd_as(Client::via(1).no_password())
                .args(["verify", "--read-data", "--json"]),
        );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        verify_findings(&report)
            .iter()
            .all(|f| f["severity"] == "info"),
        "{}",
        show_findings(&report)
    );
    for lost in 0..3 {
        let away = repo.path(&format!("away-{lost}"));
        fs::rename(&repo.remotes[lost], &away).unwrap();
        let target = repo.path(&format!("restore-without-{lost}"));
        run_ok(
            repo.cmd_as(Client::via((lost + 1) % 3).fresh_home())
                .args(["restore", "latest", "--target"])
                .arg(&target),
        );
        assert_tree_matches(&expected, &restored_path(&target, &src), "after repack");
        fs::rename(&away, &repo.remotes[lost]).unwrap();
    }
}

#[test]
fn max_unused_unlimited_keeps_a_partly_used_extent_whole() {
    let (repo, before, v, _, _) = half_used_extent("unlimited");
    assert_eq!(v["extents_repacked"], 0, "{v:#}");
    let freed = before.saturating_sub(total_bytes(&repo));
    assert!(
        freed < 1_000_000,
        "{freed} bytes freed without repacking: {v:#}"
    );
}

/// Many small backups leave one head, one index segment and one small extent each; a
/// delete folds them together, and what comes after (backup, verify, restore) neither
/// notices a gap nor mistakes the consolidation for a rollback.
#[test]
fn delete_consolidates_history() {
    let repo = Repo::init();
    let src = repo.dir("src");
    for i in 0..8u64 {
        write_file(&src.join(format!("f{i}.txt")), &pseudo_random(i, 3000));
        repo.backup(&[&src], &[]);
    }
    let count = |prefix: &str| object_paths(&repo.remotes[0], prefix).len();
    assert_eq!(count("heads"), 8);
    let (code, v, _) = run_json(
        repo.cmd()
            .args(["delete", "--json", "--keep-last", "2", "--group-by", ""]),
        "delete --keep-last 2",
    );
    assert_eq!(code, 0, "{v:#}");
    assert!(v["heads_replaced"].as_u64().unwrap() >= 7, "{v:#}");
    assert_eq!(count("index"), 1, "one consolidated index segment");
    assert!(count("heads") <= 2, "heads left: {}", count("heads"));
    assert!(count("extents") <= 2, "extents left: {}", count("extents"));
    // Nor empty directories that every later listing would walk.
    for kind in ["heads", "shards"] {
        for dir in fs::read_dir(repo.remotes[0].join(kind)).unwrap().flatten() {
            assert!(
                fs::read_dir(dir.path()).unwrap().next().is_some(),
                "empty directory left: {}",
                dir.path().display()
            );
        }
    }

    // The next backups build on it; verify sees no rollback and no gap.
    for i in 8..10u64 {
        write_file(&src.join(format!("f{i}.txt")), &pseudo_random(i, 3000));
        repo.backup(&[&src], &[]);
    }
    let (code, report) = run_report(
        repo.cmd_as(Client::via(2).no_password())
            .args(["verify", "--read-data", "--json"]),
        "verify after consolidation",
    );
    assert_eq!(code, 0, "{}", show_findings(&report));
    let expected = manifest(&src);
    let target = repo.path("restored");
    run_ok(
        repo.cmd_as(Client::via(1).fresh_home())
            .args(["restore", "latest", "--target"])
            .arg(&target),
    );
    assert_tree_matches(
        &expected,
        &restored_path(&target, &src),
        "after consolidation",
    );
    // And again: the second consolidation replaces the first one's head too.
    run_ok(
        repo.cmd()
            .args(["delete", "--keep-last", "2", "--group-by", ""]),
    );
    assert!(count("heads") <= 2, "heads left: {}", count("heads"));
    run_ok(repo.cmd_as(Client::via(0).no_password()).arg("verify"));
    repo.backup(&[&src], &[]);
    // The client cache follows: no more cached heads (nor writer directories) than the
    // remotes hold.
    let cached: Vec<_> = files_under(&repo.home.join("cache"))
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("/objects/heads/"))
        .collect();
    assert!(cached.len() <= count("heads"), "{cached:?}");
    for cache in fs::read_dir(repo.home.join("cache/tangle"))
        .unwrap()
        .flatten()
    {
        let dirs = fs::read_dir(cache.path().join("objects/heads")).map_or(0, |d| d.count());
        assert!(dirs <= count("heads"), "{dirs} writer directories cached");
    }
}

/// Trees live in extents of their own: a second backup that only changes metadata (new
/// mtimes: the same data, new trees everywhere) leaves the first snapshot's trees in
/// extents that hold nothing else, so deleting the first snapshot removes them whole and
/// repacks nothing. Mixed into the data extent they would have stayed behind as unused
/// space inside an extent the kept snapshot still needs.
#[test]
fn a_deleted_snapshots_trees_go_whole_without_repacking() {
    let repo = Repo::init();
    let src = repo.dir("src");
    // 20 MB in 400 directories: the first backup fills a data extent (16 MiB), so its
    // trees are sealed apart.
    for d in 0..400u64 {
        write_file(
            &src.join(format!("d{d}/f.bin")),
            &pseudo_random(100 + d, 50_000),
        );
    }
    let first = repo.backup(&[&src], &[]).snapshot_id;

    let lib = tangle::repo::Repository::open(repo.url(0).as_str(), Some(repo.path("lib-cache")))
        .expect("open through the library");
    let lib = (lib.unlock_and_load_index(PASSWORD.as_bytes())).expect("unlock");
    let mut kinds: std::collections::HashMap<ExtentName, HashSet<String>> = Default::default();
    for (_, extent, loc) in lib.index().iter().unwrap() {
        kinds
            .entry(extent)
            .or_default()
            .insert(format!("{:?}", loc.kind));
    }
    assert!(kinds.len() >= 2, "{kinds:?}");
    assert!(
        kinds.values().all(|k| k.len() == 1),
        "an extent mixes data and trees: {kinds:?}"
    );
    drop(lib);

    for d in 0..400u64 {
        set_mtime(
            &src.join(format!("d{d}/f.bin")),
            1_600_000_000 + d as i64,
            0,
        );
    }
    let second = repo.backup(&[&src], &[]);
    assert_eq!(second.json["extents"], 1, "{:#}", second.json);
    let expected = manifest(&src);
    let (code, v, _) = run_json(
        repo.cmd().args(["delete", "--json", &first]),
        "delete of the first snapshot",
    );
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["extents_repacked"], 0, "{v:#}");
    assert_eq!(v["repack_bytes_read"], 0, "{v:#}");
    assert!(v["extents_removed"].as_u64().unwrap() >= 1, "{v:#}");
    assert_eq!(
        v["bytes_read"].as_u64().unwrap(),
        v["reencode_bytes_read"].as_u64().unwrap(),
        "{v:#}"
    );
    let target = repo.path("restore");
    run_ok(
        repo.cmd_as(Client::via(1).fresh_home())
            .args(["restore", "latest", "--target"])
            .arg(&target),
    );
    assert_tree_matches(&expected, &restored_path(&target, &src), "after the delete");
}

/// A snapshot that no remote serves readable is not a snapshot the user let go: a
/// delete that took it for one would remove the extents only it uses. It refuses,
/// changing nothing, and once the snapshot is back the same delete goes ahead.
#[test]
fn a_delete_that_cannot_read_every_snapshot_changes_nothing() {
    let repo = Repo::init();
    let (a, b) = (repo.dir("a"), repo.dir("b"));
    write_file(&a.join("a.bin"), &pseudo_random(1, 300_000));
    write_file(&b.join("b.bin"), &pseudo_random(2, 300_000));
    let first = repo.backup(&[&a], &[]).snapshot_id;
    let second = repo.backup(&[&b], &[]).snapshot_id;
    let path = format!("snapshots/{second}");
    let originals: Vec<Vec<u8>> = (repo.remotes.iter())
        .map(|r| fs::read(r.join(&path)).unwrap())
        .collect();
    for r in &repo.remotes {
        flip_bytes(&r.join(&path));
    }
    let before = repo.remote_state();
    // A fresh cache: the snapshot is read from the remotes, as on a new machine.
    let out = run_code(
        repo.cmd_as(Client::via(0).fresh_home())
            .args(["delete", &first]),
        1,
    );
    let err = stderr_str(&out);
    assert!(
        err.contains("cannot be read") && err.contains("changed nothing"),
        "{err}"
    );
    assert_remotes_unchanged(
        &before,
        &repo.remote_state(),
        "a delete that could not read a snapshot",
    );

    for (r, original) in repo.remotes.iter().zip(&originals) {
        fs::write(r.join(&path), original).unwrap();
    }
    run_ok(
        repo.cmd_as(Client::via(0).fresh_home())
            .args(["delete", &first]),
    );
    repo.assert_restore_matches(1, &second, &b, &manifest(&b), "after the delete");
}

/// A delete that repacks and re-encodes while one remote serves altered shards (same
/// size, other bytes) reads around them: it succeeds, what it writes is built from
/// checked bytes only, so afterwards `verify --read-data` blames that remote alone,
/// `repair` puts it right, and the kept snapshot restores through every remote.
#[test]
fn a_delete_reads_around_a_remote_serving_altered_shards() {
    let (repo, first, src, expected) = a_and_b_then_b_only();
    let liar = 1;
    let shards = object_paths(&repo.remotes[liar], "shards");
    assert!(!shards.is_empty());
    for s in &shards {
        flip_bytes(&repo.remotes[liar].join(s));
    }

    let (code, v, _) = run_json(
        repo.cmd_as(Client::via(0).fresh_home())
            .args(["delete", "--json", &first]),
        "delete with altered shards on one remote",
    );
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["extents_repacked"], 1, "{v:#}");

    let what = "verify --read-data after the delete";
    let (code, v) = run_report(
        repo.cmd_as(Client::via(2).no_password().fresh_home())
            .args(["verify", "--read-data", "--json"]),
        what,
    );
    expect_code(code, 20, &v, what);
    for f in verify_damage(&v) {
        assert_eq!(
            f["remote"],
            repo.url(liar).as_str(),
            "{what}: damage blamed elsewhere:\n{}",
            show_findings(&v)
        );
    }
    let (code, v) = run_report(
        repo.cmd_as(Client::via(0).no_password().fresh_home())
            .args(["repair", "--read-data", "--json"]),
        "repair after the delete",
    );
    assert_eq!(code, 0, "{v:#}");
    let (code, v) = run_report(
        repo.cmd_as(Client::via(0).no_password().fresh_home())
            .args(["verify", "--read-data", "--json"]),
        "verify after the repair",
    );
    expect_code(code, 0, &v, "verify after the repair");
    for via in 0..3 {
        repo.assert_restore_matches(via, "latest", &src, &expected, "after delete and repair");
    }
}
