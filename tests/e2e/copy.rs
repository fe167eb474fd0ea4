//! `tangle copy` (restic's `copy`): snapshots of another repository (`--from-repo`, its
//! password from `--from-password-file` and the like) copied into this one, byte for
//! byte, keeping their time, host, paths and tags; data the destination has is not
//! stored again, a snapshot it has is skipped, and the source is read through the
//! checked read path (a wiped remote, a corrupted shard are read around).

use std::path::Path;

use serde_json::Value;

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{
    PASSWORD, SERVER_ENV, pass_env, run_any, run_code, run_ok, stderr_str, stdout_str, tangle_bare,
    three_s3_remotes,
};
use crate::support::manifest::{manifest, manifest_diff};
use crate::support::remote_dirs::{files_state, flip_bytes, object_paths};
use crate::support::repo::{Repo, restored_path};
use crate::support::report::{is_hex, json_ok};

/// A destination over three new directories, with the default coding (the source's
/// is [`Repo::init`]'s 4+3).
fn destination() -> Repo {
    let dst = Repo::uninit();
    run_ok(&mut dst.init_cmd(&dst.remotes, &[]));
    dst
}

/// `tangle -r DST copy --from-repo SRC(remote via) --from-password-file ... ARGS --json`
/// (the password file written in `dst`'s temp dir).
fn copy_cmd(dst: &Repo, src: &Repo, via: usize, args: &[&str]) -> assert_cmd::Command {
    copy_with(dst, src, via, &dst.password_file(PASSWORD), args)
}

/// [`copy_cmd`] with the source's password from file `pw`.
fn copy_with(dst: &Repo, src: &Repo, via: usize, pw: &Path, args: &[&str]) -> assert_cmd::Command {
    let mut c = dst.cmd();
    c.arg("copy")
        .arg("--from-repo")
        .arg(src.url(via))
        .arg("--from-password-file")
        .arg(pw)
        .arg("--no-progress")
        .args(args);
    c
}

fn copy(dst: &Repo, src: &Repo, args: &[&str]) -> Value {
    json_ok(
        copy_cmd(dst, src, 0, args).arg("--json"),
        &format!("copy {args:?}"),
    )
}

/// The new ids of a report's copied snapshots, in its order (oldest first).
fn new_ids(r: &Value) -> Vec<String> {
    (r["copied"].as_array().cloned().unwrap_or_default().iter())
        .map(|c| {
            let id = c["id"].as_str().unwrap_or_default().to_string();
            assert!(is_hex(&id, 64), "{r:#}");
            id
        })
        .collect()
}

fn count(r: &Value, key: &str) -> usize {
    r[key].as_array().map_or(usize::MAX, Vec::len)
}

/// Bytes of every file on the repository's remotes.
fn stored_bytes(repo: &Repo) -> u64 {
    (repo.remotes.iter())
        .flat_map(|r| files_state(r).into_values())
        .map(|v| v.len() as u64)
        .sum()
}

/// The snapshot listed with `id`.
fn listed(repo: &Repo, id: &str) -> Value {
    (repo.snapshots().into_iter())
        .find(|s| s["id"] == id)
        .unwrap_or_else(|| panic!("snapshot {id} is not listed"))
}

fn assert_same_labels(a: &Value, b: &Value) {
    for key in ["time", "host", "paths", "tags", "user"] {
        assert_eq!(a[key], b[key], "{key}: {a:#} vs {b:#}");
    }
}

/// A source tree of `n_mib` MiB in a few files, a small file, a symlink and an empty dir.
fn fill(src: &Path, seed: u64, n_mib: usize) {
    for i in 0..n_mib.div_ceil(2) {
        write_file(
            &src.join(format!("data/big-{i}.bin")),
            &pseudo_random(seed + i as u64, 2 << 20),
        );
    }
    write_file(&src.join("notes.txt"), b"notes\n");
    let _ = std::fs::create_dir_all(src.join("empty"));
    let _ = std::os::unix::fs::symlink("notes.txt", src.join("link"));
}

