//! `restore --overwrite always|if-changed|if-newer|never` and `--delete` (restic 0.17's
//! options) against a target that already holds files: what each keeps or replaces,
//! what `--delete` removes (and never outside the target, nor through a symlink), and
//! `--dry-run`, which changes nothing and counts what the restore then does.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::shared::files::write_file;
use crate::support::fsutil::{set_mode, set_mtime};
use crate::support::manifest::{Entry, assert_manifests_eq, manifest};
use crate::support::repo::{Repo, restored_path};
use crate::support::report::json_ok;

/// The mtime of every backed-up file.
const SNAP_MTIME: i64 = 1_600_000_000;

/// `(name, contents)` of the backed-up files.
const FILES: [(&str, &[u8]); 6] = [
    ("same.txt", b"same contents\n"),
    ("stale.txt", b"snapshot contents\n"),
    ("changed.txt", b"snapshot changed\n"),
    ("older.txt", b"snapshot older\n"),
    ("newer.txt", b"snapshot newer\n"),
    ("missing.txt", b"snapshot missing\n"),
];

/// A backed-up source with [`FILES`] (mode 0644, mtime [`SNAP_MTIME`]) and a symlink.
fn repo_with_files() -> (Repo, PathBuf) {
    let repo = Repo::init();
    let src = repo.dir("src");
    for (name, data) in FILES {
        let p = src.join(name);
        write_file(&p, data);
        set_mode(&p, 0o644);
        set_mtime(&p, SNAP_MTIME, 0);
    }
    symlink("same.txt", src.join("link")).unwrap();
    repo.backup(&[&src], &[]);
    (repo, src)
}

/// A restore of the snapshot at `target`, then changed: `same.txt` as restored but mode
/// 0600; `stale.txt` other contents of the same size with the snapshot's mtime;
/// `changed.txt` other contents (another size), same mtime; `older.txt` and `newer.txt`
/// other contents with an older and a newer mtime; `missing.txt` removed; `link` pointing
/// elsewhere.
fn prepared_target(repo: &Repo, src: &Path, target: &Path) -> PathBuf {
    repo.restore("latest", target);
    let dir = restored_path(target, src);
    set_mode(&dir.join("same.txt"), 0o600);
    let replace = |name: &str, data: &[u8], mtime: i64| {
        let p = dir.join(name);
        fs::remove_file(&p).unwrap();
        write_file(&p, data);
        set_mtime(&p, mtime, 0);
    };
    replace("stale.txt", b"EXISTING contents\n", SNAP_MTIME);
    replace("changed.txt", b"existing, another size\n", SNAP_MTIME);
    replace("older.txt", b"existing older\n", SNAP_MTIME - 1000);
    replace("newer.txt", b"existing newer\n", SNAP_MTIME + 1000);
    fs::remove_file(dir.join("missing.txt")).unwrap();
    fs::remove_file(dir.join("link")).unwrap();
    symlink("elsewhere", dir.join("link")).unwrap();
    dir
}

/// `restore latest --json --target TARGET ARGS...`, exit 0.
fn restore_json(repo: &Repo, target: &Path, args: &[&str]) -> Value {
    let mut c = repo.cmd();
    c.args(["restore", "latest", "--json", "--target"])
        .arg(target)
        .args(args);
    json_ok(&mut c, &format!("restore {args:?}"))
}

/// The counts a restore reports about what it did, or would do.
fn counts(v: &Value) -> Vec<(&'static str, u64)> {
    [
        "files",
        "dirs",
        "others",
        "bytes",
        "files_overwritten",
        "files_skipped",
        "bytes_skipped",
        "others_skipped",
        "files_deleted",
        "dirs_deleted",
    ]
    .into_iter()
    .map(|k| {
        let n = v[k]
            .as_u64()
            .unwrap_or_else(|| panic!("no number {k} in {v:#}"));
        (k, n)
    })
    .collect()
}

fn count(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("no number {key} in {v:#}"))
}

