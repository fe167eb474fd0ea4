//! End-to-end over real remotes: a repository spread over a local directory, an S3
//! bucket and an SFTP server (issue "Real remotes").
//!
//! * the round trip through each of the three remotes is byte-identical;
//! * with the S3 server unreachable, restore through the local remote still works,
//!   `verify` names the S3 remote (exit 20) and a backup completes (exit 0) with a
//!   warning and `degraded_remotes` naming it;
//! * once S3 is back with objects deleted, `repair` rebuilds them and `verify --read-data`
//!   is clean;
//! * wrong or no S3 credentials, a plain-http endpoint without `AWS_ALLOW_HTTP`, an
//!   unknown host key, an unreachable host and a missing bucket each give one clear
//!   message naming the remote and the setting to check, with the documented exit code.
//!
//! The servers come from `scripts/test-servers.sh` (see tests/library/remote_conformance.rs):
//! without their variables these tests print a note and pass, unless `CI` is set.
//! "S3 unreachable" is simulated per command by pointing `AWS_ENDPOINT` at a closed port
//! (what a stopped server looks like to the client), so tests sharing the server are
//! not disturbed.

use std::fs;
use std::path::{Path, PathBuf};

use crate::shared::files::{pseudo_random, write_file};
use crate::shared::servers;
use crate::support::awkward::build_awkward_tree;
use crate::support::command::{
    PASSWORD, SERVER_ENV, assert_clean_failure, assert_no_panic, pass_env, run_any, run_ok,
    stderr_str, stdout_str, tangle_bare, tangle_std,
};
use crate::support::fsutil::{files_under, set_mtime};
use crate::support::manifest::{Entry, assert_tree_matches, manifest};
use crate::support::repo::{Repo, parse_snapshots, restored_path};
use crate::support::report::{
    BackupReport, run_json, show_findings, verify_damage, verify_findings,
};
use crate::support::trees::build_simple_tree;
use assert_cmd::Command;
use serde_json::Value;

/// These tests change remotes directly (the `testing` feature grants it).
const W: tangle::remote::WriteAccess = tangle::remote::WriteAccess::for_tests();

/// An S3 endpoint where nothing listens.
const S3_DOWN: &str = "http://127.0.0.1:1";

/// Both servers configured? (Otherwise skip, or fail when `CI` is set.)
fn servers_configured() -> bool {
    let s3 = servers::require("S3", servers::S3_VARS);
    let sftp = servers::require("SFTP", servers::SFTP_VARS);
    s3 && sftp
}

fn s3_url(test: &str) -> String {
    let bucket = servers::var("TANGLE_TEST_S3_BUCKET").expect("TANGLE_TEST_S3_BUCKET");
    format!("s3://{bucket}/cli-remotes/{}", servers::unique(test))
}

fn sftp_url(test: &str) -> String {
    let base = servers::var("TANGLE_TEST_SFTP_URL").expect("TANGLE_TEST_SFTP_URL");
    format!("{}/{}", base.trim_end_matches('/'), servers::unique(test))
}

/// A repository over a local directory, a fresh S3 prefix and a fresh SFTP directory.
struct Mixed {
    repo: Repo,
    local: String,
    s3: String,
    sftp: String,
}

impl Mixed {
    fn new(test: &str) -> Mixed {
        let repo = Repo::uninit();
        let local = repo.remotes[0].to_string_lossy().into_owned();
        Mixed {
            local,
            s3: s3_url(test),
            sftp: sftp_url(test),
            repo,
        }
    }

    fn urls(&self) -> [&str; 3] {
        [&self.local, &self.s3, &self.sftp]
    }

    /// `tangle init` over the three remotes.
    fn init(&self) {
        let mut c = self.cmd_no_repo(&self.repo.home);
        c.arg("init");
        for u in self.urls() {
            c.arg("--remote").arg(u);
        }
        let out = run_ok(&mut c);
        let text = stdout_str(&out);
        for u in self.urls() {
            assert!(
                text.contains(u),
                "init output does not list remote {u}:\n{text}"
            );
        }
    }

    /// Clean env with HOME `home`, password, server settings; no repository.
    fn cmd_no_repo(&self, home: &Path) -> Command {
        let mut c = tangle_bare(home);
        c.env("TANGLE_PASSWORD", PASSWORD);
        pass_env(&mut c, SERVER_ENV);
        c
    }

