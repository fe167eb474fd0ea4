//! A hostile (or broken) remote cannot hang or exhaust a reader: a FIFO, a symlink to
//! /dev/zero or a huge sparse file where an object should be is refused on sight,
//! named in verify's report, and read around by restore.

use crate::shared::files::{mkfifo, pseudo_random, write_file};
use crate::support::command::{assert_no_panic, run_any, run_code, stderr_str, stdout_str};
use crate::support::manifest::{Entry, assert_tree_matches, manifest};
use crate::support::remote_dirs::{flip_bytes, object_paths};
use crate::support::repo::{Client, Repo, restored_path};
use crate::support::report::BackupReport;
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

/// Well under the harness's own timeout: the reads must be refused, not waited out.
const QUICK: Duration = Duration::from_secs(60);

fn timed(cmd: &mut assert_cmd::Command, code: i32, what: &str) -> std::process::Output {
    let started = Instant::now();
    let out = run_code(cmd, code);
    assert!(
        started.elapsed() < QUICK,
        "{what} took {:?}: a hostile object held it up",
        started.elapsed()
    );
    out
}

fn mentions_remote(out: &std::process::Output, url: &str) -> bool {
    stdout_str(out).contains(url) || stderr_str(out).contains(url)
}

/// [`mentions_remote`], or fail with `what` and the output.
#[track_caller]
fn assert_mentions_remote(out: &std::process::Output, url: &str, what: &str) {
    assert!(
        mentions_remote(out, url),
        "{what}:\n{}{}",
        stdout_str(out),
        stderr_str(out)
    );
}

/// `restore latest` into a new target, not held up (see [`timed`]), gives `expected`
/// (the manifest of `src`).
fn restores_quickly(repo: &Repo, src: &Path, expected: &[Entry], what: &str) {
    let target = repo.path("restored");
    timed(
        repo.cmd()
            .args(["restore", "latest", "--target"])
            .arg(&target),
        0,
        what,
    );
    assert_tree_matches(expected, &restored_path(&target, src), what);
}

