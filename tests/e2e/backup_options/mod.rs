//! End-to-end: backup options --exclude, --exclude-file, --tag, --host, --dry-run, -q,
//! --upload-queue, --json; restic's filters (--exclude-caches, --exclude-if-present,
//! --exclude-larger-than, --iexclude*, -x), source lists (--files-from*) and streams
//! (--stdin, --stdin-from-command), as flags and as profile keys.

mod filters;
mod inputs;

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{
    assert_clean_failure, assert_stderr_has, run_code, run_ok, stderr_str, stdout_str,
};
use crate::support::fsutil::system_hostname;
use crate::support::manifest::{Entry, Kind, assert_tree_matches, manifest};
use crate::support::remote_dirs::assert_remotes_unchanged;
use crate::support::repo::{Repo, restored_path};
use std::fs;

/// `--exclude '*.log'` and `--exclude-file` (a glob and an absolute directory path):
/// excluded entries are absent from the snapshot, everything else restores identical.
#[test]
fn exclude_and_exclude_file() {
    let (repo, src) = Repo::with_simple_tree();
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

    repo.assert_restores(
        &r.snapshot_id,
        &src,
        &want,
        "restore of a backup with excludes",
    );
}

/// `--tag` (repeatable) and `--host` are recorded; without them: no tags, system host.
/// `-q` prints nothing on stdout.
#[test]
fn tag_and_host_are_recorded() {
    let (repo, src) = Repo::with_source("f", b"data");

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
    let (repo, src) = Repo::with_simple_tree();

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
    let (repo, src) = Repo::with_simple_tree();
    for bad in ["0", "65", "lots"] {
        let o = run_code(
            repo.cmd().args(["backup", "--upload-queue", bad]).arg(&src),
            1,
        );
        assert_clean_failure(&o, &format!("--upload-queue {bad}"));
        assert_stderr_has(&o, "number of extents from 1 to 64");
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
    let (repo, src) = Repo::with_source("f", b"data");
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

/// A backup leaves the access times of the files it reads as they were (`O_NOATIME`, as
/// restic does): reading a file is not using it, and mail readers tell new mail by it.
/// The file system must update access times on a plain read for this to show, which a
/// control file checks first (relatime: an access time older than a day).
#[test]
fn backup_leaves_access_times_as_they_were() {
    use filetime::FileTime;
    use std::os::unix::fs::MetadataExt;
    let (repo, src) = Repo::with_simple_tree();
    let now = FileTime::now().unix_seconds();
    let (atime, mtime) = (
        FileTime::from_unix_time(now - 2 * 86_400, 0),
        FileTime::from_unix_time(now - 3 * 86_400, 0),
    );
    let control = repo.path("control");
    write_file(&control, b"read by hand");
    filetime::set_file_times(&control, atime, mtime).unwrap();
    fs::read(&control).unwrap();
    if fs::metadata(&control).unwrap().atime() == atime.unix_seconds() {
        eprintln!("this file system does not update access times on reads: nothing to test");
        return;
    }
    let mailbox = src.join("mailbox");
    write_file(&mailbox, &pseudo_random(20_000, 11));
    filetime::set_file_times(&mailbox, atime, mtime).unwrap();
    let r = repo.backup(&[&src], &[]);
    assert!(r.errors.is_empty(), "errors: {:?}", r.errors);
    assert!(r.files_new > 1, "the mailbox was read: {:#}", r.json);
    assert_eq!(
        fs::metadata(&mailbox).unwrap().atime(),
        atime.unix_seconds(),
        "the backup changed the access time of a file it read"
    );
}
