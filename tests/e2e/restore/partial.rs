//! A restore facing data the repository lost saves everything that can be saved (issue
//! 32): it writes every file whose data is there, lists every file and directory it
//! cannot restore (path and bytes, in text and in `--json`), and exits 21, as `verify`
//! does for the same loss. A target that cannot be written stays exit 1; when both
//! happen, 21 wins.
//!
//! Two backups: the first holds `a.bin` and `sub/b.txt`, the second adds `c.bin`. Each
//! seals one data extent and then one tree extent, so the certificates' chain order says
//! which extent holds what (seq 0: the first backup's data, 1: its trees, 2: `c.bin`,
//! 3: the second backup's trees, which reuse the first's listing of `sub`).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{assert_no_panic, run_any, stderr_str};
use crate::support::repo::{Client, Repo, restored_path};
use tangle::extent::Certificate;
use tangle::repo::Repository;

struct Fixture {
    repo: Repo,
    src: PathBuf,
    /// Every certificate, in chain order.
    certs: Vec<Arc<Certificate>>,
}

fn setup() -> Fixture {
    let (repo, src) = Repo::with_source("a.bin", &pseudo_random(1, 300_000));
    write_file(&src.join("sub/b.txt"), b"in a subdirectory\n");
    // An access time ahead of now, which reading does not move (relatime): the listing
    // of `sub` (its entry's times) stays the same, so the second backup reuses it.
    let ahead = std::time::SystemTime::now() + std::time::Duration::from_secs(3600);
    fs::File::open(src.join("sub/b.txt"))
        .and_then(|f| f.set_times(fs::FileTimes::new().set_accessed(ahead)))
        .expect("set the access time");
    repo.backup(&[&src], &[]);
    write_file(&src.join("c.bin"), &pseudo_random(2, 200_000));
    repo.backup(&[&src], &[]);
    let lib = Repository::open(repo.url(0).as_str(), Some(repo.path("lib-cache")))
        .expect("open through the library");
    let mut certs = lib.load_catalog().expect("certificates");
    certs.sort_by_key(|c| c.seq);
    let blocks: Vec<usize> = certs.iter().map(|c| c.block_lengths.len()).collect();
    assert!(
        blocks[3] < blocks[1],
        "the second backup stored every listing again ({blocks:?} blocks): `sub` is not shared"
    );
    let shape: Vec<(u8, u8)> = (certs.iter())
        .map(|c| (c.data_shards, c.parity_shards))
        .collect();
    assert_eq!(
        shape,
        [(4, 3), (4, 12), (4, 3), (4, 12)],
        "data, trees, data, trees"
    );
    Fixture { repo, src, certs }
}

impl Fixture {
    /// Remove every shard of extent `seq` from every remote.
    fn lose_extent(&self, seq: usize) {
        let c = &self.certs[seq];
        for (i, s) in c.shards.iter().enumerate() {
            let path = self.repo.remotes[s.remote as usize].join(c.name().shard_path(i));
            fs::remove_file(&path).expect("remove a shard");
        }
    }

    fn restore(&self, target: &Path, json: bool) -> std::process::Output {
        // A fresh cache: the shared one may hold the trees the test deleted.
        let mut cmd = self.repo.cmd_as(Client::via(0).fresh_home());
        if json {
            cmd.arg("--json");
        }
        let out = run_any(cmd.args(["restore", "latest", "--target"]).arg(target));
        assert_no_panic(&out, "restore");
        out
    }

    /// Where `name` (relative to the source) is restored under `target`.
    fn restored(&self, target: &Path, name: &str) -> PathBuf {
        restored_path(target, &self.src).join(name)
    }

    fn orig(&self, name: &str) -> String {
        self.src.join(name).to_string_lossy().into_owned()
    }
}

fn lost_paths(v: &serde_json::Value) -> Vec<(String, String, u64)> {
    let mut l: Vec<(String, String, u64)> = (v["lost"].as_array())
        .unwrap_or_else(|| panic!("no lost array: {v:#}"))
        .iter()
        .map(|l| {
            (
                l["path"].as_str().unwrap_or_default().to_string(),
                l["type"].as_str().unwrap_or_default().to_string(),
                l["size"].as_u64().unwrap_or(u64::MAX),
            )
        })
        .collect();
    l.sort();
    l
}

