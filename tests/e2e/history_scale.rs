//! A nightly backup costs what changed, not what the repository holds (issue 37): the
//! pointer catalog takes the certificates this client fetched before from its cache, so
//! a backup fetches only those of new extents, and the owner's takes their names from
//! its index, so it lists no `extents/`. The counts come from `TANGLE_DEBUG_REQUESTS`
//! (`tangle: remote requests: list L, get G, ..., list_pages P`).
//!
//! A kept certificate may be behind a re-signing done by another client (a delete that
//! re-encodes, under the same name): the backup after it must still be whole.

use std::path::{Path, PathBuf};

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{run_ok, stderr_str};
use crate::support::manifest::manifest;
use crate::support::repo::{Client, Repo};

/// Three remotes, 64 KiB extents (so a few MiB make many), a weak KDF.
fn init_small() -> Repo {
    init_with(65536, &[])
}

/// Three remotes, extents of `extent_size` bytes, `init` flags `extra`, a weak KDF.
fn init_with(extent_size: usize, extra: &[&str]) -> Repo {
    let repo = Repo::uninit();
    run_ok(
        repo.init_cmd(&repo.remotes, extra)
            .env("TANGLE_TEST_EXTENT_SIZE", extent_size.to_string())
            .env("TANGLE_TEST_WEAK_KDF", "1"),
    );
    repo
}

/// What one command asked of the remotes (all three together).
#[derive(Debug, Clone, Copy)]
struct Requests {
    gets: u64,
    /// Pages its listings would take on S3 (1,000 names a page).
    list_pages: u64,
}

/// Requests of an unchanged `backup` of `src`. The backup before it read the files,
/// which changed their access times (and so the trees): the second of two backups is
/// the unchanged one.
fn unchanged_backup(repo: &Repo, src: &Path) -> Requests {
    backup(repo, src);
    backup(repo, src)
}

/// Requests of a `backup` of `src`.
fn backup(repo: &Repo, src: &Path) -> Requests {
    let out = run_ok(
        repo.cmd()
            .env("TANGLE_DEBUG_REQUESTS", "1")
            .args(["backup", "-q", "--no-progress"])
            .arg(src),
    );
    let err = stderr_str(&out);
    let count = |what: &str| -> u64 {
        (err.split("remote requests: ").nth(1))
            .and_then(|r| r.split(&format!(" {what} ")).nth(1))
            .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no {what} count in:\n{err}"))
    };
    Requests {
        gets: count("get"),
        list_pages: count("list_pages"),
    }
}

/// A repository of [`init_small`] holding one backup of a `size`-byte file, and the
/// directory backed up.
fn backed_up(size: usize) -> (Repo, PathBuf) {
    let repo = init_small();
    let src = repo.dir("src");
    write_file(&src.join("first.bin"), &pseudo_random(1, size));
    repo.backup(&[&src], &[]);
    (repo, src)
}

fn extents(repo: &Repo) -> usize {
    std::fs::read_dir(repo.remotes[0].join("extents"))
        .unwrap()
        .count()
}

#[test]
fn an_unchanged_backup_fetches_no_certificate_of_the_history() {
    let (repo, src) = backed_up(2 << 20);
    let small = (extents(&repo), unchanged_backup(&repo, &src).gets);

    for i in 0..3u64 {
        write_file(
            &src.join(format!("more-{i}.bin")),
            &pseudo_random(10 + i, 2 << 20),
        );
        repo.backup(&[&src], &[]);
    }
    // The first backup after the growth fetched the new extents' certificates; an
    // unchanged one after it fetches none of the history's. Before the catalog kept its
    // certificates, each extent of the history cost one get (35 extents: 50 gets, 144:
    // 160); what still grows is per run (each run's head), not per extent.
    let large = (extents(&repo), unchanged_backup(&repo, &src).gets);
    assert!(large.0 >= small.0 + 60, "extents {small:?} -> {large:?}");
    assert!(
        large.1 <= small.1 + (large.0 - small.0) as u64 / 10,
        "an unchanged backup made {} gets with {} extents and {} with {}: it should not \
         fetch the history's certificates",
        small.1,
        small.0,
        large.1,
        large.0
    );
}

