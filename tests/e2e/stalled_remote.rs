//! A remote that accepts a connection and never answers costs one timeout: restore reads
//! from the others, verify and repair name it, and a backup completes on the others and
//! reports it degraded, all well within a few allowances. One scenario, run over an
//! SFTP remote and an S3 one.

use std::time::{Duration, Instant};

use crate::shared::files::{pseudo_random, write_file};
use crate::shared::servers::{self, sftp_server, sftp_server_command};
use crate::support::command::{run_any, run_ok, stderr_str, stdout_str};
use crate::support::manifest::{assert_tree_matches, manifest};
use crate::support::remote_dirs::assert_remotes_unchanged;
use crate::support::repo::{Client, Repo, restored_path};
use crate::support::report::BackupReport;
use crate::support::scenario;

/// A profile file `NAME.toml` of `repo` that sets `settings` (TOML lines) and `timeout`
/// for the remote `url`; returns its path.
fn profile(repo: &Repo, name: &str, url: &str, settings: &str, timeout: &str) -> String {
    let path = repo.path(&format!("{name}.toml"));
    write_file(
        &path,
        format!("[remote.\"{url}\"]\n{settings}timeout = {timeout}\n").as_bytes(),
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

/// A third remote of `repo` that can be made to stall: its URL, a profile through which
/// it answers, and one through which it accepts connections and never answers (with a
/// one-second timeout).
struct Stalling {
    what: &'static str,
    url: String,
    good: String,
    stalled: String,
}

/// How a kind of remote is set up (`None`: not configured here, the test skips), and
/// whether the scenario goes on to repair and back up with the remote stalled.
struct Kind {
    setup: fn(&Repo) -> Option<Stalling>,
    repair_and_back_up: bool,
}

/// An SFTP remote served by `sftp-server` directly (no sshd), then by a process that
/// never speaks: it keeps the connection open and says nothing.
const SFTP: Kind = Kind {
    setup: |repo| {
        let sftp_server = sftp_server()?;
        let url = format!("sftp://localhost{}", repo.dir("sftp-remote").display());
        let ssh_command = |c: &str| format!("ssh_command = \"{c}\"\n");
        Some(Stalling {
            what: "remote",
            good: profile(
                repo,
                "good",
                &url,
                &ssh_command(&sftp_server_command(sftp_server)),
                "60",
            ),
            stalled: profile(
                repo,
                "stalled",
                &url,
                &ssh_command("sh -c 'exec sleep 30' --"),
                "1",
            ),
            url,
        })
    },
    repair_and_back_up: true,
};

/// An S3 remote on the test server, then behind an endpoint that accepts connections and
/// never answers (a black hole).
const S3: Kind = Kind {
    setup: |repo| {
        if !servers::require("S3", servers::S3_VARS) {
            return None;
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
        let bucket = servers::var("TANGLE_TEST_S3_BUCKET").unwrap();
        let url = format!("s3://{bucket}/{}", servers::unique("stalled"));
        // The test commands run with a clean environment: the profile carries everything.
        let settings = |endpoint: &str| {
            format!(
                "endpoint = \"{endpoint}\"\nAWS_ALLOW_HTTP = \"true\"\nregion = \"us-east-1\"\n\
                 access_key_id = \"{}\"\nsecret_access_key = \"{}\"\n",
                servers::var("AWS_ACCESS_KEY_ID").unwrap(),
                servers::var("AWS_SECRET_ACCESS_KEY").unwrap(),
            )
        };
        let endpoint = servers::var("AWS_ENDPOINT").unwrap();
        Some(Stalling {
            what: "S3 endpoint",
            good: profile(repo, "good", &url, &settings(&endpoint), "60"),
            stalled: profile(repo, "stalled", &url, &settings(&hole), "1"),
            url,
        })
    },
    repair_and_back_up: false,
};

scenario!(a_stalled_remote_costs_one_timeout: sftp => SFTP, s3 => S3);

fn a_stalled_remote_costs_one_timeout(kind: Kind) {
    let repo = Repo::uninit();
    let Some(Stalling {
        what,
        url,
        good,
        stalled,
    }) = (kind.setup)(&repo)
    else {
        return;
    };
    run_ok(
        repo.cmd_as(Client::no_repo())
            .args(["-P", &good, "init", "--remote"])
            .arg(&repo.remotes[0])
            .arg("--remote")
            .arg(&repo.remotes[1])
            .args(["--remote", &url]),
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
        &format!("restore around a stalled {what}"),
    );

    let out = within(15, "verify", || {
        run_any(
            repo.cmd_as(Client::via(0).no_password())
                .args(["-P", &stalled, "verify"]),
        )
    });
    assert_eq!(out.status.code(), Some(20), "{}", stdout_str(&out));
    assert!(
        stdout_str(&out).contains(&url),
        "verify does not name the stalled remote:\n{}",
        stdout_str(&out)
    );
    if !kind.repair_and_back_up {
        return;
    }

    // repair: nothing to do on the remotes that answer, the stalled one left for later
    // (exit 20, named), no waiting beyond its timeout.
    let before = repo.remote_state();
    let out = within(15, "repair", || {
        run_any(
            repo.cmd_as(Client::via(0).no_password())
                .args(["-P", &stalled, "repair"]),
        )
    });
    assert_eq!(out.status.code(), Some(20), "{}", stdout_str(&out));
    assert!(
        stdout_str(&out).contains(&url) || stderr_str(&out).contains(&url),
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
        degraded.len() == 1 && degraded[0].as_str().is_some_and(|d| d.starts_with(&url)),
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
    let out = run_any(
        repo.cmd_as(Client::via(0).no_password())
            .args(["-P", &good, "repair"]),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout_str(&out));
    let out = run_any(repo.cmd_as(Client::via(0).no_password()).args([
        "-P",
        &good,
        "verify",
        "--read-data",
    ]));
    assert_eq!(out.status.code(), Some(0), "{}", stdout_str(&out));
}
