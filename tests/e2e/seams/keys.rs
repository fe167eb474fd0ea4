//! Issue 31, items 6 and 7.
//!
//! 6. A removal of a key (`key remove`, `key passwd`) that stopped after its deletion
//!    record was written but before the key file was gone (killed, a read-only remote)
//!    leaves the key file on every remote. The removed password still opens nothing
//!    (exit 12), `key list` never offers it, `verify` reports the key file (repairable),
//!    and `repair` or another `key remove` takes it off.
//! 7. Objects of another repository planted under canonical names on one remote (signed
//!    by another owner, or by this owner for another repository) are not this
//!    repository's: `repair` removes them (naming remote and path) and `verify` is clean
//!    afterwards, while authentic copies elsewhere are rewritten, never removed.

use std::fs;
use std::path::Path;

use crate::shared::files::write_file;
use crate::support::command::{
    PASSWORD, run_any, run_code, run_code_saying, run_ok, stderr_str, stdout_str,
};
use crate::support::keys::{key_files, new_password, passwd, remove_other_key, setup};
use crate::support::remote_dirs::{dir_state, object_paths};
use crate::support::repo::{Client, Repo, parse_snapshots};
use crate::support::report::{
    expect_code, finding_kind, json_ok, repair_actions, run_report, show_findings, verify_damage,
    verify_findings,
};
use serde_json::Value;

const SECOND: &str = "a second password";

/// The one key file id of a fresh repository.
fn only_key(repo: &Repo) -> String {
    let k = key_files(repo, 0);
    assert_eq!(k.len(), 1, "{k:?}");
    k[0].clone()
}

/// Every remote's bytes of `keys/<id>`.
fn save_key_file(repo: &Repo, id: &str) -> Vec<Vec<u8>> {
    (0..3)
        .map(|r| fs::read(repo.remotes[r].join(format!("keys/{id}"))).unwrap())
        .collect()
}

/// Put saved key files back in place: the state of a removal that stopped after its
/// record (and before any key file was removed).
fn put_back(repo: &Repo, id: &str, saved: &[Vec<u8>]) {
    for (r, bytes) in saved.iter().enumerate() {
        write_file(&repo.remotes[r].join(format!("keys/{id}")), bytes);
    }
    for r in 0..3 {
        assert!(key_files(repo, r).contains(&id.to_string()), "remote {r}");
    }
}

