//! `tangle prune` and the leftovers of interrupted runs (issue 32, "Leftovers nothing
//! reclaims"): what a backup killed with `kill -9` leaves (certified extents no head
//! commits to, shard objects no certificate accounts for, temp files) shows in `stats`
//! as "other" bytes and in `verify` as leftovers; `prune` removes exactly that, `--dry-run`
//! nothing, and so does the next `delete`, whatever its policy. A live lock refuses it
//! (exit 11), a remote that is away leaves everything alone (exit 20), and a remote that
//! lists planted shard objects loses only those: the real shards on the other remotes
//! stay. Every snapshot still restores byte-identical.
//!
//! The backup is caught by `TANGLE_TEST_STOP_BEFORE_CERTIFICATE` (it stops itself once
//! the shards of its 4th extent are written and before their certificate) and then
//! killed: a real `kill -9` at a known point, whatever the machine's speed.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{
    assert_no_panic, assert_stderr_has, run_code, run_code_saying, run_ok, stderr_str, stdout_str,
    tangle_std, wait_until,
};
use crate::support::fsutil::files_under;
use crate::support::manifest::{Entry, assert_tree_matches, manifest};
use crate::support::remote_dirs::{DirItem, assert_remotes_unchanged, dir_state, object_paths};
use crate::support::repo::{Client, Repo, restored_path};
use crate::support::report::{
    expect_code, finding_kind, json_ok, run_json, run_report, show_findings, verify_findings,
};
use serde_json::Value;
use tangle::extent::{Certificate, ExtentName};

/// A repository coded 4+3 (2 pointers) over three local remotes with 64 KiB extents, so
/// that a few hundred KiB make many extents.
fn init_small() -> Repo {
    Repo::init_small_extents()
}

/// A repository with one committed snapshot (of `kept/`), and what its source held.
struct Fx {
    repo: Repo,
    kept: PathBuf,
    kept_id: String,
    expected: Vec<Entry>,
}

fn setup() -> Fx {
    let repo = init_small();
    let kept = repo.dir("kept");
    write_file(&kept.join("a.bin"), &pseudo_random(1, 200_000));
    write_file(&kept.join("sub/b.txt"), b"kept\n");
    let kept_id = repo.backup(&[&kept], &[]).snapshot_id;
    let expected = manifest(&kept);
    Fx {
        repo,
        kept,
        kept_id,
        expected,
    }
}

/// Whether process `pid` is stopped (state `T` in `/proc/PID/stat`).
fn is_stopped(pid: u32) -> bool {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    after.split_whitespace().next() == Some("T")
}

/// `tangle ARGS` in the background, stopped by itself at the point `env` names.
fn stopped(repo: &Repo, args: &[&str], env: (&str, &str), log: &str) -> Child {
    let log = repo.path(log);
    let mut child = tangle_std(&repo.home)
        .arg("-r")
        .arg(&repo.remotes[0])
        .args(args)
        .env(env.0, env.1)
        .stdout(Stdio::null())
        .stderr(fs::File::create(&log).expect("log"))
        .spawn()
        .expect("spawning tangle");
    let pid = child.id();
    wait_until(&mut child, &log, || is_stopped(pid));
    child
}

/// Back up `cut/` (about ten extents of new data) and `kill -9` the run once the shards
/// of its 4th extent are written and their certificate is not.
fn killed_backup(fx: &Fx) {
    let cut = fx.repo.dir("cut");
    write_file(&cut.join("c.bin"), &pseudo_random(2, 600_000));
    let mut child = stopped(
        &fx.repo,
        &["backup", "--no-progress", cut.to_str().expect("utf-8 path")],
        ("TANGLE_TEST_STOP_BEFORE_CERTIFICATE", "4"),
        "cut.stderr",
    );
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    assert_eq!(fx.repo.snapshot_ids(), vec![fx.kept_id.clone()]);
}

/// Every file of a remote but its locks (held or left by dead runs) and repair markers.
fn objects(remote: &Path) -> BTreeMap<PathBuf, DirItem> {
    let mut state = dir_state(remote);
    state.retain(|p, _| !p.starts_with("locks") && !p.starts_with("repairs"));
    state
}

