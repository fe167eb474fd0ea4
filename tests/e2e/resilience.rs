//! End-to-end: losing or corrupting one remote never changes what a restore gives back.

use crate::shared::files::{pseudo_random, write_file};
use crate::support::awkward::build_awkward_tree_opts;
use crate::support::command::{
    PASSWORD, assert_clean_failure, run_any, run_code, run_ok, stderr_str,
};
use crate::support::fsutil::{files_under, set_mtime};
use crate::support::manifest::{assert_tree_matches, manifest};
use crate::support::remote_dirs::dir_state;
use crate::support::repo::{Client, History, Repo, parse_snapshots, restored_path};
use std::collections::HashSet;
use std::fs;
use std::path::PathBuf;

/// Backup an awkward tree, then add and change data and back up again, so that the
/// repository holds several extents (newer parity entangled with older data).
fn setup() -> History {
    let repo = Repo::init();
    let src = repo.dir("src");
    // Hard links are left out here: they are covered by the round-trip tests, and this
    // file is about damaged remotes.
    let awk = build_awkward_tree_opts(&src, false);
    let m1 = manifest(&src);
    let r1 = repo.backup(&[&src], &[]);
    assert!(r1.errors.is_empty(), "backup errors: {:?}", r1.errors);

    for i in 0..3 {
        write_file(
            &src.join(format!("more/random-{i}.bin")),
            &pseudo_random(100 + i, 3_000_000),
        );
    }
    write_file(&awk.plain, b"plain file, second version\n");
    set_mtime(&awk.plain, 1_600_000_002, 2);
    set_mtime(&src.join("more"), 1_600_000_000, 1);
    set_mtime(&src, 1_600_000_001, 999_999_999);
    let m2 = manifest(&src);
    let r2 = repo.backup(&[&src], &[]);
    assert!(r2.errors.is_empty(), "backup errors: {:?}", r2.errors);
    assert_eq!(r2.files_new, 3, "second backup: files_new\n{:#}", r2.json);
    assert_eq!(
        r2.files_changed, 1,
        "second backup: files_changed\n{:#}",
        r2.json
    );

    History {
        repo,
        src,
        snaps: vec![(r1.snapshot_id, m1), (r2.snapshot_id, m2)],
    }
}

/// Each remote in turn made to disappear (moved away): restore through each of the
/// other two gives the identical tree; finally one remote is really `rm -rf`ed.
#[test]
fn restore_identical_after_losing_any_one_remote() {
    let f = setup();
    let repo = &f.repo;
    for lost in 0..3 {
        let gone = repo.path(&format!("remote{lost}.gone"));
        fs::rename(&repo.remotes[lost], &gone).unwrap();
        for via in (0..3).filter(|&v| v != lost) {
            f.restore_all_and_compare(via, &format!("remote{lost} lost, via remote{via}"));
        }
        // Listing snapshots also still works.
        let via = (lost + 1) % 3;
        let out = run_ok(
            repo.cmd_as(Client::via(via).fresh_home())
                .arg("snapshots")
                .arg("--json"),
        );
        let mut ids: Vec<String> = parse_snapshots(&out.stdout)
            .iter()
            .map(|s| s["id"].as_str().unwrap().to_string())
            .collect();
        ids.sort();
        let mut want: Vec<String> = f.snaps.iter().map(|(id, _)| id.clone()).collect();
        want.sort();
        assert_eq!(
            ids, want,
            "snapshots via remote{via} with remote{lost} lost"
        );
        fs::rename(&gone, &repo.remotes[lost]).unwrap();
    }

    fs::remove_dir_all(&repo.remotes[1]).unwrap();
    f.restore_all_and_compare(2, "remote1 rm -rf, via remote2");
    // Also with the cache of the machine that made the backup.
    let (snap, expected) = f.snaps.last().unwrap();
    let target = repo.path("target-rm-rf-default-cache");
    run_ok(
        repo.cmd_as(Client::via(0))
            .arg("restore")
            .arg(snap)
            .arg("--target")
            .arg(&target),
    );
    assert_tree_matches(
        expected,
        &restored_path(&target, &f.src),
        "remote1 rm -rf, via remote0, warm cache",
    );
}

