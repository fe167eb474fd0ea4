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

/// `tangle backup --writer-key KEY --json` with no password, from a HOME of the writer's
/// own (its cache: what it dedups against), via remote 0.
fn writer_backup(
    repo: &Repo,
    key: &std::path::Path,
    home: &std::path::Path,
    src: &std::path::Path,
) -> std::process::Output {
    let mut c = crate::support::command::tangle_bare(home);
    c.arg("-r")
        .arg(&repo.remotes[0])
        .args(["backup", "--json", "--no-progress", "--writer-key"])
        .arg(key)
        .arg(src);
    crate::support::command::run_any(&mut c)
}

/// Every file below `dir`, read whole.
fn all_bytes(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if e.file_type().unwrap().is_dir() {
                stack.push(p);
            } else if e.file_type().unwrap().is_file() {
                out.push((p.clone(), fs::read(&p).unwrap()));
            }
        }
    }
    out
}

#[test]
fn a_writer_backs_up_without_the_password_reads_nothing_and_the_owner_restores_it() {
    use crate::support::manifest::manifest;
    let repo = Repo::init();
    let (_, key) = add(&repo, "db-host");
    let src = repo.dir("src");
    let marker = b"PLAINTEXT-MARKER-7f3a of the writer's secret file\n".repeat(50);
    crate::shared::files::write_file(&src.join("secret.txt"), &marker);
    crate::shared::files::write_file(
        &src.join("sub/random.bin"),
        &crate::shared::files::pseudo_random(5, 3 << 20),
    );
    let expected = manifest(&src);
    let home = repo.dir("writer-home");

    // 1. A password-less backup with the writer key.
    let out = writer_backup(&repo, &key, &home, &src);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_str(&out));
    let first: Value = serde_json::from_slice(&out.stdout).unwrap();
    let id = first["snapshot_id"].as_str().unwrap().to_string();
    assert!(
        first["bytes_added"].as_u64().unwrap() > 3 << 20,
        "{first:#}"
    );

    // Dedup against its own uploads: a repeat adds almost nothing.
    let out = writer_backup(&repo, &key, &home, &src);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_str(&out));
    let again: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        again["bytes_added"].as_u64().unwrap() < 4096,
        "a repeat backup by the same writer re-uploaded data: {again:#}"
    );
    // And read nothing: its cache tells unchanged files (by keyed path hashes).
    assert_eq!(
        (
            again["files_unchanged"].as_u64(),
            again["bytes_read"].as_u64()
        ),
        (Some(2), Some(0)),
        "{again:#}"
    );
    // A changed file is read again and counted as changed; a new cache reads all.
    crate::shared::files::write_file(&src.join("secret.txt"), b"changed\n");
    let out = writer_backup(&repo, &key, &home, &src);
    let changed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (
            changed["files_changed"].as_u64(),
            changed["files_unchanged"].as_u64()
        ),
        (Some(1), Some(1)),
        "{changed:#}"
    );
    crate::shared::files::write_file(&src.join("secret.txt"), &marker);

    // What the writer's cache keeps names no file and holds no content: a stolen host
    // lists nothing of what it backed up.
    let cached = all_bytes(&home);
    assert!(!cached.is_empty(), "the writer keeps its segments");
    for (path, bytes) in cached {
        for needle in [&b"secret.txt"[..], b"random.bin", &marker[..24]] {
            assert!(
                !bytes.windows(needle.len()).any(|w| w == needle),
                "{} holds {:?}",
                path.display(),
                String::from_utf8_lossy(needle)
            );
        }
    }

    // 2. Nothing the writer wrote is readable in the remotes, and with only the writer
    // key nothing can be read back.
    for r in &repo.remotes {
        for (path, bytes) in all_bytes(r) {
            assert!(
                !bytes.windows(24).any(|w| w == &marker[..24]),
                "plaintext in {}",
                path.display()
            );
        }
    }
    for args in [
        vec!["snapshots"],
        vec!["ls", "latest"],
        vec!["restore", "latest", "--target", "/nonexistent-target"],
        vec!["dump", "latest", "/"],
        vec!["find", "secret.txt"],
    ] {
        let out = run_code(
            repo.cmd_as(Client::via(0).no_password())
                .env("TANGLE_WRITER_KEY", &key)
                .args(&args),
            1,
        );
        assert!(
            stderr_str(&out).contains("a writer key (TANGLE_WRITER_KEY) only adds backups"),
            "{args:?}: {}",
            stderr_str(&out)
        );
    }

    // 3. The owner sees both snapshots and restores them byte-identical, through any
    // remote; password-less verify and the owner's verify --read-data are clean.
    let ids = repo.snapshot_ids();
    assert_eq!(ids.len(), 3, "{ids:?}");
    assert!(ids.contains(&id));
    for via in 0..3 {
        repo.assert_restore_matches(via, &id, &src, &expected, "writer's snapshot");
    }
    for client in [Client::via(1).no_password(), Client::via(2)] {
        let (code, report) = run_report(
            repo.cmd_as(client)
                .args(["verify", "--read-data", "--json"]),
            "verify",
        );
        assert_eq!(code, 0, "{}", show_findings(&report));
    }

    // The owner's own backup of the same data goes on beside the writer's, and a delete
    // of the writer's snapshots (the owner's alone) keeps the owner's restorable.
    let own = repo.backup(&[&src], &[]);
    let now = manifest(&src);
    run_ok(repo.cmd().arg("delete").args(&ids));
    assert_eq!(repo.snapshot_ids(), vec![own.snapshot_id.clone()]);
    repo.assert_restore_matches(1, &own.snapshot_id, &src, &now, "owner's after delete");
    let (code, report) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "--json"]),
        "verify after delete",
    );
    assert_eq!(code, 0, "{}", show_findings(&report));
    // And a password-less repair finds nothing to do.
    let (code, report) = run_report(
        repo.cmd_as(Client::via(2).no_password())
            .args(["repair", "--json"]),
        "repair after delete",
    );
    assert_eq!(code, 0, "{report:#}");
}

