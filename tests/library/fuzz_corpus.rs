//! The fuzz corpora replayed as ordinary tests (no sanitizer build): every file of
//! `fuzz/corpus/<target>/` and `fuzz/regressions/<target>/` goes through the same
//! `tangle::testing::fuzzing` entry point as the cargo-fuzz target (`scripts/fuzz.sh` runs
//! those), and none may panic.
//!
//! The corpora come from a real repository:
//! `cargo test --features testing --test library -- --ignored fuzz_corpus::regenerate_corpus`
//! rebuilds them (then minimise with `cargo fuzz cmin`, see docs/DESIGN.md §16).

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use crate::memory_repo::{backup_options, memory_remotes, open_unlocked, source_dir};
use crate::shared::files::{mkfifo, pseudo_random, write_file};
use crate::shared::init::small_init_options;
use tangle::content::{BlobKind, ChunkerParams};
use tangle::crypto::envelope::ObjectKind;
use tangle::ops::Progress;
use tangle::ops::backup::{self, BackupOptions};
use tangle::repo::init_remotes;
use tangle::testing::fuzzing::{self, TARGETS};

/// Allocations above the fuzzers' cap (`MEM_MB` in scripts/fuzz.sh, 512 MiB) fail here
/// too: a kept reproducer of an over-cap allocation then aborts this test ("memory
/// allocation of N bytes failed") instead of passing on a machine with memory to spare.
struct Capped;

const CAP: usize = 512 << 20;

// SAFETY: every call goes to `System` unchanged, except that sizes above `CAP` get the
// null pointer that reports an allocation failure.
unsafe impl GlobalAlloc for Capped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() > CAP {
            return std::ptr::null_mut();
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() > CAP {
            return std::ptr::null_mut();
        }
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > CAP {
            return std::ptr::null_mut();
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Capped = Capped;

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(d) => d.map(|e| e.unwrap().path()).collect(),
        Err(_) => return Vec::new(),
    };
    out.sort();
    out
}

#[test]
fn every_target_has_a_harness_and_a_corpus() {
    for (name, _) in TARGETS {
        assert!(
            fuzz_dir()
                .join("fuzz_targets")
                .join(format!("{name}.rs"))
                .is_file(),
            "no cargo-fuzz target for {name}"
        );
        assert!(
            files(&fuzz_dir().join("corpus").join(name)).len() >= 2,
            "the corpus of {name} is (nearly) empty"
        );
    }
    assert_eq!(
        files(&fuzz_dir().join("fuzz_targets")).len(),
        TARGETS.len(),
        "a cargo-fuzz target that tangle::testing::fuzzing::TARGETS does not list"
    );
}

#[test]
fn corpora_and_regressions_replay_without_a_panic() {
    let mut failures = Vec::new();
    let mut replayed = 0;
    for (name, run) in TARGETS {
        for kind in ["corpus", "regressions"] {
            for file in files(&fuzz_dir().join(kind).join(name)) {
                let data = std::fs::read(&file).unwrap();
                replayed += 1;
                if catch_unwind(AssertUnwindSafe(|| run(&data))).is_err() {
                    failures.push(file.display().to_string());
                }
            }
        }
    }
    assert!(replayed > 0, "no corpus files found under {:?}", fuzz_dir());
    assert!(failures.is_empty(), "inputs that panic: {failures:#?}");
}

// ---------------------------------------------------------------------------------
// The corpus generator
// ---------------------------------------------------------------------------------

const PW: &[u8] = b"fuzz corpus";

/// A small tree with every kind of entry: files (empty, small, compressible and
/// incompressible ones larger than one chunk), nested and empty directories, symlinks,
/// a hard link, a FIFO and a name that is not UTF-8.
fn source_tree(root: &Path) {
    use std::os::unix::ffi::OsStrExt;
    write_file(&root.join("empty"), b"");
    write_file(&root.join("small.txt"), b"a small file\n");
    let text: Vec<u8> = (0..600)
        .flat_map(|i| format!("line {i} of a compressible file\n").into_bytes())
        .collect();
    write_file(&root.join("docs/long.txt"), &text);
    write_file(&root.join("docs/random.bin"), &pseudo_random(7, 9_000));
    write_file(&root.join("a/b/c/deep.txt"), b"deep\n");
    std::fs::create_dir_all(root.join("emptydir")).unwrap();
    std::os::unix::fs::symlink("docs/long.txt", root.join("link")).unwrap();
    std::os::unix::fs::symlink("/nowhere/at/all", root.join("dangling")).unwrap();
    std::fs::hard_link(root.join("small.txt"), root.join("a/hardlink")).unwrap();
    mkfifo(&root.join("fifo"));
    write_file(
        &root.join(std::ffi::OsStr::from_bytes(b"not-utf8-\xff\xfe")),
        b"odd name\n",
    );
}

