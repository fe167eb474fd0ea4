//! Fault injection through the library: a repository over three in-memory remotes, each
//! wrapped in [`tangle::remote::faulty::Faulty`], with small extents (64 KiB) so that a
//! few hundred KiB give many entangled extents (4 data + 3 parity shards, 2 pointers).
//!
//! Properties (proptest, fixed seeds, few cases):
//! * damage that stays within every codeword's parity (stored objects deleted, flipped,
//!   truncated, replaced; metadata copies damaged on up to two remotes; or one whole
//!   remote wiped): restore is byte-identical, verify names every damaged object and
//!   reports no loss, repair puts back exactly the original objects, verify is clean;
//! * damage within each extent's own parity (pointers not counted): repair (peeling)
//!   brings everything back; restore never writes a wrong byte;
//! * remotes that flip bits in, truncate or fail reads: restore is byte-identical;
//! * damage beyond tolerance: nothing panics, restore never writes a wrong byte (it
//!   reports an error instead), repair only ever writes original bytes, and a clean
//!   verify means a byte-identical restore.
//!
//! Repository methods run their own runtime, so these are plain `#[test]`s.

use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::memory_repo::{backup_options, memory_remotes, open_unlocked, source_dir};
use crate::shared::files::write_file;
use crate::shared::init::small_init_options;
use bytes::Bytes;
use proptest::prelude::*;
use proptest::test_runner::{Config as PtConfig, RngSeed};
use tangle::Kind;
use tangle::ops::Progress;
use tangle::ops::backup::{self};
use tangle::ops::repair::{self, RepairOptions, RepairReport};
use tangle::ops::restore::{self, RestoreOptions};
use tangle::ops::verify::{self, ReadData, Severity, VerifyReport};
use tangle::remote::faulty::{Fault, Faulty, Op, Rule};
use tangle::remote::{DynRemote, MemoryRemote};
use tangle::repo::{Indexed, InitOptions, Public, Repository, State, init_remotes};

/// These tests change remotes directly (the `testing` feature grants it).
const W: tangle::remote::WriteAccess = tangle::remote::WriteAccess::for_tests();

const PW: &[u8] = b"pw";
const R: usize = 3;

type Objects = BTreeMap<String, Bytes>;

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    // MemoryRemote and Faulty never wait on I/O: a trivial executor is enough here.
    futures::executor::block_on(f)
}

/// The remotes' names (`memory://NAME-i`) and the backups' host.
const NAME: &str = "fault-injection";
const HOST: &str = NAME;

fn url(i: usize) -> String {
    format!("memory://{NAME}-{i}")
}

// ---------------------------------------------------------------------------------
// Deterministic randomness
// ---------------------------------------------------------------------------------

/// xorshift64*: the patterns derive from proptest's seeds, nothing else.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, p: f64) -> bool {
        ((self.next() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

// ---------------------------------------------------------------------------------
// The world: one repository built once, copied for every case
// ---------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    File(Vec<u8>),
    Dir,
    Symlink(Vec<u8>),
}

/// One extent as the tests need it.
struct Ext {
    hex: String,
    /// (remote, object path) of each shard, data shards first.
    shards: Vec<(usize, String)>,
    data: usize,
    /// (extent index, shard index) of each pointer input.
    pointers: Vec<(usize, usize)>,
}

impl Ext {
    fn parity(&self) -> usize {
        self.shards.len() - self.data
    }
}

struct World {
    /// The objects on each remote after two backups.
    objects: Vec<Objects>,
    exts: Vec<Ext>,
    /// (snapshot id, expected tree below the backed-up root), oldest first.
    snaps: Vec<(String, BTreeMap<PathBuf, Item>)>,
    /// The backed-up directory (absolute; restore recreates it under the target).
    src: PathBuf,
    /// Where a client keeps its writer id (relative to its cache dir), and the id of
    /// the client that made the backups: every case continues as that client.
    writer_file: PathBuf,
    writer: String,
}

impl World {
    /// For each shard (e, i): the codewords it is a symbol of (its own, and every
    /// codeword that takes it as a pointer).
    fn codewords_of(&self) -> BTreeMap<(usize, usize), Vec<usize>> {
        let mut m: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
        for (e, x) in self.exts.iter().enumerate() {
            for i in 0..x.shards.len() {
                m.entry((e, i)).or_default().push(e);
            }
            for &(pe, ps) in &x.pointers {
                m.entry((pe, ps)).or_default().push(e);
            }
        }
        m
    }

    fn shard_path(&self, (e, i): (usize, usize)) -> &(usize, String) {
        &self.exts[e].shards[i]
    }
}

fn world() -> &'static World {
    static W: OnceLock<World> = OnceLock::new();
    W.get_or_init(build_world)
}

fn init_options() -> InitOptions {
    small_init_options(64 * 1024)
}

