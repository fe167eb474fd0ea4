//! The README's quick start, `scripts/quickstart.sh`, works as documented: run twice
//! with a fresh HOME it creates a repository over three directories, backs up, and the
//! second run is incremental; the repository verifies and restores; and it leaves a
//! `default` profile (owner pinned) that later commands use when they name no repository.

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{bin, run_code_saying, run_ok, stdout_str, tangle_bare};
use crate::support::manifest::{assert_tree_matches, manifest};
use crate::support::repo::restored_path;

#[test]
fn the_readme_quick_start_works_and_runs_again() {
    let home = tempfile::tempdir().unwrap();
    let src = home.path().join("docs");
    write_file(&src.join("a.txt"), b"quick start\n");
    write_file(&src.join("sub/b.bin"), &pseudo_random(3, 100_000));
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/quickstart.sh");
    let run = || {
        let out = std::process::Command::new("bash")
            .arg(script)
            .arg(&src)
            .env_clear()
            .envs(std::env::vars_os().filter(|(k, _)| k == "PATH"))
            .env("HOME", home.path())
            .env("TANGLE_BIN", bin())
            .output()
            .unwrap();
        assert!(out.status.success(), "quickstart.sh failed: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let first = run();
    assert!(first.contains("generated a password"), "{first}");
    let second = run();
    assert!(!second.contains("generated a password"), "{second}");
    assert!(
        second.contains("0 new"),
        "second run is not incremental:\n{second}"
    );

    // The repository it made verifies and restores with the password it generated.
    let data = home.path().join(".local/share/tangle");
    let pw = home.path().join(".config/tangle/password");
    let tangle = |args: &[&str]| {
        let mut c = tangle_bare(home.path());
        c.arg("-r")
            .arg(data.join("remote-1"))
            .arg("--password-file")
            .arg(&pw)
            .args(args);
        c
    };
    run_ok(&mut tangle(&["verify", "--read-data"]));
    let target = home.path().join("restored");
    run_ok(tangle(&["restore", "latest", "--target"]).arg(&target));
    assert_tree_matches(
        &manifest(&src),
        &restored_path(&target, &src),
        "quick start",
    );

    // Later commands need no -r: the default profile names the repository, its
    // password file, the owner (pinned) and the paths to back up.
    let profile = std::fs::read_to_string(home.path().join(".config/tangle/default.toml")).unwrap();
    assert!(profile.contains("owner = \""), "{profile}");
    let plain = |args: &[&str]| {
        let mut c = tangle_bare(home.path());
        c.env("XDG_CONFIG_HOME", home.path().join(".config"))
            .args(args);
        c
    };
    let listed = stdout_str(&run_ok(&mut plain(&["snapshots"])));
    assert!(listed.contains("2 snapshots"), "{listed}");
    write_file(&src.join("c.txt"), b"a third night\n");
    run_ok(&mut plain(&["backup"]));
    let found = stdout_str(&run_ok(&mut plain(&["ls", "latest"])));
    assert!(found.contains("c.txt"), "{found}");

    // -r names another repository: the default profile (its password, its pin) stays out.
    let other = home.path().join("other");
    run_code_saying(
        plain(&["snapshots", "-r"]).arg(&other),
        10,
        &other.display().to_string(),
    );
}