#[test]
fn copied_snapshots_restore_byte_identically_are_skipped_next_time_and_dedup() {
    let src = Repo::init();
    let dir = src.dir("src");
    fill(&dir, 10, 8);
    let first = manifest(&dir);
    let s1 = src.backup(&[&dir], &["--tag", "daily"]).snapshot_id;
    write_file(&dir.join("more/c.bin"), &pseudo_random(30, 300_000));
    let second = manifest(&dir);
    let s2 = src
        .backup(&[&dir], &["--tag", "weekly,daily", "--host", "elsewhere"])
        .snapshot_id;
    let dst = destination();

    // --dry-run: what would be copied, nothing written.
    let dry = dst.unchanged_by("copy --dry-run", || copy(&dst, &src, &["--dry-run"]));
    assert_eq!(dry["dry_run"], true, "{dry:#}");
    assert_eq!(count(&dry, "copied"), 2, "{dry:#}");
    assert_eq!(dry["copied"][0]["id"], Value::Null, "{dry:#}");
    assert_eq!(dry["copied"][0]["source_id"], s1.as_str(), "{dry:#}");
    assert!(dst.snapshot_ids().is_empty());

    let r = copy(&dst, &src, &[]);
    assert_eq!(count(&r, "skipped"), 0, "{r:#}");
    let ids = new_ids(&r);
    assert_eq!(ids.len(), 2, "{r:#}");
    assert_eq!(r["copied"][1]["source_id"], s2.as_str(), "{r:#}");
    assert!(r["bytes_read"].as_u64() >= Some(8 << 20), "{r:#}");
    for (id, old) in ids.iter().zip([&s1, &s2]) {
        assert_same_labels(&listed(&dst, id), &listed(&src, old));
    }
    assert_eq!(listed(&dst, &ids[1])["host"], "elsewhere");
    for via in 0..3 {
        dst.assert_restore_matches(via, &ids[0], &dir, &first, "the first copy");
    }
    dst.assert_restore_matches(1, &ids[1], &dir, &second, "the second copy");
    run_ok(dst.cmd().args(["verify", "--read-data"]));

    // Again: both are there already; nothing is written.
    let again = dst.unchanged_by("copy again", || copy(&dst, &src, &[]));
    assert_eq!(count(&again, "copied"), 0, "{again:#}");
    assert_eq!(count(&again, "skipped"), 2, "{again:#}");
    assert_eq!(
        again["skipped"][0]["existing_id"],
        ids[0].as_str(),
        "{again:#}"
    );
    let text = run_ok(&mut copy_cmd(&dst, &src, 0, &[]));
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(out.contains(&format!("skipped {}", &s1[..8])), "{out}");
    assert!(out.contains("copied 0 snapshots (2 already"), "{out}");

    // A third snapshot with 1 MiB new: only that is stored.
    write_file(&dir.join("more/d.bin"), &pseudo_random(40, 1 << 20));
    let third = manifest(&dir);
    let s3 = src.backup(&[&dir], &[]);
    let before = stored_bytes(&dst);
    let r = copy(&dst, &src, &[]);
    let grown = stored_bytes(&dst) - before;
    assert_eq!(count(&r, "skipped"), 2, "{r:#}");
    let ids3 = new_ids(&r);
    assert_eq!(ids3.len(), 1, "{r:#}");
    assert_eq!(
        r["copied"][0]["source_id"],
        s3.snapshot_id.as_str(),
        "{r:#}"
    );
    // The snapshot holds over 9 MiB; 1 MiB of it is new (coded: about twice that).
    assert!(
        grown < 4 << 20,
        "the destination grew by {grown} bytes: {r:#}"
    );
    assert!(r["bytes_added"].as_u64() < Some(2 << 20), "{r:#}");
    dst.assert_restore_matches(2, &ids3[0], &dir, &third, "the third copy");
    run_ok(dst.cmd().args(["verify", "--read-data"]));
}

/// The source read through its checked path: a remote gone, or one shard altered.
#[test]
fn copy_reads_around_a_wiped_remote_and_an_altered_shard() {
    for damage in ["wiped remote", "altered shard"] {
        let src = Repo::init();
        let dir = src.dir("src");
        fill(&dir, 50, 4);
        let expected = manifest(&dir);
        let id = src.backup(&[&dir], &[]).snapshot_id;
        match damage {
            "wiped remote" => {
                std::fs::remove_dir_all(&src.remotes[2]).unwrap();
                std::fs::create_dir_all(&src.remotes[2]).unwrap();
            }
            _ => {
                for shard in object_paths(&src.remotes[1], "shards") {
                    flip_bytes(&src.remotes[1].join(shard));
                }
            }
        }
        let dst = destination();
        let r = copy(&dst, &src, &[]);
        let ids = new_ids(&r);
        assert_eq!(ids.len(), 1, "{damage}: {r:#}");
        assert_eq!(r["copied"][0]["source_id"], id.as_str(), "{damage}: {r:#}");
        dst.assert_restore_matches(0, &ids[0], &dir, &expected, damage);
        run_ok(dst.cmd().args(["verify", "--read-data"]));
    }
}

