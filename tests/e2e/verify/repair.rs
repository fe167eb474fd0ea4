//! End-to-end tests of `tangle verify` and `tangle repair` through the binary: every
//! kind of damage a remote can do (loss, bit flips, rollback, damaged metadata) is
//! found, named, survived by restore and undone by repair.
//!
//! The repositories here are created through the library with small extents (256 KiB)
//! so that a few MiB of data give many extents; the coding is the default one for three
//! remotes (4 data + 3 parity shards, 2 pointers). Everything else runs the binary.
//! `verify` and `repair` run without any password unless a test says otherwise.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{
    PASSWORD, assert_no_panic, assert_stdout_has, run_any, run_code, run_ok, stderr_str, stdout_str,
};
use crate::support::fsutil::{copy_tree, set_mode, set_mtime};
use crate::support::manifest::manifest;
use crate::support::remote_dirs::{
    FileDamage, assert_files_equal, assert_remotes_unchanged, damage_file, files_state, flip_bytes,
    object_paths, replace_dir,
};
use crate::support::repo::{Client, History, Repo, medium_chunked_init_options, parse_snapshots};
use crate::support::report::{
    assert_has_finding, expect_code, finding_kind, json_ok, repair_actions, run_report,
    show_findings, verify_damage, verify_findings,
};
use tangle::extent::Certificate;
use tangle::repo::Repository;

const EXTENT_SIZE: u32 = 256 * 1024;

/// Create the repository (library, small extents, cheap KDF) over the three remote dirs.
fn init_small(repo: &Repo) {
    let opts = medium_chunked_init_options(repo, EXTENT_SIZE);
    let r = tangle::repo::init(&opts, PASSWORD.as_bytes()).expect("library init");
    assert_eq!(
        (r.data_shards, r.parity_shards, r.pointers),
        (4, 3, 2),
        "default coding for 3 remotes"
    );
}

/// Two backups (about 2.8 MiB, then 1 MiB more) of a small tree with a symlink, an
/// empty directory, odd modes and explicit mtimes: about 15 extents in all.
fn setup() -> History {
    let repo = Repo::uninit();
    init_small(&repo);
    let src = repo.dir("src");
    write_file(&src.join("data/a.bin"), &pseudo_random(1, 1_500_000));
    write_file(&src.join("data/b.bin"), &pseudo_random(2, 1_200_000));
    write_file(&src.join("notes.txt"), b"first version\n");
    write_file(&src.join("sub/deep/c.txt"), &pseudo_random(3, 50_000));
    write_file(&src.join("empty-file"), b"");
    std::os::unix::fs::symlink("notes.txt", src.join("link")).unwrap();
    fs::create_dir_all(src.join("empty-dir")).unwrap();
    set_mode(&src.join("sub/deep/c.txt"), 0o600);
    let mut all = vec![
        "data/a.bin",
        "data/b.bin",
        "notes.txt",
        "sub/deep/c.txt",
        "empty-file",
        "link",
        "empty-dir",
        "sub/deep",
        "sub",
        "data",
    ];
    all.push("");
    for (i, p) in all.iter().enumerate() {
        set_mtime(
            &src.join(p),
            1_600_000_000 + i as i64 * 1000,
            i as u32 * 7919,
        );
    }
    let m1 = manifest(&src);
    let r1 = repo.backup(&[&src], &[]);
    assert!(r1.errors.is_empty(), "backup 1 errors: {:?}", r1.errors);

    write_file(&src.join("more/d.bin"), &pseudo_random(4, 1_000_000));
    write_file(&src.join("notes.txt"), b"second version\n");
    for (i, p) in ["more/d.bin", "notes.txt", "more", ""].iter().enumerate() {
        set_mtime(
            &src.join(p),
            1_700_000_000 + i as i64 * 1000,
            4242 + i as u32,
        );
    }
    let m2 = manifest(&src);
    let r2 = repo.backup(&[&src], &[]);
    assert!(r2.errors.is_empty(), "backup 2 errors: {:?}", r2.errors);
    History {
        repo,
        src,
        snaps: vec![(r1.snapshot_id, m1), (r2.snapshot_id, m2)],
    }
}

// ---------------------------------------------------------------------------------
// Running commands
// ---------------------------------------------------------------------------------

fn verify(fx: &History, via: usize, extra: &[&str], what: &str) -> (i32, Value) {
    run_report(
        fx.repo
            .cmd_as(Client::via(via).no_password())
            .arg("verify")
            .arg("--json")
            .args(extra),
        what,
    )
}

fn repair(fx: &History, via: usize, extra: &[&str], what: &str) -> (i32, Value) {
    run_report(
        fx.repo
            .cmd_as(Client::via(via).no_password())
            .arg("repair")
            .arg("--json")
            .args(extra),
        what,
    )
}

/// Every extent certificate (read through the library; no password needed).
fn catalog(fx: &History, via: usize) -> Vec<Arc<Certificate>> {
    let repo = Repository::open(
        fx.repo.remotes[via].to_str().unwrap(),
        Some(fx.repo.path("lib-cache")),
    )
    .unwrap();
    repo.load_catalog().unwrap()
}

// ---------------------------------------------------------------------------------
// 1. A whole remote lost
// ---------------------------------------------------------------------------------

