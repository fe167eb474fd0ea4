//! End-to-end: extended attributes and POSIX ACLs. Backed up, restored, and compared
//! with `rsync -aHAXn --checksum` (which reports any difference in contents, modes,
//! owners, times, hard links, ACLs or extended attributes); shown by `ls`; an
//! attribute-only change reaches the next snapshot; a target file system without
//! extended attributes gives one warning, not an error.
//!
//! Needs `rsync`, `setfacl` (package acl) and `setfattr` (package attr), which
//! scripts/test.sh installs. Without them the tests skip with a note, except in CI.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;

use crate::shared::files::{pseudo_random, write_file};
use crate::shared::servers::in_ci;
use crate::support::command::{
    PASSWORD, assert_no_panic, assert_stderr_lacks, bin, clean_command, run_any, run_ok,
    stderr_str, stdout_str,
};
use crate::support::fsutil::{is_root, set_mode, set_mtime};
use crate::support::manifest::{assert_tree_matches, manifest};
use crate::support::repo::{Repo, restored_path};
use crate::support::report::BackupReport;
use base64::Engine;
use serde_json::Value;

/// Whether the tools are there and the temp dir's file system takes user attributes
/// and ACLs. Otherwise: in CI, fail; elsewhere print a note and return `false` (skip).
fn tools_ready(repo: &Repo) -> bool {
    let missing: Vec<&str> = ["rsync", "setfacl", "setfattr"]
        .into_iter()
        .filter(|t| {
            StdCommand::new(t)
                .arg("--version")
                .output()
                .map_or(true, |o| !o.status.success())
        })
        .collect();
    let problem = if !missing.is_empty() {
        Some(format!(
            "missing {} (install rsync, acl and attr; scripts/test.sh does)",
            missing.join(", ")
        ))
    } else {
        let probe = repo.path("probe");
        write_file(&probe, b"");
        let user = StdCommand::new("setfattr")
            .args(["-n", "user.probe", "-v", "1"])
            .arg(&probe)
            .output()
            .is_ok_and(|o| o.status.success());
        let acl = StdCommand::new("setfacl")
            .args(["-m", "u:65534:r"])
            .arg(&probe)
            .output()
            .is_ok_and(|o| o.status.success());
        std::fs::remove_file(&probe).unwrap();
        (!user || !acl).then(|| {
            format!(
                "the file system of {} does not take user attributes and ACLs",
                repo.root.display()
            )
        })
    };
    match problem {
        None => true,
        Some(p) => {
            assert!(!in_ci(), "{p}");
            eprintln!("skipped: {p}");
            false
        }
    }
}

