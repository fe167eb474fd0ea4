//! End-to-end: backup and restore through the real binary, with byte- and
//! metadata-exact comparison of the restored trees.

use crate::shared::files::{pseudo_random, write_file};
use crate::support::awkward::{BIG_LEN, SPARSE_LEN};
use crate::support::command::{
    assert_clean_failure, run_any, run_code, run_ok, stderr_str, stdout_str,
};
use crate::support::fsutil::{MIB, allocated, is_rfc3339, raw, set_mtime, system_hostname};
use crate::support::manifest::{
    Entry, Kind, assert_manifests_eq, assert_tree_matches, manifest, manifest_diff,
};
use crate::support::repo::{Client, Repo, parse_snapshots, restored_path};
use crate::support::report::BackupReport;
use crate::support::trees::{build_real_tree, build_simple_tree};
use std::collections::BTreeSet;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// A real tree (generated documentation and binaries, all awkward cases): backup, restore
/// by short id, and the restored tree equals the source in names, kinds, bytes, modes,
/// owners, mtimes (ns, also dirs and symlinks), symlink targets and hard-link groups
/// (same inode after restore). The sparse file stays sparse. Restore exits 0.
#[test]
fn roundtrip_real_tree_preserves_everything() {
    let repo = Repo::init();
    let src = repo.dir("src");
    let awk = build_real_tree(&src);
    let expected = manifest(&src);
    assert!(
        expected.len() > 100,
        "source tree unexpectedly small ({} entries)",
        expected.len()
    );

    let report = repo.backup(&[&src], &[]);
    assert!(
        report.errors.is_empty(),
        "backup reported errors: {:?}",
        report.errors
    );
    assert!(
        report.files_new > 50,
        "files_new = {} for a fresh backup",
        report.files_new
    );
    assert!(
        report.bytes_read >= BIG_LEN as u64,
        "bytes_read = {}",
        report.bytes_read
    );
    assert!(report.bytes_added > 0, "bytes_added = 0 for a fresh backup");

    let target = repo.dir("target");
    let out = run_any(
        repo.cmd()
            .arg("restore")
            .arg(&report.short_id)
            .arg("--target")
            .arg(&target),
    );
    let restored = restored_path(&target, &src);
    // Collect every problem, so one run shows all of them.
    let mut problems = Vec::new();
    if !out.status.success() {
        problems.push(format!(
            "restore exited {:?}; stderr:\n{}",
            out.status.code(),
            stderr_str(&out).trim()
        ));
    }
    if !restored.is_dir() {
        problems.push(format!("{} was not restored", restored.display()));
    } else if let Some(d) = manifest_diff(&expected, &manifest(&restored)) {
        problems.push(d);
    }
    // Sparse: only if the source really is sparse on this file system.
    let src_alloc = allocated(&awk.sparse);
    let restored_sparse = restored_path(&target, &awk.sparse);
    if src_alloc >= 8 * MIB {
        eprintln!(
            "note: the file system does not keep {} sparse; not checked",
            awk.sparse.display()
        );
    } else if restored_sparse.is_file() && allocated(&restored_sparse) >= 8 * MIB {
        problems.push(format!(
            "sparse file ({SPARSE_LEN} bytes, 23 bytes of data, {src_alloc} bytes allocated in the \
             source) restored with {} bytes allocated",
            allocated(&restored_sparse)
        ));
    }
    assert!(
        problems.is_empty(),
        "restore of the real tree:\n{}",
        problems.join("\n\n")
    );
}

/// Hard links, one group within a directory and across a subdirectory: restore exits
/// 0 and all names share one inode.
#[test]
fn restore_hard_links_across_directories() {
    let (repo, src) = Repo::with_source("hard/a", b"one inode, three names\n");
    fs::create_dir(src.join("hard/deeper")).unwrap();
    fs::hard_link(src.join("hard/a"), src.join("hard/b")).unwrap();
    fs::hard_link(src.join("hard/a"), src.join("hard/deeper/c")).unwrap();
    let expected = manifest(&src);
    let r = repo.backup(&[&src], &[]);

    let target = repo.dir("t");
    let out = run_any(
        repo.cmd()
            .arg("restore")
            .arg(&r.snapshot_id)
            .arg("--target")
            .arg(&target),
    );
    let what = format!(
        "restore of hard links (exit {:?}, stderr: {})",
        out.status.code(),
        stderr_str(&out).trim()
    );
    assert_tree_matches(&expected, &restored_path(&target, &src), &what);
    assert!(out.status.success(), "{what}");
    let inos: BTreeSet<u64> = ["hard/a", "hard/b", "hard/deeper/c"]
        .iter()
        .map(|p| {
            fs::metadata(restored_path(&target, &src.join(p)))
                .unwrap()
                .ino()
        })
        .collect();
    assert_eq!(inos.len(), 1, "hard links restored as separate inodes");
}