/// Remote `lost` is deleted (rm -rf): verify exits 20 and names it; restore is identical
/// through both others; repair (no password) rebuilds it byte for byte; verify
/// --read-data is clean; a second repair has nothing to do; then another remote is
/// deleted and restore is still identical.
fn lose_remote(lost: usize) {
    let fx = setup();
    let via = (lost + 1) % 3;
    let other = (lost + 2) % 3;
    let url = fx.repo.url(lost);
    let before = files_state(&fx.repo.remotes[lost]);
    assert!(
        before.keys().any(|p| p.starts_with("shards")),
        "remote{lost} holds no shards"
    );
    fs::remove_dir_all(&fx.repo.remotes[lost]).unwrap();

    let what = format!("verify with remote{lost} deleted");
    let (code, v) = verify(&fx, via, &[], &what);
    expect_code(code, 20, &v, &what);
    assert!(
        verify_findings(&v)
            .iter()
            .any(|f| f["remote"] == url.as_str()
                && matches!(finding_kind(f), "remote-empty" | "remote-unreachable")),
        "{what}: no remote-empty/remote-unreachable finding naming {url}:\n{}",
        show_findings(&v)
    );
    assert!(
        v["remotes"]
            .as_array()
            .is_some_and(|r| r.iter().any(|u| u == url.as_str())),
        "{what}: `remotes` does not list {url}:\n{v:#}"
    );
    // Every damage finding is about the lost remote.
    for f in verify_damage(&v) {
        assert!(
            f["remote"] == url.as_str() || f["remote"].is_null(),
            "{what}: damage blamed on another remote: {f}"
        );
    }
    // The human output names it too.
    let o = run_any(fx.repo.cmd_as(Client::via(via).no_password()).arg("verify"));
    assert_no_panic(&o, &what);
    assert_eq!(o.status.code(), Some(20), "{what} (human output)");
    assert!(
        stdout_str(&o).contains(&url),
        "{what}: human output does not name {url}:\n{}",
        stdout_str(&o)
    );

    fx.restore_all_and_compare(via, &format!("remote{lost} lost, via remote{via}"));
    fx.restore_all_and_compare(other, &format!("remote{lost} lost, via remote{other}"));

    let what = format!("repair of deleted remote{lost}");
    let (code, r) = repair(&fx, via, &[], &what);
    assert_eq!(code, 0, "{what}: exit code\n{r:#}");
    let acts = repair_actions(&r);
    assert!(
        acts.iter()
            .any(|a| a["kind"] == "rebuild-shard" && a["remote"] == url.as_str()),
        "{what}: no rebuild-shard action for {url}\n{r:#}"
    );
    assert!(
        acts.iter().any(|a| a["kind"] == "copy-metadata"
            && a["remote"] == url.as_str()
            && a["path"] == "config"),
        "{what}: config not copied to {url}\n{r:#}"
    );
    assert!(
        acts.iter().all(|a| a["remote"] == url.as_str()),
        "{what}: repair wrote to an intact remote\n{r:#}"
    );
    assert!(
        r["unrepaired"].as_array().is_some_and(|u| u.is_empty()),
        "{what}: unrepaired\n{r:#}"
    );
    assert_files_equal(
        &before,
        &files_state(&fx.repo.remotes[lost]),
        &format!("remote{lost} after repair vs before deletion"),
    );

    let what = format!("verify --read-data after repairing remote{lost}");
    let (code, v) = verify(&fx, via, &["--read-data"], &what);
    expect_code(code, 0, &v, &what);
    assert!(
        verify_damage(&v).is_empty(),
        "{what}:\n{}",
        show_findings(&v)
    );
    assert!(
        v["shards_read"].as_u64() == v["shards"].as_u64() && v["shards"].as_u64() > Some(0),
        "{what}: read {} of {} shards",
        v["shards_read"],
        v["shards"]
    );

    let o = run_ok(fx.repo.cmd_as(Client::via(via).no_password()).arg("repair"));
    assert!(
        stdout_str(&o).contains("nothing to repair"),
        "second repair: {}",
        stdout_str(&o)
    );
    let (code, r) = repair(&fx, via, &[], "second repair --json");
    assert_eq!(code, 0);
    assert!(repair_actions(&r).is_empty(), "second repair acted:\n{r:#}");

    fs::remove_dir_all(&fx.repo.remotes[other]).unwrap();
    fx.restore_all_and_compare(
        via,
        &format!("remote{lost} rebuilt, remote{other} deleted, via remote{via}"),
    );
    fx.restore_all_and_compare(
        lost,
        &format!("remote{lost} rebuilt, remote{other} deleted, via remote{lost}"),
    );
}

#[test]
fn lose_remote0_verify_names_it_repair_rebuilds_it() {
    lose_remote(0);
}

#[test]
fn lose_remote1_verify_names_it_repair_rebuilds_it() {
    lose_remote(1);
}

#[test]
fn lose_remote2_verify_names_it_repair_rebuilds_it() {
    lose_remote(2);
}

/// The same through a repository made by `tangle init` (default 16 MiB extents): one
/// remote deleted, verify names it (exit 20), restore is identical, repair rebuilds
/// it, verify --read-data is clean.
#[test]
fn cli_initialised_repo_lose_remote_and_repair() {
    let (repo, src) = Repo::with_simple_tree();
    let expected = manifest(&src);
    let b = repo.backup(&[&src], &[]);
    let fx = History {
        repo,
        src,
        snaps: vec![(b.snapshot_id, expected)],
    };
    let before = files_state(&fx.repo.remotes[2]);
    fs::remove_dir_all(&fx.repo.remotes[2]).unwrap();
    let (code, v) = verify(&fx, 0, &[], "verify, remote2 deleted");
    expect_code(code, 20, &v, "verify, remote2 deleted");
    assert!(
        verify_findings(&v)
            .iter()
            .any(|f| finding_kind(f) == "remote-empty" && f["remote"] == fx.repo.url(2).as_str()),
        "{}",
        show_findings(&v)
    );
    fx.restore_all_and_compare(1, "remote2 deleted, via remote1");
    let (code, r) = repair(&fx, 1, &[], "repair remote2");
    assert_eq!(code, 0, "{r:#}");
    assert_files_equal(
        &before,
        &files_state(&fx.repo.remotes[2]),
        "remote2 rebuilt",
    );
    let (code, v) = verify(&fx, 2, &["--read-data"], "verify --read-data, repaired");
    expect_code(code, 0, &v, "verify --read-data, repaired");
}

// ---------------------------------------------------------------------------------
// 2. Bit flips in shards
// ---------------------------------------------------------------------------------

/// Data shard 0 of the first extent (in name order) with that shard on `remote`.
fn data_shard_on(certs: &[Arc<Certificate>], remote: usize, skip: &str) -> String {
    let mut names: Vec<&Arc<Certificate>> = certs.iter().collect();
    names.sort_by_key(|c| c.name().hex());
    for c in names {
        if c.name().hex() == skip {
            continue;
        }
        for i in 0..c.data_shards as usize {
            if c.shards[i].remote as usize == remote {
                return c.name().shard_path(i);
            }
        }
    }
    panic!("no data shard on remote{remote}")
}

