//! A remote that accepts a connection and never answers costs one timeout: restore reads
//! from the others, and verify names it, both well within a few allowances.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::*;

const SFTP_SERVER: &str = "/usr/lib/openssh/sftp-server";

fn profile(repo: &Repo, name: &str, sftp_url: &str, ssh_command: &str, timeout: &str) -> String {
    let path = repo.path(&format!("{name}.toml"));
    write_file(
        &path,
        format!("[remote.\"{sftp_url}\"]\nssh_command = \"{ssh_command}\"\ntimeout = {timeout}\n")
            .as_bytes(),
    );
    path.to_string_lossy().into_owned()
}

#[test]
fn a_stalled_remote_costs_one_timeout() {
    if !Path::new(SFTP_SERVER).exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{SFTP_SERVER} is missing (install openssh-sftp-server)"
        );
        eprintln!("skipped: {SFTP_SERVER} is missing");
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
    let started = Instant::now();
    run_ok(
        repo.cmd()
            .args(["-P", &stalled, "restore", "latest", "--target"])
            .arg(&target),
    );
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(15),
        "restore took {took:?} with one remote stalled"
    );
    assert_tree_matches(
        &expected,
        &restored_path(&target, &src),
        "restore around a stalled remote",
    );

    let started = Instant::now();
    let out = run_any(repo.cmd_via_nopw(0).args(["-P", &stalled, "verify"]));
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(15),
        "verify took {took:?} with one remote stalled"
    );
    assert_eq!(out.status.code(), Some(20), "{}", stdout_str(&out));
    assert!(
        stdout_str(&out).contains(&sftp_url),
        "verify does not name the stalled remote:\n{}",
        stdout_str(&out)
    );
}
