//! `tangle writer add | list | revoke` (issue 35): the owner grants a backup host a
//! writer key and revokes it. The grant and the revocation are owner-signed records on
//! every remote, checked like any metadata: `verify` names a forged one (22) and a
//! missing one, `repair` copies them and never spreads a forgery. The first writer takes
//! the config to format version 2; a repository without writers stays version 1.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use crate::support::command::{run_code, run_ok, stderr_str};
use crate::support::repo::{Client, Repo};
use crate::support::report::{is_hex, json_ok, run_report, show_findings};
use serde_json::Value;

fn writers(repo: &Repo, client: Client) -> Vec<Value> {
    let v = json_ok(
        repo.cmd_as(client).args(["writer", "list", "--json"]),
        "writer list",
    );
    v.as_array()
        .expect("writer list --json is an array")
        .clone()
}

fn config(repo: &Repo) -> Value {
    json_ok(
        repo.cmd_as(Client::via(0).no_password())
            .args(["cat", "config"]),
        "cat config",
    )
}

/// `writer add LABEL --json --out <root>/LABEL.key`; the report and the key file's path.
fn add(repo: &Repo, label: &str) -> (Value, std::path::PathBuf) {
    let key = repo.path(&format!("{label}.key"));
    let v = json_ok(
        repo.cmd()
            .args(["writer", "add", label, "--json", "--out"])
            .arg(&key),
        "writer add",
    );
    (v, key)
}

#[test]
fn a_writer_is_granted_listed_revoked_and_its_records_are_on_every_remote() {
    let repo = Repo::init();
    assert_eq!(config(&repo)["format_version"], 1);
    assert_eq!(config(&repo)["owner_kem"], Value::Null);
    assert!(writers(&repo, Client::via(0).no_password()).is_empty());

    let (v, key) = add(&repo, "db-host");
    assert_eq!(v["label"], "db-host", "{v:#}");
    assert_eq!(v["config_upgraded"], true, "{v:#}");
    let id = v["id"].as_str().unwrap().to_string();
    assert!(is_hex(&id, 32), "{v:#}");
    // The key: a file only its owner reads, naming itself and nothing secret in clear.
    let meta = fs::metadata(&key).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    let text = fs::read_to_string(&key).unwrap();
    assert!(text.starts_with("tangle writer key v1\n"), "{text}");
    // The config is version 2 now, with the owner's KEM key.
    let c = config(&repo);
    assert_eq!(c["format_version"], 2, "{c:#}");
    assert!(is_hex(c["owner_kem"].as_str().unwrap_or(""), 64), "{c:#}");
    assert!(
        text.contains(c["owner_kem"].as_str().unwrap()),
        "the key pins the KEM key"
    );

    // Listed without the password; on every remote.
    let list = writers(&repo, Client::via(1).no_password());
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(
        (list[0]["id"].as_str(), list[0]["label"].as_str()),
        (Some(id.as_str()), Some("db-host"))
    );
    assert_eq!(list[0]["revoked"], Value::Null);
    for r in &repo.remotes {
        assert!(
            r.join("writers").join(&id).is_file(),
            "grant missing on {}",
            r.display()
        );
    }

    // A second writer: the config is not upgraded again.
    let (v2, _) = add(&repo, "laptop");
    assert_eq!(v2["config_upgraded"], false, "{v2:#}");
    assert_eq!(
        config(&repo)["revision"],
        1,
        "one new config revision, for the first writer"
    );

    let (code, report) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "--json"]),
        "verify",
    );
    assert_eq!(code, 0, "{}", show_findings(&report));

    // Revoked by label; the revocation is a record of its own on every remote.
    let out = run_ok(repo.cmd().args(["writer", "revoke", "db-host"]));
    assert!(stderr_str(&out).is_empty(), "{}", stderr_str(&out));
    for r in &repo.remotes {
        assert!(r.join("revoked-writers").join(&id).is_file());
    }
    let list = writers(&repo, Client::via(2).no_password());
    let db = list.iter().find(|w| w["label"] == "db-host").unwrap();
    assert!(db["revoked"].is_string(), "{db:#}");
    assert_eq!(db["revoked_after_head"], Value::Null, "it wrote no head");
    let laptop = list.iter().find(|w| w["label"] == "laptop").unwrap();
    assert_eq!(laptop["revoked"], Value::Null);
    // Twice is refused, and an unknown writer is named.
    let out = run_code(repo.cmd().args(["writer", "revoke", &id[..10]]), 1);
    assert!(
        stderr_str(&out).contains("revoked already"),
        "{}",
        stderr_str(&out)
    );
    let out = run_code(repo.cmd().args(["writer", "revoke", "nobody"]), 1);
    assert!(
        stderr_str(&out).contains("no writer is labelled \"nobody\""),
        "{}",
        stderr_str(&out)
    );
    let (code, report) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "--json"]),
        "verify after revoke",
    );
    assert_eq!(code, 0, "{}", show_findings(&report));
}

