//! A writer key's backups over remotes that refuse everything but create-only writes
//! (issue 35, DESIGN.md §17): three local directory remotes (not in-memory ones: `writer
//! add` publishes the config by URL, and a `memory://` URL opens an empty remote), each
//! wrapped in [`tangle::remote::faulty::Faulty`] with a rule that fails every overwrite (`put`),
//! every other create (`put_new`), every delete and every `create`. Two backups as the
//! writer (the second with a changed file and an unchanged one) succeed with every remote
//! written, no rule is ever hit (each write was one `put_once`), and the owner restores
//! each snapshot byte for byte.

use std::collections::BTreeMap;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::memory_repo::{backup_options, open_unlocked, restore_options, source_dir};
use crate::shared::files::{pseudo_random, write_file};
use crate::shared::init::small_init_options;
use tangle::Kind;
use tangle::ops::Progress;
use tangle::ops::{backup, restore, writer};
use tangle::remote::faulty::{Fault, Faulty, Op, Rule};
use tangle::remote::{DynRemote, Remote};
use tangle::repo::{LockKind, Repository, init_remotes};

const PW: &[u8] = b"pw";
const HOST: &str = "writer-create-only";

/// Every operation that overwrites, deletes or writes otherwise than create-only.
const REFUSED: [Op; 4] = [Op::Put, Op::PutNew, Op::Delete, Op::Create];

/// Every file and symlink below `root` (relative path → bytes or link target; a
/// directory → empty), to compare trees byte for byte.
fn read_tree(root: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    fn walk(root: &Path, p: &Path, out: &mut BTreeMap<PathBuf, Option<Vec<u8>>>) {
        let m = std::fs::symlink_metadata(p).unwrap();
        let rel = p.strip_prefix(root).unwrap().to_path_buf();
        if m.file_type().is_symlink() {
            let t = std::fs::read_link(p).unwrap();
            out.insert(rel, Some(t.as_os_str().as_bytes().to_vec()));
        } else if m.is_dir() {
            out.insert(rel, None);
            for e in std::fs::read_dir(p).unwrap() {
                walk(root, &e.unwrap().path(), out);
            }
        } else {
            out.insert(rel, Some(std::fs::read(p).unwrap()));
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// One backup of `src` as the writer `key` (a process of its own: a fresh open, a new
/// run key), holding its shared lock as `tangle backup --writer-key` does.
fn writer_backup(
    remotes: &[DynRemote],
    key: &tangle::crypto::writer::WriterKey,
    cache: &Path,
    src: &Path,
) -> backup::BackupReport {
    let repo = Repository::open_with_remotes(remotes.to_vec(), 0, Some(cache.into()))
        .expect("open as the writer's host");
    let repo = repo.open_as_writer(key.clone()).expect("open_as_writer");
    let lock = repo
        .lock(LockKind::Shared, "backup")
        .expect("the writer's lock");
    let report = backup::run(&repo, &backup_options(src, HOST), &Progress::default())
        .expect("the writer's backup");
    // Released here, while the rules still hold: with an end object, not a delete.
    drop(lock);
    report
}

#[test]
fn a_fault_rule_that_fails_overwrites_and_deletes_is_never_hit_by_a_writer() {
    let dirs = tempfile::tempdir().unwrap();
    let faulty: Vec<Arc<Faulty>> = (0..3)
        .map(|i| {
            let dir = dirs.path().join(format!("remote{i}"));
            let remote = tangle::remote::open(dir.to_str().unwrap()).unwrap();
            Arc::new(Faulty::new(remote))
        })
        .collect();
    let remotes: Vec<DynRemote> = faulty.iter().map(|f| f.clone() as DynRemote).collect();
    init_remotes(remotes.clone(), &small_init_options(64 * 1024), PW).expect("init");
    let key = {
        let (owner, _cache) = open_unlocked(&remotes, PW);
        writer::add(&owner, "db").expect("writer add").0
    };

    // From here on the storage is create-only. (The owner's calls so far are counted
    // too: only those from here on are the writer's.)
    let before: Vec<Vec<u64>> = (faulty.iter())
        .map(|f| Op::ALL.iter().map(|op| f.calls_to(*op)).collect())
        .collect();
    let since = |i: usize, op: Op| {
        let k = Op::ALL.iter().position(|o| *o == op).unwrap();
        faulty[i].calls_to(op) - before[i][k]
    };
    for f in &faulty {
        f.add(Rule::new(Fault::Error(Kind::Fatal)).ops(&REFUSED));
    }
    let (_tmp, src) = source_dir();
    write_file(&src.join("big.bin"), &pseudo_random(1, 300_000));
    write_file(&src.join("d/same.bin"), &pseudo_random(2, 90_000));
    write_file(&src.join("d/small.txt"), b"small\n");
    std::os::unix::fs::symlink("d/small.txt", src.join("link")).unwrap();
    let writer_cache = tempfile::tempdir().unwrap();

    let first = writer_backup(&remotes, &key, writer_cache.path(), &src);
    let first_tree = read_tree(&src);
    // A changed file (another size, so no stamp can match) beside unchanged ones.
    let mut big = pseudo_random(1, 300_000);
    big.extend_from_slice(&pseudo_random(3, 70_000));
    write_file(&src.join("big.bin"), &big);
    let second = writer_backup(&remotes, &key, writer_cache.path(), &src);
    let second_tree = read_tree(&src);

    for (what, r) in [("first", &first), ("second", &second)] {
        assert_eq!(r.degraded_remotes, Vec::<String>::new(), "{what}: {r:?}");
        assert!(r.errors.is_empty(), "{what}: {r:?}");
    }
    assert_eq!(
        (second.files_changed, second.files_unchanged),
        (1, 2),
        "{second:?}"
    );
    for (i, f) in faulty.iter().enumerate() {
        assert_eq!(
            (f.injected(), f.log()),
            (0, vec![]),
            "{}: the writer asked for an overwrite, delete or create",
            f.url()
        );
        for op in REFUSED {
            assert_eq!(since(i, op), 0, "{}: {op:?}", f.url());
        }
        assert!(since(i, Op::PutOnce) > 0, "{}: written to at all", f.url());
    }

    // The owner (the rules lifted: it may overwrite and delete) restores both.
    for f in &faulty {
        f.clear();
    }
    let (owner, _cache) = open_unlocked(&remotes, PW);
    for (r, tree) in [(&first, &first_tree), (&second, &second_tree)] {
        let id = r.snapshot_id.clone().expect("a snapshot");
        let target = tempfile::tempdir().unwrap();
        let report = restore::run(
            &owner,
            &restore_options(&id, target.path(), true),
            &Progress::default(),
        )
        .expect("the owner's restore");
        assert!(report.errors.is_empty(), "{report:?}");
        let root = target.path().join(src.strip_prefix("/").unwrap());
        assert!(
            read_tree(&root) == *tree,
            "snapshot {id} restores otherwise"
        );
    }
}