#[test]
fn a_revoked_or_foreign_writer_key_adds_nothing_and_earlier_snapshots_still_restore() {
    use crate::support::manifest::manifest;
    let repo = Repo::init();
    let (_, key) = add(&repo, "laptop");
    let src = repo.dir("src");
    crate::shared::files::write_file(&src.join("f"), b"laptop data\n");
    let expected = manifest(&src);
    let home = repo.dir("writer-home");
    let out = writer_backup(&repo, &key, &home, &src);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_str(&out));
    let id = serde_json::from_slice::<Value>(&out.stdout).unwrap()["snapshot_id"]
        .as_str()
        .unwrap()
        .to_string();

    run_ok(repo.cmd().args(["writer", "revoke", "laptop"]));
    let out = writer_backup(&repo, &key, &home, &src);
    assert_eq!(out.status.code(), Some(12), "{}", stderr_str(&out));
    assert!(
        stderr_str(&out).contains("was revoked by the owner"),
        "{}",
        stderr_str(&out)
    );
    assert_eq!(repo.snapshot_ids(), vec![id.clone()]);
    repo.assert_restore_matches(2, &id, &src, &expected, "before the revocation");

    // A writer key of another repository, and a file that is no key at all.
    let other = Repo::init();
    let (_, other_key) = add(&other, "elsewhere");
    let out = writer_backup(&repo, &other_key, &home, &src);
    assert_eq!(out.status.code(), Some(1), "{}", stderr_str(&out));
    assert!(
        stderr_str(&out).contains("is for repository"),
        "{}",
        stderr_str(&out)
    );
    let junk = repo.path("junk.key");
    fs::write(&junk, b"not a key\n").unwrap();
    let out = writer_backup(&repo, &junk, &home, &src);
    assert!(
        stderr_str(&out).contains("is not a tangle writer key file"),
        "{}",
        stderr_str(&out)
    );
    assert_eq!(repo.snapshot_ids(), vec![id]);
}