/// `key list --json` ids opened with `password`.
fn listed_keys(repo: &Repo, password: &str) -> Vec<String> {
    let v = json_ok(
        repo.cmd_as(Client::via(0).password(password).fresh_home())
            .args(["key", "list", "--json"]),
        "key list --json",
    );
    let mut ids: Vec<String> = (v.as_array().unwrap().iter())
        .map(|k| k["id"].as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids
}

/// The password is refused as wrong (exit 12) by commands that need the key, via
/// every remote.
fn refused_everywhere(repo: &Repo, password: &str, what: &str) {
    for via in 0..3 {
        repo.assert_password_refused(via, password, what);
    }
    let src = repo.dir("src");
    run_code(
        repo.cmd_as(Client::via(1).password(password).fresh_home())
            .args(["backup", "--no-progress"])
            .arg(&src),
        12,
    );
}

fn opens(repo: &Repo, password: &str, what: &str) {
    let out = run_any(
        repo.cmd_as(Client::via(2).password(password).fresh_home())
            .args(["snapshots", "--json"]),
    );
    assert_eq!(out.status.code(), Some(0), "{what}: {}", stderr_str(&out));
    assert_eq!(parse_snapshots(&out.stdout).len(), 1, "{what}");
}

fn verify(repo: &Repo, what: &str) -> (i32, Value) {
    run_report(
        repo.cmd_as(Client::via(1).no_password().fresh_home())
            .args(["verify", "--json"]),
        what,
    )
}

/// `verify`'s text via remote `via` without the password (from a fresh HOME), which must
/// exit `code`.
fn verify_text(repo: &Repo, via: usize, code: i32) -> String {
    let out = run_code(
        repo.cmd_as(Client::via(via).no_password().fresh_home())
            .arg("verify"),
        code,
    );
    stdout_str(&out)
}

/// Verify reports `keys/<id>` on every remote as repairable damage naming the remote.
fn verify_reports_leftover_key(repo: &Repo, id: &str) {
    let (code, v) = verify(repo, "verify with a half-removed key");
    expect_code(code, 20, &v, "verify with a half-removed key");
    let path = format!("keys/{id}");
    for r in 0..3 {
        assert!(
            verify_damage(&v).iter().any(|f| f["path"] == path.as_str()
                && f["remote"] == repo.url(r).as_str()
                && f["severity"] == "repairable"),
            "the removed key file on remote {r} is not reported:\n{}",
            show_findings(&v)
        );
    }
    // The human text names the remote too.
    let text = verify_text(repo, 1, 20);
    for r in 0..3 {
        assert!(
            text.lines()
                .any(|l| l.contains(&id[..8]) && l.contains(&repo.url(r))),
            "verify's text does not name remote {r} for the key file:\n{text}"
        );
    }
}

fn verify_clean(repo: &Repo, what: &str) {
    let (code, v) = verify(repo, what);
    expect_code(code, 0, &v, what);
}

#[test]
fn a_passwd_stopped_after_its_record_leaves_the_old_password_useless() {
    let repo = setup();
    let old = only_key(&repo);
    let saved = save_key_file(&repo, &old);
    let (new, _) = passwd(&repo, SECOND);
    put_back(&repo, &old, &saved);

    refused_everywhere(
        &repo,
        PASSWORD,
        "the old password, its key file on every remote",
    );
    opens(&repo, SECOND, "the new password");

    // Not offered as a key; the human listing says it is removed but still present.
    assert_eq!(listed_keys(&repo, SECOND), vec![new.clone()]);
    let out = run_ok(
        repo.cmd_as(Client::via(0).password(SECOND).fresh_home())
            .args(["key", "list"]),
    );
    let text = stdout_str(&out) + &stderr_str(&out);
    let line = text
        .lines()
        .find(|l| l.contains(&old[..8]))
        .unwrap_or_else(|| panic!("key list does not show the half-removed key:\n{text}"));
    assert!(line.contains("removed"), "{line}");
    assert!(!line.starts_with('*'), "{line}");

    verify_reports_leftover_key(&repo, &old);

    let (code, v) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["repair", "--json"]),
        "repair of a half-removed key",
    );
    assert_eq!(code, 0, "{v:#}");
    let path = format!("keys/{old}");
    let removed: Vec<Value> = (repair_actions(&v).into_iter())
        .filter(|a| a["path"] == path.as_str())
        .collect();
    assert_eq!(removed.len(), 3, "{v:#}");
    for r in 0..3 {
        assert_eq!(key_files(&repo, r), vec![new.clone()], "remote {r}");
    }
    verify_clean(&repo, "after repair");
    refused_everywhere(&repo, PASSWORD, "the old password after repair");
    opens(&repo, SECOND, "the new password after repair");
}

#[test]
fn key_remove_finishes_a_half_removed_key() {
    let repo = setup();
    let a = only_key(&repo);
    let b = new_password(&repo, &mut repo.cmd(), "add", SECOND)["id"]
        .as_str()
        .unwrap()
        .to_string();
    let saved = save_key_file(&repo, &a);
    run_ok(
        repo.cmd_as(Client::via(0).password(SECOND).fresh_home())
            .args(["key", "remove", &a[..8]]),
    );
    put_back(&repo, &a, &saved);
    refused_everywhere(&repo, PASSWORD, "a half-removed key");

    let v = remove_other_key(&repo, SECOND, &a, "key remove of a half-removed key");
    assert_eq!(v["removed_from"].as_array().unwrap().len(), 3, "{v:#}");
    for r in 0..3 {
        assert_eq!(key_files(&repo, r), vec![b.clone()], "remote {r}");
    }
    verify_clean(&repo, "after key remove finished the removal");
    refused_everywhere(&repo, PASSWORD, "the removed key");
    // Nothing left to remove now.
    run_code_saying(
        repo.cmd_as(Client::via(0).password(SECOND).fresh_home())
            .args(["key", "remove", &a[..8]]),
        1,
        "no key matches",
    );
}

