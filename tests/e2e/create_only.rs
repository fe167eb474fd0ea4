//! A writer key's backup over storage that refuses every remove, rename, link and setstat
//! (issue 35): an account of OpenSSH's `sftp-server -P …`, the recipe docs/REMOTES.md
//! gives. The writer never asks for what the account refuses (the server logs each
//! refused request, and its log stays clean), it releases its lock with an end object
//! instead of removing it, so that the owner's delete from another machine goes ahead at
//! once, and the owner restores what it wrote.

use std::path::Path;

use serde_json::Value;

use crate::shared::files::{pseudo_random, write_file};
use crate::shared::servers::sftp_server;
use crate::support::command::{run_any, run_ok, stdout_str, tangle_bare};
use crate::support::manifest::{assert_tree_matches, manifest};
use crate::support::repo::{Client, Repo, restored_path};

/// The requests a create-only account refuses (docs/REMOTES.md).
const REFUSED: &str = "remove,rmdir,rename,posix-rename,hardlink,setstat,fsetstat,lsetstat,symlink";

/// The ssh command of an account served by the `sftp-server` program `bin` on this
/// machine, logging (among others) each request it refuses to `log`; with `refuse`, the
/// requests it refuses.
fn account(bin: &str, refuse: Option<&str>, log: &Path) -> String {
    let deny = refuse.map(|r| format!(" -P {r}")).unwrap_or_default();
    format!(
        "sh -c 'exec {bin} -e -l VERBOSE{deny} 2>>{}' --",
        log.display()
    )
}

/// The names under `dir/locks`, sorted.
fn lock_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("locks"))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// `log` (of sftp-server) shows sessions and no request refused. Each session logs, once,
/// the refused extensions it does not offer (`posix-rename`, `hardlink`, `lsetstat`): a
/// client that asked for one anyway would add a line.
fn assert_nothing_refused(log: &str) {
    let sessions = log.matches("received client version").count();
    assert!(sessions > 0, "sftp-server logs no session: {log}");
    for line in log.lines().filter(|l| l.starts_with("Refusing")) {
        let name = line.split(' ').nth(2).unwrap_or_default();
        let offered_at_start = ["posix-rename", "hardlink", "lsetstat"].contains(&name);
        assert!(offered_at_start, "the server refused: {line}\n{log}");
    }
    for ext in ["posix-rename", "hardlink", "lsetstat"] {
        let refusals = log
            .matches(&format!("Refusing denylisted {ext} request"))
            .count();
        assert!(
            refusals <= sessions,
            "{ext} asked for: {refusals} refusals in {sessions} sessions\n{log}"
        );
    }
}

#[test]
fn a_writer_backs_up_over_an_account_that_refuses_removes_renames_and_setstat() {
    let Some(bin) = sftp_server() else {
        return;
    };
    let repo = Repo::uninit();
    let dirs: Vec<_> = (0..3).map(|i| repo.path(&format!("sftp{i}"))).collect();
    let urls: Vec<String> = (dirs.iter())
        .map(|d| format!("sftp://localhost{}", d.display()))
        .collect();
    let (owner_log, writer_log) = (repo.path("owner.log"), repo.path("writer.log"));
    let (owner_ssh, writer_ssh) = (
        account(bin, None, &owner_log),
        account(bin, Some(REFUSED), &writer_log),
    );
    let owner = |args: &[&str]| {
        let mut c = repo.cmd_as(Client::no_repo());
        c.env("TANGLE_SSH_COMMAND", &owner_ssh)
            .arg("-r")
            .arg(&urls[0])
            .args(args);
        c
    };
    let mut init = repo.cmd_as(Client::no_repo());
    init.env("TANGLE_SSH_COMMAND", &owner_ssh).arg("init");
    for u in &urls {
        init.args(["--remote", u]);
    }
    run_ok(&mut init);
    let key = repo.path("db.key");
    run_ok(owner(&["writer", "add", "db", "--out"]).arg(&key));

    let src = repo.dir("src");
    write_file(&src.join("big"), &pseudo_random(11, (3 << 20) + 5));
    write_file(&src.join("sub/small"), b"small\n");
    let expected = manifest(&src);
    // The backup host: another machine (its boot id), so the owner cannot tell from the
    // process table that it is gone: only a released lock lets the owner go ahead.
    let home = repo.dir("writer-home");
    let writer = || {
        let mut c = tangle_bare(&home);
        c.env("TANGLE_SSH_COMMAND", &writer_ssh)
            .env("TANGLE_TEST_BOOT_ID", "the-backup-host")
            .arg("-r")
            .arg(&urls[1])
            .args(["backup", "--json", "--no-progress", "--writer-key"])
            .arg(&key)
            .arg(&src);
        c
    };
    let mut ids = Vec::new();
    for run in ["first", "repeat"] {
        let out = run_ok(&mut writer());
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            report["degraded_remotes"],
            serde_json::json!([]),
            "{run}: {report:#}"
        );
        ids.push(report["snapshot_id"].as_str().unwrap().to_string());
    }
    assert_nothing_refused(&std::fs::read_to_string(&writer_log).unwrap());
    // Each run's lock: the lock and its end, never removed (beats come every 5 minutes).
    let locks = lock_names(&dirs[2]);
    assert_eq!(locks.len(), 4, "{locks:?}");
    assert_eq!(
        locks.iter().filter(|n| n.ends_with("-end")).count(),
        2,
        "{locks:?}"
    );

    // The owner, on this machine, deletes the first snapshot at once (no --retry-lock):
    // the writer's locks say they are released, and the delete, alone, clears them.
    run_ok(&mut owner(&["delete", &ids[0]]));
    for d in &dirs {
        assert_eq!(lock_names(d), Vec::<String>::new(), "{}", d.display());
    }
    let target = repo.path("restored");
    run_ok(owner(&["restore", &ids[1], "--target"]).arg(&target));
    assert_tree_matches(
        &expected,
        &restored_path(&target, &src),
        "writer's snapshot",
    );
    // So does `unlock`.
    run_ok(&mut writer());
    let out = run_ok(&mut owner(&["unlock", "--json"]));
    let unlocked: Value = serde_json::from_str(&stdout_str(&out)).unwrap();
    assert_eq!(
        unlocked["removed"].as_array().unwrap().len(),
        1,
        "{unlocked:#}"
    );
    for d in &dirs {
        assert_eq!(lock_names(d), Vec::<String>::new(), "{}", d.display());
    }

    // The log would tell: the owner's own kind of write through that account is refused.
    let out = run_any(
        repo.cmd_as(Client::no_repo())
            .env("TANGLE_SSH_COMMAND", &writer_ssh)
            .arg("-r")
            .arg(&urls[0])
            .args(["key", "add", "--new-password-file"])
            .arg(repo.password_file("second")),
    );
    assert!(!out.status.success(), "{out:?}");
    let log = std::fs::read_to_string(&writer_log).unwrap();
    assert!(log.contains("Refusing"), "{log}");
}
