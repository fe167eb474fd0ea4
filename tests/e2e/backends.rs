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
use crate::support::report::verify_damage;
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

/// One Azure Blob Storage remote (Azurite), one S3 (s3s-fs) and one local.
const AZURE_AND_S3: Setup = |repo| {
    if !servers::require("Azure (Azurite)", servers::AZURE_VARS)
        || !servers::require("S3", servers::S3_VARS)
    {
        return None;
    }
    let name = servers::unique("cli-azure");
    let az = format!(
        "az://{}/{name}",
        var("TANGLE_TEST_AZURE_CONTAINER").unwrap()
    );
    let s3 = format!("s3://{}/{name}", var("TANGLE_TEST_S3_BUCKET").unwrap());
    Some(Remotes {
        all: vec![az.clone(), repo.url(0), s3.clone()],
        network: vec![az, s3],
        env: vec![],
        damage: None,
    })
};

scenario!(
    backup_and_restore_through_each_network_remote:
    s3_and_sftp => S3_AND_SFTP,
    sftp_server => SFTP_SERVER,
    moto_and_rclone => MOTO_AND_RCLONE,
    azure_and_s3 => AZURE_AND_S3,
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

/// A shard on the Azure remote altered behind tangle's back (same size, other bytes): a
/// restore through that remote still comes out byte-identical, `verify --read-data` names
/// exactly that remote (exit 20), `repair` puts the right shard back, and verify is clean.
#[test]
fn an_altered_shard_on_azure_is_named_and_repaired() {
    let repo = Repo::uninit();
    let Some(remotes) = AZURE_AND_S3(&repo) else {
        return;
    };
    let az = remotes.network[0].clone();
    let tangle = |via: &str| -> Command {
        let mut c = repo.cmd_as(Client::no_repo());
        pass_env(&mut c, SERVER_ENV);
        c.arg("-r").arg(via);
        c
    };
    let mut init = repo.cmd_as(Client::no_repo());
    pass_env(&mut init, SERVER_ENV);
    init.arg("init");
    for url in &remotes.all {
        init.args(["--remote", url]);
    }
    run_ok(&mut init);
    let src = repo.dir("src");
    write_file(&src.join("data"), &pseudo_random(3, 2 * MIB as usize + 5));
    let expected = manifest(&src);
    run_ok(tangle(&repo.url(0)).arg("backup").arg(&src));

    // Alter the first shard the Azure remote holds.
    let rt = servers::runtime();
    let remote = tangle::remote::open(&az).unwrap();
    let shard = rt
        .block_on(remote.list("shards"))
        .unwrap()
        .into_iter()
        .find(|o| o.size > 0)
        .expect("the Azure remote holds a shard");
    let good = rt.block_on(remote.get(&shard.path)).unwrap();
    let bad: Vec<u8> = good.iter().map(|b| b ^ 0x5a).collect();
    const W: tangle::remote::WriteAccess = tangle::remote::WriteAccess::for_tests();
    rt.block_on(remote.put(W, &shard.path, bad.into())).unwrap();

    let target = repo.path("restored");
    run_ok(
        tangle(&az)
            .args(["restore", "latest", "--target"])
            .arg(&target),
    );
    assert_tree_matches(
        &expected,
        &restored_path(&target, &src),
        "restore through Azure",
    );

    let out = run_any(tangle(&repo.url(0)).args(["verify", "--read-data", "--json"]));
    let text = stdout_str(&out);
    assert_eq!(
        out.status.code(),
        Some(20),
        "verify: {text}\n{}",
        stderr_str(&out)
    );
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let damage = verify_damage(&report);
    assert!(
        damage.iter().any(|f| f["kind"] == "bad-shard")
            && damage
                .iter()
                .all(|f| f["remote"].as_str() == Some(az.as_str())),
        "verify should find a bad shard on {az} and nothing elsewhere:\n{text}"
    );
    run_ok(tangle(&repo.url(0)).arg("repair"));
    assert_eq!(rt.block_on(remote.get(&shard.path)).unwrap(), good);
    run_ok(tangle(&az).args(["verify", "--read-data"]));
}

/// An `az://` URL naming a container that does not exist: one message naming the
/// container and what to check, exit 10 (no repository there) for `snapshots` and exit 1
/// for `init`, which never creates containers.
#[test]
fn a_missing_azure_container_is_one_clear_error() {
    if !servers::require("Azure (Azurite)", servers::AZURE_VARS) {
        return;
    }
    let repo = Repo::uninit();
    let url = format!("az://no-such-container/{}", servers::unique("missing"));
    let cmd = || -> Command {
        let mut c = repo.cmd_as(Client::no_repo());
        pass_env(&mut c, SERVER_ENV);
        c
    };
    let says = |out: &std::process::Output| {
        let text = stderr_str(out);
        assert!(
            text.contains("container no-such-container does not exist")
                && text.contains("tangle never creates containers")
                && !text.contains("panicked"),
            "{text}"
        );
    };
    let out = run_any(cmd().args(["-r", &url, "snapshots"]));
    assert_eq!(out.status.code(), Some(10), "{}", stderr_str(&out));
    says(&out);
    let out = run_any(
        cmd()
            .args(["init", "--remote", &url, "--remote"])
            .arg(repo.url(0))
            .arg("--remote")
            .arg(repo.url(1)),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr_str(&out));
    says(&out);
}