fn build_world() -> World {
    let mems = memory_remotes(NAME, R);
    let r = init_remotes(mems.clone(), &init_options(), PW).expect("init");
    assert_eq!((r.data_shards, r.parity_shards, r.pointers), (4, 3, 2));
    let (mut repo, cache) = open_unlocked(&mems, PW);

    let (_tmp, src) = source_dir();
    let mut rng = Rng::new(42);
    for (name, len) in [("a.bin", 200_000), ("b.bin", 150_000), ("d/c.bin", 120_000)] {
        write_file(&src.join(name), &rng.bytes(len));
    }
    write_file(&src.join("d/small.txt"), b"small file\n");
    write_file(&src.join("empty"), b"");
    write_file(&src.join("zeros.bin"), &[0u8; 70_000]);
    std::fs::create_dir_all(src.join("emptydir")).unwrap();
    std::os::unix::fs::symlink("d/small.txt", src.join("link")).unwrap();
    let mut snaps = Vec::new();
    let b1 =
        backup::run(&repo, &backup_options(&src, HOST), &Progress::default()).expect("backup 1");
    snaps.push((b1.snapshot_id.expect("snapshot 1"), read_tree(&src)));

    write_file(&src.join("e/new.bin"), &rng.bytes(180_000));
    write_file(&src.join("d/small.txt"), b"small file, changed\n");
    // A changed middle: most chunks dedup, a few are new.
    let mut a = std::fs::read(src.join("a.bin")).unwrap();
    a[100_000..100_100].copy_from_slice(&rng.bytes(100));
    write_file(&src.join("a.bin"), &a);
    repo.reload_index().unwrap();
    let b2 =
        backup::run(&repo, &backup_options(&src, HOST), &Progress::default()).expect("backup 2");
    snaps.push((b2.snapshot_id.expect("snapshot 2"), read_tree(&src)));

    let certs = repo.load_catalog().unwrap();
    let pos: BTreeMap<String, usize> = certs
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name().hex(), i))
        .collect();
    let exts: Vec<Ext> = certs
        .iter()
        .map(|c| Ext {
            hex: c.name().hex(),
            shards: (0..c.shards.len())
                .map(|i| (c.shards[i].remote as usize, c.name().shard_path(i)))
                .collect(),
            data: c.data_shards as usize,
            pointers: c
                .pointers
                .iter()
                .map(|p| (pos[&p.extent.hex()], p.shard as usize))
                .collect(),
        })
        .collect();
    assert!(exts.len() >= 10, "only {} extents", exts.len());
    assert!(
        exts.iter().any(|x| !x.pointers.is_empty()),
        "no extent has pointers"
    );
    let objects = mems.iter().map(dump).collect();
    let writer_file = PathBuf::from(repo.config.id_hex()).join("writer");
    let writer = hex(&repo.writer_id().unwrap());
    assert_eq!(
        std::fs::read_to_string(cache.path().join(&writer_file))
            .unwrap()
            .trim(),
        writer,
        "the writer id is not where this test expects it"
    );
    World {
        objects,
        exts,
        snaps,
        src,
        writer_file,
        writer,
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn dump(r: &DynRemote) -> Objects {
    block_on(async {
        let mut out = Objects::new();
        for o in r.list("").await.unwrap() {
            out.insert(o.path.clone(), r.get(&o.path).await.unwrap());
        }
        out
    })
}

fn read_tree(root: &Path) -> BTreeMap<PathBuf, Item> {
    let mut out = BTreeMap::new();
    fn walk(root: &Path, p: &Path, out: &mut BTreeMap<PathBuf, Item>) {
        let m = std::fs::symlink_metadata(p).unwrap();
        let rel = p.strip_prefix(root).unwrap().to_path_buf();
        if m.file_type().is_symlink() {
            let t = std::fs::read_link(p).unwrap();
            out.insert(rel, Item::Symlink(t.as_os_str().as_bytes().to_vec()));
        } else if m.is_dir() {
            out.insert(rel, Item::Dir);
            for e in std::fs::read_dir(p).unwrap() {
                walk(root, &e.unwrap().path(), out);
            }
        } else {
            out.insert(rel, Item::File(std::fs::read(p).unwrap()));
        }
    }
    walk(root, root, &mut out);
    out
}

// ---------------------------------------------------------------------------------
// A case: the world's objects (possibly damaged) behind Faulty wrappers
// ---------------------------------------------------------------------------------

struct Case<S = Indexed> {
    faulty: Vec<Arc<Faulty>>,
    inner: Vec<DynRemote>,
    repo: Repository<S>,
    _cache: tempfile::TempDir,
}

fn open_case(objects: &[Objects], primary: usize, seed: u64) -> Case {
    let Case {
        faulty,
        inner,
        repo,
        _cache,
    } = open_case_locked(objects, primary, seed);
    let repo = repo.unlock_and_load_index(PW).expect("unlock");
    Case {
        faulty,
        inner,
        repo,
        _cache,
    }
}

impl Case<Public> {
    /// The case unlocked with its index, or as it was and why not.
    #[allow(clippy::result_large_err)]
    fn unlock(self) -> Result<Case<Indexed>, (Case<Public>, tangle::Error)> {
        let Case {
            faulty,
            inner,
            repo,
            _cache,
        } = self;
        match repo.try_unlock(PW) {
            Ok(repo) => Ok(Case {
                faulty,
                inner,
                repo: repo.load_index().expect("load index"),
                _cache,
            }),
            Err((repo, e)) => Err((
                Case {
                    faulty,
                    inner,
                    repo,
                    _cache,
                },
                e,
            )),
        }
    }
}

/// The case's repository, not unlocked (what `verify` and `repair` need).
fn open_case_locked(objects: &[Objects], primary: usize, seed: u64) -> Case<Public> {
    let inner: Vec<DynRemote> = (0..R)
        .map(|i| {
            let m: DynRemote = Arc::new(MemoryRemote::new(&url(i)));
            block_on(async {
                for (p, b) in &objects[i] {
                    m.put(W, p, b.clone()).await.unwrap();
                }
            });
            m
        })
        .collect();
    let faulty: Vec<Arc<Faulty>> = inner
        .iter()
        .enumerate()
        .map(|(i, m)| Arc::new(Faulty::with_seed(m.clone(), seed ^ ((i as u64) << 32))))
        .collect();
    let cache = tempfile::tempdir().unwrap();
    let w = world();
    write_file(&cache.path().join(&w.writer_file), w.writer.as_bytes());
    let remotes: Vec<DynRemote> = faulty.iter().map(|f| f.clone() as DynRemote).collect();
    let repo = Repository::open_with_remotes(remotes, primary, Some(cache.path().into()))
        .expect("open the case's repository");
    Case {
        faulty,
        inner,
        repo,
        _cache: cache,
    }
}

/// A second client over the same (faulty) remotes and cache: no memory of which
/// remotes failed in the first one.
fn reopen<S>(c: &Case<S>, primary: usize) -> Repository<Indexed> {
    reopen_locked(c, primary).unlock_and_load_index(PW).unwrap()
}

fn reopen_locked<S>(c: &Case<S>, primary: usize) -> Repository {
    let remotes: Vec<DynRemote> = c.faulty.iter().map(|f| f.clone() as DynRemote).collect();
    Repository::open_with_remotes(remotes, primary, Some(c._cache.path().into())).unwrap()
}

/// How one restore went.
#[derive(Debug)]
struct Restored {
    /// Restore said it succeeded (Ok, no errors).
    clean: bool,
    /// The tree is byte-identical to the source.
    identical: bool,
    errors: Vec<String>,
}

/// Restore snapshot `n` and check it never wrote a wrong byte: every restored byte is
/// the source's byte or a zero that was never written (files are sized first), a file
/// that differs is named in an error, and a restore that reports success is identical.
fn restore_checked(w: &World, repo: &Repository<Indexed>, n: usize, what: &str) -> Restored {
    let (id, expected) = &w.snaps[n];
    let target = tempfile::tempdir().unwrap();
    let result = restore::run(
        repo,
        &RestoreOptions {
            spec: id.clone(),
            filter: Default::default(),
            target: target.path().to_path_buf(),
            includes: vec![],
            excludes: vec![],
            verify: false,
            dry_run: false,
            overwrite: Default::default(),
            delete: false,
        },
        &Progress::default(),
    );
    let (mut errors, ok) = match result {
        Ok(r) => (r.errors, true),
        Err(e) => (vec![e.to_string()], false),
    };
    let root = target
        .path()
        .join(w.src.strip_prefix("/").expect("absolute source"));
    let actual = if std::fs::symlink_metadata(&root).is_ok() {
        read_tree(&root)
    } else {
        BTreeMap::new()
    };
    for (p, item) in &actual {
        let full = root.join(p);
        match (expected.get(p), item) {
            (Some(Item::File(want)), Item::File(got)) => {
                assert!(
                    got.len() <= want.len(),
                    "{what}: {} restored with {} bytes, the source had {}",
                    p.display(),
                    got.len(),
                    want.len()
                );
                if let Some(at) = got.iter().zip(want).position(|(g, w)| g != w && *g != 0) {
                    panic!(
                        "{what}: WRONG BYTE in {} at offset {at}: restored {:#04x}, source {:#04x}",
                        p.display(),
                        got[at],
                        want[at]
                    );
                }
                if got != want {
                    let named = errors
                        .iter()
                        .any(|e| e.contains(full.to_str().unwrap()) || !ok);
                    assert!(
                        named,
                        "{what}: {} differs from the source but no error names it: {errors:?}",
                        p.display()
                    );
                }
            }
            (Some(want), got) => assert_eq!(want, got, "{what}: {}", p.display()),
            (None, got) => panic!(
                "{what}: restore made {} ({got:?}), not in the source",
                p.display()
            ),
        }
    }
    let identical = &actual == expected;
    let clean = ok && errors.is_empty();
    if clean && !identical {
        let missing: Vec<_> = expected
            .keys()
            .filter(|k| !actual.contains_key(*k))
            .collect();
        panic!("{what}: restore reported success but the tree differs (missing: {missing:?})");
    }
    if !clean && errors.is_empty() {
        errors.push("restore failed".into());
    }
    Restored {
        clean,
        identical,
        errors,
    }
}

fn restore_all_identical(w: &World, repo: &Repository<Indexed>, what: &str) {
    for n in 0..w.snaps.len() {
        let r = restore_checked(w, repo, n, what);
        assert!(
            r.clean && r.identical,
            "{what}: restore of snapshot {} failed: {:?}",
            n + 1,
            r.errors
        );
    }
}

fn verify_all<S: State>(repo: &Repository<S>, what: &str) -> VerifyReport {
    verify::run(repo, ReadData::All).unwrap_or_else(|e| panic!("{what}: verify failed: {e}"))
}

fn repair_all<S: State>(repo: &Repository<S>, what: &str) -> RepairReport {
    repair::run(
        repo,
        &RepairOptions {
            dry_run: false,
            read_data: true,
        },
    )
    .unwrap_or_else(|e| panic!("{what}: repair failed: {e}"))
}

fn show(v: &VerifyReport) -> String {
    v.findings
        .iter()
        .map(|f| {
            format!(
                "  [{:?}] {} {} {}: {}",
                f.severity,
                f.kind,
                f.remote.as_deref().unwrap_or("-"),
                f.path.as_deref().unwrap_or("-"),
                f.message
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn assert_clean(v: &VerifyReport, what: &str) {
    assert!(
        v.exit_code == 0 && v.findings.iter().all(|f| f.severity == Severity::Info),
        "{what}: verify is not clean (exit {}):\n{}",
        v.exit_code,
        show(v)
    );
}

fn current<S>(c: &Case<S>) -> Vec<Objects> {
    c.inner.iter().map(dump).collect()
}

fn assert_objects_eq(want: &[Objects], got: &[Objects], what: &str) {
    for r in 0..R {
        let keys: BTreeSet<&String> = want[r].keys().chain(got[r].keys()).collect();
        // A remote's identity marker is its own: a rebuilt remote gets a fresh one.
        let same = |k: &String| match (want[r].get(k), got[r].get(k)) {
            (Some(_), Some(_)) if k == "remote-id" => true,
            (w, g) => w == g,
        };
        let diff: Vec<String> = keys
            .into_iter()
            .filter(|k| !same(k))
            .map(|k| match (want[r].get(k), got[r].get(k)) {
                (None, _) => format!("added {k}"),
                (_, None) => format!("missing {k}"),
                _ => format!("differs {k}"),
            })
            .collect();
        assert!(
            diff.is_empty(),
            "{what}: remote {r} is not as it was ({} objects):\n{}",
            diff.len(),
            diff.join("\n")
        );
    }
}

// ---------------------------------------------------------------------------------
// Damage patterns
// ---------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Damage {
    Delete,
    FlipBits,
    Truncate,
    Garbage,
    Empty,
    Append,
}

const SHARD_DAMAGE: [Damage; 6] = [
    Damage::Delete,
    Damage::FlipBits,
    Damage::Truncate,
    Damage::Garbage,
    Damage::Empty,
    Damage::Append,
];
/// Metadata damage whose report is unambiguous (a flipped bit in a signed object is
/// indistinguishable from a forgery, so it is left out here).
const META_DAMAGE: [Damage; 4] = [
    Damage::Delete,
    Damage::Truncate,
    Damage::Garbage,
    Damage::Empty,
];

fn damage(objects: &mut Objects, path: &str, d: Damage, rng: &mut Rng) {
    let Some(b) = objects.get(path).cloned() else {
        return;
    };
    let new = match d {
        Damage::Delete => {
            objects.remove(path);
            return;
        }
        Damage::FlipBits => {
            let mut v = b.to_vec();
            for _ in 0..1 + rng.below(4) {
                let bit = rng.below(v.len() * 8);
                v[bit / 8] ^= 1 << (bit % 8);
            }
            // Distinct bits might cancel out: make sure it changed.
            if v == b[..] {
                v[0] ^= 1;
            }
            v
        }
        Damage::Truncate => b[..b.len() / 2].to_vec(),
        Damage::Garbage => rng.bytes(b.len().max(1)),
        Damage::Empty => vec![],
        Damage::Append => {
            let mut v = b.to_vec();
            let n = 1 + rng.below(100);
            v.extend_from_slice(&rng.bytes(n));
            v
        }
    };
    objects.insert(path.to_string(), Bytes::from(new));
}

/// A damage pattern over stored objects.
#[derive(Debug, Default)]
struct Pattern {
    /// Damaged shards: (extent, shard) and what was done.
    shards: Vec<((usize, usize), Damage)>,
    /// Damaged metadata copies: (remote, path) and what was done.
    meta: Vec<((usize, String), Damage)>,
    /// A whole remote wiped.
    wiped: Option<usize>,
    /// The remote to open the repository through (its config is intact).
    primary: usize,
}

/// Shards chosen at random (each tried with probability `q`) such that no codeword
/// lacks more than its `p` symbols (3 for data, 12 for tree extents; `pointers_count`:
/// pointer inputs included), or, one time in four, all objects of one remote.
fn pattern(w: &World, seed: u64, q: f64, pointers_count: bool, meta_too: bool) -> Pattern {
    let mut rng = Rng::new(seed);
    let mut pat = Pattern::default();
    if pointers_count && rng.below(4) == 0 {
        let r = rng.below(R);
        pat.wiped = Some(r);
        pat.primary = (r + 1) % R;
        return pat;
    }
    pat.primary = rng.below(R);
    let cws = w.codewords_of();
    let mut lacking = vec![0usize; w.exts.len()];
    let mut keys: Vec<(usize, usize)> = cws.keys().copied().collect();
    rng.shuffle(&mut keys);
    for k in keys {
        if !rng.chance(q) {
            continue;
        }
        let hit: Vec<usize> = if pointers_count {
            cws[&k].clone()
        } else {
            vec![k.0]
        };
        if hit.iter().all(|&e| lacking[e] < w.exts[e].parity()) {
            for e in hit {
                lacking[e] += 1;
            }
            pat.shards
                .push((k, SHARD_DAMAGE[rng.below(SHARD_DAMAGE.len())]));
        }
    }
    if meta_too {
        let paths: Vec<&String> = w.objects[0]
            .keys()
            // The identity marker is per remote, not replicated metadata.
            .filter(|p| !p.starts_with("shards/") && *p != "remote-id")
            .collect();
        for p in paths {
            if !rng.chance(q / 2.0) {
                continue;
            }
            let mut rs: Vec<usize> = (0..R).collect();
            rng.shuffle(&mut rs);
            for &r in rs.iter().take(1 + rng.below(2)) {
                if p == "config" && r == pat.primary {
                    continue;
                }
                pat.meta
                    .push(((r, p.clone()), META_DAMAGE[rng.below(META_DAMAGE.len())]));
            }
        }
    }
    pat
}

fn apply(w: &World, pat: &Pattern, seed: u64) -> Vec<Objects> {
    let mut rng = Rng::new(seed ^ 0xdead_beef);
    let mut objs = w.objects.clone();
    if let Some(r) = pat.wiped {
        objs[r].clear();
    }
    for &(k, d) in &pat.shards {
        let (r, p) = w.shard_path(k);
        damage(&mut objs[*r], p, d, &mut rng);
    }
    for ((r, p), d) in &pat.meta {
        damage(&mut objs[*r], p, *d, &mut rng);
    }
    objs
}

/// Every damaged object is named by a finding of the right kind (with `read_data`).
fn assert_all_reported(w: &World, pat: &Pattern, v: &VerifyReport, what: &str) {
    let named = |kinds: &[&str], r: usize, p: &str| {
        v.findings.iter().any(|f| {
            kinds.contains(&f.kind.as_str())
                && f.path.as_deref() == Some(p)
                && f.remote.as_deref() == Some(url(r).as_str())
        })
    };
    if let Some(r) = pat.wiped {
        assert!(
            v.findings
                .iter()
                .any(|f| f.kind == "remote-empty" && f.remote.as_deref() == Some(url(r).as_str())),
            "{what}: wiped remote {r} not reported:\n{}",
            show(v)
        );
        for x in &w.exts {
            for (sr, p) in &x.shards {
                if *sr == r {
                    assert!(named(&["bad-shard"], r, p), "{what}: {p} not reported");
                }
            }
        }
    }
    for &(k, d) in &pat.shards {
        let (r, p) = w.shard_path(k);
        assert!(
            named(&["bad-shard"], *r, p),
            "{what}: {d:?} shard {p} on remote {r} not reported:\n{}",
            show(v)
        );
    }
    for ((r, p), d) in &pat.meta {
        let kinds: &[&str] = match d {
            Damage::Delete => &["missing-metadata"],
            _ => &["corrupt-metadata"],
        };
        assert!(
            named(kinds, *r, p),
            "{what}: {d:?} metadata {p} on remote {r} not reported as {kinds:?}:\n{}",
            show(v)
        );
    }
    // And nothing intact is blamed.
    let damaged_shards: BTreeSet<(usize, &str)> = pat
        .shards
        .iter()
        .map(|&(k, _)| {
            let (r, p) = w.shard_path(k);
            (*r, p.as_str())
        })
        .collect();
    for f in v.findings.iter().filter(|f| f.kind == "bad-shard") {
        let r = (0..R)
            .find(|&r| f.remote.as_deref() == Some(url(r).as_str()))
            .expect("bad-shard finding names a remote");
        let p = f.path.as_deref().unwrap_or("");
        assert!(
            Some(r) == pat.wiped || damaged_shards.contains(&(r, p)),
            "{what}: intact shard blamed: {}",
            f.message
        );
    }
}

fn config(cases: u32) -> PtConfig {
    PtConfig {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x7a6e_6c65),
        max_shrink_iters: 8,
        ..PtConfig::default()
    }
}

// ---------------------------------------------------------------------------------
// Deterministic checks
// ---------------------------------------------------------------------------------

/// The remote rule that makes one lost remote survivable: no remote holds more than
/// p symbols of any codeword (3 for data, 12 for trees), pointers included.
#[test]
fn no_remote_holds_more_than_parity_symbols_of_a_codeword() {
    let w = world();
    for (e, x) in w.exts.iter().enumerate() {
        let mut on = [0usize; R];
        for (r, _) in &x.shards {
            on[*r] += 1;
        }
        for &(pe, ps) in &x.pointers {
            assert!(ps < w.exts[pe].data, "pointer to a parity shard");
            assert!(pe != e, "extent {} points at itself", &x.hex[..8]);
            on[w.exts[pe].shards[ps].0] += 1;
        }
        assert!(
            on.iter().all(|&n| n <= x.parity()),
            "extent {}: symbols per remote {on:?}",
            &x.hex[..8]
        );
    }
}

/// The untouched world restores identically and verifies clean through the wrappers.
#[test]
fn pristine_world_is_clean() {
    let w = world();
    let c = open_case(&w.objects, 0, 1);
    restore_all_identical(w, &c.repo, "pristine");
    let v = verify_all(&c.repo, "pristine");
    assert_clean(&v, "pristine");
    assert_eq!(v.extents, w.exts.len());
    let shards: usize = w.exts.iter().map(|x| x.shards.len()).sum();
    assert_eq!(v.shards_read as usize, shards);
    let r = repair_all(&c.repo, "pristine");
    assert!(
        r.actions.is_empty(),
        "repair acted on a clean repository: {:?}",
        r.actions
    );
    assert_eq!(c.faulty.iter().map(|f| f.injected()).sum::<u64>(), 0);
}

/// Each remote in turn unreachable (every call fails): restore is identical, verify
/// names the remote, repair leaves it for later (and says so); once it is back wiped,
/// repair rebuilds it exactly.
#[test]
fn unreachable_then_wiped_remote() {
    let w = world();
    for down in 0..R {
        let primary = (down + 1) % R;
        let c = open_case(&w.objects, primary, 2);
        c.faulty[down].set_offline(true);
        let what = format!("remote {down} unreachable");
        restore_all_identical(w, &c.repo, &what);
        let v = verify_all(&c.repo, &what);
        assert_eq!(v.exit_code, 20, "{what}:\n{}", show(&v));
        assert!(
            v.findings.iter().any(|f| f.kind == "remote-unreachable"
                && f.remote.as_deref() == Some(url(down).as_str())),
            "{what}:\n{}",
            show(&v)
        );
        assert!(
            !v.findings
                .iter()
                .any(|f| f.severity >= Severity::Unrecoverable),
            "{what}:\n{}",
            show(&v)
        );
        let rep = repair_all(&c.repo, &what);
        assert!(
            rep.pending.iter().any(|u| u.contains(&url(down))),
            "{what}: repair does not say the remote is left for later: {:?}",
            rep.pending
        );
        assert!(rep.unrepaired.is_empty(), "{what}: {:?}", rep.unrepaired);
        assert_eq!(rep.exit_code, 20, "{what}: repair exit code");
        assert!(
            rep.actions.iter().all(|a| a.remote != url(down)),
            "{what}: repair claims to have written to an unreachable remote"
        );
        c.faulty[down].set_offline(false);
        block_on(async {
            for p in w.objects[down].keys() {
                c.inner[down].delete(W, p).await.unwrap();
            }
        });
        let what = format!("remote {down} back, wiped");
        let rep = repair_all(&c.repo, &what);
        assert!(rep.unrepaired.is_empty(), "{what}: {:?}", rep.unrepaired);
        assert_eq!(rep.exit_code, 0);
        assert_objects_eq(&w.objects, &current(&c), &what);
        assert_clean(&verify_all(&c.repo, &what), &what);
    }
}

/// One remote's list goes stale (objects written after the freeze are not listed) while
/// a third backup runs: restore still finds everything through the other remotes;
/// verify calls the stale remote a rollback (it serves an older state). When every
/// remote is stale, a client that made the backup detects the rollback from memory.
#[test]
fn stale_lists() {
    let w = world();
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("third");
    write_file(&src.join("x.bin"), &Rng::new(9).bytes(90_000));

    let c = open_case(&w.objects, 0, 3);
    c.faulty[1].freeze_lists();
    let b =
        backup::run(&c.repo, &backup_options(&src, HOST), &Progress::default()).expect("backup");
    let id = b.snapshot_id.unwrap();
    // Another client (same cache: it remembers the new head).
    let repo = reopen(&c, 0);
    let snaps = repo.snapshots().unwrap();
    assert!(
        snaps.iter().any(|(s, _)| *s == id),
        "new snapshot not listed"
    );
    restore_all_identical(w, &repo, "one stale list");
    let v = verify::run(&repo, ReadData::No).unwrap();
    assert_eq!(v.exit_code, 22, "one stale list:\n{}", show(&v));
    assert!(
        v.findings
            .iter()
            .any(|f| f.kind == "rollback" && f.remote.as_deref() == Some(url(1).as_str())),
        "one stale list:\n{}",
        show(&v)
    );
    c.faulty[1].thaw_lists();
    assert_clean(&verify_all(&repo, "thawed"), "thawed");

    let c = open_case(&w.objects, 0, 4);
    for f in &c.faulty {
        f.freeze_lists();
    }
    backup::run(&c.repo, &backup_options(&src, HOST), &Progress::default()).expect("backup");
    let repo = reopen(&c, 2);
    restore_all_identical(w, &repo, "all lists stale");
    let v = verify::run(&repo, ReadData::No).unwrap();
    assert_eq!(v.exit_code, 22, "all lists stale:\n{}", show(&v));
    assert!(
        v.findings.iter().any(|f| f.kind == "rollback"),
        "{}",
        show(&v)
    );
    for f in &c.faulty {
        f.thaw_lists();
    }
    assert_clean(&verify_all(&reopen(&c, 1), "all thawed"), "all thawed");
}

/// Shard writes failing on two remotes of three stop a backup of more new data than the
/// readers may hold in flight with an error, not a hang, and the snapshots already
/// there still restore.
#[test]
fn a_backup_that_cannot_store_its_extents_stops_with_an_error() {
    let w = world();
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("big");
    // 32 MiB of new data: eight times the readers' budget of bytes in flight.
    for i in 0..64u64 {
        write_file(
            &src.join(format!("f{i}.bin")),
            &Rng::new(200 + i).bytes(512 << 10),
        );
    }
    let c = open_case(&w.objects, 1, 300);
    for bad in [0, 2] {
        c.faulty[bad].add(
            Rule::new(Fault::Error(Kind::Fatal))
                .ops(&Op::WRITES)
                .prefix("shards/"),
        );
    }
    let b = backup::run(&c.repo, &backup_options(&src, HOST), &Progress::default());
    assert!(
        b.is_err(),
        "the backup reported success: {:?}",
        b.map(|r| r.snapshot_id)
    );
    for f in &c.faulty {
        f.clear();
    }
    restore_all_identical(w, &reopen(&c, 1), "after the failed backup");
}

/// Writes that fail (errors, lost acknowledgements, torn writes) during a third backup
/// never damage the existing snapshots; verify finds no loss or trust violation;
/// repair and a retried backup leave a clean repository.
#[test]
fn failing_writes_during_backup() {
    let w = world();
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("third");
    write_file(&src.join("y.bin"), &Rng::new(10).bytes(300_000));
    let faults = [
        Rule::new(Fault::Error(Kind::Fatal))
            .ops(&Op::WRITES)
            .prefix("shards/")
            .probability(0.3),
        Rule::new(Fault::LostAck).ops(&Op::WRITES).probability(0.2),
        Rule::new(Fault::Timeout)
            .ops(&Op::WRITES)
            .prefix("extents/"),
        Rule::new(Fault::Timeout).ops(&Op::WRITES).prefix("index/"),
        Rule::new(Fault::Timeout)
            .ops(&Op::WRITES)
            .prefix("snapshots/"),
        // Index 5: the head fails on one remote, which the snapshot write (after it)
        // then skips: no rollback may be called for that (see below).
        Rule::new(Fault::Timeout).ops(&Op::WRITES).prefix("heads/"),
        Rule::new(Fault::Truncate)
            .ops(&Op::WRITES)
            .prefix("shards/")
            .probability(0.3),
    ];
    for (n, rule) in faults.into_iter().enumerate() {
        for bad in [0, 2] {
            let what = format!("backup with write fault {n} on remote {bad}");
            let c = open_case(&w.objects, 1, 100 + n as u64);
            c.faulty[bad].add(rule.clone());
            let b = backup::run(&c.repo, &backup_options(&src, HOST), &Progress::default());
            c.faulty[bad].clear();
            let backed_up = b
                .as_ref()
                .map(|r| r.snapshot_id.clone())
                .map_err(|e| e.to_string());
            let what = format!("{what} (backup: {backed_up:?})");
            let repo = reopen(&c, 1);
            restore_all_identical(w, &repo, &what);
            let v = verify_all(&repo, &what);
            // A remote that missed the end of the backup serves an older state: that
            // may be called a rollback of that remote, nothing else.
            for f in &v.findings {
                let head_failed = n == 5;
                assert!(
                    f.severity < Severity::Unrecoverable
                        || (f.kind == "rollback"
                            && !head_failed
                            && f.remote.as_deref() == Some(url(bad).as_str())),
                    "{what}: {}:\n{}",
                    f.message,
                    show(&v)
                );
            }
            let rep = repair_all(&repo, &what);
            assert!(rep.unrepaired.is_empty(), "{what}: {:?}", rep.unrepaired);
            assert_clean(&verify_all(&repo, &what), &format!("{what}, repaired"));
            if let Ok(Some(id)) = &backed_up {
                let target = tempfile::tempdir().unwrap();
                restore::run(
                    &repo,
                    &RestoreOptions {
                        spec: id.clone(),
                        filter: Default::default(),
                        target: target.path().into(),
                        includes: vec![],
                        excludes: vec![],
                        verify: true,
                        dry_run: false,
                        overwrite: Default::default(),
                        delete: false,
                    },
                    &Progress::default(),
                )
                .unwrap_or_else(|e| panic!("{what}: restore of the faulty backup: {e}"));
                let got = read_tree(&target.path().join(src.strip_prefix("/").unwrap()));
                assert_eq!(
                    got,
                    read_tree(&src),
                    "{what}: the faulty backup restores differently"
                );
            }
            // A retried backup (new client) succeeds and restores identically.
            let repo = reopen(&c, 1);
            let b2 = backup::run(&repo, &backup_options(&src, HOST), &Progress::default())
                .unwrap_or_else(|e| panic!("{what}: retried backup: {e}"));
            let id = b2.snapshot_id.unwrap();
            let repo = reopen(&c, 0);
            let target = tempfile::tempdir().unwrap();
            let r = restore::run(
                &repo,
                &RestoreOptions {
                    spec: id,
                    filter: Default::default(),
                    target: target.path().into(),
                    includes: vec![],
                    excludes: vec![],
                    verify: true,
                    dry_run: false,
                    overwrite: Default::default(),
                    delete: false,
                },
                &Progress::default(),
            )
            .unwrap_or_else(|e| panic!("{what}: restore of the retried backup: {e}"));
            assert!(r.errors.is_empty(), "{what}: {:?}", r.errors);
            let got = read_tree(&target.path().join(src.strip_prefix("/").unwrap()));
            assert_eq!(
                got,
                read_tree(&src),
                "{what}: retried backup restores differently"
            );
            assert_clean(&verify_all(&repo, &what), &format!("{what}, retried"));
        }
    }
}

/// Repair resumes after its own writes fail: the first attempts fail, a later one
/// finishes, and the result is exactly the original.
#[test]
fn repair_resumes_after_write_failures() {
    let w = world();
    let mut objs = w.objects.clone();
    objs[2].clear();
    let c = open_case(&objs, 0, 5);
    c.faulty[2].add(Rule::new(Fault::Timeout).ops(&Op::WRITES).times(4));
    let mut attempts = 0;
    loop {
        attempts += 1;
        assert!(attempts <= 6, "repair never finished");
        match repair::run(
            &c.repo,
            &RepairOptions {
                dry_run: false,
                read_data: true,
            },
        ) {
            Ok(r) if r.unrepaired.is_empty() => break,
            Ok(r) => panic!("repair left things unrepaired: {:?}", r.unrepaired),
            Err(e) => assert!(e.to_string().contains("timed out"), "{e}"),
        }
    }
    assert!(attempts > 1, "the injected write failures were not hit");
    assert_objects_eq(&w.objects, &current(&c), "after resumed repairs");
}

/// Needs a pointer rebuilt first: one remote gone, and one more data shard of an extent
/// that had 2 of its 7 shards there and a pointer input there too. Every extent has
/// lost at most p = 3 of its own shards, so the archive as a whole can be recovered
/// (repair proves it); restore must be identical too.
#[test]
fn restore_rebuilds_lost_pointer_inputs_first() {
    let w = world();
    let found = (0..R).find_map(|lost| {
        w.exts.iter().enumerate().find_map(|(e, x)| {
            let own = x.shards.iter().filter(|(r, _)| *r == lost).count();
            let lost_ptr = x
                .pointers
                .iter()
                .any(|&(pe, ps)| w.exts[pe].shards[ps].0 == lost);
            let extra = (0..x.data).find(|&i| x.shards[i].0 != lost);
            (own == 2 && lost_ptr).then_some((lost, e, extra?))
        })
    });
    let Some((lost, e, i)) = found else {
        eprintln!("note: no extent with 2 shards and a pointer on one remote; nothing to test");
        return;
    };
    let mut objs = w.objects.clone();
    objs[lost].clear();
    let (r, p) = &w.exts[e].shards[i];
    damage(&mut objs[*r], p, Damage::Garbage, &mut Rng::new(1));
    let c = open_case(&objs, (lost + 1) % R, 6);
    let what = format!(
        "remote {lost} wiped + shard {i} of extent {} (2 own shards and a pointer on remote {lost})",
        &w.exts[e].hex[..8]
    );
    let before: Vec<Restored> = (0..w.snaps.len())
        .map(|n| restore_checked(w, &c.repo, n, &what))
        .collect();
    let v = verify_all(&c.repo, &what);
    assert!(
        !v.findings
            .iter()
            .any(|f| f.severity >= Severity::Unrecoverable),
        "{what}: verify reports a loss:\n{}",
        show(&v)
    );
    let rep = repair_all(&c.repo, &what);
    assert!(rep.unrepaired.is_empty(), "{what}: {:?}", rep.unrepaired);
    assert_objects_eq(&w.objects, &current(&c), &what);
    for (n, r) in before.iter().enumerate() {
        assert!(
            r.clean && r.identical,
            "{what}: restore of snapshot {} before repair failed, though repair recovered everything: {:?}",
            n + 1,
            r.errors
        );
    }
}

/// Every copy of the (only) key file damaged: the password is right, so unlocking must
/// not say "wrong password" (exit 12) but that the key files are damaged.
#[test]
fn damaged_key_files_are_not_a_wrong_password() {
    let w = world();
    let mut objs = w.objects.clone();
    let keys: Vec<String> = objs[0]
        .keys()
        .filter(|p| p.starts_with("keys/"))
        .cloned()
        .collect();
    assert_eq!(keys.len(), 1);
    for (r, d) in [Damage::Garbage, Damage::Truncate, Damage::Empty]
        .into_iter()
        .enumerate()
    {
        damage(&mut objs[r], &keys[0], d, &mut Rng::new(r as u64));
    }
    let c = open_case_locked(&objs, 0, 8);
    let Err((c, e)) = c.unlock() else {
        panic!("unlock with every key copy damaged succeeded");
    };
    assert_ne!(
        e.kind(),
        Kind::WrongPassword,
        "the right password, damaged key files: {e}"
    );
    // The password-less layer names the damage and knows it cannot repair it.
    let v = verify::run(&c.repo, ReadData::No).unwrap();
    assert!(
        v.findings
            .iter()
            .any(|f| f.path.as_deref() == Some(keys[0].as_str())),
        "{}",
        show(&v)
    );
}

// ---------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(24))]

    /// Within every codeword's parity: restore identical; verify reports every damaged
    /// object and no loss; repair restores exactly the original objects; verify clean.
    #[test]
    fn within_codeword_tolerance(seed in any::<u64>(), q in 0.05f64..0.6) {
        let w = world();
        let pat = pattern(w, seed, q, true, true);
        let objs = apply(w, &pat, seed);
        let c = open_case(&objs, pat.primary, seed);
        let what = format!("{pat:?}");
        restore_all_identical(w, &c.repo, &what);
        let v = verify_all(&c.repo, &what);
        prop_assert!(
            !v.findings.iter().any(|f| f.severity == Severity::Unrecoverable),
            "{}: loss reported:\n{}", what, show(&v)
        );
        assert_all_reported(w, &pat, &v, &what);
        let rep = repair_all(&c.repo, &what);
        prop_assert!(rep.unrepaired.is_empty(), "{}: {:?}", what, rep.unrepaired);
        prop_assert_eq!(rep.exit_code, 0);
        assert_objects_eq(&w.objects, &current(&c), &what);
        assert_clean(&verify_all(&c.repo, &what), &format!("{what}, repaired"));
        let again = repair_all(&c.repo, &what);
        prop_assert!(again.actions.is_empty(), "second repair acted: {:?}", again.actions);
    }

    /// Within each extent's own parity (pointers not counted): nothing is lost, so
    /// verify reports no loss and repair (peeling, oldest first) restores every object;
    /// restore before repair never writes a wrong byte.
    #[test]
    fn within_own_shard_tolerance(seed in any::<u64>(), q in 0.2f64..0.8) {
        let w = world();
        let pat = pattern(w, seed, q, false, false);
        let objs = apply(w, &pat, seed);
        let c = open_case(&objs, pat.primary, seed);
        let what = format!("{pat:?}");
        let restored: Vec<Restored> = (0..w.snaps.len())
            .map(|n| restore_checked(w, &c.repo, n, &what))
            .collect();
        let v = verify_all(&c.repo, &what);
        // The storage layer (what verify sees without the password) must see no loss.
        let storage_loss: Vec<String> = v
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Unrecoverable && f.kind != "snapshot-incomplete")
            .map(|f| f.message.clone())
            .collect();
        prop_assert!(storage_loss.is_empty(), "{}: loss reported:\n{}", what, show(&v));
        assert_all_reported(w, &pat, &v, &what);
        let rep = repair_all(&c.repo, &what);
        prop_assert!(rep.unrepaired.is_empty(), "{}: {:?}", what, rep.unrepaired);
        assert_objects_eq(&w.objects, &current(&c), &what);
        assert_clean(&verify_all(&c.repo, &what), &format!("{what}, repaired"));
        // Repair recovered every object, so nothing was lost: the snapshot check and
        // restore (which read through the same shards) must not have said otherwise.
        prop_assert!(
            !v.findings.iter().any(|f| f.severity == Severity::Unrecoverable),
            "{}: verify (with the password) reported a loss that repair then undid:\n{}",
            what, show(&v)
        );
        for (n, r) in restored.iter().enumerate() {
            prop_assert!(
                r.clean && r.identical,
                "{}: restore of snapshot {} failed, though repair recovered every object: {:?}",
                what, n + 1, r.errors
            );
        }
    }

    /// Remotes that flip bits in, truncate or fail reads of some shards (within every
    /// codeword's parity) and of some metadata copies (never all copies): restore is
    /// byte-identical, and verify blames exactly those shards and reports no loss.
    #[test]
    fn lying_reads_never_return_wrong_data(seed in any::<u64>(), q in 0.05f64..0.6) {
        let w = world();
        let mut pat = pattern(w, seed, q, true, true);
        pat.wiped = None;
        let c = open_case(&w.objects, pat.primary, seed);
        let mut rng = Rng::new(seed ^ 77);
        let read_faults = [
            Fault::FlipBits(1),
            Fault::FlipBits(9),
            Fault::Truncate,
            Fault::Timeout,
            Fault::Error(Kind::Fatal),
            Fault::Error(Kind::NotFound),
            Fault::Error(Kind::Corrupt),
        ];
        let mut shards = Vec::new();
        if pat.shards.is_empty() && pat.meta.is_empty() {
            // Wiped-remote patterns: make the whole remote lie instead.
            let r = rng.below(R);
            c.faulty[r].add(Rule::new(Fault::FlipBits(3)).ops(&Op::READS).prefix("shards/"));
            for x in &w.exts {
                for (sr, p) in &x.shards {
                    if *sr == r {
                        shards.push((r, p.clone()));
                    }
                }
            }
        }
        for &(k, _) in &pat.shards {
            let (r, p) = w.shard_path(k);
            let f = read_faults[rng.below(read_faults.len())];
            c.faulty[*r].add(Rule::new(f).ops(&Op::READS).path(p));
            shards.push((*r, p.clone()));
        }
        for ((r, p), _) in &pat.meta {
            if p == "config" {
                continue;
            }
            let f = read_faults[rng.below(read_faults.len())];
            c.faulty[*r].add(Rule::new(f).ops(&Op::READS).path(p));
        }
        let what = format!("read faults on {shards:?} and {:?}", pat.meta);
        restore_all_identical(w, &c.repo, &what);
        let v = verify_all(&c.repo, &what);
        prop_assert!(
            !v.findings.iter().any(|f| f.severity == Severity::Unrecoverable),
            "{}: loss reported:\n{}", what, show(&v)
        );
        let blamed: BTreeSet<(String, String)> = v
            .findings
            .iter()
            .filter(|f| f.kind == "bad-shard")
            .map(|f| (f.remote.clone().unwrap_or_default(), f.path.clone().unwrap_or_default()))
            .collect();
        let faulted: BTreeSet<(String, String)> =
            shards.iter().map(|(r, p)| (url(*r), p.clone())).collect();
        prop_assert_eq!(blamed, faulted, "{}:\n{}", what, show(&v));
    }

    /// Beyond tolerance: random damage to many shards and metadata copies, plus
    /// transient read failures. Nothing panics; restore never writes a wrong byte;
    /// repair only ever writes original bytes; when repair leaves nothing unrepaired,
    /// verify is clean; a clean verify means a byte-identical restore.
    #[test]
    fn beyond_tolerance_fails_safely(seed in any::<u64>(), q in 0.2f64..0.8) {
        let w = world();
        let mut rng = Rng::new(seed);
        let mut objs = w.objects.clone();
        let primary = rng.below(R);
        let mut damaged = 0;
        for (r, objects) in objs.iter_mut().enumerate() {
            let paths: Vec<String> = objects.keys().cloned().collect();
            for p in paths {
                if p == "config" && r == primary {
                    continue;
                }
                let shard = p.starts_with("shards/");
                if rng.chance(if shard { q } else { q / 3.0 }) {
                    let d = SHARD_DAMAGE[rng.below(SHARD_DAMAGE.len())];
                    damage(objects, &p, d, &mut rng);
                    damaged += 1;
                }
            }
        }
        let c = open_case_locked(&objs, primary, seed);
        let what = format!("seed {seed:#x}, q {q:.2}, {damaged} objects damaged");
        // Every copy of the key may be damaged: then nothing can be decrypted, and the
        // password-less checks still run.
        match c.unlock() {
            Ok(c) => beyond_tolerance_checks(w, &c, &objs, primary, damaged, q, &what)?,
            Err((c, e)) => {
                prop_assert!(
                    matches!(e.kind(), Kind::WrongPassword | Kind::Corrupt | Kind::Fatal),
                    "unlock: {:?}", e
                );
                beyond_tolerance_checks(w, &c, &objs, primary, damaged, q, &what)?
            }
        }
    }
}

/// The checks of `beyond_tolerance_fails_safely` on a case opened unlocked, or with the
/// public key where damage left no key file readable.
fn beyond_tolerance_checks<S: State>(
    w: &World,
    c: &Case<S>,
    objs: &[Objects],
    primary: usize,
    damaged: usize,
    q: f64,
    what: &str,
) -> Result<(), TestCaseError> {
    for f in &c.faulty {
        f.add(
            Rule::new(Fault::Timeout)
                .ops(&Op::READS)
                .per_call()
                .probability(q / 4.0),
        );
    }
    if let Some(repo) = c.repo.indexed() {
        for n in 0..w.snaps.len() {
            restore_checked(w, repo, n, what);
        }
    }
    let _ = verify::run(&c.repo, ReadData::All);
    for f in &c.faulty {
        f.clear();
    }
    let v = verify_all(&c.repo, what);
    prop_assert!(
        damaged == 0 || v.exit_code != 0,
        "{}: damage not found",
        what
    );
    let rep = repair_all(&c.repo, what);
    let after = current(c);
    for r in 0..R {
        // The identity marker is the one object repair writes afresh (a remote without
        // one gets a new one); it carries no data.
        for (p, b) in after[r].iter().filter(|(p, _)| p.as_str() != "remote-id") {
            prop_assert!(
                w.objects[r].get(p) == Some(b) || objs[r].get(p) == Some(b),
                "{}: repair wrote bytes that are not the original to {} on remote {}",
                what,
                p,
                r
            );
        }
    }
    // A new client after the repair.
    match reopen_locked(c, primary).try_unlock(PW) {
        Ok(repo) => after_repair(w, &repo.load_index().expect("load index"), &rep, what),
        Err((repo, _)) => after_repair(w, &repo, &rep, what),
    }
}

/// A new client's verify after `rep`, and (unlocked) its restores.
fn after_repair<S: State>(
    w: &World,
    repo: &Repository<S>,
    rep: &RepairReport,
    what: &str,
) -> Result<(), TestCaseError> {
    let v = verify_all(repo, what);
    if rep.unrepaired.is_empty() {
        assert_clean(&v, &format!("{what}: repair said it fixed everything"));
    }
    if let Some(repo) = repo.indexed() {
        let listed: BTreeSet<String> = repo
            .snapshots()
            .unwrap()
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        for n in 0..w.snaps.len() {
            let r = restore_checked(w, repo, n, what);
            // A snapshot gone from every remote is invisible (as after a delete).
            if v.exit_code == 0 && listed.contains(&w.snaps[n].0) {
                prop_assert!(
                    r.clean && r.identical,
                    "{}: verify is clean but restore of snapshot {} fails: {:?}",
                    what,
                    n + 1,
                    r.errors
                );
            }
        }
    }
    Ok(())
}

/// The head commits a run and is written before its snapshot. A backup whose head cannot
/// be written anywhere fails and leaves no snapshot (before, the snapshot was written
/// first and stayed listed, on extents no head committed). A backup whose snapshot cannot
/// be written fails after committing its data: verify finds no trust violation and no
/// loss (no fork when the next run continues the chain), and the next backup works and
/// restores.
#[test]
fn the_head_is_written_before_the_snapshot() {
    let w = world();
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("late");
    write_file(&src.join("z.bin"), &Rng::new(77).bytes(200_000));
    for (prefix, what) in [("heads/", "no head"), ("snapshots/", "no snapshot")] {
        let c = open_case(&w.objects, 1, 400);
        let before = c.repo.snapshots().expect("snapshots").len();
        for f in &c.faulty {
            f.add(
                Rule::new(Fault::Error(Kind::Fatal))
                    .ops(&Op::WRITES)
                    .prefix(prefix),
            );
        }
        let b = backup::run(&c.repo, &backup_options(&src, HOST), &Progress::default());
        assert!(b.is_err(), "{what}: the backup reported success");
        for f in &c.faulty {
            f.clear();
        }
        let repo = reopen(&c, 1);
        assert_eq!(
            repo.snapshots().expect("snapshots").len(),
            before,
            "{what}: a snapshot of the failed run is listed"
        );
        let v = verify_all(&repo, what);
        assert!(
            v.findings
                .iter()
                .all(|f| f.severity < Severity::Unrecoverable),
            "{what}:\n{}",
            show(&v)
        );
        // The next backup (same client, same cache) continues the chain.
        let next = reopen(&c, 1).without_index();
        let next = backup::prepare(next).expect("prepare");
        let again = backup::run(&next, &backup_options(&src, HOST), &Progress::default())
            .unwrap_or_else(|e| panic!("{what}: the next backup failed: {e}"));
        assert!(again.snapshot_id.is_some(), "{what}");
        let repo = reopen(&c, 1);
        let v = verify_all(&repo, what);
        assert!(
            v.findings.iter().all(|f| f.severity < Severity::Trust),
            "{what}: after the next backup:\n{}",
            show(&v)
        );
        restore_all_identical(w, &repo, what);
    }
}

/// An init whose config cannot be written to one remote fails, and leaves no repository
/// (no config, key file or identity marker) on the remotes that took theirs: else they
/// would open and take backups after `init` said it failed, and a second `init` would
/// refuse them as "already a repository".
#[test]
fn a_failed_init_leaves_no_repository_behind() {
    let mems: Vec<DynRemote> = (0..R)
        .map(|i| Arc::new(MemoryRemote::new(&url(i))) as DynRemote)
        .collect();
    let faulty: Vec<Arc<Faulty>> = mems
        .iter()
        .map(|m| Arc::new(Faulty::new(m.clone())))
        .collect();
    faulty[1].add(
        Rule::new(Fault::Error(Kind::Fatal))
            .ops(&Op::WRITES)
            .prefix("config"),
    );
    let wrapped: Vec<DynRemote> = faulty.iter().map(|f| f.clone() as DynRemote).collect();
    let failed = init_remotes(wrapped, &init_options(), PW);
    assert!(failed.is_err(), "init reported success");
    for m in &mems {
        let left = block_on(m.list("")).expect("list");
        assert!(
            left.is_empty(),
            "{} keeps {:?}",
            m.url(),
            left.iter().map(|o| &o.path).collect::<Vec<_>>()
        );
    }
    faulty[1].clear();
    let wrapped: Vec<DynRemote> = faulty.iter().map(|f| f.clone() as DynRemote).collect();
    init_remotes(wrapped, &init_options(), PW).expect("init again");
}
