//! The format gate: `tests/data/format-v1.tar.gz` holds a repository written by an
//! earlier build (scripts/make-format-fixture.sh: three remotes, 64 KiB extents, three
//! backups and a delete). Every build must still open it, verify it without the
//! password, restore both kept snapshots byte-identical, and append to it. A change
//! that breaks this breaks every user's existing repository.

use std::path::{Path, PathBuf};

use crate::shared::files::write_file;
use crate::support::command::{assert_stdout_has, run_ok, tangle_bare};
use crate::support::manifest::{assert_tree_matches, manifest};
use crate::support::repo::{parse_snapshots, restored_path};
use serde_json::Value;

const NAME: &str = "tangle-format-v1";
const PASSWORD: &str = "format fixture v1";

/// The fixture, extracted where it was made (a remote's URL in the config is an
/// absolute path, so the repository opens only there).
fn extract() -> PathBuf {
    let root = Path::new("/tmp").join(NAME);
    let _ = std::fs::remove_dir_all(&root);
    let tarball = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/format-v1.tar.gz");
    let out = std::process::Command::new("tar")
        .args(["-xzf", tarball, "-C", "/tmp"])
        .output()
        .expect("run tar");
    assert!(out.status.success(), "tar -xzf {tarball}: {out:?}");
    root
}

fn json_file(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn a_repository_of_format_1_opens_verifies_restores_and_takes_new_backups() {
    let root = extract();
    let home = tempfile::tempdir().unwrap();
    let owner = json_file(&root.join("init.json"))["owner_fingerprint"]
        .as_str()
        .expect("init.json has owner_fingerprint")
        .to_string();
    let expected: Vec<String> = json_file(&root.join("snapshots.json"))
        .as_array()
        .expect("snapshots.json is a list")
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(expected.len(), 2, "the fixture keeps two snapshots");
    let repo = root.join("r0");
    // A fresh cache and the owner pinned, as a CI job opens it.
    let tangle = |args: &[&str]| {
        let mut c = tangle_bare(home.path());
        c.env("TANGLE_OWNER", &owner)
            .arg("-r")
            .arg(&repo)
            .args(args);
        c
    };
    let with_password = |args: &[&str]| {
        let mut c = tangle(args);
        c.env("TANGLE_PASSWORD", PASSWORD);
        c
    };

    // Verify reads every shard with only the public key.
    let out = run_ok(&mut tangle(&["--json", "verify", "--read-data"]));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["owner_fingerprint"], owner.as_str());
    assert_eq!(
        report["findings"].as_array().map(Vec::len),
        Some(0),
        "{report}"
    );

    let out = run_ok(&mut with_password(&["--json", "snapshots"]));
    let listed: Vec<String> = parse_snapshots(&out.stdout)
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(listed, expected, "the snapshot ids changed");

    // Both kept snapshots restore byte-identical, metadata included.
    let source = root.join("src");
    for (id, state) in expected.iter().zip(["src-a", "src-b"]) {
        let target = home.path().join(format!("restore-{state}"));
        run_ok(with_password(&["restore", id, "--target"]).arg(&target));
        assert_tree_matches(
            &manifest(&root.join(state)),
            &restored_path(&target, &source),
            &format!("snapshot {id} ({state})"),
        );
    }
    let out = run_ok(&mut with_password(&[
        "dump",
        &expected[1],
        &format!("{}/blobs/day-three.bin", source.display()),
    ]));
    assert_eq!(
        out.stdout,
        std::fs::read(root.join("src-b/blobs/day-three.bin")).unwrap()
    );

    // Today's build appends to it, and what it wrote verifies beside the old objects.
    std::fs::rename(root.join("src-b"), &source).unwrap();
    write_file(&source.join("new/file.txt"), b"written by this build\n");
    // The fixture's host: the last snapshot is the parent, so only the new file is new.
    let out =
        run_ok(with_password(&["backup", source.to_str().unwrap()]).env("TANGLE_HOST", "fixture"));
    assert_stdout_has(&out, "1 new");
    run_ok(&mut tangle(&["verify", "--read-data"]));
    let _ = std::fs::remove_dir_all(&root);
}
