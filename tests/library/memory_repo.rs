//! The repository most library tests start from: in-memory remotes, a client with a cache
//! of its own (unlocked, its index loaded), a source directory and the options of a
//! backup of it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tangle::ops::backup::BackupOptions;
use tangle::ops::restore::RestoreOptions;
use tangle::remote::{DynRemote, MemoryRemote};
use tangle::repo::{Indexed, Repository};
use tempfile::TempDir;

/// `n` empty in-memory remotes, `memory://NAME-0` to `memory://NAME-(n-1)`.
pub fn memory_remotes(name: &str, n: usize) -> Vec<DynRemote> {
    (0..n)
        .map(|i| Arc::new(MemoryRemote::new(&format!("memory://{name}-{i}"))) as DynRemote)
        .collect()
}

/// A client of the repository on `remotes` (reached through the first): a cache of its
/// own (returned, to live as long as the client), unlocked with `password`, its index
/// loaded.
pub fn open_unlocked(remotes: &[DynRemote], password: &[u8]) -> (Repository<Indexed>, TempDir) {
    let cache = tempfile::tempdir().unwrap();
    let repo = Repository::open_with_remotes(remotes.to_vec(), 0, Some(cache.path().into()))
        .expect("open");
    let repo = repo.unlock_and_load_index(password).expect("unlock");
    (repo, cache)
}

/// `SRC`, an absolute path (not yet created) in a new temp dir, which is returned to
/// live as long as the source.
pub fn source_dir() -> (TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let src = std::fs::canonicalize(tmp.path()).unwrap().join("src");
    (tmp, src)
}

/// A backup of `src` as host `host`, with no excludes, tags or upload queue.
pub fn backup_options(src: &Path, host: &str) -> BackupOptions {
    BackupOptions {
        paths: vec![src.to_path_buf()],
        host: Some(host.into()),
        ..Default::default()
    }
}

/// A restore of `spec` (`SNAPSHOT[:PATH]`) into `target`, whole (no filter, includes or
/// excludes), reading every file back if `verify`.
pub fn restore_options(spec: &str, target: &Path, verify: bool) -> RestoreOptions {
    RestoreOptions {
        spec: spec.into(),
        filter: Default::default(),
        target: target.to_path_buf(),
        includes: vec![],
        excludes: vec![],
        verify,
        dry_run: false,
        overwrite: Default::default(),
        delete: false,
    }
}
