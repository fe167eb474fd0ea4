//! A remote that accepts a connection and never answers costs one timeout: restore reads
//! from the others, verify and repair name it, and a backup completes on the others and
//! reports it degraded, all well within a few allowances.

mod common;

use std::time::{Duration, Instant};

use common::*;

fn profile(repo: &Repo, name: &str, sftp_url: &str, ssh_command: &str, timeout: &str) -> String {
    let path = repo.path(&format!("{name}.toml"));
    write_file(
        &path,
        format!("[remote.\"{sftp_url}\"]\nssh_command = \"{ssh_command}\"\ntimeout = {timeout}\n")
            .as_bytes(),
    );
    path.to_string_lossy().into_owned()
}

/// Run `f`, failing the test if it took `secs` seconds or more: `what` with one remote
/// stalled must cost a few timeouts, not wait for the remote.
fn within<T>(secs: u64, what: &str, f: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let out = f();
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(secs),
        "{what} took {took:?} with one remote stalled"
    );
    out
}

#[test]
fn a_stalled_remote_costs_one_timeout() {
    if !sftp_server_installed() {
        return;
    }
    let repo = Repo::uninit();
    let sftp_dir = repo.dir("sftp-remote");
    let sftp_url = format!("sftp://localhost{}", sftp_dir.display());
    // The remote served by sftp-server directly (no sshd), then by a process that never
    // speaks: it keeps the connection open and says nothing.
    let good = profile(
        &repo,
        "good",
        &sftp_url,
        &format!("sh -c 'exec {SFTP_SERVER}' --"),
        "60",
    );
    let stalled = profile(&repo, "stalled", &sftp_url, "sh -c 'exec sleep 30' --", "1");
    run_ok(
        repo.cmd_no_repo()
            .args(["-P", &good, "init", "--remote"])
            .arg(&repo.remotes[0])
            .arg("--remote")
            .arg(&repo.remotes[1])
            .args(["--remote", &sftp_url]),
    );
    let src = repo.dir("src");
    write_file(&src.join("a.bin"), &pseudo_random(5, 1 << 20));
    write_file(&src.join("b.txt"), b"stall\n");
    let expected = manifest(&src);
    run_ok(
        repo.cmd()
            .args(["-P", &good, "backup", "--no-progress"])
            .arg(&src),
    );

    let target = repo.path("restored");
    within(15, "restore", || {
        run_ok(
            repo.cmd()
                .args(["-P", &stalled, "restore", "latest", "--target"])
                .arg(&target),
        )
    });
    assert_tree_matches(
        &expected,
        &restored_path(&target, &src),
        "restore around a stalled remote",
    );

    let out = within(15, "verify", || {
        run_any(repo.cmd_via_nopw(0).args(["-P", &stalled, "verify"]))
    });
    assert_eq!(out.status.code(), Some(20), "{}", stdout_str(&out));
    assert!(
        stdout_str(&out).contains(&sftp_url),
        "verify does not name the stalled remote:\n{}",
        stdout_str(&out)
    );

    // repair: nothing to do on the remotes that answer, the stalled one left for later
    // (exit 20, named), no waiting beyond its timeout.
    let before = repo.remote_state();
    let out = within(15, "repair", || {
        run_any(repo.cmd_via_nopw(0).args(["-P", &stalled, "repair"]))
    });
    assert_eq!(out.status.code(), Some(20), "{}", stdout_str(&out));
    assert!(
        stdout_str(&out).contains(&sftp_url) || stderr_str(&out).contains(&sftp_url),
        "repair does not name the stalled remote:\n{}{}",
        stdout_str(&out),
        stderr_str(&out)
    );
    assert_remotes_unchanged(
        &before,
        &repo.remote_state(),
        "repair with a stalled remote",
    );

    // backup: complete on the remotes that answer, the stalled one reported degraded,
    // no waiting beyond its timeout; then restorable, and repair fills the remote in.
    write_file(&src.join("c.bin"), &pseudo_random(6, 1 << 20));
    let expected = manifest(&src);
    let out = within(20, "backup", || {
        run_ok(
            repo.cmd()
                .args(["-P", &stalled, "backup", "--json", "--no-progress"])
                .arg(&src),
        )
    });
    let report = BackupReport::parse(&out.stdout);
    let degraded = report.json["degraded_remotes"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        degraded.len() == 1
            && degraded[0]
                .as_str()
                .is_some_and(|d| d.starts_with(&sftp_url)),
        "{}",
        stdout_str(&out)
    );
    let target = repo.path("restored-after-degraded");
    run_ok(
        repo.cmd()
            .args(["-P", &good, "restore", &report.snapshot_id, "--target"])
            .arg(&target),
    );
    assert_tree_matches(
        &expected,
        &restored_path(&target, &src),
        "restore of a backup made with a remote stalled",
    );
    let out = run_any(repo.cmd_via_nopw(0).args(["-P", &good, "repair"]));
    assert_eq!(out.status.code(), Some(0), "{}", stdout_str(&out));
    let out = run_any(
        repo.cmd_via_nopw(0)
            .args(["-P", &good, "verify", "--read-data"]),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout_str(&out));
}

