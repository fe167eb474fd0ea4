//! `tangle verify --read-data || tangle repair` leaves a clean repository: a plain
//! repair acts on the corruption the last verify found (a listing cannot see it), and
//! verify's advice names the exact command to run.

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{run_code, run_ok, stdout_str};
use crate::support::remote_dirs::{flip_bytes, object_paths};
use crate::support::repo::{Client, Repo};
use crate::support::report::run_json;
use std::fs;

#[test]
fn a_plain_repair_fixes_what_verify_read_data_found() {
    let (repo, src) = Repo::with_source("a.bin", &pseudo_random(7, 400_000));
    write_file(&src.join("b.txt"), b"some text\n");
    repo.backup(&[&src], &[]);

    // Flip bytes inside one shard without changing its size: only hashing finds it.
    let shard = object_paths(&repo.remotes[1], "shards")
        .into_iter()
        .next()
        .expect("remote 1 holds a shard");
    let file = repo.remotes[1].join(&shard);
    let size = fs::metadata(&file).unwrap().len();
    flip_bytes(&file);
    assert_eq!(fs::metadata(&file).unwrap().len(), size);

    // A plain verify cannot see it; verify --read-data can, and names the command.
    run_ok(repo.cmd_as(Client::via(0).no_password()).arg("verify"));
    let out = run_code(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "--read-data"]),
        20,
    );
    let advice = format!("tangle -r {} repair", repo.url(0));
    assert!(
        stdout_str(&out).contains(&advice),
        "verify does not name `{advice}`:\n{}",
        stdout_str(&out)
    );

    // The CI line's second half: a plain repair, no --read-data.
    let (code, report, _) = run_json(
        repo.cmd_as(Client::via(0).no_password())
            .args(["repair", "--json"]),
        "plain repair after verify --read-data",
    );
    assert_eq!(code, 0, "{report:#}");
    let rebuilt = report["actions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["kind"] == "rebuild-shard" && a["path"] == shard.as_str());
    assert!(rebuilt, "repair did not rewrite {shard}:\n{report:#}");

    run_ok(
        repo.cmd_as(Client::via(0).no_password())
            .args(["verify", "--read-data"]),
    );
    // Nothing left to do: a second repair writes nothing.
    let (_, again, _) = run_json(
        repo.cmd_as(Client::via(0).no_password())
            .args(["repair", "--json"]),
        "repair again",
    );
    assert_eq!(
        again["actions"].as_array().map(Vec::len),
        Some(0),
        "{again:#}"
    );
}