#[test]
fn retention_groups_by_signer_so_a_writers_snapshots_crowd_out_only_its_own() {
    let repo = Repo::init();
    let (_, key) = add(&repo, "compromised");
    let src = repo.dir("src");
    crate::shared::files::write_file(&src.join("f"), b"the owner's data\n");
    let owner: Vec<String> = (0..3)
        .map(|_| repo.backup(&[&src], &[]).snapshot_id)
        .collect();
    // The same host and paths, newer: grouped with the owner's by host and paths alone,
    // they would be the ones kept.
    let home = repo.dir("writer-home");
    let mut junk = Vec::new();
    for _ in 0..3 {
        let out = writer_backup(&repo, &key, &home, &src);
        assert_eq!(out.status.code(), Some(0), "{}", stderr_str(&out));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        junk.push(v["snapshot_id"].as_str().unwrap().to_string());
    }
    let listed = repo.snapshots();
    let labelled: Vec<&Value> = listed
        .iter()
        .filter(|s| s["writer_label"] == "compromised")
        .collect();
    assert_eq!(labelled.len(), 3, "{listed:#?}");
    assert!(listed.iter().filter(|s| s["writer"].is_null()).count() == 3);

    run_ok(repo.cmd().args(["delete", "--keep-last", "2"]));
    let left = repo.snapshot_ids();
    for id in &owner[1..] {
        assert!(
            left.contains(id),
            "the owner's newest two must stay: {left:?}"
        );
    }
    assert!(!left.contains(&owner[0]));
    assert!(
        !left.contains(&junk[0]) && left.contains(&junk[2]),
        "{left:?}"
    );
    assert_eq!(left.len(), 4, "{left:?}");
}

/// `report` (of verify) has a finding for `path` on `remote` that names writer `id` (hex).
fn assert_writer_named(report: &Value, path: &str, remote: &std::path::Path, id: &str) {
    let remote = remote.display().to_string();
    let finding = (report["findings"].as_array().unwrap().iter())
        .find(|f| f["path"] == path && f["remote"] == remote.as_str())
        .unwrap_or_else(|| {
            panic!(
                "{path} on {remote} is not reported:\n{}",
                show_findings(report)
            )
        });
    assert!(
        finding["message"].as_str().unwrap_or("").contains(&id[..8]),
        "the finding names the writer that signed it: {finding:#}"
    );
}

#[test]
fn a_head_a_writer_signs_for_another_writer_is_named_and_repair_never_spreads_it() {
    use tangle::crypto::writer::WriterKey;
    use tangle::extent::Head;
    let repo = Repo::init();
    let (_, key_a) = add(&repo, "host-a");
    let (vb, _) = add(&repo, "host-b");
    let mut b = [0u8; 16];
    hex::decode_to_slice(vb["id"].as_str().unwrap(), &mut b).unwrap();
    let src = repo.dir("src");
    crate::shared::files::write_file(&src.join("f"), b"data\n");
    let out = writer_backup(&repo, &key_a, &repo.dir("home-a"), &src);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_str(&out));

    // Host A, broken into, signs a head for host B with its own writer key; one remote
    // serves it.
    let a = WriterKey::from_file_text(&fs::read_to_string(&key_a).unwrap()).unwrap();
    let mut repo_id = [0u8; 16];
    hex::decode_to_slice(config(&repo)["id"].as_str().unwrap(), &mut repo_id).unwrap();
    let forged = Head {
        repo_id,
        writer: b,
        seq: 0,
        extent: None,
        snapshot: None,
        index: None,
        skipped: Vec::new(),
        time: 1_800_000_000,
    };
    let path = forged.path();
    let file = repo.remotes[1].join(&path);
    fs::create_dir_all(file.parent().unwrap()).unwrap();
    fs::write(&file, forged.to_object(&a.signer()).unwrap()).unwrap();

    let (code, report) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "--json"]),
        "verify",
    );
    assert_eq!(code, 22, "{}", show_findings(&report));
    let a_id = hex::encode(a.id());
    assert_writer_named(&report, &path, &repo.remotes[1], &a_id);

    run_ok(repo.cmd_as(Client::via(0).no_password()).args(["repair"]));
    for r in &repo.remotes {
        assert!(
            !r.join(&path).exists(),
            "the forged head is on {}",
            r.display()
        );
    }
    let (code, report) = run_report(
        repo.cmd_as(Client::via(2).no_password())
            .args(["verify", "--json"]),
        "verify after repair",
    );
    assert_eq!(code, 0, "{}", show_findings(&report));
}