/// An S3 endpoint that accepts connections and never answers (a black hole): restore
/// reads around it and verify names it, each within a few one-second allowances.
#[test]
fn a_stalled_s3_remote_costs_one_timeout() {
    if !servers::require("S3", servers::S3_VARS) {
        return;
    }
    let black_hole = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let hole = format!("http://{}", black_hole.local_addr().unwrap());
    std::thread::spawn(move || {
        // Hold every connection open, read nothing, answer nothing.
        let mut held = Vec::new();
        for conn in black_hole.incoming() {
            held.push(conn);
        }
    });
    let repo = Repo::uninit();
    let bucket = servers::var("TANGLE_TEST_S3_BUCKET").unwrap();
    let s3_url = format!("s3://{bucket}/{}", servers::unique("stalled"));
    let endpoint = servers::var("AWS_ENDPOINT").unwrap();
    // The test commands run with a clean environment: the profile carries everything.
    let s3_profile = |name: &str, endpoint: &str, timeout: &str| {
        let path = repo.path(&format!("{name}.toml"));
        let (key, secret) = (
            servers::var("AWS_ACCESS_KEY_ID").unwrap(),
            servers::var("AWS_SECRET_ACCESS_KEY").unwrap(),
        );
        write_file(
            &path,
            format!(
                "[remote.\"{s3_url}\"]\nendpoint = \"{endpoint}\"\nAWS_ALLOW_HTTP = \"true\"\n\
                 region = \"us-east-1\"\naccess_key_id = \"{key}\"\n\
                 secret_access_key = \"{secret}\"\ntimeout = {timeout}\n"
            )
            .as_bytes(),
        );
        path.to_string_lossy().into_owned()
    };
    let good = s3_profile("good", &endpoint, "60");
    let stalled = s3_profile("stalled", &hole, "1");
    run_ok(
        repo.cmd_no_repo()
            .args(["-P", &good, "init", "--remote"])
            .arg(&repo.remotes[0])
            .arg("--remote")
            .arg(&repo.remotes[1])
            .args(["--remote", &s3_url]),
    );
    let src = repo.dir("src");
    write_file(&src.join("a.bin"), &pseudo_random(6, 1 << 20));
    let expected = manifest(&src);
    run_ok(
        repo.cmd()
            .args(["-P", &good, "backup", "--no-progress"])
            .arg(&src),
    );

    let target = repo.path("restored");
    within(15, "restore", || {
        run_ok(
            repo.cmd()
                .args(["-P", &stalled, "restore", "latest", "--target"])
                .arg(&target),
        )
    });
    assert_tree_matches(
        &expected,
        &restored_path(&target, &src),
        "restore around a stalled S3 endpoint",
    );

    let out = within(15, "verify", || {
        run_any(repo.cmd_via_nopw(0).args(["-P", &stalled, "verify"]))
    });
    assert_eq!(out.status.code(), Some(20), "{}", stdout_str(&out));
    assert!(
        stdout_str(&out).contains(&s3_url),
        "verify does not name the stalled remote:\n{}",
        stdout_str(&out)
    );
}
