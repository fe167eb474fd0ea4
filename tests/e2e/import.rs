//! `tangle import restic`: a repository made by the real `restic` (installed by
//! scripts/test.sh) is imported; every snapshot keeps its time, host, paths and tags,
//! restores byte for byte with its metadata, is skipped when imported again, and the
//! next tangle backup of the same files stores almost nothing (the contents were cut
//! with tangle's chunker). A restic repository that lies (a pack altered) fails the
//! import with one message and leaves no snapshot behind.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::shared::files::{mkfifo, pseudo_random, write_file};
use crate::support::command::{
    assert_clean_failure, clean_command, run_any, run_code, run_ok, stderr_str, stdout_str,
};
use crate::support::manifest::manifest;
use crate::support::repo::Repo;
use crate::support::report::{is_hex, json_ok};

const RESTIC_PASSWORD: &str = "restic-secret";

/// `restic` with a clean environment, its repository and password from restic's own
/// variables. The tests need the real restic: scripts/test.sh installs it.
fn restic(home: &Path, repo: &Path) -> assert_cmd::Command {
    let found = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("restic").is_file()));
    assert!(
        found,
        "the import tests need `restic` on PATH (scripts/test.sh installs it: apt install restic)"
    );
    let mut c = clean_command(OsStr::new("restic"), &[], home);
    c.env("RESTIC_REPOSITORY", repo)
        .env("RESTIC_PASSWORD", RESTIC_PASSWORD)
        .arg("--no-cache")
        .arg("--quiet");
    c
}

/// A restic repository of format `version` (1: no compression; 2: restic's default
/// since 0.14) in the test's temp dir, initialised.
fn restic_repo(t: &Repo, version: u32) -> PathBuf {
    let repo = t.path("restic-repo");
    run_ok(
        restic(&t.path("restic-home"), &repo)
            .arg("init")
            .arg("--repository-version")
            .arg(version.to_string()),
    );
    repo
}

/// `restic backup` of `dir` with `args`; the new snapshot's id (or its start).
fn restic_backup(t: &Repo, repo: &Path, dir: &Path, args: &[&str]) -> String {
    let out = run_ok(
        restic(&t.path("restic-home"), repo)
            .arg("backup")
            .arg("--json")
            .args(args)
            .arg(dir),
    );
    let text = stdout_str(&out);
    let summary = (text.lines())
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["message_type"] == "summary")
        .unwrap_or_else(|| panic!("restic backup printed no summary:\n{text}"));
    summary["snapshot_id"].as_str().unwrap().to_string()
}

/// `tangle -r DST import restic --from-repo REPO ARGS` with restic's password from a file.
fn import_cmd(t: &Repo, repo: &Path, args: &[&str]) -> assert_cmd::Command {
    let mut c = t.cmd();
    c.arg("import")
        .arg("restic")
        .arg("--from-repo")
        .arg(repo)
        .arg("--from-password-file")
        .arg(t.password_file(RESTIC_PASSWORD))
        .arg("--no-progress")
        .args(args);
    c
}

fn import(t: &Repo, repo: &Path, args: &[&str]) -> Value {
    json_ok(
        import_cmd(t, repo, args).arg("--json"),
        &format!("import restic {args:?}"),
    )
}

fn count(r: &Value, key: &str) -> usize {
    r[key].as_array().map_or(usize::MAX, Vec::len)
}

/// What a user keeps: large and small files, an empty one, a symlink, a hard link pair,
/// an empty directory, a FIFO, a setuid file and a name that is not UTF-8.
fn fill(src: &Path) {
    for i in 0..3u64 {
        write_file(
            &src.join(format!("data/big-{i}.bin")),
            &pseudo_random(40 + i, 3 << 20),
        );
    }
    write_file(&src.join("notes.txt"), b"notes\n");
    write_file(&src.join("empty.txt"), b"");
    write_file(&src.join(OsStr::from_bytes(b"caf\xe9.txt")), b"latin-1\n");
    std::fs::create_dir_all(src.join("empty-dir")).unwrap();
    std::os::unix::fs::symlink("notes.txt", src.join("link")).unwrap();
    std::fs::hard_link(src.join("notes.txt"), src.join("notes-again.txt")).unwrap();
    write_file(&src.join("tool"), b"#!/bin/sh\n");
    std::fs::set_permissions(src.join("tool"), std::fs::Permissions::from_mode(0o4755)).unwrap();
    mkfifo(&src.join("pipe"));
}