/// The JSON report of a first backup counts files, dirs and bytes read, and dedups an
/// identical 9 MiB copy (bytes_added about one copy, not two).
#[test]
fn backup_json_report_counts_and_dedup() {
    let repo = Repo::init();
    let src = repo.dir("src");
    let (n_files, n_dirs, total) = build_simple_tree(&src);

    let r = repo.backup(&[&src], &[]);
    assert!(r.errors.is_empty(), "errors: {:?}", r.errors);
    assert_eq!(r.files_new, n_files, "files_new\n{:#}", r.json);
    assert_eq!(r.files_changed, 0, "files_changed\n{:#}", r.json);
    assert_eq!(r.files_unchanged, 0, "files_unchanged\n{:#}", r.json);
    // Snapshots record absolute paths, so the tree also holds the source's ancestors
    // (e.g. /tmp); accept the count with or without the root and those ancestors.
    let ancestors = src.ancestors().count() as u64 - 1; // without src, with "/"
    let accepted: Vec<u64> = [0, 1]
        .iter()
        .flat_map(|root| [0, ancestors - 1, ancestors].map(|a| n_dirs + root + a))
        .collect();
    assert!(
        accepted.contains(&r.dirs),
        "dirs = {}, expected {} subdirectories (+1 for the root, + its ancestors): one of {:?}\n{:#}",
        r.dirs,
        n_dirs,
        accepted,
        r.json
    );
    assert_eq!(
        r.bytes_read, total,
        "bytes_read must be the source bytes read\n{:#}",
        r.json
    );
    // Two identical 9 MiB random files: stored once. Random data does not compress,
    // so at least one copy must have been added.
    assert!(
        r.bytes_added >= BIG_LEN as u64,
        "bytes_added = {} is less than the unique random content ({BIG_LEN})",
        r.bytes_added
    );
    assert!(
        r.bytes_added < BIG_LEN as u64 + 2 * MIB,
        "bytes_added = {} although the second 9 MiB copy is a duplicate (total read {})",
        r.bytes_added,
        total
    );
    let ids = repo.snapshot_ids();
    assert_eq!(
        ids,
        vec![r.snapshot_id.clone()],
        "snapshot list after one backup"
    );
}

/// First backup (no parent) of a tree with hard links: nothing can be "unchanged";
/// every file is new.
#[test]
fn first_backup_with_hard_links_reports_nothing_unchanged() {
    let (repo, src) = Repo::with_source("a", b"hard-linked\n");
    fs::hard_link(src.join("a"), src.join("b")).unwrap();
    write_file(&src.join("d/x"), b"plain\n");
    fs::hard_link(src.join("a"), src.join("d/c")).unwrap();
    let r = repo.backup(&[&src], &[]);
    assert_eq!(
        r.files_unchanged, 0,
        "files_unchanged on a first backup (no parent)\n{:#}",
        r.json
    );
    assert_eq!(
        r.files_changed, 0,
        "files_changed on a first backup (no parent)\n{:#}",
        r.json
    );
    assert_eq!(
        r.files_new, 4,
        "files_new: 4 file names (3 of them one inode)\n{:#}",
        r.json
    );
}

