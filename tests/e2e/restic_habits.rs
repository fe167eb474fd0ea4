//! End-to-end: restic's habits lead to the right tangle command, setting or URL
//! (issue 32, "Messages that lead somewhere"; the map is docs/FROM-RESTIC.md):
//!
//! * restic's command names (`forget`, `check`, `mount`) get a tip
//!   naming tangle's command, or saying that there is none yet, instead of clap's
//!   nearest name (`prune` got `run`, which backs up and deletes, before `tangle prune`
//!   existed); restic's `prune` is tangle's `prune` now, and its `copy` tangle's `copy`;
//! * `RESTIC_REPOSITORY` / `RESTIC_PASSWORD` set while tangle finds no repository or
//!   password: the error says which variable tangle reads;
//! * restic's `sftp:[USER@]HOST:PATH` is taken as `sftp://[USER@]HOST/PATH`, restic's
//!   other backends are refused with what to write, and a relative local path with a
//!   colon is still a local path.

use crate::shared::servers::{sftp_server, sftp_server_command};
use crate::support::command::{
    PASSWORD, assert_stderr_lacks, assert_stdout_has, run_code, run_code_saying, run_ok,
    stderr_str, tangle_without_terminal,
};
use crate::support::repo::{Client, Repo, parse_snapshots};

/// `tangle forget` and the like: exit 1, the restic name, where to go, no clap guess.
#[test]
fn restic_command_names_lead_to_tangle_commands() {
    let repo = Repo::uninit();
    for (restic, leads_to) in [
        (
            "forget",
            "`tangle delete SNAPSHOT...` or `tangle delete --keep-...`",
        ),
        ("check", "`tangle verify`"),
        ("list", "tangle has no `list`"),
    ] {
        let o = run_code(repo.cmd_as(Client::no_repo()).arg(restic), 1);
        let err = stderr_str(&o);
        assert!(
            err.contains(&format!("unrecognized subcommand '{restic}'")),
            "tangle {restic}:\n{err}"
        );
        let tip = err
            .lines()
            .find_map(|l| l.trim_start().strip_prefix("tip: "))
            .unwrap_or_else(|| panic!("tangle {restic}: no tip:\n{err}"));
        assert!(
            tip.contains(leads_to) && tip.contains("docs/FROM-RESTIC.md"),
            "tangle {restic} does not lead to {leads_to}:\n{err}"
        );
        assert!(
            !err.contains("similar subcommand"),
            "tangle {restic}: clap's guess is still there:\n{err}"
        );
    }
    // With --json the tip is in the error object too.
    let o = run_code(repo.cmd_as(Client::no_repo()).args(["--json", "forget"]), 1);
    let err = stderr_str(&o);
    let v: serde_json::Value = serde_json::from_str(err.lines().last().unwrap_or_default())
        .unwrap_or_else(|e| panic!("the last stderr line is not JSON ({e}):\n{err}"));
    assert_eq!(v["exit_code"], 1, "{v}");
    let message = v["error"].as_str().unwrap_or_default();
    assert!(
        message.contains("unrecognized subcommand 'forget'") && message.contains("`tangle delete"),
        "{v}"
    );
    // restic's `prune` is a tangle command now, and only removes leftovers.
    let o = run_ok(repo.cmd_as(Client::no_repo()).args(["prune", "--help"]));
    assert_stdout_has(&o, "interrupted runs");
    // Other unknown names keep clap's suggestion.
    run_code_saying(
        repo.cmd_as(Client::no_repo()).arg("snapshotz"),
        1,
        "'snapshots'",
    );
}

/// `RESTIC_REPOSITORY` and `RESTIC_PASSWORD` are named when tangle finds no repository
/// or no password, and only when they are set.
#[test]
fn restic_variables_are_named_when_tangle_finds_nothing() {
    let repo = Repo::init();

    let o = run_code(repo.cmd_as(Client::no_repo()).arg("snapshots"), 10);
    assert_stderr_lacks(&o, "RESTIC_");
    let o = run_code(
        repo.cmd_as(Client::no_repo())
            .env("RESTIC_REPOSITORY", repo.url(0))
            .arg("snapshots"),
        10,
    );
    let err = stderr_str(&o);
    assert!(
        err.contains("RESTIC_REPOSITORY is set, but tangle reads TANGLE_REPO")
            && err.contains("docs/FROM-RESTIC.md"),
        "{err}"
    );

    let o = run_code(
        tangle_without_terminal(&repo.home).args(["-r", &repo.url(0), "snapshots"]),
        1,
    );
    assert_stderr_lacks(&o, "RESTIC_");
    let o = run_code(
        tangle_without_terminal(&repo.home)
            .env("RESTIC_PASSWORD", PASSWORD)
            .env("RESTIC_PASSWORD_FILE", repo.password_file(PASSWORD))
            .args(["-r", &repo.url(0), "snapshots"]),
        1,
    );
    let err = stderr_str(&o);
    assert!(
        err.contains("no password given")
            && err.contains("RESTIC_PASSWORD is set, but tangle reads TANGLE_PASSWORD")
            && err.contains("RESTIC_PASSWORD_FILE is set, but tangle reads TANGLE_PASSWORD_FILE"),
        "{err}"
    );
}

/// restic's `sftp:HOST:/PATH` is `sftp://HOST/PATH`: `init` stores tangle's URL, and
/// `-r` in restic's form opens the repository. A relative local path with a colon stays
/// a local directory; a malformed `sftp:` string and restic's `s3:` are refused with
/// tangle's form.
#[test]
fn restic_repository_strings() {
    let Some(sftp_server) = sftp_server() else {
        return;
    };
    let repo = Repo::uninit();
    let sftp_dir = repo.path("sftp-remote");
    let restic_form = format!("sftp:me@localhost:{}", sftp_dir.display());
    let url = format!("sftp://me@localhost{}", sftp_dir.display());
    let cmd = || {
        let mut c = repo.cmd_as(Client::no_repo());
        // sftp-server on this machine in place of ssh (no server needed).
        c.env("TANGLE_SSH_COMMAND", sftp_server_command(sftp_server))
            .current_dir(&repo.root);
        c
    };
    let out = run_ok(cmd().args([
        "init",
        "--remote",
        &restic_form,
        "--remote",
        "with:colon",
        "--remote",
        "./sftp:not-a-host",
        "--json",
    ]));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let with_colon = repo.root.join("with:colon");
    let local = repo.root.join("sftp:not-a-host");
    assert_eq!(
        v["remotes"],
        serde_json::json!([url, with_colon.to_str().unwrap(), local.to_str().unwrap()]),
        "{v:#}"
    );
    assert!(sftp_dir.join("config").is_file() && with_colon.join("config").is_file());
    for via in [&restic_form, "with:colon", "./sftp:not-a-host"] {
        let out = run_ok(cmd().args(["-r", via, "snapshots", "--json"]));
        assert!(parse_snapshots(&out.stdout).is_empty(), "-r {via}");
    }

    for (bad, says) in [
        ("sftp:localhost", "sftp://[USER@]HOST[:PORT]/ABSOLUTE/PATH"),
        ("s3:https://127.0.0.1:1/bucket/p", "s3://BUCKET/PREFIX"),
    ] {
        let o = run_code(cmd().args(["-r", bad, "snapshots"]), 1);
        let err = stderr_str(&o);
        assert!(
            err.contains(says) && err.contains("docs/FROM-RESTIC.md"),
            "-r {bad}:\n{err}"
        );
    }
    assert!(
        !repo.root.join("sftp:localhost").exists() && !repo.root.join("s3:https:").exists(),
        "a refused restic string was taken as a local directory"
    );
}
