//! Remotes: where objects live. One async trait, several backends. Everything above this
//! layer addresses objects by slash-separated relative paths (`extents/ab12...`).
//!
//! Contract every backend keeps (checked by the conformance tests in `tests/`):
//! * `put` is atomic: a reader sees the whole new object or nothing (never a prefix);
//! * `put_new` never replaces an existing object and says whether it wrote;
//! * `list(prefix)` returns every object below the directory `prefix`, recursively,
//!   never the temp files of unfinished writes;
//! * a missing object is an error of kind [`Kind::NotFound`](crate::error::Kind).

mod local;
mod memory;

pub use local::LocalRemote;
pub use memory::MemoryRemote;

use std::sync::Arc;

use async_trait::async_trait;
use bytes::Bytes;

use crate::error::{Error, Result};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectInfo {
    pub path: String,
    pub size: u64,
}

#[async_trait]
pub trait Remote: Send + Sync {
    /// The URL this remote was configured with; reports name remotes by it.
    fn url(&self) -> &str;
    /// Write (or replace) an object atomically and durably.
    async fn put(&self, path: &str, data: Bytes) -> Result<()>;
    /// Write an object only if it does not exist yet; `Ok(false)` if it did.
    async fn put_new(&self, path: &str, data: Bytes) -> Result<bool>;
    async fn get(&self, path: &str) -> Result<Bytes>;
    /// `len` bytes from `offset`; a range past the end is `Corrupt` (the object is short).
    async fn get_range(&self, path: &str, offset: u64, len: u64) -> Result<Bytes>;
    async fn stat(&self, path: &str) -> Result<ObjectInfo>;
    /// All objects below `prefix` (a directory path such as `snapshots`), recursively.
    async fn list(&self, prefix: &str) -> Result<Vec<ObjectInfo>>;
    /// Delete an object; deleting a missing one is not an error.
    async fn delete(&self, path: &str) -> Result<()>;
    /// Whether the remote's root exists (a repository may be there).
    async fn exists(&self) -> Result<bool>;
    /// Create the remote's root if needed (used by `init`).
    async fn create(&self) -> Result<()>;
}

pub type DynRemote = Arc<dyn Remote>;

/// Open a remote from its URL: a plain path or `file://path` (more kinds in later work).
pub fn open(url: &str) -> Result<DynRemote> {
    if let Some(path) = url.strip_prefix("file://") {
        return Ok(Arc::new(LocalRemote::new(path, url)));
    }
    if url.starts_with("memory://") {
        return Ok(Arc::new(MemoryRemote::new(url)));
    }
    if let Some((scheme, _)) = url.split_once("://") {
        return Err(Error::usage(format!(
            "remote {url}: unsupported URL scheme {scheme}:// (use a path or file://)"
        )));
    }
    Ok(Arc::new(LocalRemote::new(url, url)))
}

/// Normalise a user-given remote URL for storing in the config: local paths become
/// absolute so the repository can be opened from any working directory.
pub fn canonical_url(url: &str) -> Result<String> {
    if url.contains("://") {
        return Ok(url.to_string());
    }
    let p = std::path::Path::new(url);
    let abs = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()?.join(p)
    };
    Ok(normalize(&abs).to_string_lossy().into_owned())
}

/// Lexically remove `.` and `..` (the directory may not exist yet, so no canonicalize).
fn normalize(p: &std::path::Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