#[test]
fn a_config_a_writer_signs_is_named_and_repair_puts_the_owners_back() {
    use tangle::crypto::envelope::{self, ObjectKind};
    use tangle::crypto::writer::WriterKey;
    let repo = Repo::init();
    let (v, key) = add(&repo, "host-a");
    let a = WriterKey::from_file_text(&fs::read_to_string(&key).unwrap()).unwrap();
    // Host A, broken into, signs the config with its writer key; one remote serves it.
    let owners = fs::read(repo.remotes[0].join("config")).unwrap();
    let payload = envelope::open_unverified(ObjectKind::Config, &owners).unwrap();
    fs::write(
        repo.remotes[1].join("config"),
        envelope::seal_forged(ObjectKind::Config, payload, &a.signer()),
    )
    .unwrap();

    let (code, report) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "--json"]),
        "verify",
    );
    assert_eq!(code, 22, "{}", show_findings(&report));
    assert_writer_named(
        &report,
        "config",
        &repo.remotes[1],
        v["id"].as_str().unwrap(),
    );

    run_ok(repo.cmd_as(Client::via(0).no_password()).args(["repair"]));
    assert_eq!(fs::read(repo.remotes[1].join("config")).unwrap(), owners);
    let (code, report) = run_report(
        repo.cmd_as(Client::via(1).no_password())
            .args(["verify", "--json"]),
        "verify after repair",
    );
    assert_eq!(code, 0, "{}", show_findings(&report));
}

/// Re-encoding works across writers: the owner deletes a writer's older snapshot, whose
/// extent the writer's later codeword points into; that codeword is re-encoded (by the
/// owner, who signs the new certificate), the later snapshot still restores and checks
/// clean without the password, and the writer, whose cache remembers the removed extent,
/// backs up again.
#[test]
fn the_owner_deleting_a_writers_old_snapshot_re_encodes_its_later_codewords() {
    use crate::support::manifest::manifest;
    let repo = Repo::init();
    let (_, key) = add(&repo, "web-host");
    let home = repo.dir("writer-home");
    let src = repo.dir("src");
    let backup = |what: &str| -> String {
        let out = writer_backup(&repo, &key, &home, &src);
        assert_eq!(out.status.code(), Some(0), "{what}: {}", stderr_str(&out));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["snapshot_id"].as_str().unwrap().to_string()
    };
    crate::shared::files::write_file(
        &src.join("data.bin"),
        &crate::shared::files::pseudo_random(11, 3 << 20),
    );
    let old = backup("first");
    // Nothing of the first run is kept by the second: its extent dies with it.
    crate::shared::files::write_file(
        &src.join("data.bin"),
        &crate::shared::files::pseudo_random(12, 3 << 20),
    );
    let new = backup("second");
    let expected = manifest(&src);

    let report = json_ok(
        repo.cmd().args(["delete", &old, "--json"]),
        "delete of the writer's first snapshot",
    );
    assert!(
        report["extents_reencoded"].as_u64().unwrap_or(0) >= 1,
        "the second run's codeword points into the first run's extent: {report:#}"
    );
    assert_eq!(repo.snapshot_ids(), vec![new.clone()]);
    for via in 0..3 {
        repo.assert_restore_matches(via, &new, &src, &expected, "after the re-encode");
    }
    for client in [Client::via(1).no_password(), Client::via(2)] {
        let (code, report) = run_report(
            repo.cmd_as(client)
                .args(["verify", "--read-data", "--json"]),
            "verify after the re-encode",
        );
        assert_eq!(code, 0, "{}", show_findings(&report));
    }

    // The writer's cache still lists the removed extent among what it may dedup against
    // and point into: it must do neither. The first run's data comes back, and restores.
    crate::shared::files::write_file(
        &src.join("again.bin"),
        &crate::shared::files::pseudo_random(11, 3 << 20),
    );
    let third = backup("third");
    let expected = manifest(&src);
    repo.assert_restore_matches(1, &third, &src, &expected, "the writer's next run");
    let (code, report) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "--read-data", "--json"]),
        "verify after the writer's next run",
    );
    assert_eq!(code, 0, "{}", show_findings(&report));
}