fn all_objects(repo: &Repo) -> Vec<BTreeMap<PathBuf, DirItem>> {
    repo.remotes.iter().map(|r| objects(r)).collect()
}

/// Temp files (`.tmp-*`) of a remote outside `locks/` and `repairs/`.
fn temp_files(remote: &Path) -> Vec<PathBuf> {
    files_under(remote)
        .into_iter()
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(".tmp-"))
        })
        .filter(|p| {
            let rel = p.strip_prefix(remote).unwrap_or(p);
            !rel.starts_with("locks") && !rel.starts_with("repairs")
        })
        .collect()
}

/// `stats --json`'s `repository.other_bytes`.
fn other_bytes(repo: &Repo) -> u64 {
    let v = json_ok(repo.cmd().args(["stats", "--json"]), "stats");
    v["repository"]["other_bytes"]
        .as_u64()
        .unwrap_or_else(|| panic!("no other_bytes in\n{v:#}"))
}

/// `verify --json` (no password): exit code and its leftover findings.
fn verify_leftovers(repo: &Repo, what: &str) -> (i32, Vec<Value>, Value) {
    let (code, v) = run_report(
        repo.cmd_as(Client::via(1).no_password())
            .args(["verify", "--json"]),
        what,
    );
    let leftovers = verify_findings(&v)
        .into_iter()
        .filter(|f| finding_kind(f) == "leftover")
        .collect();
    (code, leftovers, v)
}

/// `tangle ARGS --json` with the password: exit code and report.
fn prune_json(repo: &Repo, args: &[&str], what: &str) -> (i32, Value) {
    let (code, v, out) = run_json(repo.cmd().args(args).arg("--json"), what);
    assert_no_panic(&out, what);
    (code, v)
}

fn num(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("no number {key} in\n{v:#}"))
}

/// The per-remote counts of a report add up to its totals.
fn check_per_remote(v: &Value, repo: &Repo) {
    let per = v["leftovers_by_remote"]
        .as_array()
        .unwrap_or_else(|| panic!("no leftovers_by_remote in\n{v:#}"));
    assert_eq!(per.len(), 3, "{v:#}");
    for (r, p) in per.iter().enumerate() {
        assert_eq!(p["remote"], repo.url(r).as_str(), "{v:#}");
    }
    let objects: u64 = per.iter().map(|p| num(p, "objects")).sum();
    let bytes: u64 = per.iter().map(|p| num(p, "bytes")).sum();
    assert_eq!(objects, num(v, "leftovers_reclaimed"), "{v:#}");
    assert_eq!(bytes, num(v, "leftover_bytes_reclaimed"), "{v:#}");
}

fn restore_kept(fx: &Fx, what: &str) {
    let target = fx.repo.path(&format!("restore-{what}").replace(' ', "-"));
    run_ok(
        fx.repo
            .cmd_as(Client::via(2).fresh_home())
            .args(["restore", &fx.kept_id, "--target"])
            .arg(&target),
    );
    assert_tree_matches(&fx.expected, &restored_path(&target, &fx.kept), what);
}