fn tagged_backup(src: &Path, tag: &str) -> BackupOptions {
    BackupOptions {
        tags: vec![tag.into()],
        ..backup_options(src, "fuzz-corpus")
    }
}

/// One repository over `remotes` in-memory remotes with tiny chunks and extents (many
/// certificates, with pointers where the coding has them), after two backups: its
/// objects go into `corpus`, each as the input of the harness that decodes it.
fn collect(remotes: usize, extent_size: u32, corpus: &mut BTreeMap<&str, Vec<Vec<u8>>>) {
    let mems = memory_remotes(&format!("fuzz-corpus-{remotes}"), remotes);
    let mut opts = small_init_options(extent_size);
    opts.chunker = Some(ChunkerParams {
        min: 256,
        avg: 1024,
        max: 4096,
    });
    init_remotes(mems.clone(), &opts, PW).expect("init");
    let (mut repo, _cache) = open_unlocked(&mems, PW);

    let (_tmp, src) = source_dir();
    source_tree(&src);
    backup::run(&repo, &tagged_backup(&src, "first"), &Progress::default()).expect("backup 1");
    write_file(&src.join("small.txt"), b"a small file, changed\n");
    write_file(&src.join("new/file"), &pseudo_random(8, 3_000));
    repo.reload_index().unwrap();
    backup::run(&repo, &tagged_backup(&src, "second"), &Progress::default()).expect("backup 2");
    repo.reload_index().unwrap();
    if remotes > 2 {
        let certs = repo.load_catalog().unwrap();
        assert!(
            certs.iter().any(|c| !c.pointers.is_empty()),
            "no certificate has pointers"
        );
    }

    let key = repo.key().clone();
    let objects = futures::executor::block_on(async {
        let mut out = Vec::new();
        for o in mems[0].list("").await.unwrap() {
            let bytes = mems[0].get(&o.path).await.unwrap();
            out.push((o.path, bytes));
        }
        out
    });
    for (path, bytes) in &objects {
        let (target, kind) = match path.split('/').next() {
            Some("config") => ("config", ObjectKind::Config),
            Some("keys") => ("key_file", ObjectKind::Key),
            Some("extents") => ("certificate", ObjectKind::Extent),
            Some("heads") => ("head", ObjectKind::Head),
            Some("snapshots") => ("snapshot", ObjectKind::Snapshot),
            Some("index") => ("index", ObjectKind::Index),
            Some("deletions") => ("deletion", ObjectKind::Deletion),
            _ => continue,
        };
        corpus.entry("envelope").or_default().push(bytes.to_vec());
        let input = if kind == ObjectKind::Key {
            fuzzing::key_file_input(bytes, PW)
        } else {
            fuzzing::object_input(kind, bytes, &key)
        };
        corpus.entry(target).or_default().push(input.unwrap());
    }
    for (id, _, loc) in repo.index().iter().unwrap() {
        let plain = repo.read_blob(&id, loc.kind).unwrap();
        if loc.kind == BlobKind::Tree {
            corpus.entry("tree").or_default().push(plain.clone());
        }
        corpus
            .entry("blob")
            .or_default()
            .push(fuzzing::blob_input(loc.kind, &plain).unwrap());
    }
}

/// Rebuild `fuzz/corpus/*` from two repositories: three remotes (entangled: 4 data + 3
/// parity shards, 2 pointers) and two remotes (plain 2 + 2).
#[test]
#[ignore = "rewrites fuzz/corpus; run by hand"]
fn regenerate_corpus() {
    let mut corpus: BTreeMap<&str, Vec<Vec<u8>>> = BTreeMap::new();
    collect(3, 4096, &mut corpus);
    collect(2, 2048, &mut corpus);
    for (name, _) in TARGETS {
        let dir = fuzz_dir().join("corpus").join(name);
        for old in files(&dir) {
            std::fs::remove_file(old).unwrap();
        }
        std::fs::create_dir_all(&dir).unwrap();
        let inputs = corpus.get(name).map(Vec::as_slice).unwrap_or_default();
        assert!(!inputs.is_empty(), "no corpus for {name}");
        for input in inputs {
            let id = blake3::hash(input).to_hex();
            std::fs::write(dir.join(&id[..16]), input).unwrap();
        }
        println!("{name}: {} inputs", inputs.len());
    }
}
