//! A remote that re-signs the config (and certificates) with a key of its own must not
//! take over the repository: the owner is pinned (by the cache since `init`, or by
//! `--owner` for CI jobs with no cache), remotes that disagree with nothing pinned make
//! every command refuse (exit 22, both sides named), and honest remotes keep every byte.

use std::fs;

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{run_code, run_code_saying, run_ok, stderr_str};
use crate::support::manifest::{assert_tree_matches, manifest};
use crate::support::remote_dirs::{assert_files_equal, files_state, object_paths};
use crate::support::repo::{Client, Repo, restored_path};
use crate::support::report::{is_hex, run_json};
use tangle::crypto::Signer;
use tangle::extent::{Certificate, ExtentName};
use tangle::repo::Config;

/// A repository with one snapshot, and the owner fingerprint (read through the cache
/// `init` pinned).
fn repo_with_snapshot() -> (Repo, std::path::PathBuf, String) {
    let (repo, src) = Repo::with_source("a.txt", &pseudo_random(1, 300_000));
    write_file(&src.join("b/c.bin"), &pseudo_random(2, 200_000));
    repo.backup(&[&src], &[]);
    let (code, report, _) = run_json(
        repo.cmd_as(Client::via(1).no_password())
            .arg("verify")
            .arg("--json"),
        "verify of the fresh repository",
    );
    assert_eq!(code, 0, "fresh repository does not verify:\n{report:#}");
    let fp = report["owner_fingerprint"]
        .as_str()
        .expect("verify --json has owner_fingerprint")
        .to_string();
    assert!(
        is_hex(&fp, 32),
        "owner fingerprint {fp:?} is not 32 hex digits"
    );
    (repo, src, fp)
}

/// What someone controlling remote `i` can do: re-sign its config with their own key.
fn forge_config(repo: &Repo, i: usize, attacker: &Signer) {
    let path = repo.remotes[i].join("config");
    let mut config = Config::from_object(&fs::read(&path).unwrap()).unwrap();
    config.owner = attacker.public();
    fs::write(&path, config.to_object(attacker).unwrap()).unwrap();
}

/// ... and re-sign every certificate on it, claiming other shard hashes (a repair that
/// trusted them would "fix" the honest shards on the other remotes).
fn forge_certificates(repo: &Repo, i: usize, owner: &Config, attacker: &Signer) -> usize {
    let mut n = 0;
    for path in object_paths(&repo.remotes[i], "extents") {
        let file = repo.remotes[i].join(&path);
        let name = ExtentName::parse(path.trim_start_matches("extents/")).unwrap();
        let mut cert = Certificate::from_object(
            &fs::read(&file).unwrap(),
            &tangle::crypto::Signers::owner_only(owner.owner),
            &name,
        )
        .unwrap();
        for s in &mut cert.shards {
            s.hash[0] ^= 0xff;
        }
        fs::write(&file, cert.to_object(attacker).unwrap()).unwrap();
        n += 1;
    }
    n
}

fn attacker() -> Signer {
    Signer::from_seed(&[0x66; 32])
}

fn honest_config(repo: &Repo) -> Config {
    Config::from_object(&fs::read(repo.remotes[1].join("config")).unwrap()).unwrap()
}

#[test]
fn a_forged_config_with_nothing_pinned_is_refused_and_spreads_nowhere() {
    let (repo, _src, _) = repo_with_snapshot();
    let honest = honest_config(&repo);
    forge_config(&repo, 0, &attacker());
    assert!(forge_certificates(&repo, 0, &honest, &attacker()) > 0);
    let before: Vec<_> = repo.remotes.iter().map(|r| files_state(r)).collect();

    // A CI job: no password, an empty cache, no --owner.
    for args in [&["repair"][..], &["verify"], &["verify", "--read-data"]] {
        let out = run_code(
            repo.cmd_as(Client::via(0).no_password().fresh_home())
                .args(args),
            22,
        );
        let err = stderr_str(&out);
        assert!(
            err.contains("disagree") && err.contains(&repo.url(0)) && err.contains(&repo.url(1)),
            "{args:?}: the refusal does not name both sides:\n{err}"
        );
        assert!(
            err.contains("--owner"),
            "{args:?}: no advice to pin the owner:\n{err}"
        );
    }
    // Through an honest remote it is the same dispute.
    run_code(
        repo.cmd_as(Client::via(1).no_password().fresh_home())
            .arg("repair"),
        22,
    );
    for (i, b) in before.iter().enumerate() {
        assert_files_equal(b, &files_state(&repo.remotes[i]), &format!("remote {i}"));
    }
}

