//! The binary end to end over each network backend and the second implementation of
//! each protocol: init over a local remote and network ones, a backup, then through each
//! network remote the snapshot listed, `verify --read-data` clean and a byte-identical
//! restore. Where the scenario damages a network remote that keeps its objects on this
//! machine, its shards removed behind its back are found by verify and put back by
//! repair. One scenario over three sets of remotes (moved from the conformance suite,
//! which tests the backends through the library).

use std::path::PathBuf;

use assert_cmd::Command;

use crate::shared::files::{pseudo_random, write_file};
use crate::shared::servers::{self, sftp_server, sftp_server_command, var};
use crate::support::command::{SERVER_ENV, pass_env, run_any, run_ok, stderr_str, stdout_str};
use crate::support::fsutil::MIB;
use crate::support::manifest::{assert_tree_matches, manifest};
use crate::support::repo::{Client, Repo, restored_path};
use crate::support::scenario;

/// The remotes of one configuration.
struct Remotes {
    /// Every remote, in the order `init` gets them.
    all: Vec<String>,
    /// The network remotes among them; the backup goes through the first.
    network: Vec<String>,
    /// Environment the commands need besides the test servers' (`SERVER_ENV`).
    env: Vec<(&'static str, String)>,
    /// Where the last network remote keeps its objects on this machine, when the scenario
    /// damages it.
    damage: Option<PathBuf>,
}

/// The remotes of a configuration for `repo`; `None` where its servers are not
/// configured here (the test skips).
type Setup = fn(&Repo) -> Option<Remotes>;

/// A unique URL under the base URL in the variable `base`.
fn under(base: &str, name: &str) -> String {
    format!("{}/{name}", var(base).unwrap().trim_end_matches('/'))
}

/// One local, one S3 (s3s-fs) and one SFTP (sshd) remote.
const S3_AND_SFTP: Setup = |repo| {
    if !servers::require("S3", servers::S3_VARS) || !servers::require("SFTP", servers::SFTP_VARS) {
        return None;
    }
    let name = servers::unique("cli");
    let s3 = format!("s3://{}/{name}", var("TANGLE_TEST_S3_BUCKET").unwrap());
    let sftp = under("TANGLE_TEST_SFTP_URL", &name);
    Some(Remotes {
        all: vec![s3.clone(), sftp.clone(), repo.url(0)],
        network: vec![s3, sftp],
        env: vec![],
        damage: None,
    })
};

/// An SFTP remote served by the `sftp-server` program (no sshd) and a local one.
const SFTP_SERVER: Setup = |repo| {
    let bin = sftp_server()?;
    let sftp = format!("sftp://localhost{}", repo.path("sftp").display());
    Some(Remotes {
        all: vec![sftp.clone(), repo.url(0)],
        network: vec![sftp],
        env: vec![("TANGLE_SSH_COMMAND", sftp_server_command(bin))],
        damage: None,
    })
};

/// One local, one moto (S3) and one `rclone serve sftp` remote. rclone answers OK to
/// `hardlink@openssh.com` without linking: init's writes must be confirmed, not trusted.
const MOTO_AND_RCLONE: Setup = |repo| {
    if !servers::require("moto S3", servers::MOTO_VARS)
        || !servers::require("rclone SFTP", servers::RCLONE_VARS)
    {
        return None;
    }
    let name = servers::unique("cli-alt");
    let s3 = format!("s3://{}/{name}", var("TANGLE_TEST_MOTO_BUCKET").unwrap());
    let sftp = under("TANGLE_TEST_RCLONE_SFTP_URL", &name);
    Some(Remotes {
        all: vec![repo.url(0), s3.clone(), sftp.clone()],
        damage: Some(servers::rclone_local_dir(&sftp).unwrap()),
        network: vec![s3, sftp],
        env: vec![("AWS_ENDPOINT", var("TANGLE_TEST_MOTO_ENDPOINT").unwrap())],
    })
};

scenario!(
    backup_and_restore_through_each_network_remote:
    s3_and_sftp => S3_AND_SFTP,
    sftp_server => SFTP_SERVER,
    moto_and_rclone => MOTO_AND_RCLONE,
);

fn backup_and_restore_through_each_network_remote(setup: Setup) {
    let repo = Repo::uninit();
    let Some(remotes) = setup(&repo) else {
        return;
    };
    // The test servers' environment, then the configuration's own.
    let no_repo = || -> Command {
        let mut c = repo.cmd_as(Client::no_repo());
        pass_env(&mut c, SERVER_ENV);
        c.envs(remotes.env.iter().map(|(k, v)| (k, v)));
        c
    };
    let tangle = |via: &str| -> Command {
        let mut c = no_repo();
        c.arg("-r").arg(via);
        c
    };
    let mut init = no_repo();
    init.arg("init");
    for url in &remotes.all {
        init.args(["--remote", url]);
    }
    run_ok(&mut init);
    if let Some(dir) = &remotes.damage {
        assert!(
            dir.join("config").is_file(),
            "no config in {}",
            dir.display()
        );
    }

    let src = repo.dir("src");
    write_file(&src.join("big"), &pseudo_random(9, 3 * MIB as usize + 17));
    write_file(&src.join("sub/small"), b"hello");
    let expected = manifest(&src);
    // run_ok fails on a panic message too.
    run_ok(tangle(&remotes.network[0]).arg("backup").arg(&src));
    // The backup removed its lock before it exited: over S3 it once dropped its runtime
    // first, printed a panic and left the lock for others to wait on.
    let out = run_ok(tangle(&remotes.network[0]).args(["--json", "unlock", "--remove-all"]));
    let unlocked: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        unlocked["removed"],
        serde_json::json!([]),
        "the backup left its lock behind"
    );
    for (i, via) in remotes.network.iter().enumerate() {
        let out = run_ok(tangle(via).arg("snapshots"));
        assert!(stdout_str(&out).contains("1 snapshots"), "{via}: {out:?}");
        run_ok(tangle(via).args(["verify", "--read-data"]));
        let target = repo.path(&format!("restore{i}"));
        run_ok(
            tangle(via)
                .args(["restore", "latest", "--target"])
                .arg(&target),
        );
        assert_tree_matches(
            &expected,
            &restored_path(&target, &src),
            &format!("restored through {via}"),
        );
    }

    let Some(dir) = &remotes.damage else {
        return;
    };
    let (first, last) = (&remotes.network[0], remotes.network.last().unwrap());
    std::fs::remove_dir_all(dir.join("shards")).unwrap();
    let out = run_any(tangle(first).arg("verify"));
    let text = stdout_str(&out) + &stderr_str(&out);
    assert_eq!(
        out.status.code(),
        Some(20),
        "verify after losing {last}'s shards: {text}"
    );
    assert!(
        text.contains(last.as_str()),
        "verify does not name {last}: {text}"
    );
    run_ok(tangle(first).arg("repair"));
    run_ok(tangle(last).args(["verify", "--read-data"]));
}
