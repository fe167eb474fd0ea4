//! `tangle dump SNAPSHOT DIR` (issue 36): a directory, or `/` for the whole snapshot, as
//! a tar archive that the system `tar` extracts to the backed-up tree (bytes, symlink
//! targets, modes, mtimes), or with `--archive zip` a zip archive that the system
//! `unzip` does; `--target FILE`; `--archive` names what it supports.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{assert_clean_failure, run_any, run_ok, stderr_str};
use crate::support::fsutil::raw;
use crate::support::repo::Repo;

/// Nested directories, an empty file, an empty directory, a symlink, an executable, a
/// large file, a non-UTF-8 name and a path longer than tar's 100-byte name field.
fn build_tree(src: &Path) {
    write_file(&src.join("a.txt"), b"alpha\n");
    write_file(&src.join("empty"), b"");
    write_file(&src.join("sub/deep/big.bin"), &pseudo_random(7, 3 << 20));
    write_file(&src.join("sub/c.txt"), b"charlie\n");
    write_file(&src.join(raw(b"caf\xe9")), b"latin-1 named\n");
    let long = "a-directory-name-that-is-rather-long/".repeat(4) + "and-a-file-at-the-end.txt";
    write_file(&src.join(long), b"long path\n");
    fs::create_dir_all(src.join("emptydir")).unwrap();
    let tool = src.join("bin/tool.sh");
    write_file(&tool, b"#!/bin/sh\necho hi\n");
    fs::set_permissions(&tool, fs::Permissions::from_mode(0o755)).unwrap();
    symlink("../a.txt", src.join("sub/link-to-a")).unwrap();
    symlink("/nowhere/at/all", src.join("dangling")).unwrap();
}

/// What the comparison looks at, per path below `root`: kind, permission bits, file
/// bytes or link target, and (files, directories) the mtime in seconds.
fn describe(root: &Path) -> BTreeMap<Vec<u8>, (char, u32, Vec<u8>, i64)> {
    let mut out = BTreeMap::new();
    fn walk(base: &Path, p: &Path, out: &mut BTreeMap<Vec<u8>, (char, u32, Vec<u8>, i64)>) {
        for e in fs::read_dir(p).unwrap() {
            let path = e.unwrap().path();
            let m = fs::symlink_metadata(&path).unwrap();
            let rel = path
                .strip_prefix(base)
                .unwrap()
                .as_os_str()
                .as_bytes()
                .to_vec();
            let mode = m.mode() & 0o7777;
            if m.is_dir() {
                walk(base, &path, out);
                out.insert(rel, ('d', mode, Vec::new(), m.mtime()));
            } else if m.file_type().is_symlink() {
                let target = fs::read_link(&path).unwrap();
                out.insert(rel, ('l', 0, target.as_os_str().as_bytes().to_vec(), 0));
            } else {
                out.insert(rel, ('f', mode, fs::read(&path).unwrap(), m.mtime()));
            }
        }
    }
    walk(root, root, &mut out);
    out
}