    /// `tangle -r VIA` with the repository's HOME (client cache).
    fn cmd(&self, via: &str) -> Command {
        let mut c = self.cmd_no_repo(&self.repo.home);
        c.arg("-r").arg(via);
        c
    }

    /// `tangle -r VIA` with an empty HOME / cache: everything comes from the remotes.
    fn cmd_fresh(&self, via: &str) -> Command {
        let mut c = self.cmd_no_repo(&self.repo.fresh_home());
        c.arg("-r").arg(via);
        c
    }

    /// `tangle -r VIA` (repository HOME) while the S3 server cannot be reached.
    fn cmd_s3_down(&self, via: &str) -> Command {
        let mut c = self.cmd(via);
        c.env("AWS_ENDPOINT", S3_DOWN).env("AWS_ALLOW_HTTP", "true");
        c
    }

    /// `backup --json` of `src` with `c`; exit 0, parsed report.
    fn backup(&self, mut c: Command, src: &Path, what: &str) -> (BackupReport, String) {
        c.arg("backup").arg("--json").arg("--no-progress").arg(src);
        let out = run_any(&mut c);
        assert!(
            out.status.success(),
            "{what}: backup exited {:?}\nstdout:\n{}\nstderr:\n{}",
            out.status.code(),
            stdout_str(&out),
            stderr_str(&out)
        );
        let r = BackupReport::parse(&out.stdout);
        assert!(r.errors.is_empty(), "{what}: backup errors: {:?}", r.errors);
        (r, stderr_str(&out))
    }

    /// Restore `snapshot` with `c` (a `tangle -r ...` command) and compare with `expected`.
    fn restore_identical(
        &self,
        mut c: Command,
        snapshot: &str,
        src: &Path,
        expected: &[Entry],
        what: &str,
    ) {
        let target = self.repo.path(&format!(
            "restore-{}",
            what.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
        ));
        c.arg("restore").arg(snapshot).arg("--target").arg(&target);
        let out = run_any(&mut c);
        assert!(
            out.status.success(),
            "{what}: restore exited {:?}\nstdout:\n{}\nstderr:\n{}",
            out.status.code(),
            stdout_str(&out),
            stderr_str(&out)
        );
        assert_tree_matches(expected, &restored_path(&target, src), what);
    }
}

impl Drop for Mixed {
    /// Delete what the test wrote to the servers (kept when the test failed, to look at).
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        let rt = servers::runtime();
        for url in [&self.s3, &self.sftp] {
            if let Ok(r) = tangle::remote::open(url) {
                rt.block_on(async {
                    if let Ok(list) = r.list("").await {
                        for o in list {
                            let _ = r.delete(W, &o.path).await;
                        }
                    }
                });
            }
        }
    }
}

fn findings_text(v: &[Value]) -> String {
    serde_json::to_string_pretty(v).unwrap()
}

/// `verify --read-data --json` with `c` (a `tangle -r ...` command): exit 0, no damage.
fn verify_read_data_clean(mut c: Command, what: &str) {
    let (code, report, out) = run_json(c.args(["verify", "--read-data", "--json"]), what);
    assert!(
        code == 0 && verify_damage(&report).is_empty(),
        "{what} exited {code}:\n{}\nstderr:\n{}",
        findings_text(&verify_findings(&report)),
        stderr_str(&out)
    );
}

// ---------------------------------------------------------------------------------
// 1. Round trip through each remote
// ---------------------------------------------------------------------------------

#[test]
fn backup_over_local_s3_sftp_restores_identically_through_each_remote() {
    if !servers_configured() {
        return;
    }
    let m = Mixed::new("roundtrip");
    m.init();
    let src = m.repo.dir("src");
    build_awkward_tree(&src);
    let expected = manifest(&src);

    let (r, stderr) = m.backup(m.cmd(&m.local), &src, "backup");
    assert_eq!(
        r.json["degraded_remotes"],
        serde_json::json!([]),
        "backup with every server up reports degraded remotes:\n{:#}\nstderr:\n{stderr}",
        r.json
    );

    for url in m.urls() {
        let listed: Vec<String> =
            parse_snapshots(&run_ok(m.cmd_fresh(url).arg("snapshots").arg("--json")).stdout)
                .iter()
                .map(|s| s["id"].as_str().unwrap_or_default().to_string())
                .collect();
        assert_eq!(listed, vec![r.snapshot_id.clone()], "snapshots via {url}");
        m.restore_identical(
            m.cmd_fresh(url),
            &r.short_id,
            &src,
            &expected,
            &format!("restore via {url}"),
        );
    }
}