/// Unchanged tree: nothing read, everything unchanged. Then one file modified and one
/// added: files_changed == 1, files_new == 1; both snapshots restore their own state.
#[test]
fn incremental_backup_and_both_snapshots_restore() {
    let repo = Repo::init();
    let src = repo.dir("src");
    let (n_files, _, _) = build_simple_tree(&src);
    let old_manifest = manifest(&src);

    let first = repo.backup(&[&src], &[]);

    let again = repo.backup(&[&src], &[]);
    assert_eq!(
        again.bytes_read, 0,
        "unchanged tree must not be read again\n{:#}",
        again.json
    );
    assert_eq!(
        again.files_new, 0,
        "files_new on unchanged tree\n{:#}",
        again.json
    );
    assert_eq!(
        again.files_changed, 0,
        "files_changed on unchanged tree\n{:#}",
        again.json
    );
    assert_eq!(
        again.files_unchanged, n_files,
        "files_unchanged on unchanged tree\n{:#}",
        again.json
    );
    assert!(
        again.bytes_added < MIB,
        "bytes_added = {} for an unchanged tree",
        again.bytes_added
    );
    assert_ne!(
        again.snapshot_id, first.snapshot_id,
        "second backup reused the snapshot id"
    );

    // Modify one file (size and mtime change, so detection does not depend on
    // timestamp granularity) and add one.
    let modified = src.join("sub/c.txt");
    let new_content = b"charlie, modified and longer\n";
    fs::write(&modified, new_content).unwrap();
    set_mtime(&modified, 1_700_000_000, 5);
    let added = src.join("other/new-file.txt");
    let added_content = b"a brand new file\n";
    fs::write(&added, added_content).unwrap();
    let new_manifest = manifest(&src);

    let third = repo.backup(&[&src], &[]);
    assert_eq!(
        third.files_changed, 1,
        "files_changed after modifying one file\n{:#}",
        third.json
    );
    assert_eq!(
        third.files_new, 1,
        "files_new after adding one file\n{:#}",
        third.json
    );
    assert_eq!(
        third.files_unchanged,
        n_files - 1,
        "files_unchanged\n{:#}",
        third.json
    );
    assert_eq!(
        third.bytes_read,
        (new_content.len() + added_content.len()) as u64,
        "only the changed and the new file should be read\n{:#}",
        third.json
    );

    repo.assert_restores(
        &third.snapshot_id,
        &src,
        &new_manifest,
        "restore of the third snapshot",
    );

    repo.assert_restores(
        &first.snapshot_id,
        &src,
        &old_manifest,
        "restore of the first snapshot",
    );
}

/// `snapshots --json`: id, short_id, RFC 3339 time, host, absolute paths, tags.
#[test]
fn snapshots_json_describes_each_snapshot() {
    let repo = Repo::init();
    assert!(repo.snapshots().is_empty(), "new repository has snapshots");
    let src = repo.dir("src");
    build_simple_tree(&src);
    let other = repo.dir("other-src");
    write_file(&other.join("x"), b"x");

    let a = repo.backup(&[&src], &[]);
    let b = repo.backup(&[&src, &other], &["--tag", "nightly"]);

    let snaps = repo.snapshots();
    assert_eq!(snaps.len(), 2, "snapshots: {snaps:#?}");
    let host = system_hostname();
    for (rep, paths, tags) in [
        (&a, vec![src.clone()], Vec::<&str>::new()),
        (&b, vec![src.clone(), other.clone()], vec!["nightly"]),
    ] {
        let s = snaps
            .iter()
            .find(|s| s["id"] == rep.snapshot_id.as_str())
            .unwrap_or_else(|| panic!("snapshot {} not listed: {snaps:#?}", rep.snapshot_id));
        assert_eq!(s["short_id"], rep.short_id.as_str(), "short_id in {s:#}");
        let time = s["time"]
            .as_str()
            .unwrap_or_else(|| panic!("time missing: {s:#}"));
        assert!(is_rfc3339(time), "time {time:?} is not RFC 3339");
        assert_eq!(s["host"], host.as_str(), "host in {s:#}");
        let mut got: Vec<String> = s["paths"]
            .as_array()
            .unwrap_or_else(|| panic!("paths missing: {s:#}"))
            .iter()
            .map(|p| p.as_str().unwrap().to_string())
            .collect();
        got.sort();
        let mut want: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        want.sort();
        assert_eq!(got, want, "paths in {s:#}");
        let got_tags: Vec<&str> = s["tags"]
            .as_array()
            .unwrap_or_else(|| panic!("tags missing: {s:#}"))
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        assert_eq!(got_tags, tags, "tags in {s:#}");
    }
}

/// Every path under `dir` (absolute), including `dir`.
fn all_paths(dir: &Path) -> BTreeSet<PathBuf> {
    manifest(dir)
        .iter()
        .map(|e| {
            if e.path == b"." {
                dir.to_path_buf()
            } else {
                dir.join(std::ffi::OsStr::from_bytes(&e.path))
            }
        })
        .collect()
}

