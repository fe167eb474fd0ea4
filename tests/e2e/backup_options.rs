//! End-to-end: backup options --exclude, --exclude-file, --tag, --host, --dry-run, -q,
//! --upload-queue, --json; restic's filters (--exclude-caches, --exclude-if-present,
//! --exclude-larger-than, --iexclude*, -x), source lists (--files-from*) and streams
//! (--stdin, --stdin-from-command), as flags and as profile keys.

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{
    assert_clean_failure, run_any, run_code, run_ok, stderr_str, stdout_str,
};
use crate::support::fsutil::system_hostname;
use crate::support::manifest::{Entry, Kind, assert_tree_matches, manifest};
use crate::support::remote_dirs::assert_remotes_unchanged;
use crate::support::repo::{Repo, restored_path};
use crate::support::trees::build_simple_tree;
use std::fs;

/// `--exclude '*.log'` and `--exclude-file` (a glob and an absolute directory path):
/// excluded entries are absent from the snapshot, everything else restores identical.
#[test]
fn exclude_and_exclude_file() {
    let repo = Repo::init();
    let src = repo.dir("src");
    build_simple_tree(&src);
    write_file(&src.join("notes.tmp"), b"tmp");
    write_file(&src.join("sub/deep/x.tmp"), b"tmp 2");
    write_file(&src.join("skipdir/inner/f.txt"), b"skipped");
    write_file(&src.join("skipdir/g.txt"), b"skipped too");
    write_file(
        &src.join("keepdir/skipdir.txt"),
        b"kept: only the name starts like skipdir",
    );
    let full = manifest(&src);

    let exclude_file = repo.path("excludes");
    fs::write(
        &exclude_file,
        format!("*.tmp\n{}\n", src.join("skipdir").display()),
    )
    .unwrap();
    let r = repo.backup(
        &[&src],
        &[
            "--exclude",
            "*.log",
            "--exclude-file",
            exclude_file.to_str().unwrap(),
        ],
    );
    assert!(r.errors.is_empty(), "errors: {:?}", r.errors);

    let excluded = |p: &[u8]| {
        p.ends_with(b".log")
            || p.ends_with(b".tmp")
            || p == b"skipdir"
            || p.starts_with(b"skipdir/")
    };
    let want: Vec<Entry> = full
        .iter()
        .filter(|e| !excluded(&e.path))
        .cloned()
        .collect();
    let kept_files = want.iter().filter(|e| e.kind == Kind::File).count() as u64;
    assert_eq!(
        r.files_new, kept_files,
        "files_new counts excluded files?\n{:#}",
        r.json
    );

    let t = repo.dir("t");
    repo.restore(&r.snapshot_id, &t);
    assert_tree_matches(
        &want,
        &restored_path(&t, &src),
        "restore of a backup with excludes",
    );
}

