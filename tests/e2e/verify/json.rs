//! `tangle verify` output through the binary: the `--json` finding kinds scripts match
//! on, the named detection fields of a sample, and that `-q` never says more than the
//! default output.

use std::fs;
use std::path::{Path, PathBuf};

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{assert_no_panic, run_any, stdout_str};
use crate::support::fsutil::{MIB, files_under};
use crate::support::repo::{Client, Repo};
use crate::support::report::{run_json, verify_damage, verify_findings};
use assert_cmd::Command;
use serde_json::Value;

/// A repository over three local remotes with one snapshot of a small tree.
fn setup() -> Repo {
    let (repo, src) = Repo::with_source("big", &pseudo_random(1, 3 * MIB as usize));
    write_file(&src.join("small"), b"hello\n");
    repo.backup(&[&src], &[]);
    repo
}

/// `tangle -r remotes[0] verify ARGS...` without a password (verify never needs one).
fn verify_cmd(repo: &Repo, args: &[&str]) -> Command {
    let mut c = repo.cmd_as(Client::no_repo().no_password());
    c.arg("-r").arg(&repo.remotes[0]).arg("verify").args(args);
    c
}

fn verify_json(repo: &Repo, args: &[&str], what: &str) -> (i32, Value) {
    let mut c = verify_cmd(repo, args);
    c.arg("--json");
    let (code, v, _) = run_json(&mut c, what);
    (code, v)
}

/// Runs verify in text mode; returns the exit code and stdout.
fn verify_text(repo: &Repo, args: &[&str], what: &str) -> (i32, String) {
    let out = run_any(&mut verify_cmd(repo, args));
    assert_no_panic(&out, what);
    (out.status.code().unwrap_or(-1), stdout_str(&out))
}

/// Shard objects on a remote, as (extent hex, shard index, path).
fn shards_on(remote: &Path) -> Vec<(String, usize, PathBuf)> {
    files_under(&remote.join("shards"))
        .into_iter()
        .filter_map(|p| {
            let i = p.file_name()?.to_str()?.parse().ok()?;
            let e = p.parent()?.file_name()?.to_str()?.to_string();
            Some((e, i, p))
        })
        .collect()
}