/// What a killed backup leaves is seen (stats, verify), listed by a dry run that changes
/// nothing, removed by prune (only it), and gone: stats has no "other" bytes left,
/// verify no leftover, the snapshot restores identical, a second prune finds nothing and
/// the interrupted backup, run again, completes.
#[test]
fn prune_removes_what_a_killed_backup_left_and_nothing_else() {
    let fx = setup();
    killed_backup(&fx);
    let other = other_bytes(&fx.repo);
    assert!(
        other > 0,
        "stats shows no other bytes after a killed backup"
    );
    let (code, leftovers, v) = verify_leftovers(&fx.repo, "verify after the kill");
    expect_code(code, 0, &v, "verify after the kill");
    assert!(
        !leftovers.is_empty()
            && leftovers.iter().any(|f| f["repair"]
                .as_str()
                .is_some_and(|r| r.contains("tangle prune"))),
        "verify reports no leftover that points at prune:\n{}",
        show_findings(&v)
    );

    let before = all_objects(&fx.repo);
    let (code, dry) = prune_json(&fx.repo, &["prune", "--dry-run"], "prune --dry-run");
    assert_eq!(code, 0, "{dry:#}");
    assert_eq!(dry["dry_run"], true);
    assert!(num(&dry, "leftovers_reclaimed") > 0, "{dry:#}");
    // The 4th extent's seven shards at least: written, never certified.
    assert!(num(&dry, "stray_shards") >= 7, "{dry:#}");
    assert!(num(&dry, "leftover_bytes_reclaimed") >= other, "{dry:#}");
    check_per_remote(&dry, &fx.repo);
    assert_remotes_unchanged(&before, &all_objects(&fx.repo), "prune --dry-run");

    let (code, done) = prune_json(&fx.repo, &["prune"], "prune");
    assert_eq!(code, 0, "{done:#}");
    assert_eq!(done["dry_run"], false);
    for key in [
        "leftovers_reclaimed",
        "leftover_bytes_reclaimed",
        "extents_removed",
        "stray_shards",
        "temp_files",
    ] {
        assert_eq!(done[key], dry[key], "{key}: the dry run said otherwise");
    }
    check_per_remote(&done, &fx.repo);
    assert_eq!(other_bytes(&fx.repo), 0, "stats still shows other bytes");
    for r in &fx.repo.remotes {
        assert_eq!(temp_files(r), Vec::<PathBuf>::new(), "{}", r.display());
    }
    let (code, leftovers, v) = verify_leftovers(&fx.repo, "verify after prune");
    expect_code(code, 0, &v, "verify after prune");
    assert!(
        leftovers.is_empty(),
        "leftovers after prune:\n{}",
        show_findings(&v)
    );
    run_ok(
        fx.repo
            .cmd_as(Client::via(0).no_password())
            .args(["verify", "--read-data"]),
    );
    restore_kept(&fx, "after prune");

    // Nothing more to do, said in one line.
    let out = run_ok(fx.repo.cmd().arg("prune"));
    assert_eq!(
        stdout_str(&out).trim(),
        "no leftovers of interrupted runs",
        "{}",
        stderr_str(&out)
    );

    // The backup that was killed completes now and restores identical.
    let cut = fx.repo.dir("cut");
    let id = fx.repo.backup(&[&cut], &[]).snapshot_id;
    let target = fx.repo.path("restore-cut");
    fx.repo.restore(&id, &target);
    assert_tree_matches(&manifest(&cut), &restored_path(&target, &cut), "cut again");
    let (code, leftovers, v) = verify_leftovers(&fx.repo, "verify at the end");
    expect_code(code, 0, &v, "verify at the end");
    assert!(leftovers.is_empty(), "{}", show_findings(&v));
}

/// The text output: one line with the objects and bytes per remote.
#[test]
fn prune_says_in_one_line_what_it_removed_per_remote() {
    let fx = setup();
    killed_backup(&fx);
    let out = run_ok(fx.repo.cmd().args(["prune", "--dry-run"]));
    let text = stdout_str(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "{text}");
    assert!(
        lines[0].starts_with("would remove ") && lines[0].contains("leftover objects"),
        "{text}"
    );
    for r in 0..3 {
        assert!(
            lines[0].contains(&format!("on {}", fx.repo.url(r))),
            "{text}"
        );
    }
    let out = run_ok(fx.repo.cmd().arg("prune"));
    assert!(
        stdout_str(&out).starts_with("removed "),
        "{}",
        stdout_str(&out)
    );
}

/// The next delete reclaims the leftovers too, with a policy that removes no snapshot;
/// its dry run says so and changes nothing.
#[test]
fn the_next_delete_reclaims_leftovers_whatever_its_policy() {
    let fx = setup();
    killed_backup(&fx);
    let before = all_objects(&fx.repo);
    let (code, dry) = prune_json(
        &fx.repo,
        &["delete", "--keep-last", "5", "--dry-run"],
        "delete --dry-run",
    );
    assert_eq!(code, 0, "{dry:#}");
    assert!(num(&dry, "leftovers_reclaimed") >= 7, "{dry:#}");
    check_per_remote(&dry, &fx.repo);
    assert_remotes_unchanged(&before, &all_objects(&fx.repo), "delete --dry-run");

    let (code, v) = prune_json(&fx.repo, &["delete", "--keep-last", "5"], "delete");
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["snapshots_removed"], serde_json::json!([]), "{v:#}");
    assert_eq!(
        v["leftovers_reclaimed"], dry["leftovers_reclaimed"],
        "{v:#}"
    );
    check_per_remote(&v, &fx.repo);
    assert_eq!(other_bytes(&fx.repo), 0, "stats still shows other bytes");
    let (code, leftovers, v) = verify_leftovers(&fx.repo, "verify after delete");
    expect_code(code, 0, &v, "verify after delete");
    assert!(leftovers.is_empty(), "{}", show_findings(&v));
    restore_kept(&fx, "after delete");
    let (code, again) = prune_json(&fx.repo, &["prune"], "prune after delete");
    assert_eq!(code, 0, "{again:#}");
    assert_eq!(num(&again, "leftovers_reclaimed"), 0, "{again:#}");
}

