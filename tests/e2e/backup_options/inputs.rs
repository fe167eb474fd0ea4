//! What a backup reads besides its PATHs: the lists of --files-from,
//! --files-from-verbatim and --files-from-raw, and one stream (--stdin,
//! --stdin-from-command).

use std::fs;

use super::refused;
use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{
    assert_clean_failure, assert_stderr_has, run_code, run_ok, stderr_str,
};
use crate::support::manifest::{Entry, assert_manifests_eq, manifest};
use crate::support::repo::{Repo, restored_path};
use crate::support::report::BackupReport;

/// `--files-from` (globs, comments, blank lines, spaces), `--files-from-verbatim`
/// (literal, `*` too) and `--files-from-raw` (NUL-separated): the snapshot's paths are
/// the listed ones, combined with PATHs, and restore as they were.
#[test]
fn files_from_lists() {
    let (repo, src) = Repo::with_source("a.txt", b"a");
    write_file(&src.join("b.txt"), b"b");
    write_file(&src.join("c.log"), b"c");
    write_file(&src.join("lit*"), b"literal star");
    write_file(&src.join("lit-other"), b"not listed");
    write_file(&src.join("dir/x"), b"x");
    write_file(&src.join("new\nline"), b"odd name");
    write_file(&src.join("other/y"), b"y");
    let s = src.display();
    let patterns = repo.path("list");
    fs::write(
        &patterns,
        format!("# the text files\n\n   {s}/*.txt  \n{s}/no-match-*\n{s}/dir\n"),
    )
    .unwrap();
    let verbatim = repo.path("verbatim");
    fs::write(&verbatim, format!("{s}/lit*\n\n")).unwrap();
    let raw = repo.path("raw");
    fs::write(&raw, format!("{s}/new\nline\0")).unwrap();
    let mut c = repo.cmd();
    c.args(["backup", "--json", "--no-progress"])
        .arg("--files-from")
        .arg(&patterns)
        .arg("--files-from-verbatim")
        .arg(&verbatim)
        .arg("--files-from-raw")
        .arg(&raw)
        .arg(src.join("other"));
    let o = run_ok(&mut c);
    let err = stderr_str(&o);
    assert!(
        err.contains("no-match-*") && err.contains("matches nothing"),
        "{err}"
    );
    let r = BackupReport::parse(&o.stdout);
    let snap = (repo.snapshots().into_iter())
        .find(|v| v["id"] == r.snapshot_id.as_str())
        .unwrap();
    let mut want: Vec<String> = ["a.txt", "b.txt", "dir", "lit*", "new\nline", "other"]
        .iter()
        .map(|n| src.join(n).to_str().unwrap().to_string())
        .collect();
    want.sort();
    assert_eq!(snap["paths"], serde_json::json!(want), "{snap:#}");
    let t = repo.dir("t");
    repo.restore(&r.snapshot_id, &t);
    let full = manifest(&src);
    let back = manifest(&restored_path(&t, &src));
    let listed = |p: &[u8]| {
        [&b"a.txt"[..], b"b.txt", b"lit*", b"new\nline"].contains(&p)
            || p.starts_with(b"dir")
            || p.starts_with(b"other")
    };
    let want: Vec<Entry> = full.iter().filter(|e| listed(&e.path)).cloned().collect();
    let back: Vec<Entry> = back.into_iter().filter(|e| e.path != b".").collect();
    assert_manifests_eq(&want, &back, "files-from restore");

    // Errors: an unreadable list, a listed path that does not exist, a list naming
    // nothing.
    let missing = repo.path("missing-list");
    refused(
        &repo,
        &["--files-from", missing.to_str().unwrap()],
        "cannot read --files-from",
    );
    let gone = repo.path("gone");
    fs::write(&gone, format!("{s}/does-not-exist\n")).unwrap();
    refused(
        &repo,
        &["--files-from-verbatim", gone.to_str().unwrap()],
        "cannot be backed up",
    );
    let empty = repo.path("empty");
    fs::write(&empty, "# nothing\n\n").unwrap();
    refused(
        &repo,
        &["--files-from", empty.to_str().unwrap()],
        "nothing to back up",
    );
}