/// Run a tool on the test's files; it must succeed.
fn tool(program: &str, args: &[&OsStr]) {
    let out = StdCommand::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("running {program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn setfattr(path: &Path, name: &str, value: &str) {
    tool(
        "setfattr",
        &[
            "-h".as_ref(),
            "-n".as_ref(),
            name.as_ref(),
            "-v".as_ref(),
            value.as_ref(),
            path.as_os_str(),
        ],
    );
}

fn setfacl(path: &Path, args: &[&str]) {
    let mut all: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    all.push(path.as_os_str());
    tool("setfacl", &all);
}

/// 1500 bytes that are not text.
fn big_value() -> Vec<u8> {
    (0..1500u32).map(|i| (i * 7 % 256) as u8).collect()
}

/// A source tree with user attributes on files and directories (text, binary and empty
/// values), access and default ACLs, files that inherited an ACL, hard links, and, as
/// root, `trusted.*` attributes on a file and a symlink (Linux allows `user.*` only on
/// files and directories).
fn make_source(repo: &Repo) -> PathBuf {
    let src = repo.dir("src");
    setfattr(&src, "user.top", "source root");
    write_file(&src.join("plain"), b"no attributes here\n");
    let text = src.join("text");
    write_file(&text, b"hello\n");
    setfattr(&text, "user.comment", "hello");
    setfattr(&text, "user.empty", "");
    setfattr(&text, "user.bin", "0x00ff0a");
    let big = format!(
        "0s{}",
        base64::engine::general_purpose::STANDARD.encode(big_value())
    );
    setfattr(&text, "user.big", &big);

    let dir = repo.dir("src/dir");
    setfattr(&dir, "user.dirattr", "1");
    write_file(&dir.join("inner"), &pseudo_random(1, 10_000));
    setfattr(&dir.join("inner"), "user.inner", "x");

    let acl = src.join("acl");
    write_file(&acl, b"acl\n");
    set_mode(&acl, 0o640);
    setfacl(&acl, &["-m", "u:65534:rw,g:65534:r"]);

    let acldir = repo.dir("src/acldir");
    setfacl(&acldir, &["-m", "u:65534:rwx"]);
    setfacl(&acldir, &["-d", "-m", "u:65534:rx,g:65534:rx"]);
    // Created after the default ACL: they inherit it.
    write_file(&acldir.join("inherited"), b"inherited\n");
    repo.dir("src/acldir/sub");

    write_file(&src.join("hard1"), b"linked\n");
    std::fs::hard_link(src.join("hard1"), src.join("hard2")).unwrap();
    setfattr(&src.join("hard1"), "user.link", "both names");

    std::os::unix::fs::symlink("text", src.join("link")).unwrap();
    if is_root() {
        setfattr(&src.join("link"), "trusted.link", "on the symlink itself");
        write_file(&src.join("trusted"), b"root only\n");
        setfattr(&src.join("trusted"), "trusted.t", "root only");
    } else {
        eprintln!("note: not root, so no trusted.* attributes (on the symlink) are tested");
    }
    // Fixed times last (setting attributes changes only ctime, but creating entries
    // changes the directories' mtimes).
    for (i, p) in [
        "text",
        "dir/inner",
        "dir",
        "acldir/sub",
        "acldir",
        "link",
        ".",
    ]
    .iter()
    .enumerate()
    {
        set_mtime(&src.join(p), 1_600_000_000 + i as i64, 123_456_789);
    }
    src
}

/// A repository with one snapshot of [`make_source`]'s tree: the repository, the source
/// and the backup's report; `None` where the tools or the file system are missing (see
/// [`tools_ready`]).
fn backed_up_source() -> Option<(Repo, PathBuf, BackupReport)> {
    let repo = Repo::init();
    if !tools_ready(&repo) {
        return None;
    }
    let src = make_source(&repo);
    let report = repo.backup(&[&src], &[]);
    Some((repo, src, report))
}

/// `rsync -aHAXn --checksum --itemize-changes FROM/ TO/`: what rsync would change (empty
/// when the trees are identical, attributes and ACLs included).
fn rsync_differences(from: &Path, to: &Path) -> String {
    let slash = |p: &Path| format!("{}/", p.display());
    let out = StdCommand::new("rsync")
        .args(["-aHAXn", "--checksum", "--itemize-changes"])
        .arg(slash(from))
        .arg(slash(to))
        .output()
        .expect("running rsync");
    assert!(
        out.status.success(),
        "rsync failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Restore `spec` into a new target; exit 0 and no warning. Returns the restored source.
fn restore(repo: &Repo, spec: &str, src: &Path, name: &str) -> PathBuf {
    let target = repo.dir(name);
    let out = run_ok(
        repo.cmd()
            .arg("restore")
            .arg(spec)
            .arg("--target")
            .arg(&target),
    );
    let err = stderr_str(&out);
    assert!(!err.contains("warning"), "restore warned:\n{err}");
    restored_path(&target, src)
}

/// `ls --json SNAPSHOT PATH`: the entry of PATH itself.
fn ls_entry(repo: &Repo, snapshot: &str, path: &Path) -> Value {
    let out = run_ok(repo.cmd().args(["ls", "--json", snapshot]).arg(path));
    let v: Value = serde_json::from_slice(&out.stdout).expect("ls --json prints JSON");
    v.as_array().expect("an array")[0].clone()
}

fn b64(v: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(v)
}

#[test]
fn round_trip_is_identical_under_rsync_with_acls_and_xattrs() {
    let Some((repo, src, report)) = backed_up_source() else {
        return;
    };
    assert!(
        report.errors.is_empty(),
        "backup errors: {:?}",
        report.errors
    );

    let restored = restore(&repo, &report.short_id, &src, "target");
    let diff = rsync_differences(&src, &restored);
    assert!(diff.is_empty(), "rsync sees differences:\n{diff}");
    assert_tree_matches(&manifest(&src), &restored, "restored tree");

    // The comparison does see attributes: take one away and rsync reports it.
    tool(
        "setfattr",
        &[
            "-x".as_ref(),
            "user.empty".as_ref(),
            restored.join("text").as_os_str(),
        ],
    );
    let diff = rsync_differences(&src, &restored);
    assert!(
        diff.contains("text"),
        "rsync missed a removed attribute:\n{diff}"
    );
}

/// A target directory with a default ACL: everything the restore creates in it
/// inherits an ACL, which the restore takes away again wherever the source had none
/// (and keeps where it had one).
#[test]
fn a_target_with_a_default_acl_leaves_no_inherited_acl() {
    let Some((repo, src, report)) = backed_up_source() else {
        return;
    };
    let target = repo.dir("acl-target");
    setfacl(&target, &["-d", "-m", "u:65534:rwx,g:65534:rx"]);
    let out = run_ok(
        repo.cmd()
            .arg("restore")
            .arg(&report.short_id)
            .arg("--target")
            .arg(&target),
    );
    assert_stderr_lacks(&out, "warning");
    let restored = restored_path(&target, &src);
    let diff = rsync_differences(&src, &restored);
    assert!(diff.is_empty(), "rsync sees differences:\n{diff}");
}

#[test]
fn ls_shows_xattrs_and_acls() {
    let Some((repo, src, _)) = backed_up_source() else {
        return;
    };

    let text = ls_entry(&repo, "latest", &src.join("text"));
    let expected: serde_json::Map<String, Value> = [
        ("user.big", b64(&big_value())),
        ("user.bin", "AP8K".to_string()),
        ("user.comment", b64(b"hello")),
        ("user.empty", String::new()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), Value::String(v)))
    .collect();
    assert_eq!(text["xattrs"], Value::Object(expected), "{text:#}");
    let inner = ls_entry(&repo, "latest", &src.join("dir/inner"));
    assert_eq!(inner["xattrs"]["user.inner"], b64(b"x"), "{inner:#}");
    let hard2 = ls_entry(&repo, "latest", &src.join("hard2"));
    assert_eq!(hard2["xattrs"]["user.link"], b64(b"both names"));
    let sub = ls_entry(&repo, "latest", &src.join("acldir/sub"));
    let keys: Vec<&String> = sub["xattrs"].as_object().expect("xattrs").keys().collect();
    assert_eq!(
        keys,
        ["system.posix_acl_access", "system.posix_acl_default"],
        "{sub:#}"
    );
    // No attributes: no field.
    let out = run_ok(repo.cmd().args(["ls", "--json", "latest"]).arg(&src));
    let v: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let entry = |name: &str| {
        v.iter()
            .find(|e| e["path"].as_str().unwrap().ends_with(name))
            .unwrap_or_else(|| panic!("{name} not listed"))
    };
    assert!(entry("/plain").get("xattrs").is_none(), "{v:#?}");
    assert!(entry("/hard2").get("xattrs").is_some());
    if is_root() {
        assert_eq!(entry("/trusted")["xattrs"]["trusted.t"], b64(b"root only"));
        assert_eq!(
            entry("/link")["xattrs"]["trusted.link"],
            b64(b"on the symlink itself")
        );
    }

    // `ls -l`: `+` after the mode for an ACL, `@` for other attributes, nothing else.
    let mark = |name: &str| -> String {
        let out = run_ok(repo.cmd().args(["ls", "-l", "latest"]).arg(src.join(name)));
        let line = stdout_str(&out);
        line.split_whitespace()
            .nth(1)
            .expect("a mode column")
            .to_string()
    };
    assert!(mark("acl").ends_with('+'), "{}", mark("acl"));
    assert!(mark("acldir").ends_with('+'), "{}", mark("acldir"));
    assert!(mark("text").ends_with('@'), "{}", mark("text"));
    let mode = std::fs::metadata(src.join("plain")).unwrap().permissions();
    let plain = format!(
        "{:o}",
        std::os::unix::fs::PermissionsExt::mode(&mode) & 0o7777
    );
    assert_eq!(mark("plain"), plain);
}

#[test]
fn an_xattr_only_change_reaches_the_next_snapshot() {
    let Some((repo, src, first)) = backed_up_source() else {
        return;
    };

    let text = src.join("text");
    setfattr(&text, "user.comment", "changed");
    tool(
        "setfattr",
        &["-x".as_ref(), "user.empty".as_ref(), text.as_os_str()],
    );
    setfattr(&src.join("dir"), "user.dirattr", "2");
    setfattr(&src.join("hard1"), "user.added", "new");
    setfacl(&src.join("acl"), &["-m", "u:65534:r"]);
    setfacl(&src.join("acldir/inherited"), &["-b"]);
    let second = repo.backup(&[&src], &[]);
    assert!(second.errors.is_empty(), "{:?}", second.errors);
    // Files whose attributes did not change are reused without reading them, and keep
    // their attributes.
    assert!(
        second.files_unchanged >= 2,
        "files_unchanged = {}",
        second.files_unchanged
    );

    let restored = restore(&repo, &second.short_id, &src, "target");
    let diff = rsync_differences(&src, &restored);
    assert!(diff.is_empty(), "rsync sees differences:\n{diff}");

    let now = ls_entry(&repo, &second.short_id, &text);
    assert_eq!(now["xattrs"]["user.comment"], b64(b"changed"));
    assert!(now["xattrs"].get("user.empty").is_none(), "{now:#}");
    let before = ls_entry(&repo, &first.short_id, &text);
    assert_eq!(before["xattrs"]["user.comment"], b64(b"hello"));
    assert_eq!(before["xattrs"]["user.empty"], "");
    let inherited = ls_entry(&repo, &second.short_id, &src.join("acldir/inherited"));
    assert!(inherited.get("xattrs").is_none(), "{inherited:#}");
}

/// A target on ramfs, which has no extended attributes at all: the restore completes
/// (exit 0) with one warning that counts what was left out, not one per file.
#[test]
fn a_target_without_xattrs_gives_one_warning() {
    let Some((repo, src, report)) = backed_up_source() else {
        return;
    };
    let target = repo.dir("ramfs");
    let copy = repo.path("copy");
    // Mount ramfs on the target in a private mount namespace, restore into it, and copy
    // the result out (the mount goes away with the namespace).
    let script = r#"mount -t ramfs none "$TARGET" || exit 99
"$@"; rc=$?
cp -a "$TARGET/." "$COPY" || exit 98
exit $rc"#;
    let mut cmd = clean_command(
        OsStr::new("unshare"),
        &[
            "-m".as_ref(),
            "--propagation".as_ref(),
            "private".as_ref(),
            "sh".as_ref(),
            "-c".as_ref(),
            script.as_ref(),
            "sh".as_ref(),
            bin().as_ref(),
        ],
        &repo.home,
    );
    cmd.env("TANGLE_PASSWORD", PASSWORD)
        .env("TARGET", &target)
        .env("COPY", &copy)
        .arg("-r")
        .arg(&repo.remotes[0])
        .args(["restore", "--json", &report.short_id, "--target"])
        .arg(&target);
    let out = run_any(&mut cmd);
    let err = stderr_str(&out);
    if out.status.code() == Some(99) || (!copy.exists() && out.status.code() != Some(0)) {
        // No mount namespace here (no privileges for it): nothing to test.
        eprintln!("skipped: cannot mount ramfs in a private mount namespace:\n{err}");
        return;
    }
    assert_no_panic(&out, "restore onto ramfs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "restore onto ramfs failed:\n{err}"
    );
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), 1, "expected one warning:\n{err}");
    assert!(
        warnings[0].starts_with("tangle: warning: extended attributes not restored on ")
            && warnings[0].ends_with("): the target file system does not support them"),
        "{}",
        warnings[0]
    );
    let json: Value = serde_json::from_slice(&out.stdout).expect("restore --json");
    assert_eq!(json["errors"], Value::Array(vec![]));
    assert_eq!(
        json["warnings"].as_array().map(Vec::len),
        Some(1),
        "{json:#}"
    );

    // Every attribute in the snapshot was tried once (the second name of a hard link
    // shares the first one's inode), on every entry that has any.
    let out = run_ok(repo.cmd().args(["ls", "--json", "latest"]));
    let entries: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let with: Vec<usize> = entries
        .iter()
        .filter(|e| !e["path"].as_str().unwrap().ends_with("/hard2"))
        .filter_map(|e| e["xattrs"].as_object().map(|x| x.len()))
        .collect();
    let counts = format!(
        " on {} entries ({} attributes, first ",
        with.len(),
        with.iter().sum::<usize>()
    );
    assert!(
        warnings[0].contains(&counts),
        "{} lacks {counts}",
        warnings[0]
    );

    // Everything else was restored: contents, modes, owners, times, hard links.
    assert_tree_matches(
        &manifest(&src),
        &restored_path(&copy, &src),
        "restored onto ramfs",
    );
}
