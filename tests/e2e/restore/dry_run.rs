//! `restore --dry-run`: it counts what a restore would write and writes nothing, not even
//! the target directory.

use crate::support::repo::Repo;
use crate::support::report::json_ok;
use crate::support::trees::build_random_tree;

#[test]
fn a_dry_run_counts_what_the_restore_writes_and_writes_nothing() {
    let repo = Repo::init();
    let src = repo.dir("src");
    build_random_tree(&src.join("a"), 1, 12, 30_000);
    build_random_tree(&src.join("b"), 2, 5, 9_000);
    repo.backup(&[&src], &[]);

    for (what, extra) in [
        ("whole", vec![]),
        (
            "an include",
            vec!["--include".to_string(), format!("{}/a/**", src.display())],
        ),
    ] {
        let dry = repo.path(&format!("dry-{}", what.replace(' ', "-")));
        let mut c = repo.cmd();
        c.args(["restore", "latest", "--dry-run", "--json", "--target"])
            .arg(&dry)
            .args(&extra);
        let v = json_ok(&mut c, "restore --dry-run");
        assert_eq!(v["dry_run"], true, "{what}: {v:#}");
        assert!(!dry.exists(), "{what}: a dry run made its target");

        let real = repo.path(&format!("real-{}", what.replace(' ', "-")));
        let mut c = repo.cmd();
        c.args(["restore", "latest", "--json", "--target"])
            .arg(&real)
            .args(&extra);
        let r = json_ok(&mut c, "restore");
        assert_eq!(r["dry_run"], false);
        assert_eq!(
            (&v["files"], &v["bytes"]),
            (&r["files"], &r["bytes"]),
            "{what}: dry {v:#} real {r:#}"
        );
        assert!(r["files"].as_u64().unwrap() > 0, "{what}: {r:#}");
    }
    // The text form says what it would do.
    let out = crate::support::command::run_ok(
        repo.cmd()
            .args(["restore", "latest", "-n", "--target"])
            .arg(repo.path("t")),
    );
    let text = crate::support::command::stdout_str(&out);
    assert!(text.starts_with("would restore 17 files"), "{text}");
    assert!(!repo.path("t").exists());
}