#[test]
fn with_the_owner_pinned_the_hostile_remote_is_named_and_honest_remotes_keep_every_byte() {
    let (repo, src, fp) = repo_with_snapshot();
    let honest = honest_config(&repo);
    let expected = manifest(&src);
    forge_config(&repo, 0, &attacker());
    forge_certificates(&repo, 0, &honest, &attacker());
    let honest_before: Vec<_> = (1..3).map(|i| files_state(&repo.remotes[i])).collect();

    // Pinned by --owner (no cache), and by TANGLE_OWNER.
    let (code, report, out) = run_json(
        repo.cmd_as(Client::via(0).no_password().fresh_home())
            .args(["--owner", &fp, "verify", "--json"]),
        "verify with --owner through the hostile remote",
    );
    assert_eq!(
        code, 22,
        "verify does not report a trust violation:\n{report:#}"
    );
    let named =
        report["findings"].as_array().unwrap().iter().any(|f| {
            f["severity"] == "trust" && f["remote"].as_str() == Some(repo.url(0).as_str())
        });
    assert!(
        named,
        "verify does not name the hostile remote:\n{report:#}"
    );
    assert!(
        stderr_str(&out).contains("not trusted"),
        "no warning about the foreign config:\n{}",
        stderr_str(&out)
    );

    run_ok(
        repo.cmd_as(Client::via(0).no_password().fresh_home())
            .env("TANGLE_OWNER", &fp)
            .arg("repair"),
    );
    for (k, b) in honest_before.iter().enumerate() {
        assert_files_equal(
            b,
            &files_state(&repo.remotes[k + 1]),
            &format!("honest remote {}", k + 1),
        );
    }
    // The hostile remote got the owner's config back; everything verifies and restores.
    assert_eq!(honest_config(&repo).owner, honest.owner);
    run_ok(
        repo.cmd_as(Client::via(0).no_password().fresh_home())
            .args(["--owner", &fp, "verify"]),
    );
    let target = repo.path("restored");
    run_ok(
        repo.cmd_as(Client::via(0).fresh_home())
            .args(["--owner", &fp, "restore", "latest", "--target"])
            .arg(&target),
    );
    assert_tree_matches(
        &expected,
        &restored_path(&target, &src),
        "restore after repair",
    );
}

#[test]
fn the_cache_pins_the_owner_from_init_on() {
    let (repo, _src, fp) = repo_with_snapshot();
    forge_config(&repo, 0, &attacker());
    // The default HOME holds the cache `init` wrote: no --owner needed.
    let (code, report, _) = run_json(
        repo.cmd_as(Client::via(0).no_password())
            .arg("verify")
            .arg("--json"),
        "verify with the cache pin",
    );
    assert_eq!(code, 22, "{report:#}");
    assert_eq!(report["owner_fingerprint"], fp.as_str());
    // Snapshots still list through the hostile remote (read around it).
    assert_eq!(repo.snapshots_via(0).len(), 1);
    // A pin nobody matches: refused.
    run_code_saying(
        repo.cmd_as(Client::via(1).no_password().fresh_home())
            .args(["--owner", "00112233445566778899aabbccddeeff", "verify"]),
        22,
        "pinned owner",
    );
    // A malformed pin is a usage error, also for commands that open no repository
    // (`profile show` would print it as the pin in force) and through the environment.
    for args in [&["verify"][..], &["profile", "show"], &["init"]] {
        let out = run_code(
            repo.cmd_as(Client::via(1).no_password())
                .args(["--owner", "xyz"])
                .args(args),
            1,
        );
        assert!(
            stderr_str(&out).contains("expected the owner key fingerprint"),
            "{args:?}: {}",
            stderr_str(&out)
        );
    }
    run_code_saying(
        repo.cmd_as(Client::via(1).no_password())
            .env("TANGLE_OWNER", "xyz")
            .args(["profile", "show"]),
        1,
        "--owner \"xyz\"",
    );
}
