//! How long the commands that walk a snapshot's trees (`ls`, `find`, `diff`, `stats`)
//! wait on high-latency remotes: each wait for a shard not yet fetched costs a round
//! trip, so a walk that fetched each tree's shard when it met it waited once per shard
//! of trees. They fetch, before a tree whose shard is missing, up to 8 shards of it and
//! of the trees they walk next, and so wait about once per 8 shards.
//!
//! The waits come from `TANGLE_DEBUG_REQUESTS` (`tangle: shard waits: N`), the shards
//! of trees from listing the remotes (the source holds empty files only: every extent
//! holds trees). Against the real S3 server of the test suite.

use std::path::Path;

use crate::shared::files::{pseudo_random, write_file};
use crate::shared::init::small_init_options;
use crate::support::command::{
    PASSWORD, run_ok, stderr_str, stdout_str, tangle_via_url, three_s3_remotes,
};
use crate::support::repo::{Repo, data_shard_sizes};
use assert_cmd::Command;
use tangle::repo::Repository;

/// Extents of 64 KiB: data shards of 16 KiB, so that the trees take many.
const EXTENT_SIZE: u32 = 64 * 1024;
const DIRS: usize = 48;
const FILES_PER_DIR: usize = 100;

/// A file name of 120 characters hard to compress (the trees must not shrink to a few
/// shards).
fn long_name(seed: u64) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_";
    (pseudo_random(seed, 120).iter())
        .map(|b| ALPHABET[(*b & 63) as usize] as char)
        .collect()
}

/// `DIRS` directories of `FILES_PER_DIR` empty files with long names; with `extra`,
/// one more file in each directory (every directory's tree changes).
fn make_source(src: &Path, extra: bool) {
    for d in 0..DIRS {
        let dir = src.join(format!("d{d:02}"));
        for f in 0..FILES_PER_DIR {
            write_file(&dir.join(long_name((d * 1000 + f) as u64)), b"");
        }
        if extra {
            write_file(&dir.join("added"), b"");
        }
    }
}

fn tangle(home: &Path, via: &str) -> Command {
    tangle_via_url(home, via)
}

/// Run `args` with request counting and return how many times it waited for shards,
/// and its stdout.
fn shard_waits(home: &Path, url: &str, args: &[&str]) -> (u64, String) {
    let out = run_ok(
        tangle(home, url)
            .env("TANGLE_DEBUG_REQUESTS", "1")
            .args(args),
    );
    let stderr = stderr_str(&out);
    let waits = (stderr.lines())
        .find_map(|l| l.strip_prefix("tangle: shard waits: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no shard waits line:\n{stderr}"));
    (waits, stdout_str(&out))
}

#[test]
fn tree_walks_over_s3_wait_about_once_per_eight_shards_of_trees() {
    let Some(urls) = three_s3_remotes("cli-tree-walks", "tree-walks") else {
        return;
    };
    let repo = Repo::uninit();
    let opts = tangle::repo::InitOptions {
        remotes: urls.clone(),
        ..small_init_options(EXTENT_SIZE)
    };
    tangle::repo::init(&opts, PASSWORD.as_bytes()).expect("library init");
    // Back up the source, then with a file added to every directory; after each, the
    // data shards on the remotes (all hold trees).
    let src = repo.dir("src");
    let shards_after = |extra: bool| {
        make_source(&src, extra);
        run_ok(
            tangle(&repo.home, &urls[0])
                .args(["backup", "-q"])
                .arg(&src),
        );
        let cache = repo.path(&format!("lib-cache-{extra}"));
        data_shard_sizes(&Repository::open(&urls[0], Some(cache)).expect("open")).len()
    };
    let first = shards_after(false);
    let both = shards_after(true);
    assert!(
        first >= 24 && both - first >= 24,
        "the fixture's trees take 24 shards or more per snapshot: {first}, {both} in all"
    );

    // Each walk reads every tree of one snapshot (diff: of both, all changed).
    let ls = shard_waits(&repo.home, &urls[0], &["ls", "latest"]);
    let lines = ls.1.lines().count();
    assert!(
        lines > DIRS * (FILES_PER_DIR + 1),
        "ls listed {lines} lines"
    );
    let find = shard_waits(&repo.home, &urls[0], &["find", "--json", "added"]);
    let report: serde_json::Value = serde_json::from_str(&find.1).expect("find --json");
    assert_eq!(report["matches"], DIRS, "{report}");
    let snapshots = run_ok(tangle(&repo.home, &urls[0]).args(["snapshots", "--json"]));
    let snapshots: serde_json::Value =
        serde_json::from_slice(&snapshots.stdout).expect("snapshots --json");
    let id = |i: usize| snapshots[i]["id"].as_str().expect("id").to_string();
    let diff = shard_waits(&repo.home, &urls[0], &["diff", &id(0), &id(1)]);
    assert_eq!(
        diff.1.lines().filter(|l| l.ends_with("/added")).count(),
        DIRS,
        "{}",
        diff.1
    );
    let stats = shard_waits(&repo.home, &urls[0], &["stats", "latest"]);
    for (what, (waits, _), shards) in [
        ("ls", ls, both - first),
        ("find", find, both),
        ("diff", diff, both),
        ("stats", stats, both - first),
    ] {
        assert!(
            waits * 4 <= shards as u64,
            "{what} waited for shards {waits} times for {shards} shards of trees (a wait \
             per shard walked without reading ahead)"
        );
    }
}