/// Entanglement across writers: a writer's first run has none of its own extents to
/// point into, and points into the owner's (committed ones, found from the heads, since a
/// writer reads no index). When the owner deletes its snapshot, the writer's codeword is
/// re-encoded and the writer's snapshot still restores and checks clean.
#[test]
fn a_writers_first_run_points_into_the_owners_extents_and_survives_their_deletion() {
    use crate::support::manifest::manifest;
    let repo = Repo::init();
    let owner_src = repo.dir("owner-src");
    crate::shared::files::write_file(
        &owner_src.join("owner.bin"),
        &crate::shared::files::pseudo_random(21, 2 << 20),
    );
    let owners = repo.backup(&[&owner_src], &[]);
    let (_, key) = add(&repo, "mail-host");
    let src = repo.dir("src");
    crate::shared::files::write_file(
        &src.join("mail.bin"),
        &crate::shared::files::pseudo_random(22, 2 << 20),
    );
    let out = writer_backup(&repo, &key, &repo.dir("writer-home"), &src);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_str(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["pointers"].as_u64().unwrap_or(0) > 0,
        "a writer's first run points into the owner's extents: {v:#}"
    );
    let id = v["snapshot_id"].as_str().unwrap().to_string();
    let expected = manifest(&src);

    let report = json_ok(
        repo.cmd().args(["delete", &owners.snapshot_id, "--json"]),
        "delete of the owner's snapshot",
    );
    assert!(
        report["extents_reencoded"].as_u64().unwrap_or(0) >= 1,
        "{report:#}"
    );
    for via in 0..3 {
        repo.assert_restore_matches(via, &id, &src, &expected, "the writer's, re-encoded");
    }
    let (code, report) = run_report(
        repo.cmd_as(Client::via(2).no_password())
            .args(["verify", "--read-data", "--json"]),
        "verify after the re-encode",
    );
    assert_eq!(code, 0, "{}", show_findings(&report));
}

/// A repository with one owner's snapshot and one a writer key made of the same source,
/// the writer's released lock removed (by `unlock`: else the owner's next exclusive lock
/// removes it, and a command checked for leaving the remotes unchanged would not).
/// Returns the repository, the owner's snapshot id and the writer's.
pub(crate) fn owner_and_writer_snapshots() -> (Repo, String, String) {
    let repo = Repo::init();
    let (_, key) = add(&repo, "laptop");
    let src = repo.dir("src");
    crate::shared::files::write_file(&src.join("f.txt"), b"the data\n");
    let owner = repo.backup(&[&src], &[]).snapshot_id;
    let out = writer_backup(&repo, &key, &repo.dir("writer-home"), &src);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_str(&out));
    let v: Value = serde_json::from_slice(&out.stdout).expect("backup --json");
    let theirs = v["snapshot_id"].as_str().unwrap_or_default().to_string();
    assert!(is_hex(&theirs, 64), "{v:#}");
    run_ok(repo.cmd().arg("unlock"));
    (repo, owner, theirs)
}