/// A dry run with `args` changes nothing in `target` (compared entry by entry, mtimes
/// included) and reports what the real run with `args` then reports; returns that.
fn dry_then_real(repo: &Repo, target: &Path, args: &[&str]) -> Value {
    let before: Vec<Entry> = manifest(target);
    let mut dry_args = args.to_vec();
    dry_args.push("--dry-run");
    let dry = restore_json(repo, target, &dry_args);
    assert_eq!(dry["dry_run"], true, "{dry:#}");
    assert_manifests_eq(&before, &manifest(target), &format!("dry run {args:?}"));
    let real = restore_json(repo, target, args);
    assert_eq!(real["dry_run"], false, "{real:#}");
    assert_eq!(
        counts(&dry),
        counts(&real),
        "{args:?}: the dry run's counts differ from the restore's:\ndry {dry:#}\nreal {real:#}"
    );
    real
}

#[test]
fn each_overwrite_mode_keeps_or_replaces_as_restic_does() {
    let (repo, src) = repo_with_files();
    let snapshot = |name: &str| -> Vec<u8> {
        FILES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, d)| d.to_vec())
            .unwrap()
    };
    // Per mode: the files written from the snapshot (the others keep the target's
    // contents and mtime), whether `same.txt` gets its mode back, whether `link` is
    // replaced, and the counts (files written of them overwritten, files kept, others
    // kept).
    struct Case {
        mode: Option<&'static str>,
        written: &'static [&'static str],
        same_mode_set: bool,
        link_replaced: bool,
        overwritten: u64,
        skipped: u64,
        others_skipped: u64,
    }
    let all: &[&str] = &[
        "same.txt",
        "stale.txt",
        "changed.txt",
        "older.txt",
        "newer.txt",
        "missing.txt",
    ];
    let cases = [
        // The default is restic's `always`, what tangle always did.
        Case {
            mode: None,
            written: all,
            same_mode_set: true,
            link_replaced: true,
            overwritten: 5,
            skipped: 0,
            others_skipped: 0,
        },
        Case {
            mode: Some("always"),
            written: all,
            same_mode_set: true,
            link_replaced: true,
            overwritten: 5,
            skipped: 0,
            others_skipped: 0,
        },
        // Same size and mtime: taken as up to date (same.txt, and stale.txt too, as in
        // restic), only the metadata set.
        Case {
            mode: Some("if-changed"),
            written: &["changed.txt", "older.txt", "newer.txt", "missing.txt"],
            same_mode_set: true,
            link_replaced: true,
            overwritten: 3,
            skipped: 2,
            others_skipped: 0,
        },
        // Only what the snapshot has newer: older.txt (and what is missing). The link
        // made after the backup has a later mtime than the snapshot's: kept.
        Case {
            mode: Some("if-newer"),
            written: &["older.txt", "missing.txt"],
            same_mode_set: false,
            link_replaced: false,
            overwritten: 1,
            skipped: 4,
            others_skipped: 1,
        },
        Case {
            mode: Some("never"),
            written: &["missing.txt"],
            same_mode_set: false,
            link_replaced: false,
            overwritten: 0,
            skipped: 5,
            others_skipped: 1,
        },
    ];
    for case in cases {
        let what = case.mode.unwrap_or("(default)");
        let target = repo.path(&format!("target-{what}"));
        let dir = prepared_target(&repo, &src, &target);
        let before: Vec<(String, Vec<u8>, i64)> = all
            .iter()
            .filter(|n| **n != "missing.txt")
            .map(|n| {
                let p = dir.join(n);
                (
                    n.to_string(),
                    fs::read(&p).unwrap(),
                    p.metadata().unwrap().mtime(),
                )
            })
            .collect();
        let args: Vec<&str> = case
            .mode
            .map(|m| vec!["--overwrite", m])
            .unwrap_or_default();
        let r = dry_then_real(&repo, &target, &args);
        assert_eq!(
            r["overwrite"],
            case.mode.unwrap_or("always"),
            "{what}: {r:#}"
        );
        for name in all {
            let got = fs::read(dir.join(name)).unwrap();
            if case.written.contains(name) {
                assert_eq!(got, snapshot(name), "{what}: {name} not restored");
                let mtime = dir.join(name).metadata().unwrap().mtime();
                assert_eq!(mtime, SNAP_MTIME, "{what}: {name}'s mtime");
            } else {
                let (_, data, mtime) = before.iter().find(|(n, ..)| n == name).unwrap();
                assert_eq!(&got, data, "{what}: {name} was replaced");
                let now = dir.join(name).metadata().unwrap().mtime();
                assert_eq!(now, *mtime, "{what}: {name}'s mtime changed");
            }
        }
        let mode = dir
            .join("same.txt")
            .metadata()
            .unwrap()
            .permissions()
            .mode()
            & 0o7777;
        let want = if case.same_mode_set { 0o644 } else { 0o600 };
        assert_eq!(mode, want, "{what}: same.txt's mode");
        let link = fs::read_link(dir.join("link")).unwrap();
        let want = if case.link_replaced {
            "same.txt"
        } else {
            "elsewhere"
        };
        assert_eq!(link, Path::new(want), "{what}: link");
        assert_eq!(
            (
                count(&r, "files"),
                count(&r, "files_overwritten"),
                count(&r, "files_skipped"),
                count(&r, "others_skipped"),
            ),
            (
                case.written.len() as u64,
                case.overwritten,
                case.skipped,
                case.others_skipped
            ),
            "{what}: {r:#}"
        );
        let skipped_bytes: u64 = FILES
            .iter()
            .filter(|(n, _)| !case.written.contains(n))
            .map(|(_, d)| d.len() as u64)
            .sum();
        assert_eq!(count(&r, "bytes_skipped"), skipped_bytes, "{what}: {r:#}");
        assert_eq!(count(&r, "files_deleted") + count(&r, "dirs_deleted"), 0);
    }
}