/// A backup that holds its lock (alive, stopped right after taking it) makes prune exit
/// 11 naming it, also after waiting with `--retry-lock`; nothing is removed. Once the
/// backup is dead (its process gone), prune goes ahead.
#[test]
fn a_live_lock_refuses_prune() {
    let fx = setup();
    killed_backup(&fx);
    let src = fx.repo.dir("other");
    write_file(&src.join("x.txt"), b"x\n");
    let mut holder = stopped(
        &fx.repo,
        &["backup", "--no-progress", src.to_str().expect("utf-8 path")],
        ("TANGLE_TEST_STOP_AFTER_LOCK", "1"),
        "holder.stderr",
    );
    let before = all_objects(&fx.repo);
    let out = run_code(fx.repo.cmd().arg("prune"), 11);
    let err = stderr_str(&out);
    assert!(
        err.contains("repository busy") && err.contains("backup"),
        "{err}"
    );
    run_code_saying(
        fx.repo.cmd().args(["--retry-lock", "2s", "prune"]),
        11,
        "waiting up to",
    );
    assert_remotes_unchanged(&before, &all_objects(&fx.repo), "refused prune");

    holder.kill().expect("SIGKILL");
    let _ = holder.wait();
    let (code, v) = prune_json(&fx.repo, &["prune"], "prune after the holder died");
    assert_eq!(code, 0, "{v:#}");
    assert!(num(&v, "leftovers_reclaimed") > 0, "{v:#}");
    restore_kept(&fx, "after the holder died");
}

/// A remote that is away: prune removes nothing anywhere and exits 20 naming it (a
/// remote that cannot be listed may hold the one certificate that accounts for a
/// shard); once it is back, prune removes the leftovers.
#[test]
fn a_remote_away_leaves_everything_alone() {
    let fx = setup();
    killed_backup(&fx);
    let away = fx.repo.path("away");
    fs::rename(&fx.repo.remotes[2], &away).expect("moving remote2 away");
    let before = all_objects(&fx.repo);
    let (code, v) = prune_json(&fx.repo, &["prune"], "prune with a remote away");
    assert_eq!(code, 20, "{v:#}");
    assert_eq!(v["exit_code"], 20, "{v:#}");
    assert_eq!(num(&v, "leftovers_reclaimed"), 0, "{v:#}");
    let named = v["remotes_away"].as_array().is_some_and(|a| {
        a.iter()
            .any(|u| u.as_str().is_some_and(|u| u.contains(&fx.repo.url(2))))
    });
    assert!(named, "{v:#}");
    assert_remotes_unchanged(&before, &all_objects(&fx.repo), "prune with a remote away");
    let out = run_code(fx.repo.cmd().arg("prune"), 20);
    assert_stderr_has(&out, &fx.repo.url(2));
    assert_stderr_has(&out, "removed nothing");

    fs::rename(&away, &fx.repo.remotes[2]).expect("bringing remote2 back");
    let (code, v) = prune_json(&fx.repo, &["prune"], "prune with every remote back");
    assert_eq!(code, 0, "{v:#}");
    assert!(num(&v, "leftovers_reclaimed") > 0, "{v:#}");
    assert_eq!(other_bytes(&fx.repo), 0);
    restore_kept(&fx, "after the remote came back");
}

