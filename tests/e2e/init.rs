//! End-to-end: `tangle init`.

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{
    assert_clean_failure, run_any, run_code, run_ok, stderr_str, stdout_str,
};
use crate::support::manifest::manifest;
use crate::support::remote_dirs::assert_remotes_unchanged;
use crate::support::repo::{CODING_4_3, Client, Repo};

/// init over three dirs that do not exist yet: prints the coding, every remote gets a
/// config, and the (empty) repository opens through each remote.
#[test]
fn init_creates_repository_on_three_new_dirs() {
    let repo = Repo::uninit();
    for r in &repo.remotes {
        assert!(!r.exists());
    }
    let o = run_ok(&mut repo.init_cmd(&repo.remotes, &[]));
    let out = stdout_str(&o);
    assert!(
        out.contains("12 data + 9 parity shards per extent, 6 pointers (1.75x storage)"),
        "init does not print the coding:\n{out}"
    );
    assert!(out.contains("any 9 shards of an extent"), "{out}");
    assert!(
        out.to_lowercase().contains("toleran"),
        "init does not print the fault tolerance:\n{out}"
    );
    for (i, r) in repo.remotes.iter().enumerate() {
        assert!(
            r.join("config").is_file(),
            "remote{i} has no config after init"
        );
        let snaps = repo.snapshots_via(i);
        assert!(
            snaps.is_empty(),
            "fresh repository lists snapshots via remote{i}: {snaps:?}"
        );
    }
}

/// Two inits give two different repository ids (the id is printed).
#[test]
fn init_prints_distinct_repository_ids() {
    let a = Repo::uninit();
    let b = Repo::uninit();
    let oa = stdout_str(&run_ok(&mut a.init_cmd(&a.remotes, &[])));
    let ob = stdout_str(&run_ok(&mut b.init_cmd(&b.remotes, &[])));
    assert_ne!(
        oa, ob,
        "two inits printed the same text (no repository id?)"
    );
    // Some id-like token (>= 8 alphanumerics with a digit: the repository id or key
    // fingerprint) printed by one init is not printed by the other.
    let id_tokens = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|t| t.len() >= 8 && t.bytes().any(|b| b.is_ascii_digit()))
            .map(str::to_string)
            .collect()
    };
    let ta = id_tokens(&oa);
    assert!(
        !ta.is_empty(),
        "init prints no repository id / fingerprint:\n{oa}"
    );
    assert!(
        ta.iter().any(|t| !ob.contains(t.as_str())),
        "ids are not distinct:\n{oa}\n{ob}"
    );
}

/// The explicit default parameters are accepted.
#[test]
fn init_accepts_explicit_parameters() {
    let repo = Repo::uninit();
    let o = run_ok(&mut repo.init_cmd(&repo.remotes, &CODING_4_3));
    let out = stdout_str(&o);
    assert!(out.contains("4 data + 3 parity"), "init output:\n{out}");
    // And it is a working repository.
    let src = repo.dir("src");
    write_file(&src.join("f"), &pseudo_random(5, 300_000));
    let expected = manifest(&src);
    let r = repo.backup(&[&src], &[]);
    repo.assert_restores(
        &r.snapshot_id,
        &src,
        &expected,
        "restore from an explicitly configured repo",
    );
}

/// init over an existing repository: exit 1, "already", nothing changed. Also when
/// only one of the given remotes holds the repository.
#[test]
fn init_over_existing_repository_fails_and_changes_nothing() {
    let (repo, src) = Repo::with_source("f", b"some data");
    let snap = repo.backup(&[&src], &[]).snapshot_id;
    let before = repo.remote_state();

    let o = run_code(&mut repo.init_cmd(&repo.remotes, &[]), 1);
    assert_clean_failure(&o, "second init");
    assert!(
        stderr_str(&o).to_lowercase().contains("already"),
        "message:\n{}",
        stderr_str(&o)
    );
    assert_remotes_unchanged(&before, &repo.remote_state(), "second init");

    let fresh = vec![
        repo.remotes[0].clone(),
        repo.path("new1"),
        repo.path("new2"),
    ];
    let o = run_code(&mut repo.init_cmd(&fresh, &[]), 1);
    assert_clean_failure(&o, "init with one existing remote");
    assert!(
        stderr_str(&o).to_lowercase().contains("already"),
        "message:\n{}",
        stderr_str(&o)
    );
    assert_remotes_unchanged(
        &before,
        &repo.remote_state(),
        "init with one existing remote",
    );

    // The repository still works.
    assert_eq!(repo.snapshot_ids(), vec![snap]);
}

/// A coding that cannot survive the loss of one of three remotes is refused:
/// exit 1, a message, and no repository is created.
#[test]
fn init_refuses_coding_that_cannot_survive_losing_a_remote() {
    let repo = Repo::uninit();
    let o = run_code(
        &mut repo.init_cmd(
            &repo.remotes,
            &["--data-shards", "6", "--parity-shards", "1"],
        ),
        1,
    );
    assert_clean_failure(&o, "init with 6 data + 1 parity on 3 remotes");
    for (i, r) in repo.remotes.iter().enumerate() {
        assert!(
            !r.join("config").exists(),
            "refused init still wrote remote{i}/config"
        );
    }
    let o = run_any(repo.cmd_as(Client::via(0)).arg("snapshots"));
    assert_eq!(
        o.status.code(),
        Some(10),
        "refused init left an openable repository"
    );
}