/// Every command opens each remote once: an SFTP remote that the config was read from
/// while the trusted config was chosen is the one the repository keeps (it used to be
/// opened again, starting a second ssh, 0.3 s on loopback).
#[test]
fn each_sftp_remote_is_connected_once_per_command() {
    if !servers_configured() {
        return;
    }
    let m = Mixed::new("connect-once");
    m.init();
    let ssh_config = servers::var("TANGLE_TEST_SSH_CONFIG").expect("TANGLE_TEST_SSH_CONFIG");
    let log = m.repo.path("ssh-starts.log");
    let wrapper = m.repo.path("counting-ssh");
    fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\necho start >> '{}'\nexec ssh -F '{ssh_config}' \"$@\"\n",
            log.display()
        ),
    )
    .expect("write the ssh wrapper");
    let ssh = format!("sh '{}'", wrapper.display());
    for (via, command) in [
        (&m.local, "snapshots"),
        (&m.sftp, "snapshots"),
        (&m.s3, "ls"),
    ] {
        let _ = fs::remove_file(&log);
        let mut c = m.cmd_fresh(via);
        c.env("TANGLE_SSH_COMMAND", &ssh).arg(command);
        if command == "ls" {
            c.arg("latest");
        }
        let out = run_any(&mut c);
        // No snapshot yet: `ls latest` fails, after opening and unlocking.
        assert!(
            out.status.code().is_some(),
            "{command} via {via}: {}",
            stderr_str(&out)
        );
        let starts = fs::read_to_string(&log).unwrap_or_default().lines().count();
        assert_eq!(
            starts,
            1,
            "{command} via {via}: ssh started {starts} times for one SFTP remote\n{}",
            stderr_str(&out)
        );
    }
}

// ---------------------------------------------------------------------------------
// 2. + 3. S3 unreachable, then back with objects deleted
// ---------------------------------------------------------------------------------

/// Objects below `prefix` on the remote `url` (through the library, with the test's
/// own environment, i.e. the running servers).
fn list_objects(url: &str, prefix: &str) -> Vec<String> {
    let r = tangle::remote::open(url).unwrap_or_else(|e| panic!("opening {url}: {e}"));
    servers::runtime()
        .block_on(r.list(prefix))
        .unwrap_or_else(|e| panic!("listing {prefix} on {url}: {e}"))
        .into_iter()
        .map(|o| o.path)
        .collect()
}

fn delete_objects(url: &str, paths: &[String]) {
    let r = tangle::remote::open(url).unwrap_or_else(|e| panic!("opening {url}: {e}"));
    servers::runtime().block_on(async {
        for p in paths {
            r.delete(W, p)
                .await
                .unwrap_or_else(|e| panic!("deleting {p} on {url}: {e}"));
        }
    });
}

