//! The key files of a [`Repo`] and the commands that change them, shared by the tests of
//! `tangle key` (`key.rs`) and of its interrupted removals (`seams/keys.rs`).

use assert_cmd::Command;
use serde_json::Value;

use super::remote_dirs::object_paths;
use super::repo::{Client, Repo};
use super::report::json_ok;

/// A repository with one snapshot, whose passwords the tests change.
pub fn setup() -> Repo {
    let (repo, _) = Repo::with_snapshot_of("f.txt", b"kept across password changes\n");
    repo
}

/// The key file ids remote `r` holds, sorted.
pub fn key_files(repo: &Repo, r: usize) -> Vec<String> {
    object_paths(&repo.remotes[r], "keys")
        .into_iter()
        .map(|p| p.trim_start_matches("keys/").to_string())
        .collect()
}

/// `CMD key SUB --json --new-password-file F` (`add` or `passwd`), F holding `new`,
/// exit 0: the report.
pub fn new_password(repo: &Repo, cmd: &mut Command, sub: &str, new: &str) -> Value {
    let f = repo.password_file(new);
    json_ok(
        cmd.args(["key", sub, "--json", "--new-password-file"])
            .arg(&f),
        &format!("key {sub}"),
    )
}

/// `key passwd --json` with the password, changing it to `new`: the new key's id and the
/// report.
pub fn passwd(repo: &Repo, new: &str) -> (String, Value) {
    let v = new_password(repo, &mut repo.cmd(), "passwd", new);
    let id = v["added"]["id"].as_str().unwrap().to_string();
    (id, v)
}

/// `key remove --json` of the key `id` (by its first 8 digits), opened with `password`
/// from a fresh HOME: removed, and not the key in use; returns the report.
pub fn remove_other_key(repo: &Repo, password: &str, id: &str, what: &str) -> Value {
    let v = json_ok(
        repo.cmd_as(Client::via(0).password(password).fresh_home())
            .args(["key", "remove", "--json", &id[..8]]),
        what,
    );
    assert_eq!(v["id"], id, "{v:#}");
    assert_eq!(v["was_current"], false, "{v:#}");
    v
}