/// `ls SNAPSHOT` lists the absolute paths as backed up, one per line;
/// `ls SNAPSHOT PATH` only lists PATH and below.
#[test]
fn ls_lists_absolute_paths() {
    let (repo, src) = Repo::with_simple_tree();
    let r = repo.backup(&[&src], &[]);

    let expected = all_paths(&src);
    let ancestors: BTreeSet<PathBuf> = src.ancestors().skip(1).map(Path::to_path_buf).collect();
    for spec in [r.snapshot_id.as_str(), r.short_id.as_str(), "latest"] {
        let out = run_ok(repo.cmd().arg("ls").arg(spec));
        let listed: BTreeSet<PathBuf> = stdout_str(&out)
            .lines()
            .filter(|l| !l.is_empty())
            .map(PathBuf::from)
            .collect();
        let missing: Vec<_> = expected.difference(&listed).collect();
        assert!(
            missing.is_empty(),
            "`ls {spec}` misses {missing:?}\noutput:\n{}",
            stdout_str(&out)
        );
        let unexpected: Vec<_> = listed
            .iter()
            .filter(|p| !expected.contains(*p) && !ancestors.contains(*p))
            .collect();
        assert!(
            unexpected.is_empty(),
            "`ls {spec}` prints lines that are not backed-up paths: {unexpected:?}"
        );
    }

    let sub = src.join("sub");
    let out = run_ok(repo.cmd().arg("ls").arg("latest").arg(&sub));
    let text = stdout_str(&out);
    let listed: BTreeSet<PathBuf> = text
        .lines()
        .filter(|l| !l.is_empty())
        .map(PathBuf::from)
        .collect();
    for l in &listed {
        assert!(
            l.starts_with(&sub),
            "`ls latest {}` lists {} outside of it",
            sub.display(),
            l.display()
        );
    }
    for child in ["c.txt", "copy-of-big.bin", "deep"] {
        assert!(
            listed.contains(&sub.join(child)),
            "`ls latest {}` misses {child}:\n{text}",
            sub.display()
        );
    }
}

/// `dump SNAPSHOT FILE` writes exactly the file's bytes to stdout (large random file,
/// small file, non-UTF-8 name; id, short id and `latest`).
#[test]
fn dump_writes_file_contents() {
    let repo = Repo::init();
    let src = repo.dir("src");
    let big = src.join("big.bin");
    let big_data = pseudo_random(21, BIG_LEN);
    write_file(&big, &big_data);
    let small = src.join("small.txt");
    write_file(&small, b"small file\n");
    let odd = src.join(raw(b"caf\xe9"));
    write_file(&odd, b"latin-1 named\n");
    write_file(&src.join("empty"), b"");
    let r = repo.backup(&[&src], &[]);

    let out = run_ok(repo.cmd().arg("dump").arg(&r.snapshot_id).arg(&big));
    assert!(
        out.stdout == big_data,
        "dump of {} differs ({} bytes vs {})",
        big.display(),
        out.stdout.len(),
        big_data.len()
    );
    let out = run_ok(repo.cmd().arg("dump").arg("latest").arg(&small));
    assert_eq!(out.stdout, b"small file\n");
    let out = run_ok(repo.cmd().arg("dump").arg(&r.short_id).arg(&odd));
    assert_eq!(out.stdout, b"latin-1 named\n");
    let out = run_ok(repo.cmd().arg("dump").arg("latest").arg(src.join("empty")));
    assert!(
        out.stdout.is_empty(),
        "dump of an empty file printed {} bytes",
        out.stdout.len()
    );

    // A path that is not in the snapshot: fatal error, no output.
    let o = run_code(
        repo.cmd()
            .arg("dump")
            .arg("latest")
            .arg(src.join("no-such-file")),
        1,
    );
    assert_clean_failure(&o, "dump of a missing file");
    assert!(
        o.stdout.is_empty(),
        "dump of a missing file wrote to stdout"
    );
}