#[test]
fn bad_labels_taken_labels_and_existing_files_are_refused_before_anything_is_written() {
    let repo = Repo::init();
    let key = repo.path("k.key");
    for bad in ["a/b", "../up", ".hidden", "", "has space"] {
        let out = run_code(
            repo.cmd().args(["writer", "add", bad, "--out"]).arg(&key),
            1,
        );
        assert!(
            stderr_str(&out).contains("invalid writer label"),
            "{bad:?}: {}",
            stderr_str(&out)
        );
        assert!(!key.exists(), "{bad:?} left a key file");
    }
    // Nothing was granted: the config is still version 1.
    assert_eq!(config(&repo)["format_version"], 1);

    add(&repo, "host");
    let again = repo.path("again.key");
    let out = run_code(
        repo.cmd()
            .args(["writer", "add", "host", "--out"])
            .arg(&again),
        1,
    );
    assert!(
        stderr_str(&out).contains("exists already"),
        "{}",
        stderr_str(&out)
    );
    assert!(!again.exists());

    // An existing file is never overwritten, whatever the label.
    fs::write(&again, b"precious").unwrap();
    let out = run_code(
        repo.cmd()
            .args(["writer", "add", "other", "--out"])
            .arg(&again),
        1,
    );
    assert!(
        stderr_str(&out).contains("never overwritten"),
        "{}",
        stderr_str(&out)
    );
    assert_eq!(fs::read(&again).unwrap(), b"precious");
    assert_eq!(writers(&repo, Client::via(0).no_password()).len(), 1);

    // A wrong password grants nothing and leaves no file.
    let wrong = repo.path("wrong.key");
    run_code(
        repo.cmd_as(Client::via(0).password("not the password"))
            .args(["writer", "add", "w", "--out"])
            .arg(&wrong),
        12,
    );
    assert!(!wrong.exists());
}

#[test]
fn a_forged_writer_record_is_named_and_repair_copies_only_the_owners() {
    let repo = Repo::init();
    let (v, _) = add(&repo, "real");
    let id = v["id"].as_str().unwrap().to_string();
    // Another owner's repository grants a writer of its own; one remote serves that
    // grant as if it were this repository's.
    let other = Repo::init();
    let (ov, _) = add(&other, "intruder");
    let oid = ov["id"].as_str().unwrap();
    fs::copy(
        other.remotes[0].join("writers").join(oid),
        repo.remotes[1].join("writers").join(oid),
    )
    .unwrap();
    // And one remote lost the real grant.
    fs::remove_file(repo.remotes[2].join("writers").join(&id)).unwrap();

    let (code, report) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "--json"]),
        "verify",
    );
    assert_eq!(code, 22, "{}", show_findings(&report));
    let findings = report["findings"].as_array().unwrap();
    let forged = findings
        .iter()
        .find(|f| f["path"] == format!("writers/{oid}"))
        .unwrap_or_else(|| {
            panic!(
                "the forged grant is not reported:\n{}",
                show_findings(&report)
            )
        });
    assert_eq!(
        forged["remote"],
        repo.remotes[1].display().to_string(),
        "{forged:#}"
    );
    assert!(
        findings.iter().any(|f| f["path"] == format!("writers/{id}")
            && f["remote"] == repo.remotes[2].display().to_string()),
        "the missing grant is not reported:\n{}",
        show_findings(&report)
    );
    // The list shows only the owner's writer.
    let list = writers(&repo, Client::via(1).no_password());
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["label"], "real");

    run_ok(repo.cmd_as(Client::via(0).no_password()).args(["repair"]));
    assert!(
        repo.remotes[2].join("writers").join(&id).is_file(),
        "repair copies the grant"
    );
    for r in &repo.remotes {
        assert!(
            !r.join("writers").join(oid).exists(),
            "the forgery spread to or stayed on {}",
            r.display()
        );
    }
    let (code, report) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "--json"]),
        "verify after repair",
    );
    assert_eq!(code, 0, "{}", show_findings(&report));
}