#[test]
fn an_unknown_overwrite_mode_is_a_usage_error_naming_the_modes() {
    let (repo, _src) = repo_with_files();
    let out = crate::support::command::run_code(
        repo.cmd()
            .args(["restore", "latest", "--overwrite", "sometimes", "--target"])
            .arg(repo.path("t")),
        1,
    );
    let err = crate::support::command::stderr_str(&out);
    assert!(err.contains("if-changed"), "{err}");
    assert!(!repo.path("t").exists());
}

/// A file outside every target, and a directory holding one, with known contents.
fn outside(repo: &Repo) -> (PathBuf, PathBuf) {
    let file = repo.path("outside.txt");
    write_file(&file, b"outside: must stay\n");
    let dir = repo.dir("outside-dir");
    write_file(&dir.join("b.txt"), b"outside b: must stay\n");
    write_file(&dir.join("extra.txt"), b"outside extra: must stay\n");
    (file, dir)
}

fn assert_outside_untouched(file: &Path, dir: &Path) {
    assert_eq!(fs::read(file).unwrap(), b"outside: must stay\n");
    assert_eq!(
        fs::read(dir.join("b.txt")).unwrap(),
        b"outside b: must stay\n",
        "a file outside the target was written"
    );
    assert_eq!(
        fs::read(dir.join("extra.txt")).unwrap(),
        b"outside extra: must stay\n",
        "a file outside the target was deleted"
    );
}

