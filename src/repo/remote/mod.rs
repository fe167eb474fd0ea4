//! Remotes: where objects live. One async trait, several backends. Everything above this
//! layer addresses objects by slash-separated relative paths (`extents/ab12...`).
//!
//! Contract every backend keeps (checked by the conformance tests in `tests/`):
//! * `put` is atomic: a reader sees the whole new object or nothing (never a prefix);
//! * `put_new` never replaces an existing object and says whether it wrote;
//! * `list(prefix)` returns every object below the directory `prefix`, recursively,
//!   never the temp files of unfinished writes;
//! * a missing object is an error of kind [`Kind::NotFound`](crate::error::Kind).

mod cloud;
pub(crate) mod deadline;
mod error;
#[cfg(any(test, feature = "testing"))]
pub mod faulty;
pub mod lease;
mod local;
#[cfg(any(test, feature = "testing"))]
mod memory;
mod recycled;
mod restic;
pub(crate) mod retry;
mod sftp;
mod throttle;

pub use cloud::CloudRemote;
pub(crate) use error::{RemoteError, RemoteResult};
pub(crate) use local::{LocalRemote, TEMP_PREFIX};
#[cfg(any(test, feature = "testing"))]
pub use memory::MemoryRemote;
pub use sftp::SftpRemote;
pub use throttle::{BandwidthLimits, set_bandwidth_limits};

use std::sync::Arc;

use async_trait::async_trait;
use bytes::Bytes;

use crate::error::Result;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectInfo {
    pub path: String,
    pub size: u64,
}

/// The right to change a remote: every method that writes or deletes takes one, and
/// only the repository layer (`crate::repo`) can make one, so every write goes through
/// its durability and trust rules (src/repo/write.rs). Tests of the backends themselves
/// get one with the `testing` feature.
#[derive(Clone, Copy, Debug)]
pub struct WriteAccess(());

impl WriteAccess {
    pub(in crate::repo) const fn repository() -> Self {
        WriteAccess(())
    }

    #[cfg(any(test, feature = "testing"))]
    pub const fn for_tests() -> Self {
        WriteAccess(())
    }
}

#[async_trait]
pub trait Remote: Send + Sync {
    /// The URL this remote was configured with; reports name remotes by it.
    fn url(&self) -> &str;
    /// Write (or replace) an object atomically and durably.
    async fn put(&self, access: WriteAccess, path: &str, data: Bytes) -> Result<()>;
    /// Write an object only if it does not exist yet; `Ok(false)` if it did. Atomic where
    /// the server offers a create-only primitive (local `link`, OpenSSH's
    /// `hardlink@openssh.com`, S3 `If-None-Match`); elsewhere (an SFTP server without a
    /// working hardlink, an S3 server that ignores the condition) an existing object is
    /// still never replaced, but two writers racing for a new name may both succeed and
    /// the last one's object stays. Only `init` uses it, for the config.
    async fn put_new(&self, access: WriteAccess, path: &str, data: Bytes) -> Result<bool>;
    /// Write an object that does not exist yet the way create-only storage allows it: no
    /// temp file, rename, delete or setstat, so it works where those are refused (a
    /// writer key's backup, docs/REMOTES.md). `Ok(false)` if the object existed. Unlike
    /// [`put_new`](Self::put_new), a write cut short may leave a partial object under its
    /// name (every object is checked against its hash or signature when read, so a
    /// partial one reads as damage). Backends whose writes are atomic anyway (S3, local)
    /// use `put_new`; SFTP opens the file with an exclusive create.
    async fn put_once(&self, access: WriteAccess, path: &str, data: Bytes) -> Result<bool> {
        self.put_new(access, path, data).await
    }
    async fn get(&self, path: &str) -> Result<Bytes>;
    /// The whole object, refused (`Corrupt`) if it is larger than `max` bytes. Backends
    /// that can learn the size first never read more than `max`; the default checks
    /// after the read.
    async fn get_max(&self, path: &str, max: u64) -> Result<Bytes> {
        let data = self.get(path).await?;
        if data.len() as u64 > max {
            return Err(RemoteError::TooLarge {
                url: self.url().to_string(),
                path: path.to_string(),
                size: data.len() as u64,
                max,
            }
            .into());
        }
        Ok(data)
    }
    /// The whole object, which should be `size` bytes (a shard, whose size its certificate
    /// gives): the same answer as [`get_max`](Self::get_max)`(path, size)`, but a backend
    /// may read `size` bytes straight away instead of asking for the size first (SFTP:
    /// one round trip fewer per shard a restore reads).
    async fn get_sized(&self, path: &str, size: u64) -> Result<Bytes> {
        self.get_max(path, size).await
    }
    /// `len` bytes from `offset`; a range past the end is `Corrupt` (the object is short).
    async fn get_range(&self, path: &str, offset: u64, len: u64) -> Result<Bytes>;
    async fn stat(&self, path: &str) -> Result<ObjectInfo>;
    /// All objects below `prefix` (a directory path such as `snapshots`), recursively.
    async fn list(&self, prefix: &str) -> Result<Vec<ObjectInfo>>;
    /// The temp files of unfinished writes (`.tmp-*`) anywhere
    /// below the root, which `list` never shows: what a write cut short by a crash or a
    /// lost connection leaves behind. Each can be removed with `delete`. Backends that
    /// write whole objects at once (S3, memory) have none.
    async fn list_temp(&self) -> Result<Vec<ObjectInfo>> {
        Ok(Vec::new())
    }
    /// Delete an object; deleting a missing one is not an error.
    async fn delete(&self, access: WriteAccess, path: &str) -> Result<()>;
    /// Whether the remote's root exists (a repository may be there).
    async fn exists(&self) -> Result<bool>;
    /// Create the remote's root if needed (used by `init`).
    async fn create(&self, access: WriteAccess) -> Result<()>;
    /// Whether each request costs a network round trip, so that streaming readers should
    /// fetch whole shards rather than one blob at a time.
    fn high_latency(&self) -> bool {
        false
    }
}

