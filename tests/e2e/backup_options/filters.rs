//! restic's filters: --exclude-caches, --exclude-if-present, --exclude-larger-than,
//! --iexclude and --iexclude-file, -x; and the same as `[backup]` profile keys.

use std::fs;

use super::{backup_restores_as, refused, without};
use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{
    PASSWORD, assert_clean_failure, run_any, run_code, run_ok, stderr_str,
};
use crate::support::fsutil::set_mode;
use crate::support::manifest::{assert_tree_matches, manifest};
use crate::support::repo::{Client, Repo, restored_path};
use crate::support::report::BackupReport;

/// `--exclude-caches`: a directory holding a CACHEDIR.TAG with the signature keeps only
/// the tag; one whose tag lacks the signature is backed up whole.
#[test]
fn exclude_caches() {
    let (repo, src) = Repo::with_simple_tree();
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
    let (repo, src) = Repo::with_simple_tree();
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
    let (repo, src) = Repo::with_source("small", b"small");
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
    let (repo, src) = Repo::with_source("A.LOG", b"a");
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
    // Checked before the password is needed: a bad pattern too.
    for (flag, value) in [
        ("--iexclude-file", missing.to_str().unwrap()),
        ("--iexclude", "[oops"),
    ] {
        let o = run_code(
            repo.cmd_as(Client::via(0).no_password())
                .args(["backup", flag, value])
                .arg(&src),
            1,
        );
        let err = stderr_str(&o);
        assert!(!err.contains("password"), "{flag} {value}: {err}");
        assert!(err.contains("pattern"), "{flag} {value}: {err}");
    }
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

/// The new filters are `[backup]` keys too: a profile's `exclude-caches`,
/// `exclude-larger-than`, `iexclude`, `exclude-if-present`, `one-file-system` and
/// `files-from` apply; a bad value names the key.
#[test]
fn filters_as_profile_keys() {
    let (repo, src) = Repo::with_source("keep.txt", b"kept");
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
            PASSWORD,
        );
        let path = repo.home.join("config/tangle/p.toml");
        write_file(&path, text.as_bytes());
        set_mode(&path, 0o600);
    };
    profile(&format!(
        "files-from = [{list:?}]\nexclude-caches = true\nexclude-larger-than = \"1K\"\n\
         iexclude = [\"*.tmp\"]\nexclude-if-present = \".skip\"\none-file-system = true\n"
    ));
    let run = |args: &[&str]| {
        run_ok(
            repo.cmd_as(Client::no_repo().no_password())
                .args(["-P", "p"])
                .args(args),
        )
    };
    let o = run(&["backup", "--json", "--no-progress"]);
    let r = BackupReport::parse(&o.stdout);
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
        repo.cmd_as(Client::no_repo().no_password())
            .args(["-P", "p", "backup", "--json", "--no-progress", "--stdin"])
            .write_stdin(b"from a pipe".to_vec()),
    );
    let id = BackupReport::parse(&o.stdout).snapshot_id;
    let snap = (repo.snapshots().into_iter())
        .find(|v| v["id"] == id.as_str())
        .unwrap();
    assert_eq!(snap["paths"], serde_json::json!(["/stdin"]), "{snap:#}");

    profile("exclude-larger-than = \"huge\"\n");
    let o = run_code(
        repo.cmd_as(Client::no_repo().no_password())
            .args(["-P", "p", "backup"]),
        1,
    );
    assert_clean_failure(&o, "a bad exclude-larger-than");
    let err = stderr_str(&o);
    assert!(err.contains("[backup] exclude-larger-than"), "{err}");
}
