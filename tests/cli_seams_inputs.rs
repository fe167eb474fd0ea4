//! Seams between commands (issue 31), on the local inputs: passwords are their exact
//! bytes whatever the source, long file names restore over existing files, and password
//! files, profiles and password commands are read within bounds.

mod common;

use std::ffi::{OsStr, OsString};
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use common::*;

// ---------------------------------------------------------------------------------------
// Long names restore over existing files.

#[test]
fn names_up_to_255_bytes_restore_over_existing_files() {
    let repo = Repo::init();
    let src = repo.dir("src");
    let mut names: Vec<OsString> = vec![
        OsString::from("a".repeat(255)),
        OsString::from("b".repeat(230)),
        OsString::from("c".repeat(227)),
        // 254 bytes of two-byte characters and one more: a cut must not split one.
        OsString::from(format!("{}x", "é".repeat(127))),
    ];
    // A name that is not UTF-8 either.
    let mut raw_name = vec![0xffu8; 200];
    raw_name.extend(std::iter::repeat_n(b'r', 55));
    names.push(OsStr::from_bytes(&raw_name).to_os_string());
    for (i, n) in names.iter().enumerate() {
        assert!(n.len() >= 227 && n.len() <= 255);
        write_file(&src.join(n), &pseudo_random(i as u64 + 1, 1000 + i * 100));
    }
    let expected = manifest(&src);
    repo.backup(&[&src], &[]);

    let target = repo.path("target");
    let restore = |what: &str| {
        let o = run_any(
            repo.cmd()
                .args(["restore", "latest", "--no-progress", "--target"])
                .arg(&target),
        );
        assert!(
            o.status.success(),
            "{what}: restore failed ({:?}):\n{}",
            o.status.code(),
            stderr_str(&o)
        );
        let root = restored_path(&target, &src);
        if let Some(d) = manifest_diff(&expected, &manifest(&root)) {
            panic!("{what}: {d}");
        }
        let leftovers: Vec<PathBuf> = (fs::read_dir(&root).unwrap())
            .map(|e| e.unwrap().path())
            .filter(|p| (p.file_name().unwrap().as_bytes()).starts_with(b".tangle"))
            .collect();
        assert!(
            leftovers.is_empty(),
            "{what}: temporary files left: {leftovers:?}"
        );
    };
    restore("first restore");
    restore("restore again over the same files");
    let root = restored_path(&target, &src);
    for n in &names {
        write_file(&root.join(n), b"something else entirely");
    }
    restore("restore over other files at those names");
}