pub type DynRemote = Arc<dyn Remote>;

/// Settings for one remote (from a profile's `[remote."URL"]` table).
#[derive(Debug, Default, Clone)]
pub struct RemoteSettings {
    /// `AWS_*`, `AZURE_*` or `GOOGLE_*` variables that override the environment for this
    /// remote (its profile's `[remote."URL"]` table).
    pub env: Vec<(String, String)>,
    /// Replaces `ssh` (and `TANGLE_SSH_COMMAND`) for this remote.
    pub ssh_command: Option<String>,
    /// Extents this remote may fall behind by during a backup (`upload_queue`).
    pub upload_queue: Option<usize>,
    /// Idle allowance per operation (`timeout`; default [`deadline::DEFAULT_TIMEOUT`]).
    pub timeout: Option<std::time::Duration>,
}

/// Settings per remote URL; a URL without an entry gets the defaults.
pub type SettingsByUrl = std::collections::BTreeMap<String, RemoteSettings>;

/// [`open_with`] with the default settings.
pub fn open(url: &str) -> Result<DynRemote> {
    open_with(url, &RemoteSettings::default())
}

/// Open a remote from its URL: a plain path or `file://path`, `s3://bucket/prefix`
/// (configured by the `AWS_*` variables), `az://container/prefix` (`AZURE_*`),
/// `gs://bucket/prefix` (`GOOGLE_*`), `sftp://[user@]host[:port]/path` (through the
/// system `ssh`, or `TANGLE_SSH_COMMAND`), `memory://name`. Network remotes connect on
/// first use.
pub fn open_with(url: &str, settings: &RemoteSettings) -> Result<DynRemote> {
    let backend = open_backend(url, settings)?;
    if url.starts_with("memory://") {
        return Ok(backend);
    }
    let timeout = settings.timeout.unwrap_or(deadline::DEFAULT_TIMEOUT);
    Ok(throttle::limited(Arc::new(deadline::Deadline::new(
        backend, timeout,
    ))))
}

fn open_backend(url: &str, settings: &RemoteSettings) -> Result<DynRemote> {
    if let Some(path) = url.strip_prefix("file://") {
        return Ok(Arc::new(LocalRemote::new(path, url)));
    }
    #[cfg(any(test, feature = "testing"))]
    if url.starts_with("memory://") {
        return Ok(Arc::new(MemoryRemote::new(url)));
    }
    let overrides: Vec<(&str, &str)> = (settings.env.iter())
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    if url.starts_with("s3://") {
        return Ok(Arc::new(CloudRemote::open_s3(url, &overrides)?));
    }
    if url.starts_with("az://") {
        return Ok(Arc::new(CloudRemote::open_azure(url, &overrides)?));
    }
    if url.starts_with("gs://") {
        return Ok(Arc::new(CloudRemote::open_gcs(url, &overrides)?));
    }
    if url.starts_with("sftp://") {
        return Ok(Arc::new(match &settings.ssh_command {
            Some(cmd) => SftpRemote::open_with_ssh_command(url, Some(cmd.clone()))?,
            None => SftpRemote::open(url)?,
        }));
    }
    if let Some((scheme, _)) = url.split_once("://") {
        return Err(RemoteError::UnsupportedScheme {
            url: url.to_string(),
            scheme: scheme.to_string(),
        }
        .into());
    }
    Ok(Arc::new(LocalRemote::new(url, url)))
}

/// Object paths are relative, slash-separated, without empty, `.` or `..` components;
/// every backend refuses anything else instead of resolving it.
pub(crate) fn check_path(url: &str, path: &str) -> RemoteResult<()> {
    if path.is_empty()
        || path
            .split('/')
            .any(|c| c.is_empty() || c == "." || c == "..")
    {
        return Err(RemoteError::InvalidPath {
            url: url.to_string(),
            path: path.to_string(),
        });
    }
    Ok(())
}

/// The end of `len` bytes from `offset` within an object of `size` bytes, or `Corrupt`
/// (the object is shorter than the caller was promised).
pub(crate) fn range_end(
    url: &str,
    path: &str,
    offset: u64,
    len: u64,
    size: u64,
) -> RemoteResult<u64> {
    match offset.checked_add(len) {
        Some(end) if end <= size => Ok(end),
        _ => Err(RemoteError::short(
            url,
            path,
            format!(" ({size} bytes, wanted {len} at {offset})"),
        )),
    }
}

/// Normalise a user-given remote URL for storing in the config: local paths become
/// absolute so the repository can be opened from any working directory, and restic's
/// `sftp:[USER@]HOST:PATH` becomes `sftp://[USER@]HOST/PATH` (restic's other backends are
/// refused, saying what to write instead: see [`restic`]).
pub(crate) fn canonical_url(url: &str) -> Result<String> {
    if let Some(translated) = restic::translate(url) {
        return Ok(translated?);
    }
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