/// One line on stderr, `tangle: error: ...` holding `text`.
fn assert_one_error_line(out: &std::process::Output, text: &str, what: &str) {
    let err = stderr_str(out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{what}: {err}");
    assert!(lines[0].starts_with("tangle: error: "), "{what}: {err}");
    assert!(lines[0].contains(text), "{what}: want {text:?}: {err}");
}

#[test]
fn copy_refuses_bad_input_with_one_line_and_its_exit_code() {
    let src = Repo::init();
    let dir = src.dir("src");
    write_file(&dir.join("a.txt"), b"a\n");
    src.backup(&[&dir], &[]);
    let dst = destination();
    let wrong = dst.password_file("not the password");
    let mut cases: Vec<(&str, assert_cmd::Command, i32, &str)> = vec![
        (
            "no --from-repo",
            {
                let mut c = dst.cmd();
                c.arg("copy");
                c
            },
            1,
            "--from-repo",
        ),
        (
            "the same repository",
            copy_cmd(&dst, &dst, 1, &[]),
            1,
            "the same repository",
        ),
        (
            "a wrong source password",
            copy_with(&dst, &src, 0, &wrong, &[]),
            12,
            "source repository",
        ),
        (
            "no source password (TANGLE_PASSWORD is the destination's)",
            {
                let mut c = dst.cmd();
                c.args(["copy", "--from-repo", &src.url(0)]);
                c
            },
            1,
            "no password given for the source repository",
        ),
        (
            "an unknown snapshot",
            copy_cmd(&dst, &src, 0, &["deadbeef"]),
            1,
            "no snapshot matches",
        ),
        (
            "no source repository there",
            {
                let mut c = dst.cmd();
                c.args(["copy", "--from-repo"])
                    .arg(dst.path("nothing-here"));
                c
            },
            10,
            "source repository",
        ),
    ];
    cases.push((
        "a source owner pin that is not the source's",
        copy_cmd(
            &dst,
            &src,
            0,
            &["--from-owner", "00112233445566778899aabbccddeeff"],
        ),
        22,
        "source repository",
    ));
    cases.push((
        "a malformed source owner pin",
        copy_cmd(&dst, &src, 0, &["--from-owner", "nope"]),
        1,
        "--from-owner",
    ));
    for (what, mut cmd, code, text) in cases {
        let out = dst.unchanged_by(what, || run_code(&mut cmd, code));
        assert_one_error_line(&out, text, what);
    }
    assert!(dst.snapshot_ids().is_empty());
    // The environment names the source as the flags do.
    let mut c = dst.cmd();
    c.arg("copy")
        .env("TANGLE_FROM_REPO", src.url(1))
        .env("TANGLE_FROM_PASSWORD", PASSWORD)
        .arg("--json");
    let r = json_ok(&mut c, "copy through the environment");
    assert_eq!(new_ids(&r).len(), 1, "{r:#}");
    // A password command given as a flag beats a password file from the environment,
    // whatever their kinds (as for the destination).
    let mut c = dst.cmd();
    c.args(["copy", "--json", "--from-repo", &src.url(2)])
        .env("TANGLE_FROM_PASSWORD_FILE", &wrong)
        .arg("--from-password-command")
        .arg(format!("echo '{PASSWORD}'"));
    let r = json_ok(&mut c, "copy with a password command");
    assert_eq!(count(&r, "skipped"), 1, "{r:#}");
}

/// A snapshot a writer key made in the source is copied as the destination owner's.
#[test]
fn a_writers_snapshot_is_copied_as_the_destination_owners() {
    let (src, owner, theirs) = crate::writers::owner_and_writer_snapshots();
    let dir = src.path("src");
    let expected = manifest(&dir);
    let dst = destination();
    let r = copy(&dst, &src, &[]);
    let ids = new_ids(&r);
    assert_eq!(ids.len(), 2, "{r:#}");
    let by_source = |old: &str| {
        (r["copied"].as_array().cloned().unwrap_or_default().iter())
            .find(|c| c["source_id"] == old)
            .map(|c| c["id"].as_str().unwrap_or_default().to_string())
            .unwrap_or_else(|| panic!("{old} not copied: {r:#}"))
    };
    let (mine, copied) = (by_source(&owner), by_source(&theirs));
    assert_same_labels(&listed(&dst, &copied), &listed(&src, &theirs));
    assert_eq!(listed(&dst, &copied)["writer"], Value::Null);
    dst.assert_restore_matches(0, &copied, &dir, &expected, "the writer's copy");
    dst.assert_restore_matches(1, &mine, &dir, &expected, "the owner's copy");
    run_ok(dst.cmd().args(["verify", "--read-data"]));
}

/// Into a destination on the S3 test server (skipped where it is not configured).
#[test]
fn copy_into_s3_remotes() {
    let Some(urls) = three_s3_remotes("cli-copy", "copy") else {
        return;
    };
    let src = Repo::init();
    let dir = src.dir("src");
    fill(&dir, 70, 4);
    let expected = manifest(&dir);
    let id = src.backup(&[&dir], &[]).snapshot_id;
    let home = src.fresh_home();
    let s3 = |args: &[&str]| {
        let mut c = tangle_bare(&home);
        c.env("TANGLE_PASSWORD", PASSWORD).args(args);
        pass_env(&mut c, SERVER_ENV);
        c
    };
    let mut init = s3(&["init"]);
    for u in &urls {
        init.args(["--remote", u]);
    }
    run_ok(&mut init);
    let mut c = s3(&["-r", &urls[0], "copy", "--json", "--from-repo", &src.url(0)]);
    c.env("TANGLE_FROM_PASSWORD", PASSWORD);
    let r = json_ok(&mut c, "copy into S3");
    let ids = new_ids(&r);
    assert_eq!(ids.len(), 1, "{r:#}");
    assert_eq!(r["copied"][0]["source_id"], id.as_str(), "{r:#}");
    let target = src.path("restored");
    run_ok(s3(&["-r", &urls[1], "restore", &ids[0], "--target"]).arg(&target));
    let restored = manifest(&restored_path(&target, &dir));
    let diff = manifest_diff(&expected, &restored);
    assert!(diff.is_none(), "{diff:?}");
    let again = json_ok(&mut c, "copy into S3 again");
    assert_eq!(count(&again, "skipped"), 1, "{again:#}");
}

/// `kill -9` of a copy after its first snapshot is written, while it copies the second:
/// the destination lists only whole snapshots, which restore byte-identically and verify;
/// the next copy skips what is there and copies the rest.
#[test]
fn a_killed_copy_leaves_whole_snapshots_and_the_next_one_finishes() {
    let src = Repo::init();
    let dir = src.dir("src");
    write_file(&dir.join("small.txt"), b"small\n");
    let first = manifest(&dir);
    src.backup(&[&dir], &[]);
    for i in 0..12 {
        write_file(
            &dir.join(format!("big/{i}.bin")),
            &pseudo_random(80 + i, 2 << 20),
        );
    }
    let second = manifest(&dir);
    src.backup(&[&dir], &[]);
    let dst = destination();
    let pw = dst.password_file(PASSWORD);
    let mut child = crate::support::command::tangle_std(&dst.home)
        .arg("-r")
        .arg(&dst.remotes[0])
        .args(["copy", "--no-progress", "--from-repo", &src.url(0)])
        .arg("--from-password-file")
        .arg(&pw)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn copy");
    let snapshots = dst.remotes[0].join("snapshots");
    let started = std::time::Instant::now();
    while object_paths(&dst.remotes[0], "snapshots").is_empty() {
        if child.try_wait().ok().flatten().is_some() {
            break;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(120),
            "no snapshot in {} after 120 s",
            snapshots.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
    let listed = dst.snapshots();
    assert!(!listed.is_empty() && listed.len() <= 2, "{listed:#?}");
    for s in &listed {
        let id = s["id"].as_str().unwrap_or_default();
        let expected = match s["files"].as_u64() {
            Some(1) => &first,
            _ => &second,
        };
        dst.assert_restore_matches(1, id, &dir, expected, "after the kill");
    }
    // The kill may land while the snapshot object is on some remotes only: verify calls
    // that repairable damage (exit 20), and repair completes it.
    let verified = run_any(dst.cmd().args(["verify"]));
    match verified.status.code() {
        Some(0) => {}
        Some(20) => {
            assert!(
                stdout_str(&verified).contains("can fix all of it"),
                "{}",
                stdout_str(&verified)
            );
            run_ok(dst.cmd().args(["repair"]));
            run_ok(dst.cmd().args(["verify"]));
        }
        other => panic!(
            "verify after the kill exited {other:?}: {}",
            stdout_str(&verified)
        ),
    }
    // The dead copy's lock is stale (its process is gone): the next one goes ahead.
    let r = copy(&dst, &src, &[]);
    assert_eq!(count(&r, "copied") + count(&r, "skipped"), 2, "{r:#}");
    assert_eq!(count(&r, "skipped"), listed.len(), "{r:#}");
    let all = dst.snapshots();
    assert_eq!(all.len(), 2, "{all:#?}");
    let newest = all
        .iter()
        .find(|s| s["files"].as_u64() != Some(1))
        .and_then(|s| s["id"].as_str())
        .unwrap_or_default()
        .to_string();
    dst.assert_restore_matches(2, &newest, &dir, &second, "after the next copy");
    run_ok(dst.cmd().args(["verify", "--read-data"]));
}