#[test]
fn delete_removes_what_the_snapshot_lacks_and_nothing_outside_the_target() {
    let repo = Repo::init();
    let src = repo.dir("src");
    write_file(&src.join("a.txt"), b"a\n");
    write_file(&src.join("sub/b.txt"), b"b\n");
    write_file(&src.join("sub/deeper/c.txt"), b"c\n");
    write_file(&src.join("other/d.txt"), b"d\n");
    repo.backup(&[&src], &[]);
    let expected = manifest(&src);
    let (out_file, out_dir) = outside(&repo);

    let target = repo.path("target");
    repo.restore("latest", &target);
    let dir = restored_path(&target, &src);
    // Extras: files, a tree of directories, symlinks to a file and to a directory
    // outside the target, a file at the top of the target.
    write_file(&dir.join("extra.txt"), b"x\n");
    write_file(&dir.join("sub/deeper/extra.txt"), b"x\n");
    write_file(&dir.join("sub/gone/x/y.txt"), b"y\n");
    write_file(&target.join("top-extra.txt"), b"t\n");
    symlink(&out_file, dir.join("link-to-file")).unwrap();
    symlink(&out_dir, dir.join("sub/link-to-dir")).unwrap();
    // A symlink to the outside directory where the snapshot has `other/`: it holds a
    // `b.txt` and an `extra.txt` the snapshot's `other/` does not have.
    fs::remove_dir_all(dir.join("other")).unwrap();
    symlink(&out_dir, dir.join("other")).unwrap();

    let r = dry_then_real(&repo, &target, &["--delete"]);
    // extra.txt, sub/deeper/extra.txt, sub/gone/x/y.txt, top-extra.txt and the two
    // links; sub/gone/x and sub/gone. (The link at `other` is replaced by the
    // directory, not deleted.)
    assert_eq!(
        (count(&r, "files_deleted"), count(&r, "dirs_deleted")),
        (6, 2),
        "{r:#}"
    );
    assert_outside_untouched(&out_file, &out_dir);
    assert!(fs::symlink_metadata(target.join("top-extra.txt")).is_err());
    // The target is now exactly the snapshot.
    assert_manifests_eq(&expected, &manifest(&dir), "after --delete");
    let mut top: Vec<_> = fs::read_dir(&target)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    top.sort();
    assert_eq!(top.len(), 1, "{top:?}");

    // Again: nothing left to delete.
    let again = restore_json(&repo, &target, &["--delete"]);
    assert_eq!(
        count(&again, "files_deleted") + count(&again, "dirs_deleted"),
        0
    );
}

#[test]
fn delete_with_patterns_or_a_path_removes_only_what_they_select() {
    let repo = Repo::init();
    let src = repo.dir("src");
    write_file(&src.join("a.txt"), b"a\n");
    write_file(&src.join("sub/b.txt"), b"b\n");
    write_file(&src.join("other/d.txt"), b"d\n");
    repo.backup(&[&src], &[]);

    let prepare = |name: &str| -> (PathBuf, PathBuf) {
        let target = repo.path(name);
        repo.restore("latest", &target);
        let dir = restored_path(&target, &src);
        for extra in [
            "extra.txt",
            "sub/extra.txt",
            "sub/extra.log",
            "sub/gone/x.txt",
            "sub/gone/x.log",
            "other/extra.txt",
        ] {
            write_file(&dir.join(extra), b"extra\n");
        }
        (target, dir)
    };
    let exists = |p: PathBuf| fs::symlink_metadata(p).is_ok();

    // --include: only extras below what it selects.
    let (target, dir) = prepare("t-include");
    let include = format!("{}/sub", src.display());
    let r = dry_then_real(&repo, &target, &["--delete", "--include", &include]);
    assert!(!exists(dir.join("sub/extra.txt")) && !exists(dir.join("sub/extra.log")));
    assert!(!exists(dir.join("sub/gone")));
    assert!(exists(dir.join("extra.txt")) && exists(dir.join("other/extra.txt")));
    assert_eq!(
        (count(&r, "files_deleted"), count(&r, "dirs_deleted")),
        (4, 1),
        "{r:#}"
    );

    // --exclude: what it matches stays (and a directory holding such a file with it).
    let (target, dir) = prepare("t-exclude");
    let r = dry_then_real(&repo, &target, &["--delete", "--exclude", "*.log"]);
    assert!(exists(dir.join("sub/extra.log")) && exists(dir.join("sub/gone/x.log")));
    for gone in [
        "extra.txt",
        "sub/extra.txt",
        "sub/gone/x.txt",
        "other/extra.txt",
    ] {
        assert!(!exists(dir.join(gone)), "{gone} not deleted");
    }
    assert_eq!(
        (count(&r, "files_deleted"), count(&r, "dirs_deleted")),
        (4, 0),
        "{r:#}"
    );

    // SNAPSHOT:PATH: only below PATH.
    let (target, dir) = prepare("t-path");
    let mut c = repo.cmd();
    c.arg("restore")
        .arg(format!("latest:{}/sub", src.display()))
        .args(["--delete", "--json", "--target"])
        .arg(&target);
    let r = json_ok(&mut c, "restore latest:PATH --delete");
    assert!(!exists(dir.join("sub/extra.txt")) && !exists(dir.join("sub/gone")));
    assert!(exists(dir.join("extra.txt")) && exists(dir.join("other/extra.txt")));
    assert_eq!(
        (count(&r, "files_deleted"), count(&r, "dirs_deleted")),
        (4, 1),
        "{r:#}"
    );
}