/// Flip bytes in every shard file of one remote (each remote in turn): restore via
/// that remote and via another one is still identical (never a wrong byte).
#[test]
fn restore_identical_with_corrupted_shards_on_one_remote() {
    let f = setup();
    let repo = &f.repo;
    for bad in 0..3 {
        let shard_dir = repo.remotes[bad].join("shards");
        let shards = files_under(&shard_dir);
        assert!(
            !shards.is_empty(),
            "remote{bad} holds no files under shards/ (layout: {:?})",
            dir_state(&repo.remotes[bad])
                .keys()
                .take(30)
                .collect::<Vec<_>>()
        );
        let originals: Vec<(PathBuf, Vec<u8>)> = shards
            .iter()
            .map(|p| (p.clone(), fs::read(p).unwrap()))
            .collect();
        let mut corrupted = 0;
        for (p, data) in &originals {
            if data.is_empty() {
                continue;
            }
            let mut d = data.clone();
            for pos in [0, d.len() / 3, d.len() / 2, d.len() - 1] {
                d[pos] ^= 0x5a;
            }
            fs::write(p, &d).unwrap();
            corrupted += 1;
        }
        assert!(corrupted > 0, "no non-empty shard on remote{bad}");

        f.restore_all_and_compare(
            bad,
            &format!("shards of remote{bad} corrupted, via remote{bad}"),
        );
        let other = (bad + 1) % 3;
        f.restore_all_and_compare(
            other,
            &format!("shards of remote{bad} corrupted, via remote{other}"),
        );

        for (p, data) in &originals {
            fs::write(p, data).unwrap();
        }
    }
}

/// Garbage `config` on one remote: opening through it fails cleanly (message, no
/// panic); through an intact remote, snapshots and restore still work.
#[test]
fn garbage_config_on_one_remote() {
    let f = setup();
    let repo = &f.repo;
    let snap = &f.snaps[1].0;
    let config = repo.remotes[0].join("config");
    assert!(config.is_file(), "remote0 has no `config` file");
    fs::write(&config, pseudo_random(77, 4096)).unwrap();

    let o = run_any(repo.cmd_as(Client::via(0)).arg("snapshots").arg("--json"));
    assert_clean_failure(&o, "snapshots via a remote with a garbage config");
    let o = run_any(
        repo.cmd_as(Client::via(0).fresh_home())
            .arg("restore")
            .arg(snap)
            .arg("--target")
            .arg(repo.path("t-garbage")),
    );
    assert_clean_failure(&o, "restore via a remote with a garbage config");

    let snaps = repo.snapshots_via(1);
    assert_eq!(snaps.len(), 2, "snapshots via remote1: {snaps:#?}");
    f.restore_all_and_compare(1, "garbage config on remote0, via remote1");
    f.restore_all_and_compare(2, "garbage config on remote0, via remote2");
}

/// A file whose data cannot be restored (every shard of its extents gone, beyond what
/// parity rebuilds) is named in the errors, exit 21, and not left behind sized and
/// zero-filled, where it would look restored; the rest of the snapshot is restored.
#[test]
fn a_file_that_cannot_be_restored_is_not_left_behind() {
    use tangle::content::BlobKind;
    use tangle::repo::Repository;
    let (repo, src) = Repo::with_snapshot_of("kept.txt", b"small and safe\n");
    // Bigger than an extent: the first one it fills holds its data alone.
    write_file(&src.join("lost.bin"), &pseudo_random(7, 24 << 20));
    let id = repo.backup(&[&src], &[]).snapshot_id;

    // The extents that hold data blobs of the second backup and no tree.
    let lib = Repository::open(&repo.url(0), Some(repo.path("lib-cache"))).expect("open");
    let lib = (lib.unlock_and_load_index(PASSWORD.as_bytes())).expect("unlock");
    let kept_blobs: HashSet<_> = fs::read(src.join("kept.txt"))
        .map(|d| lib.key().blob_id(&d))
        .into_iter()
        .collect();
    let mut data_only: HashSet<String> = HashSet::new();
    let mut with_other: HashSet<String> = HashSet::new();
    for (blob, extent, loc) in lib.index().iter().unwrap() {
        if loc.kind == BlobKind::Data && !kept_blobs.contains(&blob) {
            data_only.insert(extent.hex());
        } else {
            with_other.insert(extent.hex());
        }
    }
    data_only.retain(|e| !with_other.contains(e));
    assert!(
        !data_only.is_empty(),
        "no extent holds only lost.bin's data"
    );
    for r in &repo.remotes {
        for e in &data_only {
            let _ = fs::remove_dir_all(r.join("shards").join(e));
        }
    }

    let target = repo.path("target");
    let out = run_code(
        repo.cmd_as(Client::via(1).fresh_home())
            .args(["restore", &id, "--target"])
            .arg(&target),
        21,
    );
    let err = stderr_str(&out);
    assert!(
        err.contains("not restored: ") && err.contains("lost.bin"),
        "{err}"
    );
    let restored = restored_path(&target, &src);
    assert_eq!(
        fs::read(restored.join("kept.txt")).expect("kept.txt restored"),
        b"small and safe\n"
    );
    assert!(
        !restored.join("lost.bin").exists(),
        "a file that could not be restored was left at its path"
    );
}