/// Bytes flipped in two shard objects on different remotes: verify --read-data exits 20
/// and names both (remote and path); restore is identical; a dry run changes nothing;
/// repair --read-data rewrites exactly the originals; verify --read-data is clean.
#[test]
fn bit_flips_in_two_shards_found_survived_and_repaired() {
    let fx = setup();
    let certs = catalog(&fx, 0);
    let p0 = data_shard_on(&certs, 0, "");
    let ext0 = p0.split('/').nth(1).unwrap().to_string();
    let p1 = data_shard_on(&certs, 1, &ext0);
    let bad = [(0usize, p0.clone()), (1usize, p1.clone())];
    let originals: Vec<Vec<u8>> = bad
        .iter()
        .map(|(r, p)| fs::read(fx.repo.remotes[*r].join(p)).unwrap())
        .collect();
    for (r, p) in &bad {
        flip_bytes(&fx.repo.remotes[*r].join(p));
    }

    let what = "verify --read-data with two flipped shards";
    let (code, v) = verify(&fx, 2, &["--read-data"], what);
    expect_code(code, 20, &v, what);
    for (r, p) in &bad {
        assert!(
            verify_findings(&v)
                .iter()
                .any(|f| finding_kind(f) == "bad-shard"
                    && f["path"] == p.as_str()
                    && f["remote"] == fx.repo.url(*r).as_str()),
            "{what}: no bad-shard finding for {p} on remote{r}:\n{}",
            show_findings(&v)
        );
    }
    let o = run_any(
        fx.repo
            .cmd_as(Client::via(2).no_password())
            .arg("verify")
            .arg("--read-data"),
    );
    assert_no_panic(&o, what);
    assert_eq!(o.status.code(), Some(20), "{what} (human output)");
    for (r, p) in &bad {
        assert!(
            stdout_str(&o).contains(p.as_str()) && stdout_str(&o).contains(&fx.repo.url(*r)),
            "{what}: human output does not name {p} on remote{r}:\n{}",
            stdout_str(&o)
        );
    }
    let bad_shards: Vec<Value> = verify_findings(&v)
        .into_iter()
        .filter(|f| finding_kind(f) == "bad-shard")
        .collect();
    assert_eq!(
        bad_shards.len(),
        2,
        "{what}: bad shards:\n{}",
        show_findings(&v)
    );

    fx.restore_all_and_compare(0, "two flipped shards, via remote0");

    let state = fx.repo.remote_state();
    let (code, r) = repair(&fx, 2, &["--dry-run", "--read-data"], "repair --dry-run");
    assert_eq!(code, 0, "repair --dry-run --read-data\n{r:#}");
    assert_eq!(r["dry_run"], true);
    let planned: BTreeSet<String> = repair_actions(&r)
        .iter()
        .map(|a| a["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        planned,
        bad.iter().map(|(_, p)| p.clone()).collect(),
        "dry run plan\n{r:#}"
    );
    assert_remotes_unchanged(&state, &fx.repo.remote_state(), "repair --dry-run");

    let (code, r) = repair(&fx, 2, &["--read-data"], "repair --read-data");
    assert_eq!(code, 0, "repair --read-data\n{r:#}");
    for (r_i, p) in &bad {
        assert!(
            repair_actions(&r)
                .iter()
                .any(|a| a["kind"] == "rebuild-shard"
                    && a["path"] == p.as_str()
                    && a["remote"] == fx.repo.url(*r_i).as_str()),
            "repair --read-data did not rebuild {p} on remote{r_i}\n{r:#}"
        );
    }
    for ((r_i, p), orig) in bad.iter().zip(&originals) {
        assert!(
            fs::read(fx.repo.remotes[*r_i].join(p)).unwrap() == *orig,
            "{p} on remote{r_i} is not its original bytes after repair"
        );
    }
    let what = "verify --read-data after repair";
    let (code, v) = verify(&fx, 2, &["--read-data"], what);
    expect_code(code, 0, &v, what);
    fx.restore_all_and_compare(1, "flipped shards repaired, via remote1");
}

// ---------------------------------------------------------------------------------
// 3. A remote lost and one more shard corrupt
// ---------------------------------------------------------------------------------

/// One candidate: an extent with exactly two of its seven shards on the lost remote.
struct Candidate {
    cert: Arc<Certificate>,
    /// Whether a pointer input of its codeword is also on the lost remote (then its
    /// codeword alone lacks 4 > p symbols once one more shard goes, and only the
    /// pointer's own codeword can bring that one back first).
    lost_pointer: bool,
}

fn candidates(certs: &[Arc<Certificate>], lost: usize) -> Vec<Candidate> {
    let by_name: BTreeMap<String, &Arc<Certificate>> =
        certs.iter().map(|c| (c.name().hex(), c)).collect();
    let mut out: Vec<Candidate> = certs
        .iter()
        .filter(|c| {
            c.shards
                .iter()
                .filter(|s| s.remote as usize == lost)
                .count()
                == 2
        })
        .map(|c| Candidate {
            cert: c.clone(),
            lost_pointer: c.pointers.iter().any(|p| {
                by_name
                    .get(&p.extent.hex())
                    .is_some_and(|t| t.shards[p.shard as usize].remote as usize == lost)
            }),
        })
        .collect();
    out.sort_by_key(|c| c.cert.name().hex());
    out
}

/// A data shard of `c` not on `lost`, preferring one no other codeword points at.
fn shard_to_corrupt(certs: &[Arc<Certificate>], c: &Certificate, lost: usize) -> usize {
    let pointed = |i: usize| {
        certs.iter().any(|o| {
            o.pointers
                .iter()
                .any(|p| p.extent == c.name() && p.shard as usize == i)
        })
    };
    let data: Vec<usize> = (0..c.data_shards as usize)
        .filter(|&i| c.shards[i].remote as usize != lost)
        .collect();
    *data
        .iter()
        .find(|&&i| !pointed(i))
        .or(data.first())
        .expect("a data shard off the lost remote")
}

/// With one remote gone, one more shard of an extent that had 2 of its 7 shards on
/// that remote is corrupted: restore is still identical, verify --read-data names the
/// corrupt shard and reports the extent as at-risk (no spare symbol left) or lost, and
/// repair --read-data brings everything back. Both the plain case (the codeword alone
/// has enough) and, if the pointers allow it, the case where a pointer input was on
/// the lost remote too are tried.
#[test]
fn lost_remote_plus_one_corrupt_shard() {
    let fx = setup();
    let certs = catalog(&fx, 0);
    // The lost remote: the first one for which both kinds of candidate exist (else the
    // first with a plain one).
    let lost = (0..3)
        .find(|&l| {
            let c = candidates(&certs, l);
            c.iter().any(|c| c.lost_pointer) && c.iter().any(|c| !c.lost_pointer)
        })
        .unwrap_or(0);
    let via = (lost + 1) % 3;
    let cands = candidates(&certs, lost);
    assert!(
        !cands.is_empty(),
        "no extent has exactly 2 shards on remote{lost}"
    );
    let lost_dir = fx.repo.path("lost-remote");
    fs::rename(&fx.repo.remotes[lost], &lost_dir).unwrap();

    // verify --json with the remote gone lists every shard it held as bad-shard.
    let what = format!("verify with remote{lost} gone");
    let (code, v) = verify(&fx, via, &[], &what);
    expect_code(code, 20, &v, &what);
    let mut missing: BTreeMap<String, BTreeSet<u64>> = BTreeMap::new();
    for f in verify_findings(&v)
        .into_iter()
        .filter(|f| finding_kind(f) == "bad-shard")
    {
        assert_eq!(f["remote"], fx.repo.url(lost).as_str(), "{what}: {f}");
        missing
            .entry(f["extent"].as_str().unwrap().to_string())
            .or_default()
            .insert(f["shard"].as_u64().unwrap());
    }
    let expected: BTreeMap<String, BTreeSet<u64>> = certs
        .iter()
        .map(|c| {
            (
                c.name().hex(),
                (0..c.shards.len())
                    .filter(|&i| c.shards[i].remote as usize == lost)
                    .map(|i| i as u64)
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        missing, expected,
        "{what}: bad-shard findings vs the shards the certificates place on remote{lost}"
    );
    let two: BTreeSet<String> = missing
        .iter()
        .filter(|(_, s)| s.len() == 2)
        .map(|(e, _)| e.clone())
        .collect();
    let want: BTreeSet<String> = cands.iter().map(|c| c.cert.name().hex()).collect();
    assert_eq!(two, want, "{what}: extents with exactly 2 missing shards");

    let mut cases: Vec<&Candidate> = Vec::new();
    cases.extend(cands.iter().find(|c| !c.lost_pointer));
    cases.extend(cands.iter().find(|c| c.lost_pointer));
    if !cands.iter().any(|c| c.lost_pointer) {
        eprintln!(
            "note: no extent with a pointer on a lost remote this run; that case is not tried"
        );
    }
    // What the issue requires but the code does not do is collected here and reported
    // at the end, after checking that repair (peeling) does recover everything.
    let mut problems: Vec<String> = Vec::new();
    for (n, cand) in cases.iter().enumerate() {
        let c = &cand.cert;
        let ext = c.name().hex();
        let i = shard_to_corrupt(&certs, c, lost);
        let holder = c.shards[i].remote as usize;
        let path = fx.repo.remotes[holder].join(c.name().shard_path(i));
        let original = fs::read(&path).unwrap();
        flip_bytes(&path);
        let case = format!(
            "remote{lost} gone + shard {i} of extent {} on remote{holder} corrupt (pointer on the lost remote: {})",
            &ext[..8],
            cand.lost_pointer
        );

        if let Err(e) = fx.try_restore_all(via, &case) {
            problems.push(e);
        }

        let (code, v) = verify(
            &fx,
            via,
            &["--read-data"],
            &format!("verify --read-data, {case}"),
        );
        expect_code(code, 20, &v, &case);
        assert!(
            verify_findings(&v)
                .iter()
                .any(|f| finding_kind(f) == "bad-shard"
                    && f["extent"] == ext.as_str()
                    && f["shard"] == i as u64
                    && f["remote"] == fx.repo.url(holder).as_str()),
            "{case}: the corrupt shard is not reported:\n{}",
            show_findings(&v)
        );
        if !verify_findings(&v).iter().any(|f| {
            matches!(finding_kind(f), "at-risk" | "data-lost") && f["extent"] == ext.as_str()
        }) {
            let about: Vec<String> = verify_findings(&v)
                .iter()
                .filter(|f| f["extent"] == ext.as_str())
                .map(|f| {
                    format!(
                        "  [{}] {}: {}",
                        f["severity"],
                        finding_kind(f),
                        f["message"]
                    )
                })
                .collect();
            problems.push(format!(
                "{case}: verify --read-data (exit {code}): no at-risk/data-lost finding names the extent; its findings:\n{}",
                about.join("\n")
            ));
        }
        if n + 1 < cases.len() {
            fs::write(&path, original).unwrap();
        }
    }

    let (code, r) = repair(&fx, via, &["--read-data"], "repair --read-data");
    assert_eq!(code, 0, "repair --read-data\n{r:#}");
    let what = "verify --read-data after repair";
    let (code, v) = verify(&fx, via, &["--read-data"], what);
    expect_code(code, 0, &v, what);
    assert!(
        verify_damage(&v).is_empty(),
        "{what}:\n{}",
        show_findings(&v)
    );
    assert_files_equal(
        &files_state(&lost_dir),
        &files_state(&fx.repo.remotes[lost]),
        &format!("remote{lost} rebuilt vs the original"),
    );
    fx.restore_all_and_compare(lost, "after repair, via the rebuilt remote");
    assert!(
        problems.is_empty(),
        "{} problems (repair did recover everything afterwards):\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}

// ---------------------------------------------------------------------------------
// 4. Rollback
// ---------------------------------------------------------------------------------

/// Backup 1; copy the remote dirs; backup 2; a verify that remembers the heads.
fn setup_with_old_copies(cache: &Path) -> (History, Vec<PathBuf>) {
    let repo = Repo::uninit();
    init_small(&repo);
    let src = repo.dir("src");
    write_file(&src.join("a.bin"), &pseudo_random(21, 600_000));
    write_file(&src.join("t.txt"), b"one\n");
    let m1 = manifest(&src);
    let r1 = repo.backup(&[&src], &[]);
    let old: Vec<PathBuf> = (0..3)
        .map(|i| {
            let p = repo.path(&format!("remote{i}.old"));
            copy_tree(&repo.remotes[i], &p);
            p
        })
        .collect();
    write_file(&src.join("b.bin"), &pseudo_random(22, 600_000));
    write_file(&src.join("t.txt"), b"two\n");
    let m2 = manifest(&src);
    let r2 = repo.backup(&[&src], &[]);
    let fx = History {
        repo,
        src,
        snaps: vec![(r1.snapshot_id, m1), (r2.snapshot_id, m2)],
    };
    let (code, v) = run_report(
        fx.repo
            .cmd_as(Client::via(0).no_password())
            .arg("--cache-dir")
            .arg(cache)
            .arg("verify")
            .arg("--json"),
        "verify after backup 2",
    );
    expect_code(code, 0, &v, "verify after backup 2");
    (fx, old)
}

/// One remote replaced by its own older copy: verify exits 22 with a rollback finding
/// naming that remote, via any remote and with or without client memory.
#[test]
fn rollback_of_one_remote_is_a_trust_violation() {
    let cache = tempfile::tempdir().unwrap();
    let (fx, old) = setup_with_old_copies(cache.path());
    let rolled = 1;
    replace_dir(&fx.repo.remotes[rolled], &old[rolled]);
    let url = fx.repo.url(rolled);
    for via in [0, 2, rolled] {
        for fresh in [false, true] {
            let what = format!(
                "verify via remote{via} (fresh cache: {fresh}), remote{rolled} rolled back"
            );
            let mut c = if fresh {
                fx.repo.cmd_as(Client::via(via).no_password().fresh_home())
            } else {
                fx.repo.cmd_as(Client::via(via).no_password())
            };
            if !fresh {
                c.arg("--cache-dir").arg(cache.path());
            }
            let (code, v) = run_report(c.arg("verify").arg("--json"), &what);
            expect_code(code, 22, &v, &what);
            assert!(
                verify_findings(&v)
                    .iter()
                    .any(|f| finding_kind(f) == "rollback" && f["remote"] == url.as_str()),
                "{what}: no rollback finding naming {url}:\n{}",
                show_findings(&v)
            );
            for f in verify_findings(&v)
                .into_iter()
                .filter(|f| f["severity"] == "trust")
            {
                assert!(
                    f["remote"].is_null() || f["remote"] == url.as_str(),
                    "{what}: trust violation blamed on another remote: {f}"
                );
            }
        }
    }
    // Restore of both snapshots still works through an honest remote.
    fx.restore_all_and_compare(0, "remote1 rolled back, via remote0");
}

/// Every remote replaced by its older copy: a client whose cache saw the newer heads
/// reports a rollback (22); a client without that memory cannot know (0). With the
/// default cache (XDG_CACHE_HOME) as well as with --cache-dir.
#[test]
fn rollback_of_all_remotes_detected_from_client_memory() {
    let cache = tempfile::tempdir().unwrap();
    let (fx, old) = setup_with_old_copies(cache.path());
    // The default cache of HOME also remembers (this client made backup 2 and verifies).
    let (code, v) = verify(&fx, 0, &[], "verify with the default cache after backup 2");
    expect_code(code, 0, &v, "verify with the default cache after backup 2");
    for (dir, copy) in fx.repo.remotes.iter().zip(&old) {
        replace_dir(dir, copy);
    }
    let what = "verify --cache-dir (saw backup 2), all remotes rolled back";
    let (code, v) = run_report(
        fx.repo
            .cmd_as(Client::via(1).no_password())
            .arg("--cache-dir")
            .arg(cache.path())
            .arg("verify")
            .arg("--json"),
        what,
    );
    expect_code(code, 22, &v, what);
    assert_has_finding(&v, "rollback", what);
    // And it keeps saying so: the memory is not lowered by the rolled-back state.
    let (code, v) = run_report(
        fx.repo
            .cmd_as(Client::via(2).no_password())
            .arg("--cache-dir")
            .arg(cache.path())
            .arg("verify")
            .arg("--json"),
        what,
    );
    expect_code(code, 22, &v, &format!("{what} (again)"));

    let what = "verify with the default cache, all remotes rolled back";
    let (code, v) = verify(&fx, 2, &[], what);
    expect_code(code, 22, &v, what);

    let what = "verify by a client with no memory, all remotes rolled back";
    let (code, v) = run_report(
        fx.repo
            .cmd_as(Client::via(0).no_password().fresh_home())
            .arg("verify")
            .arg("--json"),
        what,
    );
    expect_code(code, 0, &v, what);
}

/// A backup never builds on a rolled-back state it can tell from its own memory: with
/// every remote rolled back it refuses (exit 1, naming `--allow-stale`) and writes
/// nothing; `--allow-stale` backs up anyway, and that snapshot restores.
#[test]
fn a_backup_refuses_a_state_older_than_it_saw() {
    let cache = tempfile::tempdir().unwrap();
    let (fx, old) = setup_with_old_copies(cache.path());
    for (dir, copy) in fx.repo.remotes.iter().zip(&old) {
        replace_dir(dir, copy);
    }
    // Only objects count: locks come and go.
    let objects = |repo: &Repo| -> Vec<Vec<String>> {
        (repo.remotes.iter())
            .map(|r| {
                let mut all = object_paths(r, "");
                all.retain(|p| !p.starts_with("locks/"));
                all
            })
            .collect()
    };
    let before = objects(&fx.repo);
    write_file(&fx.src.join("c.txt"), b"three\n");
    let out = run_code(
        fx.repo.cmd().args(["backup", "--no-progress"]).arg(&fx.src),
        1,
    );
    let err = stderr_str(&out);
    assert!(
        err.contains("older state than this client last saw") && err.contains("--allow-stale"),
        "{err}"
    );
    assert_eq!(
        objects(&fx.repo),
        before,
        "a refused backup wrote something"
    );

    let report = fx.repo.backup(&[&fx.src], &["--allow-stale"]);
    fx.repo.assert_restore_matches(
        1,
        &report.snapshot_id,
        &fx.src,
        &manifest(&fx.src),
        "a backup with --allow-stale",
    );
}

// ---------------------------------------------------------------------------------
// 5. Damaged metadata objects
// ---------------------------------------------------------------------------------

/// Garbage, truncated and missing copies of a snapshot, an extent certificate, a head,
/// an index segment and a key (each on a different remote, rotating per kind of
/// damage): no panic; verify exits 20 naming every damaged copy (remote and path, kind
/// corrupt-metadata or missing-metadata); snapshots and restore (with the password,
/// even via a damaged remote) still work; repair puts back the original bytes; verify
/// is clean after.
#[test]
fn damaged_metadata_copies_reported_and_repaired() {
    let fx = setup();
    let r0 = &fx.repo.remotes[0];
    let snapshots = object_paths(r0, "snapshots");
    let extents = object_paths(r0, "extents");
    let heads = object_paths(r0, "heads");
    let index = object_paths(r0, "index");
    let keys = object_paths(r0, "keys");
    assert_eq!(snapshots.len(), 2, "snapshots: {snapshots:?}");
    assert!(extents.len() >= 8, "extents: {extents:?}");
    assert!(!heads.is_empty() && !index.is_empty() && keys.len() == 1);
    for (round, dmg) in [
        FileDamage::Garbage,
        FileDamage::Truncated,
        FileDamage::Missing,
    ]
    .into_iter()
    .enumerate()
    {
        // One object of each kind, on a remote rotating with the kind and the round.
        // Never the newest head together with what it commits to on one remote (that is
        // a rollback, tested above).
        let targets: Vec<(usize, String)> = [
            snapshots[round % 2].clone(),
            extents[round].clone(),
            heads[round % heads.len()].clone(),
            index[round % index.len()].clone(),
            keys[0].clone(),
        ]
        .into_iter()
        .enumerate()
        .map(|(k, p)| ((k + round) % 3, p))
        .collect();
        let originals: Vec<Vec<u8>> = targets
            .iter()
            .map(|(r, p)| fs::read(fx.repo.remotes[*r].join(p)).unwrap())
            .collect();
        for (r, p) in &targets {
            damage_file(dmg, &fx.repo.remotes[*r].join(p));
        }
        let case = format!("{dmg:?} metadata copies {targets:?}");

        for via in 0..3 {
            let what = format!("verify via remote{via}: {case}");
            let (code, v) = verify(&fx, via, &[], &what);
            expect_code(code, 20, &v, &what);
            for (r, p) in &targets {
                let want = match dmg {
                    FileDamage::Missing => "missing-metadata",
                    _ => "corrupt-metadata",
                };
                assert!(
                    verify_findings(&v).iter().any(|f| finding_kind(f) == want
                        && f["path"] == p.as_str()
                        && f["remote"] == fx.repo.url(*r).as_str()),
                    "{what}: no {want} finding for {p} on remote{r}:\n{}",
                    show_findings(&v)
                );
            }
            assert_eq!(
                verify_damage(&v).len(),
                targets.len(),
                "{what}: unexpected damage findings:\n{}",
                show_findings(&v)
            );
        }
        // With the password: verify also walks the snapshots.
        let what = format!("verify with password: {case}");
        let (code, v) = run_report(
            fx.repo.cmd_as(Client::via(1)).arg("verify").arg("--json"),
            &what,
        );
        expect_code(code, 20, &v, &what);
        assert_eq!(v["snapshots_checked"], 2, "{what}\n{v:#}");
        // Reading still works through any remote, damaged ones included.
        for via in 0..3 {
            let o = run_any(
                fx.repo
                    .cmd_as(Client::via(via).fresh_home())
                    .arg("snapshots")
                    .arg("--json"),
            );
            assert_no_panic(&o, &format!("snapshots via remote{via}: {case}"));
            assert!(
                o.status.success(),
                "snapshots via remote{via}: {case}\n{}",
                stderr_str(&o)
            );
            assert_eq!(
                parse_snapshots(&o.stdout).len(),
                2,
                "snapshots via remote{via}: {case}"
            );
        }
        if round == 0 {
            fx.restore_all_and_compare(
                targets[0].0,
                &format!("restore via a damaged remote: {case}"),
            );
        }

        let (code, r) = repair(&fx, round % 3, &[], &format!("repair: {case}"));
        assert_eq!(code, 0, "repair: {case}\n{r:#}");
        let acted: BTreeSet<(String, String)> = repair_actions(&r)
            .iter()
            .map(|a| {
                assert_eq!(a["kind"], "copy-metadata", "repair: {case}: {a}");
                (
                    a["remote"].as_str().unwrap().to_string(),
                    a["path"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let want: BTreeSet<(String, String)> = targets
            .iter()
            .map(|(r, p)| (fx.repo.url(*r), p.clone()))
            .collect();
        assert_eq!(acted, want, "repair actions: {case}");
        for ((r, p), orig) in targets.iter().zip(&originals) {
            assert!(
                fs::read(fx.repo.remotes[*r].join(p)).ok().as_ref() == Some(orig),
                "{p} on remote{r} is not its original bytes after repair ({case})"
            );
        }
        let what = format!("verify after repair: {case}");
        let (code, v) = verify(&fx, (round + 1) % 3, &[], &what);
        expect_code(code, 0, &v, &what);
    }
}

/// A garbage `config` on a remote that is not the one named with -r: verify names it,
/// repair restores it.
#[test]
fn garbage_config_on_another_remote_is_repaired() {
    let fx = setup();
    let cfg = fx.repo.remotes[2].join("config");
    let original = fs::read(&cfg).unwrap();
    fs::write(&cfg, pseudo_random(5, original.len())).unwrap();
    let what = "verify with a garbage config on remote2";
    let (code, v) = verify(&fx, 0, &[], what);
    expect_code(code, 20, &v, what);
    assert!(
        verify_findings(&v)
            .iter()
            .any(|f| finding_kind(f) == "corrupt-metadata"
                && f["path"] == "config"
                && f["remote"] == fx.repo.url(2).as_str()),
        "{what}:\n{}",
        show_findings(&v)
    );
    let (code, r) = repair(&fx, 0, &[], "repair of a garbage config");
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(fs::read(&cfg).unwrap(), original, "config after repair");
    let (code, v) = verify(&fx, 2, &[], "verify via the repaired remote");
    expect_code(code, 0, &v, "verify via the repaired remote");
}

// ---------------------------------------------------------------------------------
// 6. No password; sampled reads
// ---------------------------------------------------------------------------------

/// verify and repair need no password (none in the env, no terminal); with one, verify
/// also checks the snapshots. `--read-data-subset 50% --seed 1` reads the same sample
/// twice, less than everything, and reports detection probabilities.
#[test]
fn no_password_and_reproducible_subset() {
    let fx = setup();
    let (code, v) = verify(&fx, 0, &[], "verify without password");
    expect_code(code, 0, &v, "verify without password");
    assert_eq!(v["snapshots_checked"], 0, "{v:#}");
    assert_eq!(v["shards_read"], 0, "plain verify read shards\n{v:#}");
    let extents = v["extents"].as_u64().unwrap();
    let shards = v["shards"].as_u64().unwrap();
    assert!(extents >= 8, "only {extents} extents\n{v:#}");
    // 7 shards per data extent, 16 per tree extent.
    let on_disk: usize = (fx.repo.remotes.iter())
        .flat_map(|r| std::fs::read_dir(r.join("shards")).expect("shards/"))
        .map(|d| {
            std::fs::read_dir(d.expect("entry").path())
                .expect("dir")
                .count()
        })
        .sum();
    assert_eq!(shards as usize, on_disk, "{v:#}");
    let remotes: Vec<String> = (0..3).map(|i| fx.repo.url(i)).collect();
    assert_eq!(v["remotes"], serde_json::json!(remotes));

    let (code, v) = run_report(
        fx.repo.cmd().arg("verify").arg("--json"),
        "verify with password",
    );
    expect_code(code, 0, &v, "verify with password");
    assert_eq!(v["snapshots_checked"], 2, "{v:#}");

    let (code, r) = repair(&fx, 1, &[], "repair without password");
    assert_eq!(code, 0, "{r:#}");
    assert!(repair_actions(&r).is_empty(), "{r:#}");
    let o = run_ok(
        fx.repo
            .cmd_as(Client::via(1).no_password())
            .arg("repair")
            .arg("--dry-run"),
    );
    assert_stdout_has(&o, "nothing to repair");

    let sample = |seed: &str| {
        let what = format!("verify --read-data-subset 50% --seed {seed}");
        let (code, v) = verify(
            &fx,
            2,
            &["--read-data-subset", "50%", "--seed", seed],
            &what,
        );
        expect_code(code, 0, &v, &what);
        v
    };
    let a = sample("1");
    let b = sample("1");
    let n = a["shards_read"].as_u64().unwrap();
    assert_eq!(
        n,
        b["shards_read"].as_u64().unwrap(),
        "same seed, same sample"
    );
    assert_eq!(a["bytes_read"], b["bytes_read"], "same seed, same sample");
    // Whole extents: 7 shards per data extent, 16 (4 + 12) per tree extent.
    let whole = (0..=n / 16).any(|trees| (n - 16 * trees) % 7 == 0);
    assert!(
        n > 0 && n < shards && whole,
        "50% sample read {n} of {shards} shards"
    );
    let s = &a["subset"];
    assert_eq!(s["percent"].as_f64(), Some(50.0), "{a:#}");
    assert_eq!(s["seed"], 1, "{a:#}");
    let det = s["detection"].as_array().expect("detection array");
    assert!(!det.is_empty(), "{a:#}");
    let mut last = 0.0;
    for d in det {
        let (f, p) = (d[0].as_f64().unwrap(), d[1].as_f64().unwrap());
        assert!(f > 0.0 && f <= 1.0 && (0.0..=1.0).contains(&p), "{d}");
        assert!(
            p >= last,
            "detection probability falls as corruption grows: {det:?}"
        );
        last = p;
    }
    assert!(
        last > 0.5,
        "10% corruption caught with p = {last} by a 50% sample"
    );
    let full = verify(&fx, 2, &["--read-data"], "verify --read-data").1;
    assert_eq!(full["shards_read"].as_u64(), Some(shards));
    assert!(full["subset"].is_null(), "{full:#}");

    // The human output states the probabilities.
    let o = run_any(
        fx.repo
            .cmd_as(Client::via(2).no_password())
            .arg("verify")
            .args(["--read-data-subset", "50%", "--seed", "1"]),
    );
    assert_no_panic(&o, "verify --read-data-subset (human)");
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout_str(&o).contains("probability"),
        "no detection probability in:\n{}",
        stdout_str(&o)
    );
}

// ---------------------------------------------------------------------------------
// Adding a remote and rebalancing
// ---------------------------------------------------------------------------------

/// Shards per remote (index) as the certificates place them, and every codeword's
/// symbols per remote (own shards and pointers), checked against the remote rule.
fn placement_summary(certs: &[Arc<Certificate>], remotes: usize) -> Vec<u64> {
    let by_name: BTreeMap<String, &Certificate> =
        certs.iter().map(|c| (c.name().hex(), &**c)).collect();
    let mut per_remote = vec![0u64; remotes];
    for c in certs {
        let mut on = vec![0usize; remotes];
        for s in &c.shards {
            per_remote[s.remote as usize] += 1;
            on[s.remote as usize] += 1;
        }
        for p in &c.pointers {
            let target = by_name[&p.extent.hex()];
            on[target.shards[p.shard as usize].remote as usize] += 1;
        }
        assert!(
            on.iter().all(|&n| n <= c.parity_shards as usize),
            "extent {}: codeword has {on:?} symbols per remote (p = {})",
            c.name().hex(),
            c.parity_shards
        );
    }
    per_remote
}

/// Codewords left without a spare symbol (own shards and pointers) if `remote` is lost.
fn at_risk_if_lost(certs: &[Arc<Certificate>], remote: usize) -> usize {
    let by_name: BTreeMap<String, &Certificate> =
        certs.iter().map(|c| (c.name().hex(), &**c)).collect();
    certs
        .iter()
        .filter(|c| {
            let own = c
                .shards
                .iter()
                .filter(|s| s.remote as usize == remote)
                .count();
            let pointers = c
                .pointers
                .iter()
                .filter(|p| {
                    by_name[&p.extent.hex()].shards[p.shard as usize].remote as usize == remote
                })
                .count();
            own + pointers >= c.parity_shards as usize
        })
        .count()
}

/// Shard objects on each remote, exactly where the certificates put them (no copies
/// left behind, none missing).
fn assert_shards_where_certified(fx: &History, certs: &[Arc<Certificate>]) {
    for (r, dir) in fx.repo.remotes.iter().enumerate() {
        let on_disk: BTreeSet<String> = object_paths(dir, "shards").into_iter().collect();
        let certified: BTreeSet<String> = certs
            .iter()
            .flat_map(|c| {
                (0..c.shards.len())
                    .filter(move |&i| c.shards[i].remote as usize == r)
                    .map(move |i| c.name().shard_path(i))
            })
            .collect();
        assert_eq!(on_disk, certified, "shards on remote{r} vs certificates");
    }
}

/// `remote add` copies the metadata to the new remote and moves a fair share of the old
/// shards there under the remote rule: the new remote serves restores, verify
/// --read-data is clean, losing any one remote afterwards leaves every extent a spare,
/// and a second rebalance moves nothing.
/// `remote add` while one remote serves altered shards (same size, other bytes): a move
/// reads each shard and checks it against its certificate, so an altered one is skipped
/// (and said so), never copied; the new remote gets only good shards, the damage stays
/// on the remote that did it, and repair then verify come out clean.
#[test]
fn remote_add_never_moves_an_altered_shard() {
    let mut fx = setup();
    let liar = 0;
    let shards = object_paths(&fx.repo.remotes[liar], "shards");
    for s in &shards {
        flip_bytes(&fx.repo.remotes[liar].join(s));
    }
    let new_dir = fx.repo.path("remote3");
    let new_url = new_dir.to_str().unwrap().to_string();
    let v = json_ok(
        fx.repo
            .cmd_as(Client::via(1))
            .args(["--json", "remote", "add"])
            .arg(&new_dir),
        "remote add with altered shards on one remote",
    );
    let skipped = v["rebalance"]["skipped"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(!skipped.is_empty(), "no move was skipped:\n{v:#}");
    fx.repo.remotes.push(new_dir.clone());

    let what = "verify --read-data after remote add";
    let (code, v) = verify(&fx, 1, &["--read-data"], what);
    expect_code(code, 20, &v, what);
    for f in verify_damage(&v) {
        assert_eq!(
            f["remote"],
            fx.repo.url(liar).as_str(),
            "{what}: damage not on the altering remote ({new_url} is new):\n{}",
            show_findings(&v)
        );
    }
    let (code, v) = run_report(
        fx.repo
            .cmd_as(Client::via(1).no_password())
            .args(["repair", "--read-data", "--json"]),
        "repair after remote add",
    );
    assert_eq!(code, 0, "{v:#}");
    let (code, v) = verify(&fx, 3, &["--read-data"], "verify after the repair");
    expect_code(code, 0, &v, "verify after the repair");
    fx.restore_all_and_compare(
        3,
        "after remote add with a lying remote, via the new remote",
    );
}

#[test]
fn remote_add_rebalances_existing_extents() {
    let mut fx = setup();
    let before = catalog(&fx, 0);
    let total: u64 = before.iter().map(|c| c.shards.len() as u64).sum();
    assert_eq!(placement_summary(&before, 3).iter().sum::<u64>(), total);
    let new_dir = fx.repo.path("remote3");
    let new_url = new_dir.to_str().unwrap().to_string();

    let v = json_ok(
        fx.repo
            .cmd()
            .args(["--json", "remote", "add"])
            .arg(&new_dir),
        "remote add",
    );
    assert_eq!(v["revision"], 1, "{v:#}");
    assert_eq!(v["remotes"][3], new_url.as_str(), "{v:#}");
    assert!(
        repair_actions(&v["repair"])
            .iter()
            .any(|a| a["kind"] == "copy-metadata" && a["remote"] == new_url.as_str()),
        "metadata not copied to the new remote:\n{v:#}"
    );
    let moved = v["rebalance"]["shards_moved"].as_u64().unwrap_or(0);
    assert!(moved > 0, "nothing moved:\n{v:#}");
    assert_eq!(v["rebalance"]["skipped"], serde_json::json!([]), "{v:#}");
    fx.repo.remotes.push(new_dir.clone());

    let after = catalog(&fx, 3);
    assert_eq!(after.len(), before.len());
    let shares = placement_summary(&after, 4);
    assert_eq!(shares.iter().sum::<u64>(), total);
    // A fair share: within one shard per extent of total / 4 on every remote.
    for (r, &n) in shares.iter().enumerate() {
        let fair = total as f64 / 4.0;
        assert!(
            (n as f64 - fair).abs() <= before.len() as f64 / 2.0,
            "remote{r} holds {n} of {total} shards after rebalancing: {shares:?}"
        );
    }
    assert_eq!(
        v["rebalance"]["remotes"][3]["shards_after"].as_u64(),
        Some(shares[3]),
        "{v:#}"
    );
    for c in &after {
        let mut own = [0usize; 4];
        for s in &c.shards {
            own[s.remote as usize] += 1;
        }
        // Fewer than p on every remote (2 of a 4+3 data extent, at most 4 of a tree's 16).
        assert!(
            own.iter().all(|&n| n < c.parity_shards as usize),
            "extent {}: {own:?} shards per remote, one remote's loss leaves no spare",
            c.name().hex()
        );
    }
    assert!(after.iter().any(|c| c.placement == 1));
    assert_shards_where_certified(&fx, &after);

    let (code, v) = verify(&fx, 3, &["--read-data"], "verify --read-data after add");
    expect_code(code, 0, &v, "verify --read-data after add");
    assert!(
        verify_findings(&v)
            .iter()
            .all(|f| finding_kind(f) != "leftover"),
        "leftovers after rebalancing:\n{}",
        show_findings(&v)
    );
    fx.restore_all_and_compare(3, "after remote add, via the new remote");

    let again = json_ok(
        fx.repo.cmd().args(["--json", "remote", "rebalance"]),
        "second rebalance",
    );
    assert_eq!(again["shards_moved"], 0, "{again:#}");

    // Losing one remote now costs fewer codewords their last spare symbol than it did
    // before the move, and verify's at-risk report agrees with the certificates.
    let (risk_before, risk_after) = (at_risk_if_lost(&before, 1), at_risk_if_lost(&after, 1));
    assert!(
        risk_after < risk_before,
        "at risk if remote1 is lost: {risk_after} after rebalancing, {risk_before} before"
    );
    fs::remove_dir_all(&fx.repo.remotes[1]).unwrap();
    let (code, v) = verify(&fx, 3, &[], "verify with remote1 lost after rebalancing");
    expect_code(code, 20, &v, "verify with remote1 lost after rebalancing");
    let reported = verify_findings(&v)
        .iter()
        .filter(|f| finding_kind(f) == "at-risk")
        .count();
    assert_eq!(reported, risk_after, "{}", show_findings(&v));
    fx.restore_all_and_compare(3, "remote1 lost after rebalancing");
}

/// `remote add --no-rebalance` only changes the config; `remote rebalance --dry-run`
/// plans without touching anything; after repair and a real rebalance, a remote that
/// still serves a certificate from before the move is reported as stale (repairable,
/// naming it) and repair overwrites it with the current one.
#[test]
fn rebalance_dry_run_and_stale_certificates() {
    let mut fx = setup();
    let old_extents = fx.repo.path("old-extents");
    copy_tree(&fx.repo.remotes[2].join("extents"), &old_extents);
    let new_dir = fx.repo.path("remote3");
    let v = json_ok(
        fx.repo
            .cmd()
            .args(["--json", "remote", "add", "--no-rebalance"])
            .arg(&new_dir),
        "remote add --no-rebalance",
    );
    assert!(v.get("rebalance").is_none(), "{v:#}");
    fx.repo.remotes.push(new_dir.clone());
    assert!(
        object_paths(&new_dir, "shards").is_empty(),
        "--no-rebalance moved shards"
    );

    let states: Vec<_> = fx.repo.remotes.iter().map(|d| files_state(d)).collect();
    let plan = json_ok(
        fx.repo
            .cmd()
            .args(["--json", "remote", "rebalance", "--dry-run"]),
        "rebalance --dry-run",
    );
    assert_eq!(plan["dry_run"], true);
    assert!(plan["shards_moved"].as_u64() > Some(0), "{plan:#}");
    for (r, dir) in fx.repo.remotes.iter().enumerate() {
        assert_files_equal(
            &states[r],
            &files_state(dir),
            &format!("remote{r} after --dry-run"),
        );
    }

    let (code, _) = repair(&fx, 0, &[], "repair after add --no-rebalance");
    assert_eq!(code, 0);
    let done = json_ok(
        fx.repo.cmd().args(["--json", "remote", "rebalance"]),
        "rebalance",
    );
    assert_eq!(
        done["shards_moved"], plan["shards_moved"],
        "plan vs run:\n{plan:#}\n{done:#}"
    );
    let certs = catalog(&fx, 0);
    placement_summary(&certs, 4);
    assert_shards_where_certified(&fx, &certs);

    // remote2 serves the certificates from before the move again.
    let moved: Vec<&Arc<Certificate>> = certs.iter().filter(|c| c.placement > 0).collect();
    assert!(!moved.is_empty());
    for c in &moved {
        fs::copy(
            old_extents.join(c.name().hex()),
            fx.repo.remotes[2].join("extents").join(c.name().hex()),
        )
        .unwrap();
    }
    let url2 = fx.repo.url(2);
    let (code, v) = verify(&fx, 0, &[], "verify with stale certificates on remote2");
    expect_code(code, 20, &v, "verify with stale certificates on remote2");
    let stale: Vec<Value> = verify_findings(&v)
        .into_iter()
        .filter(|f| finding_kind(f) == "stale-certificate")
        .collect();
    assert_eq!(stale.len(), moved.len(), "{}", show_findings(&v));
    assert!(
        stale.iter().all(|f| f["remote"] == url2.as_str()),
        "{}",
        show_findings(&v)
    );
    // Reads still work from the stale remote (moved shards are rebuilt or found).
    fx.restore_all_and_compare(2, "stale certificates on remote2, via remote2");

    let (code, r) = repair(&fx, 0, &[], "repair stale certificates");
    assert_eq!(code, 0, "{r:#}");
    assert!(
        repair_actions(&r)
            .iter()
            .all(|a| a["kind"] == "copy-metadata" && a["remote"] == url2.as_str()),
        "{r:#}"
    );
    let (code, v) = verify(
        &fx,
        0,
        &["--read-data"],
        "verify after repairing stale certificates",
    );
    expect_code(code, 0, &v, "verify after repairing stale certificates");
}
