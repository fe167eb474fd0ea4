//! Only canonical names are objects. Anything else a remote holds (a junk file, a
//! certificate copied under its upper-case hex name) is reported as a foreign object
//! naming its remote — information, not damage — and repair never copies it anywhere.

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::run_ok;
use crate::support::remote_dirs::object_paths;
use crate::support::repo::{Client, Repo};
use crate::support::report::{
    expect_code, finding_kind, run_report, show_findings, verify_findings,
};

fn foreign_findings(v: &serde_json::Value) -> Vec<serde_json::Value> {
    verify_findings(v)
        .into_iter()
        .filter(|f| finding_kind(f) == "foreign-object")
        .collect()
}

#[test]
fn junk_files_are_foreign_objects_not_damage() {
    let (repo, _) = Repo::with_snapshot_of("a.bin", &pseudo_random(4, 200_000));

    write_file(&repo.remotes[1].join("keys/deadbeef"), b"junk");
    write_file(&repo.remotes[1].join("snapshots/not-a-snapshot"), b"junk");
    write_file(
        &repo.remotes[2].join("README"),
        b"what is this directory?\n",
    );

    let (code, v) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "--json"]),
        "verify with junk files",
    );
    expect_code(code, 0, &v, "verify with junk files");
    let foreign = foreign_findings(&v);
    let named = |remote: &str, path: &str| {
        foreign
            .iter()
            .any(|f| f["remote"] == remote && f["path"] == path && f["severity"] == "info")
    };
    assert!(
        named(&repo.url(1), "keys/deadbeef"),
        "{}",
        show_findings(&v)
    );
    assert!(
        named(&repo.url(1), "snapshots/not-a-snapshot"),
        "{}",
        show_findings(&v)
    );
    assert!(named(&repo.url(2), "README"), "{}", show_findings(&v));

    // With the password, too (the key files are read then).
    let (code, v) = run_report(
        repo.cmd().args(["verify", "--json"]),
        "verify with password and junk files",
    );
    expect_code(code, 0, &v, "verify with password and junk files");

    let before = repo.remote_state();
    run_ok(repo.cmd_as(Client::via(0).no_password()).arg("repair"));
    assert_eq!(repo.remote_state(), before, "repair changed something");
    assert!(!repo.remotes[0].join("keys/deadbeef").exists());
}

#[test]
fn an_upper_case_alias_of_a_certificate_is_foreign_not_a_fork() {
    let (repo, _) = Repo::with_snapshot_of("a.bin", &pseudo_random(5, 200_000));
    let cert = object_paths(&repo.remotes[1], "extents")
        .into_iter()
        .next()
        .expect("remote 1 holds a certificate");
    let upper = format!(
        "extents/{}",
        cert.trim_start_matches("extents/").to_uppercase()
    );
    std::fs::copy(repo.remotes[1].join(&cert), repo.remotes[1].join(&upper)).unwrap();
    let shard_dir = object_paths(&repo.remotes[1], "shards")
        .into_iter()
        .next()
        .expect("remote 1 holds a shard");
    let shard_upper = shard_dir.replacen(
        shard_dir.split('/').nth(1).unwrap(),
        &shard_dir.split('/').nth(1).unwrap().to_uppercase(),
        1,
    );
    std::fs::create_dir_all(repo.remotes[1].join(&shard_upper).parent().unwrap()).unwrap();
    std::fs::copy(
        repo.remotes[1].join(&shard_dir),
        repo.remotes[1].join(&shard_upper),
    )
    .unwrap();

    let (code, v) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "--json"]),
        "verify with an upper-case alias",
    );
    expect_code(code, 0, &v, "verify with an upper-case alias");
    let foreign = foreign_findings(&v);
    for path in [&upper, &shard_upper] {
        assert!(
            foreign
                .iter()
                .any(|f| f["remote"] == repo.url(1) && f["path"] == path.as_str()),
            "{path} is not reported as foreign:\n{}",
            show_findings(&v)
        );
    }

    run_ok(repo.cmd_as(Client::via(0).no_password()).arg("repair"));
    for r in [0, 2] {
        assert!(
            !repo.remotes[r].join(&upper).exists() && !repo.remotes[r].join(&shard_upper).exists(),
            "repair spread the alias to remote {r}"
        );
    }
}