/// Every certificate on remote `r`, parsed as an independent reader.
fn certificates(repo: &Repo, r: usize) -> Vec<Certificate> {
    let config = fs::read(repo.remotes[r].join("config")).expect("config");
    let owner = tangle::repo::Config::from_object(&config)
        .expect("config parses")
        .owner;
    object_paths(&repo.remotes[r], "extents")
        .iter()
        .map(|p| {
            let name = ExtentName::parse(p.trim_start_matches("extents/")).expect("name");
            let bytes = fs::read(repo.remotes[r].join(p)).expect("certificate");
            Certificate::from_object(&bytes, &tangle::crypto::Signers::owner_only(owner), &name)
                .expect("authentic certificate")
        })
        .collect()
}

/// The adversary: a remote that hides its copy of a real certificate and lists planted
/// shard objects: for a real extent at an index the certificate places on another
/// remote, at an index the extent does not have, and of an extent that does not exist.
/// prune removes exactly those planted objects from that remote; the real shard on its
/// rightful remote and everything on the honest remotes stay byte for byte.
#[test]
fn a_remote_that_plants_shards_loses_only_its_own() {
    let fx = setup();
    let certs = certificates(&fx.repo, 0);
    let cert = certs.first().expect("an extent");
    let name = cert.name();
    let (i, rightful) = (0..cert.shards.len())
        .map(|i| (i, cert.shards[i].remote as usize))
        .find(|&(_, r)| r != 2)
        .expect("a shard off remote2");
    let liar = 2;
    let real_path = name.shard_path(i);
    let real = fs::read(fx.repo.remotes[rightful].join(&real_path)).expect("the real shard");
    let honest: Vec<BTreeMap<PathBuf, DirItem>> =
        (0..2).map(|r| objects(&fx.repo.remotes[r])).collect();
    let liar_before = objects(&fx.repo.remotes[liar]);

    let plant = |path: &str, data: &[u8]| {
        write_file(&fx.repo.remotes[liar].join(path), data);
        path.to_string()
    };
    let fake = ExtentName::parse(&"ab".repeat(32)).expect("a name");
    let planted = vec![
        plant(&real_path, &pseudo_random(9, real.len())),
        plant(&name.shard_path(200), &pseudo_random(10, real.len())),
        plant(&fake.shard_path(0), &pseudo_random(11, 1000)),
    ];
    // It hides its copy of the certificate too.
    fs::remove_file(fx.repo.remotes[liar].join(name.cert_path())).expect("hiding it");

    let (code, v) = prune_json(&fx.repo, &["prune"], "prune with planted shards");
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(num(&v, "stray_shards"), 3, "{v:#}");
    let per = &v["leftovers_by_remote"];
    assert_eq!(
        num(&per[0], "objects") + num(&per[1], "objects"),
        0,
        "{v:#}"
    );
    assert_eq!(num(&per[liar], "objects"), 3, "{v:#}");

    for p in &planted {
        assert!(
            !fx.repo.remotes[liar].join(p).exists(),
            "{p} is still on the lying remote"
        );
    }
    assert_eq!(
        fs::read(fx.repo.remotes[rightful].join(&real_path)).expect("the real shard"),
        real,
        "the real shard changed"
    );
    for (r, state) in honest.iter().enumerate() {
        assert_remotes_unchanged(
            std::slice::from_ref(state),
            &[objects(&fx.repo.remotes[r])],
            &format!("honest remote{r}"),
        );
    }
    // The liar keeps every file of its own but the plants (and the hidden certificate).
    let files = |m: BTreeMap<PathBuf, DirItem>| -> BTreeMap<PathBuf, DirItem> {
        m.into_iter()
            .filter(|(_, item)| *item != DirItem::Dir)
            .collect()
    };
    let mut expected = files(liar_before);
    expected.remove(Path::new(&name.cert_path()));
    assert_remotes_unchanged(
        &[expected],
        &[files(objects(&fx.repo.remotes[liar]))],
        "the lying remote",
    );

    // Its missing certificate copy is damage repair fixes; the data is whole.
    run_ok(fx.repo.cmd_as(Client::via(0).no_password()).arg("repair"));
    run_ok(
        fx.repo
            .cmd_as(Client::via(0).no_password())
            .args(["verify", "--read-data"]),
    );
    restore_kept(&fx, "after the planted shards");
}

