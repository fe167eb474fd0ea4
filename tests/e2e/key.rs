//! `tangle key list | add | remove | passwd`: passwords come and go, the master key (and
//! so every snapshot) stays; the last key is never removed; a removed key never opens the
//! repository again, not even from a remote that was away during the removal, and
//! `repair` takes it off that remote instead of copying it back.

use std::fs;

use crate::support::command::{
    PASSWORD, assert_stderr_has, assert_stdout_has, run_any, run_code, run_code_saying, run_ok,
    stderr_str,
};
use crate::support::keys::{key_files, new_password, passwd, remove_other_key, setup};
use crate::support::remote_dirs::object_paths;
use crate::support::repo::{Client, Repo, parse_snapshots};
use crate::support::report::{
    expect_code, finding_kind, is_hex, json_ok, run_report, show_findings, verify_findings,
};
use serde_json::Value;

const SECOND: &str = "a second password";
const THIRD: &str = "and a third one";

/// `key add` opened with `password`, adding `new`; returns the new key's id.
fn add_key(repo: &Repo, password: &str, new: &str) -> String {
    let mut c = repo.cmd_as(Client::via(0).password(password).fresh_home());
    let v = new_password(repo, &mut c, "add", new);
    let id = v["id"].as_str().unwrap().to_string();
    assert!(is_hex(&id, 64), "{v:#}");
    assert_eq!(v["short_id"], &id[..8], "{v:#}");
    assert_eq!(v["not_written"], serde_json::json!([]), "{v:#}");
    id
}

/// `key list --json` opened with `password` (or none), parsed.
fn keys(repo: &Repo, password: Option<&str>) -> Vec<Value> {
    let mut c = match password {
        Some(p) => repo.cmd_as(Client::via(0).password(p).fresh_home()),
        None => repo.cmd_as(Client::via(0).no_password().fresh_home()),
    };
    let v = json_ok(c.args(["key", "list", "--json"]), "key list --json");
    v.as_array()
        .unwrap_or_else(|| panic!("key list --json is not an array: {v:#}"))
        .clone()
}