/// `--stdin` backs up the bytes read as one file, `/stdin` or at `--stdin-filename`
/// (directories included), which `dump` gives back identical; an empty stream is an
/// empty file, as in restic.
#[test]
fn stdin_round_trips_through_dump() {
    let repo = Repo::init();
    let data = pseudo_random(7, 3_000_000);
    let o = run_ok(
        repo.cmd()
            .args(["backup", "--json", "--no-progress", "--stdin"])
            .args(["--stdin-filename", "db/dump.sql"])
            .write_stdin(data.clone()),
    );
    let r = BackupReport::parse(&o.stdout);
    assert_eq!(r.files_new, 1, "{:#}", r.json);
    let snaps = repo.snapshots();
    assert_eq!(snaps[0]["paths"], serde_json::json!(["/db/dump.sql"]));
    let out = run_ok(repo.cmd().args(["dump", "latest", "/db/dump.sql"]));
    assert!(out.stdout == data, "dump gave {} bytes", out.stdout.len());

    for (input, name) in [(b"hello\n".to_vec(), "stdin"), (Vec::new(), "stdin")] {
        let o = run_ok(
            repo.cmd()
                .args(["backup", "--json", "--no-progress", "--stdin"])
                .write_stdin(input.clone()),
        );
        let id = BackupReport::parse(&o.stdout).snapshot_id;
        let out = run_ok(repo.cmd().arg("dump").arg(&id).arg(format!("/{name}")));
        assert_eq!(out.stdout, input);
        let o = run_ok(repo.cmd().args(["ls", "--json"]).arg(&id));
        let listed: Vec<serde_json::Value> = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(listed.len(), 1, "{listed:#?}");
        assert_eq!(listed[0]["size"], input.len());
        assert_eq!(listed[0]["mode"], 0o644);
    }
}

/// `--stdin-from-command -- CMD...` backs up the command's output; a command that exits
/// other than 0 fails the backup (exit 1, a message naming it and its code) and no
/// snapshot is written.
#[test]
fn stdin_from_command() {
    let repo = Repo::init();
    let o = run_ok(
        repo.cmd()
            .args(["backup", "--json", "--no-progress", "--stdin-from-command"])
            .args(["--stdin-filename", "/out.txt", "--"])
            .args(["sh", "-c", "printf 'hello '; printf world"]),
    );
    let r = BackupReport::parse(&o.stdout);
    assert_eq!(
        repo.snapshots()[0]["paths"],
        serde_json::json!(["/out.txt"])
    );
    let out = run_ok(repo.cmd().args(["dump", &r.snapshot_id, "/out.txt"]));
    assert_eq!(out.stdout, b"hello world");

    let before = repo.snapshot_ids();
    for (script, says) in [
        ("printf partial; exit 3", "exited with 3"),
        ("kill -9 $$", "was killed"),
    ] {
        let o = run_code(
            repo.cmd()
                .args(["backup", "--no-progress", "--stdin-from-command", "--"])
                .args(["sh", "-c", script]),
            1,
        );
        assert_clean_failure(&o, script);
        let err = stderr_str(&o);
        assert!(
            err.contains("sh -c") && err.contains(says) && err.contains("no snapshot"),
            "{script}: {err}"
        );
        assert_eq!(
            repo.snapshot_ids(),
            before,
            "{script}: a snapshot was written"
        );
    }
    let o = run_code(
        repo.cmd().args([
            "backup",
            "--no-progress",
            "--stdin-from-command",
            "--",
            "/no/such/program",
        ]),
        1,
    );
    assert_clean_failure(&o, "a program that does not exist");
    assert_stderr_has(&o, "cannot run");
    assert_eq!(repo.snapshot_ids(), before);
}

/// What does not go with `--stdin`: PATHs, `--files-from`, both stream flags, a
/// `--stdin-filename` with `..` or without a stream, a command missing.
#[test]
fn stdin_usage_errors() {
    let repo = Repo::init();
    let src = repo.dir("src");
    let s = src.to_str().unwrap();
    refused(&repo, &["--stdin", s], "give no PATH");
    refused(&repo, &["--stdin", "--files-from", s], "exclude each other");
    refused(
        &repo,
        &["--stdin", "--stdin-from-command"],
        "exclude each other",
    );
    refused(&repo, &["--stdin", "--stdin-filename", "a/../b"], "`..`");
    refused(
        &repo,
        &["--stdin", "--stdin-filename", "/"],
        "names no file",
    );
    refused(&repo, &["--stdin-filename", "x", s], "--stdin-filename");
    refused(&repo, &["--stdin-from-command"], "needs the command");
}