#[test]
fn a_backup_that_stores_no_data_reads_no_certificate() {
    let (repo, src) = backed_up(4 << 20);
    let baseline = unchanged_backup(&repo, &src).gets;
    let history = extents(&repo) as u64;
    // Without the certificates it kept, a backup that loads the pointer catalog fetches
    // every one again. One that stores no data loads none: it chooses no pointer.
    let kept = kept_certificates(&repo.home);
    assert!(
        kept.len() as u64 >= history / 2,
        "kept {} certificates",
        kept.len()
    );
    for k in &kept {
        std::fs::remove_file(k).unwrap();
    }
    let unchanged = backup(&repo, &src).gets;
    assert!(
        unchanged <= baseline + 3,
        "a backup that stored nothing made {unchanged} gets (unchanged before: {baseline}; \
         {history} extents): it fetched the history's certificates"
    );
    // The next one that stores data does load it, and fetches them.
    write_file(&src.join("new.bin"), &pseudo_random(2, 256 << 10));
    let expected = manifest(&src);
    let changed = backup(&repo, &src).gets;
    assert!(
        changed >= baseline + history,
        "a backup storing new data made {changed} gets with {history} extents not kept"
    );
    run_ok(repo.cmd().args(["verify", "--read-data"]));
    repo.assert_restores(
        "latest",
        &src,
        &expected,
        "the backup that loaded the catalog",
    );
}

#[test]
fn an_unchanged_backup_lists_no_more_pages_with_a_thousand_extents_more() {
    // 4 KiB extents of 2 data and 2 parity shards (2 pointers): a thousand extents from
    // 4 MiB, four shard files each.
    let repo = init_with(
        4096,
        &[
            "--data-shards",
            "2",
            "--parity-shards",
            "2",
            "--pointers",
            "2",
        ],
    );
    let src = repo.dir("src");
    write_file(&src.join("first.bin"), &pseudo_random(1, 64 << 10));
    repo.backup(&[&src], &[]);
    let small = (extents(&repo), unchanged_backup(&repo, &src));

    write_file(&src.join("more.bin"), &pseudo_random(2, 4200 << 10));
    repo.backup(&[&src], &[]);
    let large = (extents(&repo), unchanged_backup(&repo, &src));
    assert!(large.0 >= small.0 + 1000, "extents {small:?} -> {large:?}");
    // Listing `extents/` took two pages a remote from here on: the catalog's names come
    // from the index instead. What grows is per run (a head each), below a page here.
    assert_eq!(
        large.1.list_pages, small.1.list_pages,
        "an unchanged backup's listings grew from {small:?} to {large:?} (extents, requests)"
    );
    assert!(
        large.1.gets <= small.1.gets + 2,
        "an unchanged backup's gets grew from {small:?} to {large:?} (extents, requests)"
    );
}

/// This client's kept certificates (`<cache>/<repo>/catalog/<name>`).
fn kept_certificates(home: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![home.join("cache")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.parent().and_then(|d| d.file_name()) == Some("catalog".as_ref()) {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn kept_certificates_behind_another_clients_delete_or_damaged_leave_backups_whole() {
    let repo = init_small();
    let src = repo.dir("src");
    write_file(&src.join("old.bin"), &pseudo_random(20, 3 << 20));
    let old = repo.backup(&[&src], &[]).snapshot_id;
    std::fs::remove_file(src.join("old.bin")).unwrap();
    write_file(&src.join("kept.bin"), &pseudo_random(21, 2 << 20));
    repo.backup(&[&src], &[]);
    let kept = kept_certificates(&repo.home);
    assert!(
        kept.len() > 20,
        "the backups kept no certificates: {kept:?}"
    );

    // Another client (its own cache) deletes the first snapshot: its extents go, and
    // the codewords that pointed into them are re-encoded and re-signed under their names.
    run_ok(
        repo.cmd_as(Client::via(1).fresh_home())
            .args(["delete", "--no-progress"])
            .arg(&old),
    );
    // And one kept copy here is damaged.
    std::fs::write(&kept[0], b"not a certificate").unwrap();

    // This client's next backup builds on what it kept and what it fetches now.
    write_file(&src.join("new.bin"), &pseudo_random(22, 2 << 20));
    let expected = manifest(&src);
    let id = repo.backup(&[&src], &[]).snapshot_id;
    run_ok(repo.cmd().args(["verify", "--read-data"]));
    repo.assert_restore_matches(2, &id, &src, &expected, "the backup after the delete");
    // Certificates of deleted extents are no longer kept.
    let listed: Vec<_> = (std::fs::read_dir(repo.remotes[0].join("extents")).unwrap())
        .map(|e| e.unwrap().file_name())
        .collect();
    for k in kept_certificates(&repo.home) {
        assert!(
            listed.iter().any(|n| Some(n.as_os_str()) == k.file_name()),
            "{} is kept but no longer listed",
            k.display()
        );
    }
}