#[test]
fn fifos_dev_zero_and_sparse_giants_are_refused_and_named() {
    let (repo, src) = Repo::with_source("a.bin", &pseudo_random(11, 600_000));
    write_file(&src.join("b.txt"), b"hello\n");
    let expected = manifest(&src);
    repo.backup(&[&src], &[]);

    // Remote 1: a shard becomes a FIFO (a reader that opened it would wait forever).
    let shard = object_paths(&repo.remotes[1], "shards")
        .into_iter()
        .next()
        .expect("remote 1 holds a shard");
    fs::remove_file(repo.remotes[1].join(&shard)).unwrap();
    mkfifo(&repo.remotes[1].join(&shard));
    // Remote 2: the config is a symlink to /dev/zero (endless), and its key file is
    // replaced by a 512 MiB sparse file.
    fs::remove_file(repo.remotes[2].join("config")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", repo.remotes[2].join("config")).unwrap();
    let key = object_paths(&repo.remotes[2], "keys")
        .into_iter()
        .next()
        .expect("remote 2 holds a key file");
    let giant = fs::File::create(repo.remotes[2].join(&key)).unwrap();
    giant.set_len(512 << 20).unwrap();
    drop(giant);

    let out = timed(
        repo.cmd_as(Client::via(0).no_password())
            .arg("verify")
            .arg("-v"),
        20,
        "verify with hostile objects",
    );
    assert!(
        mentions_remote(&out, &repo.url(1)) && mentions_remote(&out, &repo.url(2)),
        "verify does not name both remotes:\n{}{}",
        stdout_str(&out),
        stderr_str(&out)
    );
    // Restore reads around the FIFO and the broken config.
    restores_quickly(&repo, &src, &expected, "restore around hostile objects");
    // Opening through the remote whose config is /dev/zero fails fast and says why.
    let out = run_any(repo.cmd_as(Client::via(2).no_password()).arg("snapshots"));
    assert_ne!(out.status.code(), Some(0));
    assert_no_panic(&out, "open through a /dev/zero config");
}

/// Restore reads whole data shards (from local remotes too): a shard replaced by a huge
/// sparse file on the remote read first is refused by its certified size, not read, and
/// restore takes the data from the other remotes.
#[test]
fn giant_shards_on_the_remote_read_first_are_read_around() {
    let (repo, src) = Repo::with_source("a.bin", &pseudo_random(12, 900_000));
    write_file(&src.join("b.txt"), b"hello\n");
    let expected = manifest(&src);
    repo.backup(&[&src], &[]);

    let shards = object_paths(&repo.remotes[0], "shards");
    assert!(!shards.is_empty(), "remote 0 holds no shard");
    for shard in &shards {
        let giant = fs::File::create(repo.remotes[0].join(shard)).unwrap();
        giant.set_len(1 << 30).unwrap();
    }

    restores_quickly(&repo, &src, &expected, "restore around giant shards");
    let out = run_any(repo.cmd_as(Client::via(1).no_password()).arg("verify"));
    assert_ne!(
        out.status.code(),
        Some(0),
        "verify passed over giant shards"
    );
    assert_mentions_remote(
        &out,
        &repo.url(0),
        "verify does not name the remote with giant shards",
    );
}

/// A backup entangles new extents with data shards of older ones, read back from their
/// remotes as the encoder goes (a window at a time, never the whole shard in memory).
/// A shard a remote has altered — here one byte past the first windows of every big
/// shard, and the last byte of every small one, on every remote — must be refused once
/// read through, not coded into the new extent: the lie would then sit in the parity of
/// an honest extent. Control: the same backups over untouched remotes use pointers.
#[test]
fn altered_shards_are_never_entangled_with() {
    let pointers_used = |alter: bool| -> u64 {
        let repo = Repo::init();
        let src = repo.dir("first");
        write_file(&src.join("a.bin"), &pseudo_random(21, 17 << 20));
        repo.backup(&[&src], &[]);
        if alter {
            for remote in &repo.remotes {
                for shard in object_paths(remote, "shards") {
                    let path = remote.join(&shard);
                    let mut d = fs::read(&path).unwrap();
                    let at = if d.len() > 3 << 20 {
                        3 << 20
                    } else {
                        d.len() - 1
                    };
                    d[at] ^= 0x5a;
                    fs::write(&path, d).unwrap();
                }
            }
        }
        // One extent of about the first run's size, sealed when the run ends: its
        // pointers can only be shards of the first run.
        let next = repo.dir("second");
        write_file(&next.join("b.bin"), &pseudo_random(22, 15 << 20));
        let expected = manifest(&next);
        let report = repo.backup(&[&next], &[]);
        let target = repo.dir("restored");
        repo.restore("latest", &target);
        assert_eq!(manifest(&restored_path(&target, &next)), expected);
        report.json["pointers"]
            .as_u64()
            .expect("pointers in the report")
    };
    assert!(
        pointers_used(false) > 0,
        "control: the second run uses pointers"
    );
    assert_eq!(
        pointers_used(true),
        0,
        "an altered shard was entangled with"
    );
}

/// Where a backup reads pointer shards, a remote that put FIFOs in their place (a reader
/// that opened one would wait forever) costs nothing: each is refused on sight, the
/// backup entangles with none of them and finishes.
#[test]
fn fifos_where_pointer_shards_should_be_do_not_hold_up_a_backup() {
    let repo = Repo::init();
    let src = repo.dir("first");
    write_file(&src.join("a.bin"), &pseudo_random(31, 17 << 20));
    repo.backup(&[&src], &[]);
    for remote in &repo.remotes {
        for shard in object_paths(remote, "shards") {
            fs::remove_file(remote.join(&shard)).unwrap();
            mkfifo(&remote.join(&shard));
        }
    }
    let next = repo.dir("second");
    write_file(&next.join("b.bin"), &pseudo_random(32, 15 << 20));
    let expected = manifest(&next);
    let out = timed(
        repo.cmd()
            .args(["backup", "--json", "--no-progress"])
            .arg(&next),
        0,
        "backup beside FIFOs",
    );
    let report = BackupReport::parse(&out.stdout);
    assert_eq!(report.json["pointers"].as_u64(), Some(0));
    let target = repo.dir("restored");
    repo.restore("latest", &target);
    assert_eq!(manifest(&restored_path(&target, &next)), expected);
}

/// Peak resident memory of this process's finished children, in bytes.
fn children_peak_rss() -> u64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) },
        0
    );
    usage.ru_maxrss as u64 * 1024
}

/// A remote that lists many fake index segments, each just under the size a segment
/// may have (250 MiB, sparse), cannot make `verify` hold them all at once: it fetches
/// a bounded number of bytes at a time (it took 32 fetches' worth, 3 GiB for these 12).
/// Verify names the remote holding them and says they are lost (21: verify cannot tell
/// junk from a segment a headless snapshot needs, and must never pass a snapshot that
/// cannot be restored); restore, which needs none of them, is unaffected.
#[test]
fn many_giant_fake_index_segments_are_fetched_a_few_at_a_time() {
    let (repo, src) = Repo::with_snapshot_of("a.txt", b"hello\n");
    for i in 0..12u8 {
        let name = format!("{:064x}", u128::from(i) + 1);
        let giant = fs::File::create(repo.remotes[1].join("index").join(name)).unwrap();
        giant.set_len(250 << 20).unwrap();
    }
    let out = timed(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "-v"]),
        21,
        "verify with giant fake index segments",
    );
    assert_mentions_remote(&out, &repo.url(1), "verify does not name the remote");
    let peak = children_peak_rss();
    assert!(
        peak < 1200 << 20,
        "verify held {} MiB at its peak",
        peak >> 20
    );
    let target = repo.path("restored");
    timed(
        repo.cmd_as(Client::via(1))
            .args(["restore", "latest", "--target"])
            .arg(&target),
        0,
        "restore through the remote holding junk",
    );
    assert_eq!(
        fs::read(restored_path(&target, &src.join("a.txt"))).unwrap(),
        b"hello\n"
    );
}