#[test]
fn s3_outage_then_lost_objects_are_survived_reported_and_repaired() {
    if !servers_configured() {
        return;
    }
    let m = Mixed::new("outage");
    m.init();
    let src = m.repo.dir("src");
    build_simple_tree(&src);
    let m1 = manifest(&src);
    let (r1, _) = m.backup(m.cmd(&m.local), &src, "first backup");

    // --- S3 unreachable -----------------------------------------------------------
    // Restore through the local remote works and is identical.
    let mut c = m.cmd_fresh(&m.local);
    c.env("AWS_ENDPOINT", S3_DOWN).env("AWS_ALLOW_HTTP", "true");
    m.restore_identical(c, &r1.short_id, &src, &m1, "restore via local, S3 down");

    // verify: exit 20, a remote-unreachable finding naming the S3 remote, and only it.
    let (code, report, out) = run_json(
        m.cmd_s3_down(&m.local).arg("verify").arg("--json"),
        "verify with S3 down",
    );
    let findings = verify_findings(&report);
    assert_eq!(
        code,
        20,
        "verify with S3 down: exit code\n{}\nstderr:\n{}",
        findings_text(&findings),
        stderr_str(&out)
    );
    assert!(
        findings.iter().any(|f| f["kind"] == "remote-unreachable"
            && f["remote"] == m.s3.as_str()
            && f["message"].as_str().is_some_and(|t| t.contains(&m.s3))),
        "verify with S3 down: no remote-unreachable finding naming {}:\n{}",
        m.s3,
        findings_text(&findings)
    );
    for f in &findings {
        assert!(
            f["remote"].is_null() || f["remote"] == m.s3.as_str(),
            "verify with S3 down blames another remote:\n{}",
            findings_text(&findings)
        );
    }

    // A backup completes (exit 0), warns about S3 and reports it as degraded.
    write_file(
        &src.join("during-outage.bin"),
        &pseudo_random(77, 2_000_000),
    );
    write_file(&src.join("a.txt"), b"alpha, changed while S3 was down\n");
    set_mtime(&src.join("a.txt"), 1_700_000_000, 5);
    let m2 = manifest(&src);
    let (r2, stderr) = m.backup(m.cmd_s3_down(&m.local), &src, "backup with S3 down");
    assert!(
        stderr
            .lines()
            .any(|l| l.contains("warning") && l.contains(&m.s3)),
        "backup with S3 down: no warning naming {} on stderr:\n{stderr}",
        m.s3
    );
    let degraded: Vec<&str> = r2.json["degraded_remotes"]
        .as_array()
        .unwrap_or_else(|| panic!("no degraded_remotes array:\n{:#}", r2.json))
        .iter()
        .map(|d| d.as_str().expect("degraded_remotes entry is a string"))
        .collect();
    assert!(
        !degraded.is_empty() && degraded.iter().all(|d| d.starts_with(&m.s3)),
        "backup with S3 down: degraded_remotes must name {} (and only it): {degraded:?}",
        m.s3
    );

    // --- S3 back ---------------------------------------------------------------------
    // What the backup saved during the outage restores through the local remote (S3
    // holds none of it).
    m.restore_identical(
        m.cmd_fresh(&m.local),
        &r2.short_id,
        &src,
        &m2,
        "restore of the backup made with S3 down",
    );

    // Some of S3's objects are deleted.
    let mut shards = list_objects(&m.s3, "shards");
    shards.sort();
    let certs = list_objects(&m.s3, "extents");
    assert!(
        shards.len() >= 2 && !certs.is_empty(),
        "S3 holds too little to delete from: {shards:?} {certs:?}"
    );
    let deleted: Vec<String> = shards[..2].iter().chain(&certs[..1]).cloned().collect();
    delete_objects(&m.s3, &deleted);

    // verify sees the damage on S3 (it missed a backup and lost objects), and only there.
    let (code, report, _) = run_json(
        m.cmd(&m.local).arg("verify").arg("--json"),
        "verify with S3 back",
    );
    let damage = verify_damage(&report);
    assert_eq!(
        code,
        20,
        "verify with S3 back but incomplete: exit code\n{}",
        findings_text(&damage)
    );
    assert!(
        damage.iter().any(|f| f["remote"] == m.s3.as_str()),
        "verify with S3 back: no finding names {}:\n{}",
        m.s3,
        findings_text(&damage)
    );
    for f in &damage {
        assert!(
            f["remote"].is_null() || f["remote"] == m.s3.as_str(),
            "verify with S3 back blames another remote:\n{}",
            findings_text(&damage)
        );
    }

    let (code, report, out) = run_json(
        m.cmd(&m.local).arg("repair").arg("--json"),
        "repair with S3 back",
    );
    assert_eq!(
        code,
        0,
        "repair with S3 back:\n{report:#}\nstderr:\n{}",
        stderr_str(&out)
    );
    let now = list_objects(&m.s3, "");
    for p in &deleted {
        assert!(
            now.contains(p),
            "repair did not put the deleted {p} back on {}",
            m.s3
        );
    }

    verify_read_data_clean(m.cmd(&m.local), "verify --read-data after repair");

    // Both snapshots restore identically through S3 itself.
    m.restore_identical(
        m.cmd_fresh(&m.s3),
        &r1.short_id,
        &src,
        &m1,
        "restore of snapshot 1 via S3 after repair",
    );
    m.restore_identical(
        m.cmd_fresh(&m.s3),
        &r2.short_id,
        &src,
        &m2,
        "restore of snapshot 2 via S3 after repair",
    );
}

