//! Restore writes only inside `--target`: a `..` in the snapshot path is refused, and
//! hard links or symlinks already in the target (left by an earlier restore, or planted)
//! are replaced, never written, chmod-ed or touched through.

use crate::shared::files::write_file;
use crate::support::command::{run_code, stderr_str};
use crate::support::fsutil::{set_mode, set_mtime};
use crate::support::repo::{Repo, restored_path};
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};

/// A backed-up source `src` with `a.txt`, `b.txt` and `sub/c.txt`, and one snapshot of it.
fn repo_with_source() -> (Repo, PathBuf) {
    let (repo, src) = Repo::with_source("a.txt", b"restored a\n");
    write_file(&src.join("b.txt"), b"restored b\n");
    write_file(&src.join("sub/c.txt"), b"restored c\n");
    set_mode(&src.join("a.txt"), 0o600);
    repo.backup(&[&src], &[]);
    (repo, src)
}

/// A file outside every target, with known contents, mode and mtime.
fn outside_file(repo: &Repo, name: &str) -> PathBuf {
    let p = repo.path(name);
    write_file(&p, b"outside: must not change\n");
    set_mode(&p, 0o644);
    set_mtime(&p, 1_000_000_000, 0);
    p
}

fn assert_untouched(p: &Path) {
    assert_eq!(
        fs::read(p).unwrap(),
        b"outside: must not change\n",
        "{} was written through a link in the target",
        p.display()
    );
    let md = fs::metadata(p).unwrap();
    assert_eq!(
        md.permissions().mode() & 0o7777,
        0o644,
        "{} was chmod-ed",
        p.display()
    );
    assert_eq!(
        md.mtime(),
        1_000_000_000,
        "{}'s times were set",
        p.display()
    );
}

#[test]
fn restore_refuses_parent_components_in_the_snapshot_path() {
    let (repo, src) = repo_with_source();
    // `TARGET/../..` is `deep`: nothing may appear there but the path to the target.
    let deep = repo.dir("deep");
    let target = deep.join("er/target");
    let first = src.components().nth(1).unwrap().as_os_str().to_owned();
    for spec in [
        format!("latest:../../{}", first.to_string_lossy()),
        format!("latest:{}/../sub", src.display()),
    ] {
        let out = run_code(
            repo.cmd()
                .arg("restore")
                .arg(&spec)
                .arg("--target")
                .arg(&target),
            1,
        );
        assert!(
            stderr_str(&out).contains("`..`"),
            "restore {spec}: error does not name the `..`:\n{}",
            stderr_str(&out)
        );
    }
    let outside: Vec<_> = fs::read_dir(&deep)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "er")
        .collect();
    assert!(
        outside.is_empty(),
        "restore wrote outside the target: {outside:?}"
    );
    if target.exists() {
        assert_eq!(
            fs::read_dir(&target).unwrap().count(),
            0,
            "restore wrote into the target"
        );
    }
}

#[test]
fn restore_replaces_hard_links_and_symlinks_in_the_target_without_following_them() {
    let (repo, src) = repo_with_source();
    let target = repo.path("target");
    let dest = restored_path(&target, &src);
    fs::create_dir_all(&dest).unwrap();
    // a.txt: a hard link to a file outside; b.txt: a symlink to one; sub: a symlink to a
    // directory outside.
    let linked = outside_file(&repo, "outside-hardlinked");
    fs::hard_link(&linked, dest.join("a.txt")).unwrap();
    let pointed = outside_file(&repo, "outside-symlinked");
    symlink(&pointed, dest.join("b.txt")).unwrap();
    let outside_dir = repo.dir("outside-dir");
    symlink(&outside_dir, dest.join("sub")).unwrap();

    repo.restore("latest", &target);

    assert_untouched(&linked);
    assert_untouched(&pointed);
    assert_eq!(
        fs::read_dir(&outside_dir).unwrap().count(),
        0,
        "restore wrote into a directory outside the target through a symlink"
    );
    for (name, want) in [
        ("a.txt", &b"restored a\n"[..]),
        ("b.txt", b"restored b\n"),
        ("sub/c.txt", b"restored c\n"),
    ] {
        let p = dest.join(name);
        let md = fs::symlink_metadata(&p).unwrap();
        assert!(md.is_file(), "{} is not a regular file", p.display());
        assert_eq!(
            fs::read(&p).unwrap(),
            want,
            "{} has the wrong contents",
            p.display()
        );
    }
    let a = fs::metadata(dest.join("a.txt")).unwrap();
    assert_eq!(a.nlink(), 1, "a.txt is still linked to the outside file");
    assert_eq!(
        a.permissions().mode() & 0o7777,
        0o600,
        "a.txt lost its mode"
    );
    assert!(
        fs::read_dir(&dest).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .starts_with(".tangle")),
        "restore left temporary files behind"
    );
}

#[test]
fn restore_of_a_sub_path_does_not_follow_a_symlinked_ancestor_in_the_target() {
    let (repo, src) = repo_with_source();
    let target = repo.path("target");
    let dest = restored_path(&target, &src);
    fs::create_dir_all(dest.parent().unwrap()).unwrap();
    let outside_dir = repo.dir("outside-ancestor");
    symlink(&outside_dir, &dest).unwrap();

    let spec = format!("latest:{}", src.join("sub").display());
    repo.restore(&spec, &target);

    assert_eq!(
        fs::read_dir(&outside_dir).unwrap().count(),
        0,
        "restore followed a symlinked ancestor out of the target"
    );
    assert!(fs::symlink_metadata(&dest).unwrap().is_dir());
    assert_eq!(fs::read(dest.join("sub/c.txt")).unwrap(), b"restored c\n");
}