/// Temp files of writes cut short go, except under `locks/` and `repairs/`, where other
/// commands write at any moment.
#[test]
fn temp_files_go_except_where_locks_are_written() {
    let fx = setup();
    let r0 = &fx.repo.remotes[0];
    let shard_dir = fs::read_dir(r0.join("shards"))
        .expect("shards")
        .flatten()
        .next()
        .expect("a shard directory")
        .path();
    write_file(&shard_dir.join(".tmp-0123456789abcdef"), &[1; 5000]);
    write_file(&r0.join("index/.tmp-fedcba9876543210"), &[2; 300]);
    let lock_temp = r0.join("locks/.tmp-00000000000000aa");
    write_file(&lock_temp, &[3; 100]);

    let (code, v) = prune_json(&fx.repo, &["prune"], "prune with temp files");
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(num(&v, "temp_files"), 2, "{v:#}");
    assert_eq!(num(&v, "leftovers_reclaimed"), 2, "{v:#}");
    assert_eq!(num(&v, "leftover_bytes_reclaimed"), 5300, "{v:#}");
    assert_eq!(temp_files(r0), Vec::<PathBuf>::new());
    assert!(lock_temp.exists(), "a temp file under locks/ was removed");
    fs::remove_file(&lock_temp).expect("cleaning up");
    run_ok(fx.repo.cmd_as(Client::via(1).no_password()).arg("verify"));
    restore_kept(&fx, "after temp files");
}

/// An index segment no head commits to, with its extents: what a run killed between
/// its index segment and its head leaves. While a snapshot needs its blobs (one written
/// before its head, as versions before 2026-11-25 did) prune keeps it all; once no
/// snapshot does, prune removes the segment and the extents.
#[test]
fn an_uncommitted_index_segment_goes_unless_a_snapshot_needs_it() {
    let fx = setup();
    let late = fx.repo.dir("late");
    write_file(&late.join("l.bin"), &pseudo_random(3, 300_000));
    let heads_before = object_paths(&fx.repo.remotes[0], "heads");
    let late_id = fx.repo.backup(&[&late], &[]).snapshot_id;
    let head: Vec<String> = object_paths(&fx.repo.remotes[0], "heads")
        .into_iter()
        .filter(|h| !heads_before.contains(h))
        .collect();
    assert_eq!(head.len(), 1, "{head:?}");
    for r in &fx.repo.remotes {
        fs::remove_file(r.join(&head[0])).expect("removing the head");
    }
    // A fresh cache each time: this one remembers the head just taken away.
    let prune = |what: &str| -> Value {
        let (code, v, out) = run_json(
            fx.repo
                .cmd_as(Client::via(0).fresh_home())
                .args(["prune", "--json"]),
            what,
        );
        assert_eq!(code, 0, "{what}: {v:#}\n{}", stderr_str(&out));
        v
    };

    let v = prune("prune with a headless snapshot");
    assert_eq!(num(&v, "leftovers_reclaimed"), 0, "{v:#}");
    let target = fx.repo.path("restore-late");
    run_ok(
        fx.repo
            .cmd_as(Client::via(1).fresh_home())
            .args(["restore", &late_id, "--target"])
            .arg(&target),
    );
    assert_tree_matches(&manifest(&late), &restored_path(&target, &late), "late");

    for r in &fx.repo.remotes {
        fs::remove_file(r.join(format!("snapshots/{late_id}"))).expect("removing the snapshot");
    }
    let v = prune("prune without the snapshot");
    assert_eq!(num(&v, "index_segments_removed"), 1, "{v:#}");
    assert!(num(&v, "extents_removed") >= 1, "{v:#}");
    assert_eq!(num(&v, "index_segment_objects"), 3, "{v:#}");
    let (code, v) = run_report(
        fx.repo
            .cmd_as(Client::via(1).no_password().fresh_home())
            .args(["verify", "--json"]),
        "verify after prune",
    );
    expect_code(code, 0, &v, "verify after prune");
    assert!(
        verify_findings(&v)
            .iter()
            .all(|f| finding_kind(f) != "leftover"),
        "{}",
        show_findings(&v)
    );
    assert_eq!(object_paths(&fx.repo.remotes[0], "index").len(), 1);
    restore_kept(&fx, "after the uncommitted segment went");
}