/// `--tag` (repeatable) and `--host` are recorded; without them: no tags, system host.
/// `-q` prints nothing on stdout.
#[test]
fn tag_and_host_are_recorded() {
    let repo = Repo::init();
    let src = repo.dir("src");
    write_file(&src.join("f"), b"data");

    let tagged = repo.backup(
        &[&src],
        &["--tag", "daily", "--tag", "manual", "--host", "test-host-1"],
    );
    let o = run_ok(
        repo.cmd()
            .arg("-q")
            .arg("backup")
            .arg("--no-progress")
            .arg(&src),
    );
    assert!(
        stdout_str(&o).trim().is_empty(),
        "`-q backup` printed:\n{}",
        stdout_str(&o)
    );

    let snaps = repo.snapshots();
    assert_eq!(snaps.len(), 2, "{snaps:#?}");
    let t = snaps
        .iter()
        .find(|s| s["id"] == tagged.snapshot_id.as_str())
        .expect("tagged snapshot listed");
    let mut tags: Vec<&str> = t["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    tags.sort();
    assert_eq!(tags, vec!["daily", "manual"], "{t:#}");
    assert_eq!(t["host"], "test-host-1", "{t:#}");

    let plain = snaps
        .iter()
        .find(|s| s["id"] != tagged.snapshot_id.as_str())
        .unwrap();
    assert_eq!(plain["tags"].as_array().map(Vec::len), Some(0), "{plain:#}");
    assert_eq!(plain["host"], system_hostname().as_str(), "{plain:#}");
    // The test runs tangle with a cleared environment (no USER, no LOGNAME), as cron
    // may: the name still comes from the password file, not `uid N`.
    let me = std::process::Command::new("id")
        .arg("-un")
        .output()
        .unwrap();
    let me = String::from_utf8_lossy(&me.stdout).trim().to_string();
    assert!(!me.is_empty());
    assert_eq!(plain["user"], me.as_str(), "{plain:#}");
}

/// `--dry-run` writes nothing to any remote and no snapshot, but exits 0.
#[test]
fn dry_run_writes_nothing() {
    let repo = Repo::init();
    let src = repo.dir("src");
    build_simple_tree(&src);

    // On an empty repository.
    let before = repo.remote_state();
    run_ok(
        repo.cmd()
            .arg("backup")
            .arg("--dry-run")
            .arg("--no-progress")
            .arg(&src),
    );
    assert_remotes_unchanged(
        &before,
        &repo.remote_state(),
        "backup --dry-run on an empty repository",
    );
    assert!(repo.snapshots().is_empty(), "dry run wrote a snapshot");

    // After a real backup, with a new file.
    let r = repo.backup(&[&src], &[]);
    write_file(&src.join("new.bin"), &pseudo_random(9, 2_000_000));
    let before = repo.remote_state();
    run_ok(
        repo.cmd()
            .arg("backup")
            .arg("--dry-run")
            .arg("--json")
            .arg("--no-progress")
            .arg(&src),
    );
    assert_remotes_unchanged(
        &before,
        &repo.remote_state(),
        "backup --dry-run after a backup",
    );
    assert_eq!(
        repo.snapshot_ids(),
        vec![r.snapshot_id],
        "dry run wrote a snapshot"
    );
}

/// `--upload-queue N` takes 1 to 64 extents (a clear usage error otherwise); a backup
/// with a queue of one extent restores identical and reports whom it waited for.
#[test]
fn upload_queue_option() {
    let repo = Repo::init();
    let src = repo.dir("src");
    build_simple_tree(&src);
    for bad in ["0", "65", "lots"] {
        let o = run_code(
            repo.cmd().args(["backup", "--upload-queue", bad]).arg(&src),
            1,
        );
        assert_clean_failure(&o, &format!("--upload-queue {bad}"));
        assert!(
            stderr_str(&o).contains("number of extents from 1 to 64"),
            "{}",
            stderr_str(&o)
        );
    }
    assert!(
        repo.snapshots().is_empty(),
        "a rejected backup wrote a snapshot"
    );
    let r = repo.backup(&[&src], &["--upload-queue", "1"]);
    assert!(
        r.json["upload_waits"].is_array(),
        "no upload_waits in {:#}",
        r.json
    );
    let target = repo.dir("target");
    repo.restore("latest", &target);
    assert_eq!(manifest(&restored_path(&target, &src)), manifest(&src));
}

/// `backup --json` prints restic-style JSON lines: one compact summary line with
/// `"message_type": "summary"`; with `--progress`, status lines come first, and every line
/// on stdout is one JSON object.
#[test]
fn backup_json_is_json_lines() {
    let repo = Repo::init();
    let src = repo.dir("src");
    write_file(&src.join("f"), b"data");
    let out = run_ok(repo.cmd().args(["backup", "--json"]).arg(&src));
    let text = stdout_str(&out);
    assert_eq!(text.lines().count(), 1, "{text}");
    let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(v["message_type"], "summary", "{v:#}");
    assert!(v["snapshot_id"].is_string(), "{v:#}");

    // Enough work to last past the first status second.
    for i in 0..6u64 {
        write_file(
            &src.join(format!("big{i}.bin")),
            &pseudo_random(i, 16_000_000),
        );
    }
    let out = run_ok(
        repo.cmd()
            .args(["backup", "--json", "--progress"])
            .arg(&src),
    );
    let text = stdout_str(&out);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let (last, status) = lines.split_last().unwrap();
    assert_eq!(last["message_type"], "summary", "{text}");
    assert!(!status.is_empty(), "no status line in {text}");
    for s in status {
        assert_eq!(s["message_type"], "status", "{s}");
        assert!(
            s["percent_done"]
                .as_f64()
                .is_some_and(|p| (0.0..=1.0).contains(&p))
        );
    }
    // No bar on stderr: --json keeps stderr for messages.
    assert!(!stderr_str(&out).contains('\r'), "{}", stderr_str(&out));
}

/// The manifest `full` without the entries `excluded` names (by path relative to the
/// source).
fn without(full: &[Entry], excluded: impl Fn(&[u8]) -> bool) -> Vec<Entry> {
    full.iter()
        .filter(|e| !excluded(&e.path))
        .cloned()
        .collect()
}

/// Back up `src` with `flags`, restore it and compare it with `want`.
fn backup_restores_as(repo: &Repo, src: &std::path::Path, flags: &[&str], want: &[Entry]) {
    let r = repo.backup(&[src], flags);
    assert!(r.errors.is_empty(), "errors: {:?}", r.errors);
    let t = repo.dir(&format!("t-{}", r.short_id));
    repo.restore(&r.snapshot_id, &t);
    assert_tree_matches(
        want,
        &restored_path(&t, src),
        &format!("restore of a backup with {flags:?}"),
    );
}

/// A usage error: exit 1, one clean error containing `says` (clap's usage lines may
/// follow it), and no snapshot.
fn refused(repo: &Repo, args: &[&str], says: &str) {
    let before = repo.snapshot_ids();
    let o = run_code(repo.cmd().arg("backup").arg("--no-progress").args(args), 1);
    assert_clean_failure(&o, &format!("backup {args:?}"));
    let err = stderr_str(&o);
    assert!(err.contains(says), "backup {args:?}: {err}");
    assert_eq!(err.matches("error:").count(), 1, "backup {args:?}: {err}");
    assert_eq!(
        repo.snapshot_ids(),
        before,
        "backup {args:?} wrote a snapshot"
    );
}

/// `--exclude-caches`: a directory holding a CACHEDIR.TAG with the signature keeps only
/// the tag; one whose tag lacks the signature is backed up whole.
#[test]
fn exclude_caches() {
    let repo = Repo::init();
    let src = repo.dir("src");
    build_simple_tree(&src);
    let tag =
        b"Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag.\n";
    write_file(&src.join("cache/CACHEDIR.TAG"), tag);
    write_file(&src.join("cache/blob.bin"), &pseudo_random(1, 50_000));
    write_file(&src.join("cache/sub/deeper.txt"), b"cached");
    write_file(&src.join("fake/CACHEDIR.TAG"), b"Signature: not the one\n");
    write_file(&src.join("fake/kept.txt"), b"kept");
    let full = manifest(&src);

    let want = without(&full, |p| {
        p.starts_with(b"cache/") && p != b"cache/CACHEDIR.TAG"
    });
    assert!(want.len() + 3 == full.len(), "{}", want.len());
    backup_restores_as(&repo, &src, &["--exclude-caches"], &want);
    // Without the flag, everything.
    backup_restores_as(&repo, &src, &[], &full);
}

/// `--exclude-if-present FILE` and restic's `FILE:HEADER`: the directory keeps only the
/// tag file; a tag without the header counts not. Bad specs are usage errors.
#[test]
fn exclude_if_present() {
    let repo = Repo::init();
    let src = repo.dir("src");
    build_simple_tree(&src);
    write_file(&src.join("a/.nobackup"), b"");
    write_file(&src.join("a/x"), b"x");
    write_file(&src.join("a/sub/y"), b"y");
    write_file(&src.join("b/MARK"), b"skip me, please");
    write_file(&src.join("b/z"), b"z");
    write_file(&src.join("c/MARK"), b"keep me");
    write_file(&src.join("c/w"), b"w");
    let full = manifest(&src);

    let want = without(&full, |p| {
        (p.starts_with(b"a/") && p != b"a/.nobackup") || (p.starts_with(b"b/") && p != b"b/MARK")
    });
    backup_restores_as(
        &repo,
        &src,
        &[
            "--exclude-if-present",
            ".nobackup",
            "--exclude-if-present",
            "MARK:skip me",
        ],
        &want,
    );
    let s = src.to_str().unwrap();
    refused(&repo, &["--exclude-if-present", "", s], "names no file");
    refused(&repo, &["--exclude-if-present", ":hdr", s], "names no file");
    refused(&repo, &["--exclude-if-present", "a/b", s], "a file name");
}

/// `--exclude-larger-than SIZE` in restic's syntax: files above it are absent, a file of
/// exactly SIZE is kept. A bad size is a usage error naming the flag.
#[test]
fn exclude_larger_than() {
    let repo = Repo::init();
    let src = repo.dir("src");
    write_file(&src.join("small"), b"small");
    write_file(&src.join("exact"), &pseudo_random(2, 1 << 20));
    write_file(&src.join("d/big"), &pseudo_random(3, (1 << 20) + 1));
    write_file(&src.join("d/bigger"), &pseudo_random(4, 3 << 20));
    let full = manifest(&src);

    let want = without(&full, |p| p.starts_with(b"d/big"));
    backup_restores_as(&repo, &src, &["--exclude-larger-than", "1M"], &want);
    backup_restores_as(&repo, &src, &["--exclude-larger-than", "1048576"], &want);
    let want = without(&full, |p| p != b"." && p != b"d" && p != b"small");
    backup_restores_as(&repo, &src, &["--exclude-larger-than", "1k"], &want);
    let s = src.to_str().unwrap();
    for bad in ["2X", "-1", "", "1.5G", "99999999999T"] {
        let o = run_code(
            repo.cmd()
                .arg("backup")
                .arg(format!("--exclude-larger-than={bad}"))
                .arg(s),
            1,
        );
        assert_clean_failure(&o, &format!("--exclude-larger-than {bad:?}"));
        let err = stderr_str(&o);
        assert!(
            err.contains("--exclude-larger-than") && err.contains("is not a size"),
            "{err}"
        );
    }
    assert_eq!(repo.snapshot_ids().len(), 3);
}

/// `--iexclude` and `--iexclude-file` ignore case; `--exclude` does not.
#[test]
fn iexclude_and_iexclude_file() {
    let repo = Repo::init();
    let src = repo.dir("src");
    write_file(&src.join("A.LOG"), b"a");
    write_file(&src.join("b.Log"), b"b");
    write_file(&src.join("c.txt"), b"c");
    write_file(&src.join("Cache/x"), b"x");
    write_file(&src.join("keep/D.TXT"), b"d");
    let full = manifest(&src);

    let list = repo.path("iexcludes");
    fs::write(
        &list,
        format!("# comment\n{}\n", src.join("cache").display()),
    )
    .unwrap();
    let want = without(&full, |p| {
        p.ends_with(b".LOG") || p.ends_with(b".Log") || p.starts_with(b"Cache")
    });
    backup_restores_as(
        &repo,
        &src,
        &[
            "--iexclude",
            "*.log",
            "--iexclude-file",
            list.to_str().unwrap(),
        ],
        &want,
    );
    // Case matters to --exclude: nothing matches.
    backup_restores_as(
        &repo,
        &src,
        &["--exclude", "*.log", "--exclude", "*.txt"],
        &{ without(&full, |p| p == b"c.txt") },
    );
    let missing = repo.path("no-such-list");
    refused(
        &repo,
        &[
            "--iexclude-file",
            missing.to_str().unwrap(),
            src.to_str().unwrap(),
        ],
        "reading pattern file",
    );
}

/// `-x`/`--one-file-system`: a backup of `/dev` keeps `/dev/shm` (a tmpfs on Linux) as
/// an empty mount point and leaves out what is in it; without a separate file system
/// there the test has nothing to check and says so.
#[test]
fn one_file_system() {
    use std::os::unix::fs::MetadataExt;
    let (dev, shm) = (
        std::path::Path::new("/dev"),
        std::path::Path::new("/dev/shm"),
    );
    let device = |p: &std::path::Path| fs::metadata(p).map(|m| m.dev()).ok();
    if device(dev).is_none() || device(shm).is_none() || device(dev) == device(shm) {
        eprintln!("one_file_system: /dev/shm is not another file system here: not checked");
        return;
    }
    let mine = tempfile::Builder::new()
        .prefix("tangle-e2e-xdev-")
        .tempdir_in(shm)
        .unwrap();
    write_file(&mine.path().join("f"), b"on another file system");
    let repo = Repo::init();
    for flag in ["-x", "--one-file-system"] {
        let o = run_any(
            repo.cmd()
                .args(["backup", "--json", "--no-progress", flag, "/dev"]),
        );
        assert!(
            matches!(o.status.code(), Some(0 | 3)),
            "backup {flag} /dev: {}",
            stderr_str(&o)
        );
        let ls = |path: &std::path::Path| -> Vec<serde_json::Value> {
            let o = run_ok(repo.cmd().args(["ls", "--json", "latest"]).arg(path));
            serde_json::from_slice(&o.stdout).unwrap()
        };
        let listed = ls(shm);
        assert_eq!(listed.len(), 1, "{flag}: /dev/shm holds {listed:#?}");
        assert_eq!(listed[0]["path"], "/dev/shm");
        assert_eq!(listed[0]["type"], "dir");
        // The source's own file system is backed up.
        let null = ls(std::path::Path::new("/dev/null"));
        assert_eq!(null.len(), 1, "{flag}: {null:#?}");
    }
}

/// `--files-from` (globs, comments, blank lines, spaces), `--files-from-verbatim`
/// (literal, `*` too) and `--files-from-raw` (NUL-separated): the snapshot's paths are
/// the listed ones, combined with PATHs, and restore as they were.
#[test]
fn files_from_lists() {
    let repo = Repo::init();
    let src = repo.dir("src");
    write_file(&src.join("a.txt"), b"a");
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
    let r = crate::support::report::BackupReport::parse(&o.stdout);
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
    crate::support::manifest::assert_manifests_eq(&want, &back, "files-from restore");

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
    let r = crate::support::report::BackupReport::parse(&o.stdout);
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
        let id = crate::support::report::BackupReport::parse(&o.stdout).snapshot_id;
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
    let r = crate::support::report::BackupReport::parse(&o.stdout);
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
    assert!(stderr_str(&o).contains("cannot run"), "{}", stderr_str(&o));
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

/// The new filters are `[backup]` keys too: a profile's `exclude-caches`,
/// `exclude-larger-than`, `iexclude`, `exclude-if-present`, `one-file-system` and
/// `files-from` apply; a bad value names the key.
#[test]
fn filters_as_profile_keys() {
    let repo = Repo::init();
    let src = repo.dir("src");
    write_file(&src.join("keep.txt"), b"kept");
    write_file(&src.join("BIG.bin"), &pseudo_random(5, 5000));
    write_file(&src.join("NOISE.TMP"), b"noise");
    write_file(
        &src.join("cache/CACHEDIR.TAG"),
        b"Signature: 8a477f597d28d172789f06886806bc55",
    );
    write_file(&src.join("cache/c"), b"cached");
    write_file(&src.join("t/.skip"), b"");
    write_file(&src.join("t/u"), b"u");
    let full = manifest(&src);
    let list = repo.path("list");
    fs::write(&list, format!("{}\n", src.display())).unwrap();
    let profile = |extra: &str| {
        let text = format!(
            "[repository]\nremotes = [{:?}]\npassword = {:?}\n[backup]\n{extra}",
            repo.url(0),
            crate::support::command::PASSWORD,
        );
        let path = repo.home.join("config/tangle/p.toml");
        write_file(&path, text.as_bytes());
        crate::support::fsutil::set_mode(&path, 0o600);
    };
    profile(&format!(
        "files-from = [{list:?}]\nexclude-caches = true\nexclude-larger-than = \"1K\"\n\
         iexclude = [\"*.tmp\"]\nexclude-if-present = \".skip\"\none-file-system = true\n"
    ));
    let run = |args: &[&str]| {
        run_ok(
            repo.cmd_as(crate::support::repo::Client::no_repo().no_password())
                .args(["-P", "p"])
                .args(args),
        )
    };
    let o = run(&["backup", "--json", "--no-progress"]);
    let r = crate::support::report::BackupReport::parse(&o.stdout);
    let t = repo.dir("t");
    repo.restore(&r.snapshot_id, &t);
    let want = without(&full, |p| {
        p == b"BIG.bin" || p == b"NOISE.TMP" || p == b"cache/c" || p == b"t/u"
    });
    assert_tree_matches(&want, &restored_path(&t, &src), "profile filters");
    let shown = run(&["profile", "show", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&shown.stdout).unwrap();
    for key in [
        "exclude-caches",
        "exclude-larger-than",
        "files-from",
        "one-file-system",
    ] {
        assert_eq!(
            v["settings"]["backup"][key]["source"], "profile",
            "{key}: {v:#}"
        );
    }
    assert_eq!(
        v["settings"]["backup"]["exclude-larger-than"]["value"],
        1024
    );
    // What the command line names to back up replaces the profile's sources and lists.
    let o = run_ok(
        repo.cmd_as(crate::support::repo::Client::no_repo().no_password())
            .args(["-P", "p", "backup", "--json", "--no-progress", "--stdin"])
            .write_stdin(b"from a pipe".to_vec()),
    );
    let id = crate::support::report::BackupReport::parse(&o.stdout).snapshot_id;
    let snap = (repo.snapshots().into_iter())
        .find(|v| v["id"] == id.as_str())
        .unwrap();
    assert_eq!(snap["paths"], serde_json::json!(["/stdin"]), "{snap:#}");

    profile("exclude-larger-than = \"huge\"\n");
    let o = run_code(
        repo.cmd_as(crate::support::repo::Client::no_repo().no_password())
            .args(["-P", "p", "backup"]),
        1,
    );
    assert_clean_failure(&o, "a bad exclude-larger-than");
    let err = stderr_str(&o);
    assert!(err.contains("[backup] exclude-larger-than"), "{err}");
}