/// The one finding for `path` on `remote`, with its kind and severity checked.
fn expect_finding(v: &Value, kind: &str, severity: &str, remote: Option<&Path>, path: &str) {
    let hit = verify_findings(v).into_iter().find(|f| {
        f["path"] == path
            && remote.is_none_or(|r| f["remote"].as_str() == r.to_str())
            && f["kind"] == kind
    });
    let f = hit.unwrap_or_else(|| panic!("no {kind} finding for {path}:\n{v:#}"));
    assert_eq!(f["severity"], severity, "{f:#}");
    assert!(
        f["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{f:#}"
    );
}

#[test]
fn subset_detection_has_named_fields_beside_the_pairs() {
    let repo = setup();
    let what = "verify --read-data-subset 100% --seed 7";
    let (code, v) = verify_json(&repo, &["--read-data-subset", "100%", "--seed", "7"], what);
    assert_eq!(code, 0, "{what}:\n{v:#}");
    let s = &v["subset"];
    assert_eq!(s["percent"], 100.0, "{v:#}");
    assert_eq!(s["seed"], 7, "{v:#}");
    let pairs = s["detection"].as_array().expect("detection array");
    let named = s["detection_rates"]
        .as_array()
        .expect("detection_rates array");
    assert_eq!(pairs.len(), 4, "{v:#}");
    assert_eq!(pairs.len(), named.len(), "{v:#}");
    for (pair, rate) in pairs.iter().zip(named) {
        // The old unnamed pair keeps its shape: [corrupt fraction, probability].
        assert_eq!(pair.as_array().map(Vec::len), Some(2), "{pair}");
        assert_eq!(pair[0], rate["corrupt_fraction"], "{v:#}");
        assert_eq!(pair[1], rate["probability"], "{v:#}");
        let p = rate["probability"]
            .as_f64()
            .expect("probability is a number");
        assert!((0.0..=1.0).contains(&p), "{rate}");
    }
    let fractions: Vec<f64> = named
        .iter()
        .filter_map(|r| r["corrupt_fraction"].as_f64())
        .collect();
    assert_eq!(fractions, [0.001, 0.01, 0.05, 0.10]);
    // Without a sample there is no subset section.
    let (_, v) = verify_json(&repo, &[], "verify");
    assert!(v["subset"].is_null(), "{v:#}");
}

#[test]
fn missing_and_corrupt_shards_are_bad_shard_findings() {
    let repo = setup();
    let on0 = shards_on(&repo.remotes[0]);
    let on1 = shards_on(&repo.remotes[1]);
    let (_, gone, gone_path) = on0.first().expect("a shard on remote0").clone();
    let (_, flipped, flipped_path) = on1.first().expect("a shard on remote1").clone();
    fs::remove_file(&gone_path).unwrap();
    let mut bytes = fs::read(&flipped_path).unwrap();
    bytes[0] ^= 0xff;
    fs::write(&flipped_path, bytes).unwrap();
    let rel = |r: usize, p: &Path| {
        p.strip_prefix(&repo.remotes[r])
            .unwrap()
            .to_str()
            .unwrap()
            .to_string()
    };

    let what = "verify --read-data, one shard missing and one corrupt";
    let (code, v) = verify_json(&repo, &["--read-data"], what);
    assert_eq!(code, 20, "{what}:\n{v:#}");
    assert_eq!(v["exit_code"], 20, "{v:#}");
    let missing = rel(0, &gone_path);
    let corrupt = rel(1, &flipped_path);
    expect_finding(
        &v,
        "bad-shard",
        "repairable",
        Some(&repo.remotes[0]),
        &missing,
    );
    expect_finding(
        &v,
        "bad-shard",
        "repairable",
        Some(&repo.remotes[1]),
        &corrupt,
    );
    let shard_of = |path: &str| {
        verify_findings(&v)
            .into_iter()
            .find(|f| f["path"] == path)
            .map(|f| f["shard"].clone())
    };
    assert_eq!(shard_of(&missing), Some(Value::from(gone)), "{v:#}");
    assert_eq!(shard_of(&corrupt), Some(Value::from(flipped)), "{v:#}");
    assert_eq!(verify_damage(&v).len(), 2, "{what}:\n{v:#}");
}

#[test]
fn forged_objects_are_bad_signature_findings() {
    let repo = setup();
    // Another owner's repository: its objects are well-formed but not ours.
    let other = setup();
    let snap = files_under(&other.remotes[0].join("snapshots"))
        .into_iter()
        .next()
        .expect("a snapshot in the other repository");
    let snap_rel = format!("snapshots/{}", snap.file_name().unwrap().to_str().unwrap());
    fs::copy(&snap, repo.remotes[1].join(&snap_rel)).unwrap();
    // And one of our heads on remote 2 replaced by the other owner's head.
    let ours = files_under(&repo.remotes[2].join("heads"));
    let theirs = files_under(&other.remotes[2].join("heads"));
    let head = ours.first().expect("a head on remote2");
    fs::copy(
        theirs.first().expect("a head in the other repository"),
        head,
    )
    .unwrap();
    let head_rel = head
        .strip_prefix(&repo.remotes[2])
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();

    let what = "verify with a foreign snapshot and a foreign head";
    let (code, v) = verify_json(&repo, &[], what);
    assert_eq!(code, 22, "{what}:\n{v:#}");
    // Authentic nowhere: a finding about the object, on no particular remote.
    expect_finding(&v, "bad-signature", "trust", None, &snap_rel);
    // A forged copy beside authentic ones: named with its remote.
    expect_finding(
        &v,
        "bad-signature",
        "trust",
        Some(&repo.remotes[2]),
        &head_rel,
    );
}

#[test]
fn quiet_never_says_more_than_the_default() {
    let repo = setup();
    let (code, out) = verify_text(&repo, &["-q"], "verify -q, clean");
    assert_eq!(code, 0);
    assert_eq!(out, "", "verify -q on a clean repository printed something");

    // A stray shard object is a note (info): plain verify mentions it, -q does not.
    write_file(&repo.remotes[1].join("shards/stray"), b"left over");
    let (code, plain) = verify_text(&repo, &[], "verify, a note");
    assert_eq!(code, 0);
    assert!(plain.contains("1 notes"), "verify:\n{plain}");
    let (code, quiet) = verify_text(&repo, &["-q"], "verify -q, a note");
    assert_eq!(code, 0);
    assert_eq!(quiet, "", "verify -q printed notes");
    let (code, quiet) = verify_text(&repo, &["-q", "-v"], "verify -q -v, a note");
    assert_eq!(code, 0);
    assert_eq!(quiet, "", "verify -q -v printed notes");

    // Damage: -q keeps the damage lines and the verdict, and drops the summary.
    let (_, _, shard) = shards_on(&repo.remotes[0])
        .into_iter()
        .next()
        .expect("a shard on remote0");
    fs::remove_file(&shard).unwrap();
    let (code, plain) = verify_text(&repo, &[], "verify, damage");
    assert_eq!(code, 20, "verify:\n{plain}");
    let (code, quiet) = verify_text(&repo, &["-q"], "verify -q, damage");
    assert_eq!(code, 20, "verify -q:\n{quiet}");
    assert!(
        quiet.len() < plain.len(),
        "verify -q printed no less than verify:\n{quiet}\n---\n{plain}"
    );
    for line in quiet.lines() {
        assert!(
            plain.lines().any(|l| l == line),
            "verify -q printed a line verify does not: {line}\n---\n{plain}"
        );
    }
    assert!(
        quiet.lines().any(|l| l.starts_with("damage: ")),
        "verify -q hid the damage:\n{quiet}"
    );
    assert!(!quiet.contains("checked "), "verify -q:\n{quiet}");
}