/// Extract `archive` with the system tar (`-p`: the archive's modes) into a new `dir`.
fn extract(archive: &Path, dir: &Path) {
    fs::create_dir_all(dir).unwrap();
    let out = Command::new("tar")
        .arg("-xpf")
        .arg(archive)
        .arg("-C")
        .arg(dir)
        .output()
        .expect("run tar");
    assert!(
        out.status.success(),
        "tar -x of {} failed: {}",
        archive.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn assert_same(expected: &Path, actual: &Path, what: &str) {
    let (want, got) = (describe(expected), describe(actual));
    let names = |m: &BTreeMap<Vec<u8>, _>| -> Vec<String> {
        m.keys()
            .map(|k| String::from_utf8_lossy(k).into_owned())
            .collect()
    };
    assert_eq!(names(&want), names(&got), "{what}: other paths");
    for (k, w) in &want {
        let g = &got[k];
        assert!(
            w == g,
            "{what}: {} differs: kind/mode/mtime {:?} vs {:?}, {} vs {} bytes",
            String::from_utf8_lossy(k),
            (w.0, format!("{:o}", w.1), w.3),
            (g.0, format!("{:o}", g.1), g.3),
            w.2.len(),
            g.2.len()
        );
    }
}

/// `dump latest DIR > x.tar` and `dump latest DIR --target x.tar` extract to the
/// source tree; `dump latest /` holds the snapshot's paths without the leading slash.
#[test]
fn dump_of_a_directory_is_a_tar_of_it() {
    let repo = Repo::init();
    let src = repo.dir("src");
    build_tree(&src);
    repo.backup(&[&src], &[]);

    let out = run_ok(repo.cmd().args(["dump", "latest"]).arg(&src));
    let piped = repo.path("piped.tar");
    fs::write(&piped, &out.stdout).unwrap();
    let x1 = repo.path("x1");
    extract(&piped, &x1);
    assert_same(&src, &x1, "dump DIR > x.tar");

    let target = repo.path("target.tar");
    let out = run_ok(
        repo.cmd()
            .args(["dump", "latest", "--archive", "tar", "--target"])
            .arg(&target)
            .arg(&src),
    );
    assert!(out.stdout.is_empty(), "dump --target wrote to stdout");
    assert!(
        fs::read(&target).unwrap() == fs::read(&piped).unwrap(),
        "--target and stdout differ"
    );

    // A sub-directory: paths relative to it.
    let out = run_ok(repo.cmd().args(["dump", "latest"]).arg(src.join("sub")));
    let sub_tar = repo.path("sub.tar");
    fs::write(&sub_tar, &out.stdout).unwrap();
    let x2 = repo.path("x2");
    extract(&sub_tar, &x2);
    assert_same(&src.join("sub"), &x2, "dump DIR/sub");

    // The whole snapshot.
    let all = repo.path("all.tar");
    run_ok(repo.cmd().args(["dump", "latest", "/", "-t"]).arg(&all));
    let x3 = repo.path("x3");
    extract(&all, &x3);
    let below: PathBuf = x3.join(src.strip_prefix("/").unwrap());
    assert_same(&src, &below, "dump /");

    // A file is still written as it is, whatever --archive says.
    let out = run_ok(
        repo.cmd()
            .args(["dump", "latest", "--archive", "tar"])
            .arg(src.join("a.txt")),
    );
    assert_eq!(out.stdout, b"alpha\n");
}

/// Extract `archive` with the system unzip into a new `dir`.
fn unzip(archive: &Path, dir: &Path) {
    fs::create_dir_all(dir).unwrap();
    let out = Command::new("unzip")
        .arg("-q")
        .arg(archive)
        .arg("-d")
        .arg(dir)
        .output()
        .expect("run unzip");
    assert!(
        out.status.success(),
        "unzip of {} failed: {}{}",
        archive.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The tree of [`build_tree`] without its non-UTF-8 name (zip names are UTF-8), in a
/// new directory `src` of `repo`.
fn build_utf8_tree(repo: &Repo) -> PathBuf {
    let src = repo.dir("src");
    build_tree(&src);
    fs::remove_file(src.join(raw(b"caf\xe9"))).unwrap();
    src
}

/// `dump latest DIR --archive zip` to stdout and to `--target` unzips to the source
/// tree (bytes, symlinks, modes, mtimes); a sub-directory and `/` as for tar.
#[test]
fn dump_of_a_directory_as_zip_unzips_to_it() {
    let repo = Repo::init();
    let src = build_utf8_tree(&repo);
    repo.backup(&[&src], &[]);

    let out = run_ok(
        repo.cmd()
            .args(["dump", "latest", "--archive", "zip"])
            .arg(&src),
    );
    assert!(
        stderr_str(&out).trim().is_empty(),
        "warnings: {}",
        stderr_str(&out)
    );
    let piped = repo.path("piped.zip");
    fs::write(&piped, &out.stdout).unwrap();
    let x1 = repo.path("x1");
    unzip(&piped, &x1);
    assert_same(&src, &x1, "dump DIR --archive zip > x.zip");

    let target = repo.path("target.zip");
    let out = run_ok(
        repo.cmd()
            .args(["dump", "latest", "--archive", "zip", "--target"])
            .arg(&target)
            .arg(&src),
    );
    assert!(out.stdout.is_empty(), "dump --target wrote to stdout");
    assert!(
        fs::read(&target).unwrap() == fs::read(&piped).unwrap(),
        "--target and stdout differ"
    );

    // The zip crate reads it too: names relative to the directory, a symlink entry.
    let mut z = zip::ZipArchive::new(fs::File::open(&target).unwrap()).unwrap();
    let names: Vec<String> = z.file_names().map(str::to_string).collect();
    for want in [
        "a.txt",
        "empty",
        "sub/",
        "sub/deep/big.bin",
        "emptydir/",
        "dangling",
    ] {
        assert!(names.iter().any(|n| n == want), "no {want} in {names:?}");
    }
    assert!(
        names.iter().all(|n| !n.starts_with('/')),
        "absolute names: {names:?}"
    );
    let link = z.by_name("sub/link-to-a").unwrap();
    assert!(link.is_symlink(), "sub/link-to-a is not a symlink entry");
    drop(link);

    // A sub-directory: paths relative to it.
    let sub_zip = repo.path("sub.zip");
    run_ok(
        repo.cmd()
            .args(["dump", "latest", "--archive", "zip", "-t"])
            .arg(&sub_zip)
            .arg(src.join("sub")),
    );
    let x2 = repo.path("x2");
    unzip(&sub_zip, &x2);
    assert_same(&src.join("sub"), &x2, "dump DIR/sub --archive zip");

    // The whole snapshot.
    let all = repo.path("all.zip");
    run_ok(
        repo.cmd()
            .args(["dump", "latest", "/", "--archive", "zip", "-t"])
            .arg(&all),
    );
    let x3 = repo.path("x3");
    unzip(&all, &x3);
    let below: PathBuf = x3.join(src.strip_prefix("/").unwrap());
    assert_same(&src, &below, "dump / --archive zip");

    // A file is still written as it is.
    let out = run_ok(
        repo.cmd()
            .args(["dump", "latest", "--archive", "zip"])
            .arg(src.join("a.txt")),
    );
    assert_eq!(out.stdout, b"alpha\n");
}

/// A name that is not UTF-8 goes into the zip with U+FFFD in place of its undecodable
/// bytes, its contents intact, and a warning naming it.
#[test]
fn dump_as_zip_warns_of_a_name_that_is_not_utf8() {
    let repo = Repo::init();
    let src = repo.dir("src");
    write_file(&src.join(raw(b"caf\xe9")), b"latin-1 named\n");
    write_file(&src.join("plain"), b"plain\n");
    repo.backup(&[&src], &[]);
    let out = run_ok(
        repo.cmd()
            .args(["dump", "latest", "--archive", "zip"])
            .arg(&src),
    );
    let err = stderr_str(&out);
    assert!(
        err.contains("warning") && err.contains("not UTF-8") && err.contains("caf"),
        "no warning naming the file:\n{err}"
    );
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(out.stdout)).unwrap();
    let mut f = z.by_name("caf\u{fffd}").unwrap();
    let mut got = Vec::new();
    std::io::Read::read_to_end(&mut f, &mut got).unwrap();
    assert_eq!(got, b"latin-1 named\n");
}

/// An unknown format: one clear usage error naming the formats, no output.
#[test]
fn dump_archive_formats_other_than_tar_and_zip_are_refused() {
    let (repo, src) = Repo::with_snapshot_of("a.txt", b"alpha\n");
    for format in ["rar", "ZIP", ""] {
        let target = repo.path("out.archive");
        let out = run_any(
            repo.cmd()
                .args(["dump", "latest", "--archive", format, "--target"])
                .arg(&target)
                .arg(&src),
        );
        let what = format!("dump --archive {format:?}");
        assert_clean_failure(&out, &what);
        assert_eq!(out.status.code(), Some(1), "{what}: exit code");
        let err = stderr_str(&out);
        assert!(
            err.contains("tar") && err.contains("zip") && err.contains(&format!("'{format}'")),
            "{what}: the message names not the format, tar and zip:\n{err}"
        );
        assert_eq!(
            err.matches("error").count(),
            1,
            "{what}: one message:\n{err}"
        );
        assert!(out.stdout.is_empty(), "{what} wrote to stdout");
        assert!(!target.exists(), "{what} created its target");
    }
}