/// A removal stopped before its content-addressed record (only the record under the
/// key's own name is there) removes the password all the same.
#[test]
fn a_removal_stopped_before_its_content_addressed_record_still_holds() {
    let repo = setup();
    let a = only_key(&repo);
    let f = repo.password_file(SECOND);
    run_ok(
        repo.cmd()
            .args(["key", "add", "--new-password-file"])
            .arg(&f),
    );
    let saved = save_key_file(&repo, &a);
    run_ok(
        repo.cmd_as(Client::via(0).password(SECOND).fresh_home())
            .args(["key", "remove", &a[..8]]),
    );
    for r in 0..3 {
        for p in object_paths(&repo.remotes[r], "deletions") {
            fs::remove_file(repo.remotes[r].join(p)).unwrap();
        }
    }
    put_back(&repo, &a, &saved);

    refused_everywhere(&repo, PASSWORD, "a key whose removal stopped early");
    assert!(!listed_keys(&repo, SECOND).contains(&a));
    verify_reports_leftover_key(&repo, &a);
    run_ok(repo.cmd_as(Client::via(2).no_password()).arg("repair"));
    for r in 0..3 {
        assert!(!key_files(&repo, r).contains(&a), "remote {r}");
    }
    verify_clean(&repo, "after repair");
    refused_everywhere(&repo, PASSWORD, "after repair");
}

/// Copy `path` from `from` (a remote directory) to the same path under `to`.
fn plant(from: &Path, to: &Path, path: &str) {
    let bytes = fs::read(from.join(path)).unwrap();
    write_file(&to.join(path), &bytes);
}

fn first(dir: &Path, prefix: &str) -> String {
    object_paths(dir, prefix)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no object under {prefix} in {}", dir.display()))
}

#[test]
fn objects_of_another_repository_are_removed_by_repair() {
    let repo = setup();
    let other = Repo::init();
    let src = other.dir("src");
    write_file(&src.join("g.txt"), b"another repository's data\n");
    other.backup(&[&src], &[]);
    // A deletion record there: a password change.
    let f = other.password_file(SECOND);
    run_ok(
        other
            .cmd()
            .args(["key", "passwd", "--new-password-file"])
            .arg(&f),
    );

    let (theirs, ours) = (&other.remotes[1], &repo.remotes[1]);
    let cert = first(&repo.remotes[0], "extents");
    let planted: Vec<String> = [
        "snapshots",
        "index",
        "extents",
        "keys",
        "deletions",
        "heads",
    ]
    .iter()
    .map(|p| first(theirs, p))
    .collect();
    for p in &planted {
        assert!(!ours.join(p).exists(), "{p} exists in both");
        plant(theirs, ours, p);
    }
    // An authentic certificate of ours, replaced on one remote by another's bytes: the
    // name is this repository's, so repair rewrites it.
    let their_cert = first(theirs, "extents");
    fs::copy(theirs.join(&their_cert), ours.join(&cert)).unwrap();
    let good_cert = fs::read(repo.remotes[0].join(&cert)).unwrap();

    let (code, v) = verify(&repo, "verify with planted objects");
    expect_code(code, 22, &v, "verify with planted objects");
    for p in &planted {
        assert!(
            verify_damage(&v)
                .iter()
                .any(|f| f["path"] == p.as_str() && f["remote"] == repo.url(1).as_str()),
            "{p} is not reported on its remote:\n{}",
            show_findings(&v)
        );
    }
    assert!(
        !verify_findings(&v)
            .iter()
            .any(|f| finding_kind(f) == "metadata-lost"),
        "nothing is lost:\n{}",
        show_findings(&v)
    );
    // The human text names the remote of each.
    let text = verify_text(&repo, 0, 22);
    for p in &planted {
        assert!(
            text.lines()
                .any(|l| l.contains(p.as_str()) && l.contains(&repo.url(1))),
            "verify's text does not name the remote of {p}:\n{text}"
        );
    }

    let before0 = dir_state(&repo.remotes[0]);
    let before2 = dir_state(&repo.remotes[2]);
    let (code, v) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["repair", "--json"]),
        "repair of planted objects",
    );
    assert_eq!(code, 0, "{v:#}");
    let actions = repair_actions(&v);
    for p in &planted {
        assert!(
            actions.iter().any(|a| a["kind"] == "remove-foreign"
                && a["path"] == p.as_str()
                && a["remote"] == repo.url(1).as_str()),
            "no remove-foreign of {p}: {v:#}"
        );
        assert!(!ours.join(p).exists(), "{p} is still there");
    }
    assert!(
        actions.iter().any(|a| a["kind"] == "copy-metadata"
            && a["path"] == cert.as_str()
            && a["remote"] == repo.url(1).as_str()),
        "the replaced certificate is not rewritten: {v:#}"
    );
    assert_eq!(fs::read(ours.join(&cert)).unwrap(), good_cert);
    assert_eq!(
        dir_state(&repo.remotes[0]),
        before0,
        "repair touched remote 0"
    );
    assert_eq!(
        dir_state(&repo.remotes[2]),
        before2,
        "repair touched remote 2"
    );
    verify_clean(&repo, "after repair");
    let (code, v) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["repair", "--json"]),
        "a second repair",
    );
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(repair_actions(&v), Vec::<Value>::new());
    opens(&repo, PASSWORD, "after repair");
    // The other repository is untouched by all this.
    let (code, v) = verify(&other, "the other repository");
    expect_code(code, 0, &v, "the other repository");
}