fn ids(keys: &[Value]) -> Vec<String> {
    let mut v: Vec<String> = keys
        .iter()
        .map(|k| k["id"].as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

/// `snapshots` opens with `password`: exit 0 and the one snapshot listed.
fn opens(repo: &Repo, via: usize, password: &str, what: &str) {
    let out = run_any(
        repo.cmd_as(Client::via(via).password(password).fresh_home())
            .args(["snapshots", "--json"]),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{what}: the password does not open the repository via remote {via}:\n{}",
        stderr_str(&out)
    );
    assert_eq!(parse_snapshots(&out.stdout).len(), 1, "{what}");
}

fn verify_clean(repo: &Repo, what: &str) {
    let out = run_any(
        repo.cmd_as(Client::via(1).no_password().fresh_home())
            .args(["verify", "--json"]),
    );
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{what}: verify --json ({e}): {}", stderr_str(&out)));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{what}: verify is not clean:\n{}",
        show_findings(&v)
    );
}

#[test]
fn an_added_password_opens_the_repository_beside_the_old_one() {
    let repo = setup();
    let first = ids(&keys(&repo, Some(PASSWORD)));
    assert_eq!(first.len(), 1, "{first:?}");

    let added = add_key(&repo, PASSWORD, SECOND);
    for r in 0..3 {
        assert_eq!(
            key_files(&repo, r),
            {
                let mut v = vec![first[0].clone(), added.clone()];
                v.sort();
                v
            },
            "remote {r}"
        );
    }
    for via in 0..3 {
        opens(&repo, via, SECOND, "the added password");
        opens(&repo, via, PASSWORD, "the old password");
    }
    repo.assert_password_refused(0, "not a password of it", "a wrong password");

    // The listing: both keys, the one that opened this run marked.
    let list = keys(&repo, Some(SECOND));
    assert_eq!(ids(&list), ids(&keys(&repo, Some(PASSWORD))));
    assert_eq!(list.len(), 2, "{list:#?}");
    for k in &list {
        let id = k["id"].as_str().unwrap();
        assert!(is_hex(id, 64), "{k:#}");
        assert_eq!(k["short_id"], &id[..8], "{k:#}");
        assert_eq!(k["current"], id == added, "{k:#}");
        let created = k["created"].as_str().unwrap();
        assert!(
            chrono::DateTime::parse_from_rfc3339(created).is_ok(),
            "created is not RFC 3339: {k:#}"
        );
        assert!(k["host"].is_string() && k["user"].is_string(), "{k:#}");
        let remotes: Vec<String> = (k["remotes"].as_array().unwrap().iter())
            .map(|u| u.as_str().unwrap().to_string())
            .collect();
        assert_eq!(remotes, (0..3).map(|i| repo.url(i)).collect::<Vec<_>>());
    }
    // Without a password (and no terminal to ask on) the keys are still listed.
    let public = keys(&repo, None);
    assert_eq!(ids(&public), ids(&list));
    assert!(public.iter().all(|k| k["current"] == false), "{public:#?}");
    // The human listing marks the key in use as restic does.
    let out = run_ok(
        repo.cmd_as(Client::via(0).password(SECOND).fresh_home())
            .args(["key", "list"]),
    );
    assert_stdout_has(&out, &format!("*{}", &added[..8]));

    // No new password and no terminal: a usage error, nothing written.
    let f = repo.password_file(THIRD);
    repo.unchanged_by("a refused key add", || {
        run_code_saying(repo.cmd().args(["key", "add"]), 1, "--new-password-file");
        // A wrong password adds nothing either.
        run_code(
            repo.cmd_as(Client::via(0).password("wrong").fresh_home())
                .args(["key", "add", "--new-password-file"])
                .arg(&f),
            12,
        );
    });
    verify_clean(&repo, "after key add");
}

#[test]
fn passwd_makes_the_old_password_fail_and_the_new_one_work() {
    let repo = setup();
    let old = ids(&keys(&repo, Some(PASSWORD)));
    let (new, v) = passwd(&repo, SECOND);
    assert_eq!(v["removed"]["id"], old[0].as_str(), "{v:#}");
    assert_eq!(v["removed"]["was_current"], true, "{v:#}");
    assert_eq!(v["removed"]["removed_from"].as_array().unwrap().len(), 3);
    for r in 0..3 {
        assert_eq!(key_files(&repo, r), vec![new.clone()], "remote {r}");
        assert_eq!(object_paths(&repo.remotes[r], "deletions").len(), 1);
    }
    for via in 0..3 {
        repo.assert_password_refused(via, PASSWORD, "the old password after passwd");
        opens(&repo, via, SECOND, "the new password after passwd");
    }
    verify_clean(&repo, "after passwd");
    // Repair has nothing to bring back.
    run_ok(repo.cmd_as(Client::via(0).no_password()).arg("repair"));
    for r in 0..3 {
        assert_eq!(key_files(&repo, r), vec![new.clone()], "remote {r}");
    }
    repo.assert_password_refused(0, PASSWORD, "the old password after repair");
}

#[test]
fn the_last_key_stays_and_the_key_in_use_needs_force() {
    let repo = setup();
    let a = ids(&keys(&repo, Some(PASSWORD))).remove(0);
    repo.unchanged_by("a refused key remove", || {
        for extra in [&[][..], &["--force"][..]] {
            let out = run_code(repo.cmd().args(["key", "remove", &a[..6]]).args(extra), 1);
            assert_stderr_has(&out, "only key");
            assert_stderr_has(&out, "must remain");
        }
        run_code_saying(
            repo.cmd().args(["key", "remove", "ffffffff0"]),
            1,
            "no key matches",
        );
    });

    let b = add_key(&repo, PASSWORD, SECOND);
    let c = add_key(&repo, PASSWORD, THIRD);
    // The key in use: refused without --force, nothing changed.
    repo.unchanged_by("a refused key remove", || {
        run_code_saying(
            repo.cmd_as(Client::via(0).password(SECOND).fresh_home())
                .args(["key", "remove", &b[..10]]),
            1,
            "--force",
        )
    });
    // Another key: no --force needed.
    remove_other_key(&repo, SECOND, &c, "key remove C");
    repo.assert_password_refused(1, THIRD, "a removed key's password");
    // The key in use, forced: the next run needs another password.
    run_ok(
        repo.cmd_as(Client::via(0).password(SECOND).fresh_home())
            .args(["key", "remove", "--force", &b]),
    );
    repo.assert_password_refused(2, SECOND, "the forcibly removed key's password");
    opens(&repo, 2, PASSWORD, "the remaining key");
    assert_eq!(ids(&keys(&repo, Some(PASSWORD))), vec![a.clone()]);
    // And the last one stays, forced or not.
    run_code_saying(
        repo.cmd().args(["key", "remove", "--force", &a]),
        1,
        "must remain",
    );
    for r in 0..3 {
        assert_eq!(key_files(&repo, r), vec![a.clone()], "remote {r}");
    }
    verify_clean(&repo, "after the removals");
}

#[test]
fn a_key_removed_while_a_remote_is_away_never_opens_again_and_repair_removes_it() {
    let repo = setup();
    let a = ids(&keys(&repo, Some(PASSWORD))).remove(0);
    let b = add_key(&repo, PASSWORD, SECOND);
    let away = repo.path("away");
    fs::rename(&repo.remotes[2], &away).unwrap();

    // Refused without --allow-degraded, naming the remote, nothing changed.
    let out = repo.unchanged_by("a refused key remove", || {
        run_code(
            repo.cmd_as(Client::via(0).password(SECOND).fresh_home())
                .args(["key", "remove", &a]),
            1,
        )
    });
    assert_stderr_has(&out, &repo.url(2));
    assert_stderr_has(&out, "--allow-degraded");

    let v = json_ok(
        repo.cmd_as(Client::via(0).password(SECOND).fresh_home())
            .args(["key", "remove", "--allow-degraded", "--json", &a]),
        "key remove --allow-degraded",
    );
    assert_eq!(v["removed_from"].as_array().unwrap().len(), 2, "{v:#}");
    assert!(
        v["pending"].to_string().contains(&repo.url(2)),
        "the report does not name the remote that keeps the key file: {v:#}"
    );
    fs::rename(&away, &repo.remotes[2]).unwrap();
    assert!(
        key_files(&repo, 2).contains(&a),
        "the away remote was touched"
    );

    // The old password opens nothing, whichever remote is named first.
    for via in 0..3 {
        repo.assert_password_refused(via, PASSWORD, "a removed key still on a returning remote");
        opens(&repo, via, SECOND, "the remaining key");
    }
    assert_eq!(ids(&keys(&repo, Some(SECOND))), vec![b.clone()]);

    // Verify: the returning remote missed the record (repairable) and holds the removed
    // key file, which repair removes (repairable, on that remote only).
    let (code, v) = run_report(
        repo.cmd_as(Client::via(2).no_password().fresh_home())
            .args(["verify", "--json"]),
        "verify after the remote returns",
    );
    expect_code(code, 20, &v, "verify after the remote returns");
    let key_path = format!("keys/{a}");
    let reported: Vec<Value> = (verify_findings(&v).into_iter())
        .filter(|f| f["path"] == key_path.as_str())
        .collect();
    assert!(
        reported.len() == 1
            && finding_kind(&reported[0]) == "removed-key"
            && reported[0]["severity"] == "repairable"
            && reported[0]["remote"] == repo.url(2).as_str(),
        "the removed key file is not reported as a removed key on its remote:\n{}",
        show_findings(&v)
    );
    run_ok(repo.cmd_as(Client::via(0).no_password()).arg("repair"));
    for r in 0..3 {
        assert_eq!(
            key_files(&repo, r),
            vec![b.clone()],
            "remote {r} after repair"
        );
    }
    verify_clean(&repo, "after repair");
    repo.assert_password_refused(2, PASSWORD, "the removed key after repair");
    opens(&repo, 2, SECOND, "the remaining key after repair");
}