// ---------------------------------------------------------------------------------
// Adding a remote: metadata copied, shards moved between real remotes
// ---------------------------------------------------------------------------------

/// `remote add` of a second S3 prefix: shards move off the local, S3 and SFTP remotes
/// onto it (read back, hash-checked, written, old copies deleted), verify --read-data
/// is clean and the new remote alone serves an identical restore.
#[test]
fn remote_add_over_real_remotes_rebalances() {
    if !servers_configured() {
        return;
    }
    let m = Mixed::new("rebalance");
    m.init();
    let src = m.repo.dir("src");
    build_awkward_tree(&src);
    write_file(&src.join("big/a.bin"), &pseudo_random(7, 40 << 20));
    let expected = manifest(&src);
    let (r, _) = m.backup(m.cmd(&m.local), &src, "backup");
    assert!(r.json["extents"].as_u64() > Some(1), "{:#}", r.json);
    let added = s3_url("rebalance-added");

    let (code, report, out) = run_json(
        m.cmd(&m.local)
            .args(["--json", "remote", "add"])
            .arg(&added),
        "remote add",
    );
    assert_eq!(code, 0, "remote add: {}", stderr_str(&out));
    let moved = report["rebalance"]["shards_moved"].as_u64().unwrap_or(0);
    assert!(moved > 0, "nothing moved:\n{report:#}");
    assert_eq!(
        report["rebalance"]["skipped"],
        serde_json::json!([]),
        "{report:#}"
    );
    let shares = &report["rebalance"]["remotes"];
    assert_eq!(shares[3]["url"], added.as_str(), "{report:#}");
    assert_eq!(
        shares[3]["shards_after"].as_u64(),
        Some(moved),
        "{report:#}"
    );
    for i in 0..3 {
        assert!(
            shares[i]["shards_after"].as_u64() < shares[i]["shards_before"].as_u64()
                || shares[i]["shards_after"] == shares[i]["shards_before"],
            "{report:#}"
        );
    }
    assert_eq!(
        list_objects(&added, "shards/").len() as u64,
        moved,
        "shards on the added remote"
    );

    verify_read_data_clean(m.cmd_fresh(&added), "verify --read-data after remote add");
    m.restore_identical(
        m.cmd_fresh(&added),
        &r.short_id,
        &src,
        &expected,
        "restore via the added remote",
    );
    delete_objects(&added, &list_objects(&added, ""));
}

// ---------------------------------------------------------------------------------
// 4. Misconfigured or unreachable remotes
// ---------------------------------------------------------------------------------

/// One message on stderr, naming `url`, containing each of `hints`; exit `code`; no panic.
fn assert_one_clear_error(
    o: &std::process::Output,
    url: &str,
    code: i32,
    hints: &[String],
    what: &str,
) {
    assert_clean_failure(o, what);
    let err = stderr_str(o);
    assert_eq!(
        o.status.code(),
        Some(code),
        "{what}: exit code (stderr: {err})"
    );
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(
        lines.len(),
        1,
        "{what}: want one message on stderr, got {}:\n{err}",
        lines.len()
    );
    assert!(
        lines[0].starts_with("tangle: error:"),
        "{what}: not an error message: {err}"
    );
    assert!(
        lines[0].contains(url),
        "{what}: the message does not name the remote {url}: {err}"
    );
    for hint in hints {
        assert!(
            lines[0].contains(hint.as_str()),
            "{what}: the message does not say {hint:?}: {err}"
        );
    }
}