/// Objects this owner signed for another repository (its id differs) are no loss.
#[test]
fn objects_of_another_repository_of_the_same_owner_are_removed_by_repair() {
    use tangle::extent::{Deletion, Head};
    let repo = setup();
    let r = tangle::repo::Repository::open(&repo.url(0), None).unwrap();
    let r = r.unlock(PASSWORD.as_bytes()).unwrap();
    let signer = r.signer();
    let other_id = [0x5a; 16];
    let record = Deletion {
        repo_id: other_id,
        time: 1_700_000_000,
        keys: vec!["ab".repeat(32)],
        ..Default::default()
    }
    .to_object(&signer)
    .unwrap();
    let record_path = format!(
        "deletions/{}",
        tangle::crypto::envelope::content_id(&record)
    );
    let head = Head {
        repo_id: other_id,
        writer: [0x33; 16],
        seq: 0,
        extent: None,
        snapshot: None,
        index: None,
        skipped: vec![],
        time: 1_700_000_000,
    };
    let head_path = head.path();
    let head = head.to_object(&signer).unwrap();
    drop(r);
    write_file(&repo.remotes[2].join(&record_path), &record);
    write_file(&repo.remotes[2].join(&head_path), &head);

    let (code, v) = verify(&repo, "verify with another repository's objects");
    assert!(
        code == 20 || code == 22,
        "exit {code}:\n{}",
        show_findings(&v)
    );
    for p in [&record_path, &head_path] {
        assert!(
            verify_damage(&v)
                .iter()
                .any(|f| f["path"] == p.as_str() && f["remote"] == repo.url(2).as_str()),
            "{p} is not reported on its remote:\n{}",
            show_findings(&v)
        );
    }
    assert!(
        !verify_findings(&v)
            .iter()
            .any(|f| f["severity"] == "unrecoverable"),
        "nothing is lost:\n{}",
        show_findings(&v)
    );
    let (code, v) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["repair", "--json"]),
        "repair of another repository's objects",
    );
    assert_eq!(code, 0, "{v:#}");
    for p in [&record_path, &head_path] {
        assert!(
            repair_actions(&v)
                .iter()
                .any(|a| a["kind"] == "remove-foreign"
                    && a["path"] == p.as_str()
                    && a["remote"] == repo.url(2).as_str()),
            "no remove-foreign of {p}: {v:#}"
        );
        assert!(!repo.remotes[2].join(p).exists());
    }
    verify_clean(&repo, "after repair");
}

/// This repository's own objects, damaged on every remote, are lost, not foreign:
/// repair leaves them where they are (a human may still recover them).
#[test]
fn damaged_objects_of_this_repository_are_never_removed_as_foreign() {
    let repo = setup();
    let snap = first(&repo.remotes[0], "snapshots");
    let cert = first(&repo.remotes[0], "extents");
    for r in 0..3 {
        for p in [&snap, &cert] {
            // The last byte is in the signature: well-formed, not the owner's signature.
            let f = repo.remotes[r].join(p);
            let mut b = fs::read(&f).unwrap();
            let last = b.len() - 1;
            b[last] ^= 0x01;
            write_file(&f, &b);
        }
    }
    let (code, v) = verify(&repo, "verify with damaged objects");
    assert!(
        code == 21 || code == 22,
        "exit {code}:\n{}",
        show_findings(&v)
    );
    let (code, v) = run_report(
        repo.cmd_as(Client::via(0).no_password())
            .args(["repair", "--json"]),
        "repair of damaged objects",
    );
    assert_eq!(code, 21, "{v:#}");
    assert!(
        !repair_actions(&v)
            .iter()
            .any(|a| a["kind"] == "remove-foreign"),
        "{v:#}"
    );
    for r in 0..3 {
        for p in [&snap, &cert] {
            assert!(
                repo.remotes[r].join(p).exists(),
                "{p} removed from remote {r}"
            );
        }
    }
}
