//! Every operation on a remote ends in bounded time: a remote that stalls (a server that
//! accepts connections and never answers, a hung mount) costs one timeout, after which
//! the repository reads from the others (`Repository::get_from` marks it down).
//!
//! The limit is an idle allowance, `timeout` per started 4 MiB of the object the
//! operation moves (known in advance: every read has a bound), so a slow but moving
//! transfer of a large object is not cut off while a silent one is.

use std::future::Future;
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;

use super::{DynRemote, ObjectInfo, Remote, RemoteError, WriteAccess};
use crate::debug;
use crate::error::Result;

/// The default idle allowance (`timeout` in a profile's `[remote."URL"]` table).
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
/// Bytes one allowance covers.
const BYTES_PER_ALLOWANCE: u64 = 4 << 20;
/// A read's bound counts up to this much when sizing its allowance.
const MAX_COUNTED: u64 = 64 << 20;

/// Count the bytes a get returned (`TANGLE_DEBUG_REQUESTS`, [`crate::debug`]), in all and
/// of shards (`shards/...`: extent contents, as against metadata).
fn got(path: &str, result: Result<Bytes>) -> Result<Bytes> {
    if let Ok(b) = &result {
        debug::GOT_BYTES.add(b.len() as u64);
        if path.starts_with("shards/") {
            debug::GOT_SHARD_BYTES.add(b.len() as u64);
        }
    }
    result
}

/// Set once the process is stopping on a signal: from then on only the removal of its
/// locks (and repair markers) reaches the remotes, so nothing is written once the locks are gone.
static STOPPING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Refuse every later write and delete except the removal of a lock (see `STOPPING`).
/// Writes already under way finish.
pub(crate) fn stop_writes() {
    STOPPING.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// Whether a write of `path` is refused because the process is stopping, or because it
/// lost its lock (its [`lease`](super::lease) lapsed). The removal of a lock or repair
/// marker (this process's own) always goes ahead.
fn refused_when_stopping(path: &str, lock_removal: bool) -> Result<()> {
    if lock_removal && (path.starts_with("locks/") || path.starts_with("repairs/")) {
        return Ok(());
    }
    if STOPPING.load(std::sync::atomic::Ordering::SeqCst) {
        return Err(crate::error::Error::new(
            crate::error::Kind::Interrupted,
            format!("interrupted: {path} not written"),
        ));
    }
    super::lease::check(path)
}

pub(crate) struct Deadline {
    inner: DynRemote,
    timeout: Duration,
}

impl Deadline {
    pub(crate) fn new(inner: DynRemote, timeout: Duration) -> Self {
        Deadline { inner, timeout }
    }

    async fn within<T>(
        &self,
        op: &'static str,
        path: &str,
        bytes: u64,
        fut: impl Future<Output = Result<T>>,
    ) -> Result<T> {
        // Operations started on network and local remotes, by kind: what
        // `TANGLE_DEBUG_REQUESTS` prints, and what the history benchmark compares.
        debug::request(op);
        let periods = 1 + bytes.min(MAX_COUNTED) / BYTES_PER_ALLOWANCE;
        let limit = self.timeout.saturating_mul(periods as u32);
        match tokio::time::timeout(limit, fut).await {
            Ok(result) => result,
            Err(_) => Err(RemoteError::Timeout {
                url: self.inner.url().to_string(),
                op,
                path: path.to_string(),
                secs: limit.as_secs_f64(),
            }
            .into()),
        }
    }
}

#[async_trait]
impl Remote for Deadline {
    fn url(&self) -> &str {
        self.inner.url()
    }
    async fn put(&self, access: WriteAccess, path: &str, data: Bytes) -> Result<()> {
        refused_when_stopping(path, false)?;
        let n = data.len() as u64;
        self.within("put", path, n, self.inner.put(access, path, data))
            .await
    }
    async fn put_new(&self, access: WriteAccess, path: &str, data: Bytes) -> Result<bool> {
        refused_when_stopping(path, false)?;
        let n = data.len() as u64;
        self.within("put", path, n, self.inner.put_new(access, path, data))
            .await
    }
    async fn put_once(&self, access: WriteAccess, path: &str, data: Bytes) -> Result<bool> {
        // A lock's end on create-only storage is its removal there.
        let lock_end = path.starts_with("locks/") && path.ends_with("-end");
        refused_when_stopping(path, lock_end)?;
        let n = data.len() as u64;
        self.within("put", path, n, self.inner.put_once(access, path, data))
            .await
    }
    async fn get(&self, path: &str) -> Result<Bytes> {
        got(
            path,
            self.within("get", path, MAX_COUNTED, self.inner.get(path))
                .await,
        )
    }
    async fn get_max(&self, path: &str, max: u64) -> Result<Bytes> {
        got(
            path,
            self.within("get", path, max, self.inner.get_max(path, max))
                .await,
        )
    }
    async fn get_sized(&self, path: &str, size: u64) -> Result<Bytes> {
        got(
            path,
            self.within("get", path, size, self.inner.get_sized(path, size))
                .await,
        )
    }
    async fn get_range(&self, path: &str, offset: u64, len: u64) -> Result<Bytes> {
        got(
            path,
            self.within("get", path, len, self.inner.get_range(path, offset, len))
                .await,
        )
    }
    async fn stat(&self, path: &str) -> Result<ObjectInfo> {
        self.within("stat", path, 0, self.inner.stat(path)).await
    }
    async fn list(&self, prefix: &str) -> Result<Vec<ObjectInfo>> {
        // A listing of a large repository takes many pages: three allowances.
        let listed = self
            .within(
                "list",
                prefix,
                2 * BYTES_PER_ALLOWANCE,
                self.inner.list(prefix),
            )
            .await;
        if let Ok(names) = &listed {
            debug::listed(names.len());
        }
        listed
    }
    async fn list_temp(&self) -> Result<Vec<ObjectInfo>> {
        self.within("list", "", 2 * BYTES_PER_ALLOWANCE, self.inner.list_temp())
            .await
    }
    async fn delete(&self, access: WriteAccess, path: &str) -> Result<()> {
        refused_when_stopping(path, true)?;
        self.within("delete", path, 0, self.inner.delete(access, path))
            .await
    }
    async fn exists(&self) -> Result<bool> {
        self.within("stat", "", 0, self.inner.exists()).await
    }
    async fn create(&self, access: WriteAccess) -> Result<()> {
        refused_when_stopping("", false)?;
        self.within("create", "", 0, self.inner.create(access))
            .await
    }
    fn high_latency(&self) -> bool {
        self.inner.high_latency()
    }
}