struct BadRemote {
    what: &'static str,
    /// URL for `-r URL snapshots` (a real repository where the problem allows one).
    repo_url: String,
    /// A fresh URL of the same kind, for `init`.
    init_url: String,
    env: Vec<(&'static str, String)>,
    /// Variables of the servers' environment to leave out.
    unset: Vec<&'static str>,
    snapshots_code: i32,
    init_code: i32,
    /// What the message must say (the setting to check).
    hints: Vec<String>,
}

#[test]
fn misconfigured_or_unreachable_remotes_give_one_clear_error() {
    if !servers_configured() {
        return;
    }
    // A real repository, so that credential and host-key failures are not confused
    // with "nothing there".
    let m = Mixed::new("errors");
    m.init();
    let ssh_config = servers::var("TANGLE_TEST_SSH_CONFIG").expect("TANGLE_TEST_SSH_CONFIG");
    let no_host_keys = format!(
        "ssh -F {ssh_config} -o UserKnownHostsFile=/dev/null -o GlobalKnownHostsFile=/dev/null \
         -o StrictHostKeyChecking=yes"
    );
    let endpoint = servers::var("AWS_ENDPOINT").expect("AWS_ENDPOINT");
    // Where else the setting can go: the remote's table in a profile.
    let profile_table = "in the profile's [remote.\"s3://".to_string();
    let mut cases = vec![
        BadRemote {
            what: "wrong S3 secret",
            repo_url: m.s3.clone(),
            init_url: s3_url("wrong-secret"),
            env: vec![("AWS_SECRET_ACCESS_KEY", "wrong".to_string())],
            unset: vec![],
            snapshots_code: 1,
            init_code: 1,
            hints: vec!["access denied (check AWS_SECRET_ACCESS_KEY)".into()],
        },
        BadRemote {
            what: "no S3 credentials",
            repo_url: m.s3.clone(),
            init_url: s3_url("no-credentials"),
            // With no credentials, the EC2 instance metadata service is asked last: here
            // a closed port, so that nothing but 127.0.0.1 is contacted.
            env: vec![("AWS_METADATA_ENDPOINT", S3_DOWN.to_string())],
            unset: vec!["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"],
            snapshots_code: 1,
            init_code: 1,
            hints: vec![
                "no S3 credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY".into(),
                profile_table.clone(),
                "docs/REMOTES.md".into(),
            ],
        },
        BadRemote {
            what: "unknown SSH host key",
            repo_url: m.sftp.clone(),
            init_url: sftp_url("host-key"),
            env: vec![("TANGLE_SSH_COMMAND", no_host_keys)],
            unset: vec![],
            snapshots_code: 1,
            init_code: 1,
            hints: vec!["Host key verification failed".into()],
        },
        BadRemote {
            what: "unreachable SSH host",
            repo_url: "sftp://root@127.0.0.1:1/x".to_string(),
            init_url: "sftp://root@127.0.0.1:1/x".to_string(),
            env: vec![],
            unset: vec![],
            snapshots_code: 1,
            init_code: 1,
            hints: vec!["Connection refused".into()],
        },
        BadRemote {
            what: "missing S3 bucket",
            repo_url: "s3://no-such-bucket-xyz/p".to_string(),
            init_url: "s3://no-such-bucket-xyz/p".to_string(),
            env: vec![],
            unset: vec![],
            // Opening a repository there: "repository not found" (10). `init` cannot
            // create the bucket: a fatal error (1), not a missing repository.
            snapshots_code: 10,
            init_code: 1,
            hints: vec![
                format!("bucket no-such-bucket-xyz does not exist at {endpoint}"),
                "create it".into(),
            ],
        },
    ];
    // The test server's endpoint is plain http (it needs AWS_ALLOW_HTTP).
    if endpoint.starts_with("http://") {
        cases.push(BadRemote {
            what: "plain-http S3 endpoint without AWS_ALLOW_HTTP",
            repo_url: m.s3.clone(),
            init_url: s3_url("plain-http"),
            hints: vec![
                format!("the endpoint {endpoint} is plain http: set AWS_ALLOW_HTTP=true"),
                profile_table,
            ],
            env: vec![],
            unset: vec!["AWS_ALLOW_HTTP"],
            snapshots_code: 1,
            init_code: 1,
        });
    }

    for case in &cases {
        // tangle -r URL snapshots
        let mut c = m.cmd_fresh(&case.repo_url);
        c.arg("snapshots");
        for (k, v) in &case.env {
            c.env(k, v);
        }
        for k in &case.unset {
            c.env_remove(k);
        }
        let o = run_any(&mut c);
        assert_one_clear_error(
            &o,
            &case.repo_url,
            case.snapshots_code,
            &case.hints,
            &format!("{}: tangle -r {} snapshots", case.what, case.repo_url),
        );

        // tangle init --remote DIR --remote DIR --remote URL: fails, leaves no
        // repository behind in the good remotes (a corrected retry just works).
        let tag = case.what.replace(' ', "-");
        let dirs: Vec<PathBuf> = (0..3)
            .map(|i| m.repo.path(&format!("init-{tag}-{i}")))
            .collect();
        let mut c = m.cmd_no_repo(&m.repo.fresh_home());
        c.arg("init")
            .arg("--remote")
            .arg(&dirs[0])
            .arg("--remote")
            .arg(&dirs[1])
            .arg("--remote")
            .arg(&case.init_url);
        for (k, v) in &case.env {
            c.env(k, v);
        }
        for k in &case.unset {
            c.env_remove(k);
        }
        let o = run_any(&mut c);
        let what = format!("{}: tangle init ... --remote {}", case.what, case.init_url);
        assert_one_clear_error(&o, &case.init_url, case.init_code, &case.hints, &what);
        for d in &dirs[..2] {
            assert!(
                !d.join("config").exists() && files_under(d).is_empty(),
                "{what}: the failed init wrote to {}: {:?}",
                d.display(),
                files_under(d)
            );
        }
        run_ok(
            m.cmd_no_repo(&m.repo.fresh_home())
                .arg("init")
                .arg("--remote")
                .arg(&dirs[0])
                .arg("--remote")
                .arg(&dirs[1])
                .arg("--remote")
                .arg(&dirs[2]),
        );
    }
    // Nothing above touched the real repository.
    let out = run_ok(m.cmd_fresh(&m.sftp).arg("snapshots").arg("--json"));
    assert!(parse_snapshots(&out.stdout).is_empty());
    assert!(fs::metadata(Path::new(&m.local).join("config")).is_ok());
}

// ---------------------------------------------------------------------------------
// Delete killed at random moments, over real network remotes
// ---------------------------------------------------------------------------------

/// `kill -9` of a delete (which repacks, re-encodes and consolidates) over a local, an S3
/// and an SFTP remote at a few random moments: the repository verifies without damage
/// beyond repairable, the kept snapshot restores identical, and repair plus a second
/// delete leave it clean.
#[test]
fn a_delete_killed_over_s3_and_sftp_leaves_a_sound_repository() {
    if !servers_configured() {
        return;
    }
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..3u64 {
        let m = Mixed::new(&format!("kill-delete-{round}"));
        m.init();
        let (a, b) = (m.repo.dir("a"), m.repo.dir("b"));
        write_file(&a.join("big.bin"), &pseudo_random(round, 3_000_000));
        write_file(&b.join("mid.bin"), &pseudo_random(50 + round, 2_000_000));
        m.backup(m.cmd(&m.local), &a, "backup a");
        let (kept, _) = m.backup(m.cmd(&m.local), &b, "backup b");
        let expected = manifest(&b);

        let mut delete = tangle_std(&m.repo.home);
        for v in SERVER_ENV {
            if let Some(val) = std::env::var_os(v) {
                delete.env(v, val);
            }
        }
        delete
            .args([
                "-r",
                &m.local,
                "delete",
                "--keep-last",
                "1",
                "--group-by",
                "",
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        let mut child = delete.spawn().expect("spawn delete");
        // The moment is the adversary's choice, not a synchronisation.
        std::thread::sleep(std::time::Duration::from_millis(next() % 1500));
        let _ = child.kill();
        let _ = child.wait();

        let what = format!("round {round}: after a killed delete");
        let out = run_any(m.cmd_fresh(&m.s3).arg("verify"));
        assert_no_panic(&out, &what);
        assert!(
            matches!(out.status.code(), Some(0) | Some(20)),
            "{what}: verify exit {:?}\n{}{}",
            out.status.code(),
            stdout_str(&out),
            stderr_str(&out)
        );
        m.restore_identical(
            m.cmd_fresh(&m.sftp),
            &kept.snapshot_id,
            &b,
            &expected,
            &what,
        );
        run_ok(m.cmd(&m.local).arg("repair"));
        run_ok(
            m.cmd(&m.local)
                .args(["delete", "--keep-last", "1", "--group-by", ""]),
        );
        let out = run_ok(
            m.cmd_fresh(&m.sftp)
                .args(["verify", "--read-data", "--json"]),
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(
            verify_findings(&v).iter().all(|f| f["severity"] == "info"),
            "{what}: not clean after the second delete:\n{}",
            show_findings(&v)
        );
        m.restore_identical(
            m.cmd_fresh(&m.s3),
            &kept.snapshot_id,
            &b,
            &expected,
            &format!("{what}, finished"),
        );
    }
}