/// `restore SNAPSHOT:PATH`, `--exclude GLOB` and `--include GLOB`.
#[test]
fn restore_subpath_include_exclude() {
    let (repo, src) = Repo::with_simple_tree();
    let full = manifest(&src);
    let r = repo.backup(&[&src], &[]);

    // Sub path: only that subtree, identical.
    let sub = src.join("sub");
    let t1 = repo.dir("t-sub");
    run_ok(
        repo.cmd()
            .arg("restore")
            .arg(format!("{}:{}", r.short_id, sub.display()))
            .arg("--target")
            .arg(&t1),
    );
    assert_tree_matches(
        &manifest(&sub),
        &restored_path(&t1, &sub),
        "restore SNAPSHOT:PATH",
    );
    for outside in ["a.txt", "big-random.bin", "other"] {
        let p = restored_path(&t1, &src.join(outside));
        assert!(
            fs::symlink_metadata(&p).is_err(),
            "restore of {} also restored {}",
            sub.display(),
            p.display()
        );
    }

    // Exclude: everything but *.log, metadata identical.
    let t2 = repo.dir("t-exclude");
    run_ok(
        repo.cmd()
            .arg("restore")
            .arg("latest")
            .arg("--target")
            .arg(&t2)
            .arg("--exclude")
            .arg("*.log"),
    );
    let want: Vec<Entry> = full
        .iter()
        .filter(|e| !e.path.ends_with(b".log"))
        .cloned()
        .collect();
    assert!(want.len() < full.len());
    let got: Vec<Entry> = manifest(&restored_path(&t2, &src));
    // Directory mtimes are part of the contract, so compare everything.
    assert_manifests_eq(&want, &got, "restore --exclude '*.log'");

    // Include: exactly the *.txt files, with identical contents and metadata.
    let t3 = repo.dir("t-include");
    run_ok(
        repo.cmd()
            .arg("restore")
            .arg("latest")
            .arg("--target")
            .arg(&t3)
            .arg("--include")
            .arg("*.txt"),
    );
    let restored_root = restored_path(&t3, &src);
    let want: Vec<Entry> = full
        .iter()
        .filter(|e| e.kind == Kind::File && e.path.ends_with(b".txt"))
        .cloned()
        .collect();
    assert_eq!(want.len(), 5);
    let got: Vec<Entry> = manifest(&restored_root)
        .into_iter()
        .filter(|e| e.kind != Kind::Dir)
        .collect();
    assert_manifests_eq(&want, &got, "restore --include '*.txt' (non-directories)");
}

/// Any of the three remotes works as `-r`, and so does `TANGLE_REPO`.
#[test]
fn any_remote_and_env_repo_open_the_repository() {
    let (repo, src) = Repo::with_source("f", b"content");
    let r = repo.backup(&[&src], &[]);
    for i in 0..3 {
        let ids: Vec<String> = repo
            .snapshots_via(i)
            .iter()
            .map(|s| s["id"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(ids, vec![r.snapshot_id.clone()], "snapshots via remote{i}");
    }
    let out = run_ok(
        repo.cmd_as(Client::no_repo())
            .env("TANGLE_REPO", &repo.remotes[2])
            .arg("snapshots")
            .arg("--json"),
    );
    let snaps = parse_snapshots(&out.stdout);
    assert_eq!(snaps.len(), 1);
    assert_eq!(snaps[0]["id"], r.snapshot_id.as_str());

    // A backup through another remote is seen through the first one.
    let mut c = repo.cmd_as(Client::via(1));
    c.arg("backup").arg("--json").arg("--no-progress").arg(&src);
    let r2 = BackupReport::parse(&run_ok(&mut c).stdout);
    let mut ids = vec![r.snapshot_id.clone(), r2.snapshot_id.clone()];
    ids.sort();
    assert_eq!(repo.snapshot_ids(), ids);
}

/// A tree nearly as deep as the kernel lets a path go (1,900 levels; a path holds at
/// most 4,096 bytes): backup, restore, `ls`, `find` and `diff` walk it without running
/// out of stack (the backup's walker overflowed its thread's 2 MiB at about 1,500
/// levels and aborted), and the restored file at the bottom is identical.
#[test]
fn a_tree_as_deep_as_paths_allow_backs_up_and_restores() {
    const LEVELS: usize = 1900;
    let repo = Repo::init();
    let src = repo.dir("src");
    let mut bottom = src.clone();
    for _ in 0..LEVELS {
        bottom.push("d");
    }
    fs::create_dir_all(&bottom).unwrap();
    write_file(&bottom.join("leaf"), b"at the bottom\n");
    let r = repo.backup(&[&src], &[]);
    assert!(r.errors.is_empty(), "errors: {:?}", r.errors);

    let target = repo.dir("t");
    repo.restore("latest", &target);
    let restored = restored_path(&target, &bottom.join("leaf"));
    assert_eq!(fs::read(&restored).unwrap(), b"at the bottom\n");

    let listed = run_ok(repo.cmd().args(["ls", "latest"]));
    assert!(
        stdout_str(&listed).lines().any(|l| l.ends_with("/d/leaf")),
        "ls does not list the leaf"
    );
    let found = run_ok(repo.cmd().args(["find", "latest", "leaf"]));
    assert!(
        stdout_str(&found).contains("/d/leaf"),
        "find: {}",
        stdout_str(&found)
    );
    run_ok(repo.cmd().args(["diff", "latest", "latest"]));
}
