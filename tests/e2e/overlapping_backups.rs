//! Two backups at once from one host (one cache, as overlapping cron jobs) never lose
//! track of a snapshot: each run writes under its own writer id, so neither overwrites
//! the other's head, and a password-less verify sees every extent as committed.

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{run_any, run_ok, stdout_str, tangle_std};
use crate::support::manifest::{Entry, manifest};
use crate::support::remote_dirs::{object_paths, replace_dir};
use crate::support::repo::{Client, Repo};
use std::fs;
use std::path::PathBuf;

/// Start two backups of different sources at the same moment and wait for both.
fn two_at_once(repo: &Repo, a: &std::path::Path, b: &std::path::Path) {
    let spawn = |src: &std::path::Path| {
        tangle_std(&repo.home)
            .arg("-r")
            .arg(&repo.remotes[0])
            .args(["backup", "--no-progress", "--json"])
            .arg(src)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn backup")
    };
    let (first, second) = (spawn(a), spawn(b));
    for child in [first, second] {
        let out = child.wait_with_output().expect("wait for backup");
        assert!(
            out.status.success(),
            "an overlapping backup failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The id of the newest snapshot of `src`.
fn snapshot_of(
    repo: &Repo,
    src: &std::path::Path,
    known: &[(String, PathBuf, Vec<Entry>)],
) -> String {
    let src = src.to_string_lossy();
    repo.snapshots()
        .iter()
        .filter(|s| s["paths"][0] == src.as_ref())
        .map(|s| s["id"].as_str().unwrap().to_string())
        .find(|id| !known.iter().any(|(k, _, _)| k == id))
        .expect("the overlapping backup's snapshot is listed")
}

fn restore_all(repo: &Repo, via: usize, snaps: &[(String, PathBuf, Vec<Entry>)], what: &str) {
    for (id, src, expected) in snaps {
        if let Err(e) = repo.try_restore_matches(via, id, src, expected, what) {
            panic!("{e}");
        }
    }
}

#[test]
fn overlapping_backups_from_one_host_all_survive_loss_and_repair() {
    let repo = Repo::init();
    let mut snaps: Vec<(String, PathBuf, Vec<Entry>)> = Vec::new();
    for round in 0..3u64 {
        let (a, b) = (
            repo.dir(&format!("a{round}")),
            repo.dir(&format!("b{round}")),
        );
        for (k, dir) in [&a, &b].into_iter().enumerate() {
            for f in 0..3u64 {
                let seed = round * 100 + k as u64 * 10 + f;
                write_file(
                    &dir.join(format!("f{f}.bin")),
                    &pseudo_random(seed, 3 << 20),
                );
            }
        }
        two_at_once(&repo, &a, &b);
        for dir in [a, b] {
            let id = snapshot_of(&repo, &dir, &snaps);
            snaps.push((id, dir.clone(), manifest(&dir)));
        }
    }
    assert_eq!(repo.snapshots().len(), 6, "a snapshot went missing");

    // Password-less, with an empty cache (a CI job): everything is committed and sound.
    run_ok(
        repo.cmd_as(Client::via(1).no_password().fresh_home())
            .args(["verify", "--read-data"]),
    );
    restore_all(&repo, 1, &snaps, "all snapshots");

    // Losing a remote, repairing, losing another: every snapshot survives.
    replace_dir(&repo.remotes[2], &repo.dir("empty"));
    restore_all(&repo, 0, &snaps, "with remote 2 lost");
    run_ok(repo.cmd_as(Client::via(0).no_password()).arg("repair"));
    run_ok(
        repo.cmd_as(Client::via(0).no_password().fresh_home())
            .arg("verify"),
    );
    fs::remove_dir_all(&repo.remotes[0]).unwrap();
    restore_all(&repo, 1, &snaps, "after repair, with remote 0 lost");
}

#[test]
fn taking_every_shard_of_any_extent_of_overlapping_runs_is_data_loss() {
    let repo = Repo::init();
    let (a, b) = (repo.dir("a"), repo.dir("b"));
    write_file(&a.join("x.bin"), &pseudo_random(1, 2 << 20));
    write_file(&b.join("y.bin"), &pseudo_random(2, 2 << 20));
    two_at_once(&repo, &a, &b);
    let extents: Vec<String> = object_paths(&repo.remotes[0], "extents")
        .into_iter()
        .map(|p| p.trim_start_matches("extents/").to_string())
        .collect();
    assert!(
        extents.len() >= 2,
        "expected extents from both runs: {extents:?}"
    );
    let aside = repo.dir("aside");
    for name in &extents {
        let moved: Vec<(PathBuf, PathBuf)> = repo
            .remotes
            .iter()
            .enumerate()
            .map(|(i, r)| (r.join("shards").join(name), aside.join(format!("{i}"))))
            .filter(|(from, _)| from.exists())
            .collect();
        for (from, to) in &moved {
            fs::rename(from, to).unwrap();
        }
        let out = run_any(
            repo.cmd_as(Client::via(0).no_password().fresh_home())
                .arg("verify"),
        );
        assert_eq!(
            out.status.code(),
            Some(21),
            "verify does not report the loss of every shard of extent {name}:\n{}",
            stdout_str(&out)
        );
        for (from, to) in &moved {
            fs::rename(to, from).unwrap();
        }
    }
    run_ok(
        repo.cmd_as(Client::via(0).no_password().fresh_home())
            .arg("verify"),
    );
}