/// The first backup's data extent is gone from every remote: `c.bin` is restored byte
/// for byte, `a.bin` and `sub/b.txt` are listed (path and size) and not left behind
/// half-written, and the restore exits 21 — with `--json` too.
#[test]
fn lost_files_are_listed_the_rest_restored_and_the_exit_is_21() {
    let fx = setup();
    fx.lose_extent(0);

    let target = fx.repo.path("out");
    let out = fx.restore(&target, false);
    let err = stderr_str(&out);
    assert_eq!(out.status.code(), Some(21), "restore\nstderr:\n{err}");
    assert_eq!(
        fs::read(fx.restored(&target, "c.bin")).expect("c.bin restored"),
        pseudo_random(2, 200_000),
        "c.bin differs"
    );
    for name in ["a.bin", "sub/b.txt"] {
        assert!(
            !fx.restored(&target, name).exists(),
            "{name} was left behind though its data is lost"
        );
    }
    assert!(
        err.contains(&format!("not restored: {} (292.97 KiB)", fx.orig("a.bin")))
            && err.contains(&format!("not restored: {} (18 B)", fx.orig("sub/b.txt"))),
        "the lost files are not listed with their sizes:\n{err}"
    );
    let short = fx.certs[0].name().short();
    assert!(
        err.contains(&format!(
            "2 of these because extent {short} cannot be rebuilt"
        )),
        "the cause is not given once:\n{err}"
    );
    assert!(
        err.contains("2 files (292.99 KiB) not restored: their data is lost on every remote"),
        "{err}"
    );

    let target = fx.repo.path("out-json");
    let out = fx.restore(&target, true);
    assert_eq!(out.status.code(), Some(21), "{}", stderr_str(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("restore --json");
    assert_eq!(
        lost_paths(&v),
        vec![
            (fx.orig("a.bin"), "file".into(), 300_000),
            (fx.orig("sub/b.txt"), "file".into(), 18),
        ],
        "{v:#}"
    );
    assert_eq!(v["lost_bytes"], 300_018, "{v:#}");
    assert_eq!(v["errors"].as_array().map(Vec::len), Some(2), "{v:#}");
}

/// The first backup's tree extent is gone: the second snapshot still lists `sub` by the
/// first one's listing, which is lost. Everything else is restored; `sub` is listed as a
/// directory whose listing is lost; exit 21.
#[test]
fn a_lost_directory_listing_costs_only_that_directory() {
    let fx = setup();
    fx.lose_extent(1);
    let target = fx.repo.path("out");
    let out = fx.restore(&target, true);
    let err = stderr_str(&out);
    assert_eq!(out.status.code(), Some(21), "restore\nstderr:\n{err}");
    for (name, seed, len) in [("a.bin", 1, 300_000), ("c.bin", 2, 200_000)] {
        assert_eq!(
            fs::read(fx.restored(&target, name)).unwrap_or_default(),
            pseudo_random(seed, len),
            "{name} not restored byte for byte"
        );
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("restore --json");
    assert_eq!(
        lost_paths(&v),
        vec![(fx.orig("sub"), "dir".into(), 0)],
        "{v:#}"
    );
    assert!(
        err.contains(&format!(
            "not restored: {}/ (its listing is lost: nothing under it)",
            fx.orig("sub")
        )) && err.contains("1 directory not restored: their data is lost on every remote"),
        "{err}"
    );
}

/// The newest snapshot's own listing is gone: nothing can be restored, and restore says
/// so with exit 21 (not 1), naming the snapshot.
#[test]
fn a_lost_root_listing_is_data_lost() {
    let fx = setup();
    fx.lose_extent(3);
    let out = fx.restore(&fx.repo.path("out"), false);
    let err = stderr_str(&out);
    assert_eq!(out.status.code(), Some(21), "restore\nstderr:\n{err}");
    assert!(
        err.contains("cannot be restored") && err.contains("listing is lost"),
        "{err}"
    );
}

/// A target that cannot be written (a directory where `c.bin` goes) is exit 1; with data
/// lost as well, 21 wins and the other error is still reported.
#[test]
fn an_unwritable_target_is_1_and_data_lost_wins() {
    let fx = setup();
    let target = fx.repo.path("out");
    fs::create_dir_all(fx.restored(&target, "c.bin").join("in-the-way")).unwrap();
    let out = fx.restore(&target, false);
    let err = stderr_str(&out);
    assert_eq!(out.status.code(), Some(1), "restore\nstderr:\n{err}");

    fx.lose_extent(0);
    let out = fx.restore(&target, false);
    let err = stderr_str(&out);
    assert_eq!(out.status.code(), Some(21), "restore\nstderr:\n{err}");
    assert!(
        err.contains(&fx.restored(&target, "c.bin").display().to_string())
            && err.contains("but for 1 other error"),
        "the target's error is not reported beside the loss:\n{err}"
    );
}

/// `dump` of a directory holding a file whose data is lost: exit 21 naming the file,
/// never a tar that silently lacks it; with `--target` no archive is left behind.
#[test]
fn dump_of_a_directory_with_lost_data_is_21() {
    let fx = setup();
    fx.lose_extent(0);
    let dump = |extra: &[&std::ffi::OsStr]| {
        let mut cmd = fx.repo.cmd_as(Client::via(0).fresh_home());
        let out = run_any(cmd.args(["dump", "latest"]).args(extra).arg(&fx.src));
        assert_no_panic(&out, "dump");
        out
    };
    let out = dump(&[]);
    let err = stderr_str(&out);
    assert_eq!(out.status.code(), Some(21), "dump\nstderr:\n{err}");
    assert!(
        err.contains(&fx.orig("a.bin")) || err.contains(&fx.orig("sub/b.txt")),
        "the message names no lost file:\n{err}"
    );
    // What was written is no complete archive: `tar` says so.
    let cut = fx.repo.path("cut.tar");
    fs::write(&cut, &out.stdout).unwrap();
    let listed = std::process::Command::new("tar")
        .arg("-tf")
        .arg(&cut)
        .output()
        .expect("run tar");
    assert!(
        !listed.status.success(),
        "tar lists the cut archive without complaint:\n{}",
        String::from_utf8_lossy(&listed.stdout)
    );
    let target = fx.repo.path("lost.tar");
    let out = dump(&["--target".as_ref(), target.as_os_str()]);
    assert_eq!(
        out.status.code(),
        Some(21),
        "dump --target\nstderr:\n{}",
        stderr_str(&out)
    );
    assert!(!target.exists(), "a failed dump left {}", target.display());
}

/// The same as zip: exit 21, and what was written has no central directory, so
/// `unzip` refuses it; with `--target` nothing is left behind.
#[test]
fn dump_as_zip_of_a_directory_with_lost_data_is_21() {
    let fx = setup();
    fx.lose_extent(0);
    let dump = |extra: &[&std::ffi::OsStr]| {
        let mut cmd = fx.repo.cmd_as(Client::via(0).fresh_home());
        let out = run_any(
            cmd.args(["dump", "latest", "--archive", "zip"])
                .args(extra)
                .arg(&fx.src),
        );
        assert_no_panic(&out, "dump --archive zip");
        out
    };
    let out = dump(&[]);
    let err = stderr_str(&out);
    assert_eq!(out.status.code(), Some(21), "dump\nstderr:\n{err}");
    assert!(
        err.contains(&fx.orig("a.bin")) || err.contains(&fx.orig("sub/b.txt")),
        "the message names no lost file:\n{err}"
    );
    assert!(
        !err.contains("ZipWriter"),
        "the zip writer printed its own error:\n{err}"
    );
    let cut = fx.repo.path("cut.zip");
    fs::write(&cut, &out.stdout).unwrap();
    let listed = std::process::Command::new("unzip")
        .arg("-l")
        .arg(&cut)
        .output()
        .expect("run unzip");
    assert!(
        !listed.status.success(),
        "unzip lists the cut archive without complaint:\n{}",
        String::from_utf8_lossy(&listed.stdout)
    );
    let target = fx.repo.path("lost.zip");
    let out = dump(&["--target".as_ref(), target.as_os_str()]);
    assert_eq!(out.status.code(), Some(21), "{}", stderr_str(&out));
    assert!(!target.exists(), "a failed dump left {}", target.display());
}