#[test]
fn restic_history_is_imported_restores_byte_identically_and_dedups_the_next_backup() {
    let t = Repo::init();
    let dir = t.dir("home");
    fill(&dir);
    let repo = restic_repo(&t, 2);
    let first = manifest(&dir);
    let r1 = restic_backup(&t, &repo, &dir, &["--tag", "daily", "--host", "laptop"]);
    write_file(&dir.join("more/c.bin"), &pseudo_random(50, 700_000));
    write_file(&dir.join("notes.txt"), b"notes, changed\n");
    std::fs::remove_file(dir.join("data/big-1.bin")).unwrap();
    let second = manifest(&dir);
    let r2 = restic_backup(
        &t,
        &repo,
        &dir,
        &["--tag", "weekly,daily", "--host", "desktop"],
    );
    let restic_snapshots: Vec<Value> = serde_json::from_slice(
        &run_ok(restic(&t.path("restic-home"), &repo).args(["snapshots", "--json"])).stdout,
    )
    .unwrap();
    assert_eq!(restic_snapshots.len(), 2);

    // --dry-run: what would be imported, nothing written.
    let dry = t.unchanged_by("import --dry-run", || import(&t, &repo, &["--dry-run"]));
    assert_eq!(dry["dry_run"], true, "{dry:#}");
    assert_eq!(count(&dry, "imported"), 2, "{dry:#}");
    assert!(dry["imported"][0]["id"].is_null(), "{dry:#}");

    let r = import(&t, &repo, &[]);
    assert_eq!(count(&r, "imported"), 2, "{r:#}");
    assert_eq!(count(&r, "skipped"), 0, "{r:#}");
    let imported: Vec<(String, String)> = (r["imported"].as_array().unwrap().iter())
        .map(|i| {
            let id = i["id"].as_str().unwrap().to_string();
            assert!(is_hex(&id, 64), "{r:#}");
            (i["restic_id"].as_str().unwrap().to_string(), id)
        })
        .collect();
    // restic 0.14's backup summary gives the short id.
    assert!(imported[0].0.starts_with(&r1), "oldest first: {r1} {r:#}");
    assert!(imported[1].0.starts_with(&r2), "{r2} {r:#}");

    // Labels as restic recorded them (time to the second as tangle prints it).
    let listed = t.snapshots();
    for ((restic_id, id), rs) in imported.iter().zip(&restic_snapshots) {
        assert_eq!(&rs["id"], restic_id);
        let s = (listed.iter().find(|s| s["id"] == id.as_str()))
            .unwrap_or_else(|| panic!("imported snapshot {id} is not listed"));
        assert_eq!(s["host"], rs["hostname"], "{s:#} vs {rs:#}");
        assert_eq!(s["paths"], rs["paths"], "{s:#} vs {rs:#}");
        let mut tags: Vec<String> = serde_json::from_value(s["tags"].clone()).unwrap();
        tags.sort();
        let mut want: Vec<String> = serde_json::from_value(rs["tags"].clone()).unwrap();
        want.sort();
        assert_eq!(tags, want, "{s:#} vs {rs:#}");
        assert_eq!(s["user"], rs["username"], "{s:#} vs {rs:#}");
        let seconds = |v: &Value| {
            chrono::DateTime::parse_from_rfc3339(v.as_str().unwrap())
                .unwrap()
                .timestamp()
        };
        assert_eq!(seconds(&s["time"]), seconds(&rs["time"]), "{s:#} vs {rs:#}");
    }

    // Byte for byte, with modes, owners, times, links, the FIFO and the hard links.
    t.assert_restore_matches(0, &imported[0].1, &dir, &first, "the first import");
    t.assert_restore_matches(1, &imported[1].1, &dir, &second, "the second import");
    run_ok(t.cmd().arg("verify"));

    // Again: both skipped, nothing written.
    let again = t.unchanged_by("import again", || import(&t, &repo, &[]));
    assert_eq!(count(&again, "imported"), 0, "{again:#}");
    assert_eq!(count(&again, "skipped"), 2, "{again:#}");
    assert_eq!(again["skipped"][1]["existing_id"], imported[1].1.as_str());

    // The next tangle backup finds the imported contents: almost nothing is new.
    let b = t.backup(&[&dir], &["--host", "desktop"]);
    let total: u64 = (second.iter()).filter_map(|e| e.size).sum();
    assert!(
        b.bytes_added < total / 50,
        "the backup after the import added {} of {total} bytes: {:#}",
        b.bytes_added,
        b.json
    );
}

