//! Each remote has an identity (a marker object written at init and `remote add`), so a
//! location that already serves this repository is refused however its URL is spelled:
//! otherwise rebalance would "move" shards onto the same directory and delete them.

use crate::shared::files::pseudo_random;
use crate::support::command::{
    assert_stdout_lacks, run_any, run_code, run_ok, stderr_str, stdout_str,
};
use crate::support::manifest::{assert_tree_matches, manifest};
use crate::support::repo::{Client, Repo, restored_path};

fn assert_refused_as_alias(out: &std::process::Output, of: &str, what: &str) {
    let err = stderr_str(out);
    assert!(
        err.contains("already") && err.contains(of),
        "{what}: the refusal does not say the location already serves the repository as {of}:\n{err}"
    );
}

#[test]
fn remote_add_refuses_a_location_that_already_serves_the_repository() {
    let (repo, src) = Repo::with_source("a.bin", &pseudo_random(3, 300_000));
    let expected = manifest(&src);
    repo.backup(&[&src], &[]);
    let before = repo.remote_state();

    // Remote 0 through a symlink, through `file://`, and with a `..` detour.
    let link = repo.path("r0-link");
    std::os::unix::fs::symlink(&repo.remotes[0], &link).unwrap();
    let detour = repo.remotes[1].join("..").join("remote0");
    let aliases = [
        link.to_string_lossy().into_owned(),
        format!("file://{}", repo.url(0)),
        detour.to_string_lossy().into_owned(),
    ];
    for alias in &aliases {
        let out = run_code(repo.cmd().args(["remote", "add", alias]), 1);
        assert_refused_as_alias(&out, &repo.url(0), &format!("remote add {alias}"));
    }
    assert_eq!(
        repo.remote_state(),
        before,
        "a refused add changed a remote"
    );

    // A real fourth location is still accepted, and the repository stays whole.
    let fourth = repo.path("remote3");
    run_ok(repo.cmd().args(["remote", "add"]).arg(&fourth));
    assert!(
        fourth.join("remote-id").is_file(),
        "the added remote has no marker"
    );
    let out = run_any(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "--read-data"]),
    );
    assert!(
        matches!(out.status.code(), Some(0) | Some(20)),
        "verify after a good add: {}",
        stdout_str(&out)
    );
    let target = repo.path("restored");
    run_ok(
        repo.cmd()
            .args(["restore", "latest", "--target"])
            .arg(&target),
    );
    assert_tree_matches(&expected, &restored_path(&target, &src), "after remote add");
}

#[test]
fn remote_replace_refuses_another_remotes_location() {
    let repo = Repo::init();
    let link = repo.path("r2-link");
    std::os::unix::fs::symlink(&repo.remotes[2], &link).unwrap();
    let before = repo.remote_state();
    let out = run_code(
        repo.cmd()
            .args(["remote", "replace", &repo.url(1)])
            .arg(&link),
        1,
    );
    assert_refused_as_alias(&out, &repo.url(2), "remote replace r1 with r2's alias");
    assert_eq!(
        repo.remote_state(),
        before,
        "a refused replace changed a remote"
    );
}

#[test]
fn init_refuses_the_same_location_twice() {
    let repo = Repo::uninit();
    let link = repo.path("r0-link");
    std::fs::create_dir_all(&repo.remotes[0]).unwrap();
    std::os::unix::fs::symlink(&repo.remotes[0], &link).unwrap();
    let out = run_code(
        &mut repo.init_cmd(
            &[
                repo.remotes[0].clone(),
                repo.remotes[1].clone(),
                link.clone(),
            ],
            &[],
        ),
        1,
    );
    assert_refused_as_alias(&out, &repo.url(0), "init over one location twice");
    assert!(
        !repo.remotes[0].join("config").exists() && !repo.remotes[1].join("config").exists(),
        "a refused init left a config behind"
    );
}

#[test]
fn init_writes_a_marker_on_every_remote() {
    let repo = Repo::init();
    let markers: Vec<Vec<u8>> = repo
        .remotes
        .iter()
        .map(|r| std::fs::read(r.join("remote-id")).expect("remote-id marker"))
        .collect();
    assert!(markers[0] != markers[1] && markers[1] != markers[2] && markers[0] != markers[2]);
    // The marker is part of the repository, not a foreign object.
    let out = run_ok(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "-v"]),
    );
    assert_stdout_lacks(&out, "foreign");
}