#[test]
fn with_delete_a_file_replaces_a_directory_in_its_way() {
    let repo = Repo::init();
    let src = repo.dir("src");
    write_file(&src.join("f"), b"the file\n");
    repo.backup(&[&src], &[]);
    let target = repo.path("target");
    let dir = restored_path(&target, &src);
    write_file(&dir.join("f/inside.txt"), b"in the way\n");

    // Without --delete the directory stays, and the file is not restored (exit 1).
    crate::support::command::run_code(
        repo.cmd()
            .args(["restore", "latest", "--target"])
            .arg(&target),
        1,
    );
    assert!(dir.join("f").is_dir());

    let r = dry_then_real(&repo, &target, &["--delete"]);
    assert_eq!(fs::read(dir.join("f")).unwrap(), b"the file\n");
    assert_eq!(
        (count(&r, "files_deleted"), count(&r, "dirs_deleted")),
        (1, 1),
        "{r:#}"
    );
}

#[test]
fn a_dry_run_into_a_new_target_makes_nothing_and_counts_like_the_restore() {
    let (repo, _src) = repo_with_files();
    let target = repo.path("new");
    let mut c = repo.cmd();
    c.args(["restore", "latest", "--json", "--dry-run", "--delete"])
        .args(["--overwrite", "never", "--target"])
        .arg(&target);
    let dry = json_ok(&mut c, "dry run");
    assert!(!target.exists(), "a dry run made its target");
    let real = restore_json(&repo, &target, &["--delete", "--overwrite", "never"]);
    assert_eq!(counts(&dry), counts(&real), "dry {dry:#}\nreal {real:#}");
    assert_eq!(count(&real, "files"), 6);
}

#[test]
fn a_kept_file_is_not_the_source_of_its_hard_links() {
    let repo = Repo::init();
    let src = repo.dir("src");
    write_file(&src.join("a"), b"snapshot contents\n");
    fs::hard_link(src.join("a"), src.join("b")).unwrap();
    repo.backup(&[&src], &[]);
    let target = repo.path("target");
    let dir = restored_path(&target, &src);
    // `a` is there with other contents, `b` is not: `never` keeps `a`, and `b` gets the
    // snapshot's contents, not a link to the kept `a`.
    write_file(&dir.join("a"), b"local contents\n");
    let r = dry_then_real(&repo, &target, &["--overwrite", "never"]);
    assert_eq!(fs::read(dir.join("a")).unwrap(), b"local contents\n");
    assert_eq!(fs::read(dir.join("b")).unwrap(), b"snapshot contents\n");
    let (a, b) = (
        dir.join("a").metadata().unwrap(),
        dir.join("b").metadata().unwrap(),
    );
    assert_ne!(a.ino(), b.ino(), "b was linked to the kept a");
    assert_eq!(
        (count(&r, "files"), count(&r, "files_skipped")),
        (1, 1),
        "{r:#}"
    );

    // `always` links them again.
    restore_json(&repo, &target, &[]);
    let (a, b) = (
        dir.join("a").metadata().unwrap(),
        dir.join("b").metadata().unwrap(),
    );
    assert_eq!(a.ino(), b.ino());
    assert_eq!(fs::read(dir.join("a")).unwrap(), b"snapshot contents\n");
}