#[test]
fn bad_restic_repositories_get_one_line_and_their_exit_code() {
    let t = Repo::init();
    let dir = t.dir("src");
    write_file(&dir.join("a.bin"), &pseudo_random(7, 2 << 20));
    let repo = restic_repo(&t, 1);
    restic_backup(&t, &repo, &dir, &[]);

    // A wrong password: exit 12, as for tangle's own.
    let wrong = t.password_file("not-it");
    let out = run_code(
        t.cmd()
            .args(["import", "restic", "--no-progress", "--from-repo"])
            .arg(&repo)
            .arg("--from-password-file")
            .arg(&wrong),
        12,
    );
    assert_clean_failure(&out, "wrong password");
    assert!(
        stderr_str(&out).contains("password does not open any key of the restic repository"),
        "{}",
        stderr_str(&out)
    );

    // No restic repository there: exit 10.
    let out = run_code(&mut import_cmd(&t, &t.dir("nothing"), &[]), 10);
    assert!(
        stderr_str(&out).contains("no restic repository at"),
        "{}",
        stderr_str(&out)
    );

    // A restic URL tangle does not read, and no repository at all: exit 1, one line each.
    let mut c = t.cmd();
    c.args([
        "import",
        "restic",
        "--from-repo",
        "s3:s3.amazonaws.com/bucket",
    ]);
    let out = run_code(&mut c, 1);
    assert!(
        stderr_str(&out).contains("in a local directory"),
        "{}",
        stderr_str(&out)
    );
    let out = run_code(t.cmd().args(["import", "restic"]), 1);
    assert!(
        stderr_str(&out).contains("--from-repo"),
        "{}",
        stderr_str(&out)
    );

    // restic's own variables name the repository and its password; format 1 is read
    // (into another tangle repository: this one stays empty for the case below).
    let other = Repo::init();
    let out = run_ok(
        other
            .cmd()
            .args(["import", "restic", "--json", "--no-progress"])
            .env("RESTIC_REPOSITORY", &repo)
            .env("RESTIC_PASSWORD", RESTIC_PASSWORD),
    );
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(count(&r, "imported"), 1, "{r:#}");
    let id = r["imported"][0]["id"].as_str().unwrap();
    other.assert_restores(id, &dir, &manifest(&dir), "a format 1 import");

    // A restic repository that lies: every pack altered. The import fails, names the
    // restic repository, and leaves no snapshot.
    for pack in walk_files(&repo.join("data")) {
        let mut bytes = std::fs::read(&pack).unwrap();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0x55;
        std::fs::write(&pack, bytes).unwrap();
    }
    let out = run_any(&mut import_cmd(&t, &repo, &[]));
    assert_clean_failure(&out, "altered packs");
    let err = stderr_str(&out);
    assert!(err.contains("restic repository at"), "{err}");
    assert!(err.contains("MAC check failed"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(t.snapshots().is_empty(), "{:#?}", t.snapshots());
    run_ok(t.cmd().arg("verify"));
}

fn walk_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk_files(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn the_password_flag_and_a_restic_file_name_are_shown_in_help() {
    let t = Repo::init();
    let out = run_ok(t.cmd().args(["import", "restic", "--help"]));
    let help = stdout_str(&out);
    for flag in [
        "--from-repo",
        "--from-password-file",
        "--from-password-command",
        "--dry-run",
    ] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
    assert!(help.contains("RESTIC_REPOSITORY"), "{help}");
}