/// How one remote's shards are replaced, for [`inspection_reads_around_hostile_shards`].
#[derive(Clone, Copy, Debug)]
enum ShardLie {
    /// Same size, other bytes.
    Altered,
    /// A FIFO: a reader that opened it would wait for ever.
    Fifo,
    /// A 1 GiB sparse file: a reader that took it whole would exhaust memory.
    Giant,
}

/// `ls`, `find`, `diff`, `stats` and `dump` read trees and data as restore does: with
/// every shard of the remote they are opened through altered, a FIFO or a giant, and an
/// empty cache, each prints exactly what it printed before the damage (for `stats`, the
/// snapshots' figures; its storage figures report the damage), promptly.
#[test]
fn inspection_reads_around_hostile_shards() {
    let (repo, src) = Repo::with_source("a.bin", &pseudo_random(12, 400_000));
    write_file(&src.join("d/e/notes.txt"), b"first\n");
    let first = repo.backup(&[&src], &[]).snapshot_id;
    write_file(&src.join("d/e/notes.txt"), b"second, longer\n");
    write_file(&src.join("d/new.bin"), &pseudo_random(13, 300_000));
    let second = repo.backup(&[&src], &[]).snapshot_id;
    let notes = src.join("d/e/notes.txt").to_string_lossy().into_owned();
    let commands: Vec<Vec<String>> = [
        vec!["ls", "--json", &second],
        vec!["find", "--json", "*.txt", "*.bin"],
        vec!["diff", "--json", &first, &second],
        vec!["stats", "--json", "--mode", "raw-data"],
        vec!["stats", "--json"],
        vec!["dump", &second, &notes],
    ]
    .iter()
    .map(|c| c.iter().map(|s| s.to_string()).collect())
    .collect();
    let outputs = |via: usize, what: &str| -> Vec<String> {
        (commands.iter())
            .map(|args| {
                let out = timed(
                    repo.cmd_as(Client::via(via).fresh_home()).args(args),
                    0,
                    what,
                );
                assert_no_panic(&out, what);
                if args[0] != "stats" {
                    return stdout_str(&out);
                }
                // Its `repository` part reports what each remote holds (the damage,
                // rightly): only the snapshots' figures must not change.
                let mut v: serde_json::Value =
                    serde_json::from_slice(&out.stdout).expect("stats --json");
                v.as_object_mut().map(|o| o.remove("repository"));
                v.to_string()
            })
            .collect()
    };
    let expected = outputs(1, "before the damage");
    assert!(expected[5] == "second, longer\n", "{:?}", expected[5]);

    let shards = object_paths(&repo.remotes[1], "shards");
    assert!(!shards.is_empty());
    let originals: Vec<Vec<u8>> = (shards.iter())
        .map(|s| fs::read(repo.remotes[1].join(s)).unwrap())
        .collect();
    for lie in [ShardLie::Altered, ShardLie::Fifo, ShardLie::Giant] {
        for (shard, original) in shards.iter().zip(&originals) {
            let path = repo.remotes[1].join(shard);
            fs::remove_file(&path).unwrap();
            match lie {
                ShardLie::Altered => {
                    fs::write(&path, original).unwrap();
                    flip_bytes(&path);
                }
                ShardLie::Fifo => mkfifo(&path),
                ShardLie::Giant => fs::File::create(&path).unwrap().set_len(1 << 30).unwrap(),
            }
        }
        let what = format!("{lie:?} shards on remote 1");
        let got = outputs(1, &what);
        for (args, (want, got)) in commands.iter().zip(expected.iter().zip(&got)) {
            assert_eq!(
                got,
                want,
                "{what}: `tangle {}` printed otherwise",
                args.join(" ")
            );
        }
        for (shard, original) in shards.iter().zip(&originals) {
            let path = repo.remotes[1].join(shard);
            fs::remove_file(&path).unwrap();
            fs::write(&path, original).unwrap();
        }
    }
}
