//! `--limit-upload` / `--limit-download` (KiB/s, for the whole process, as restic's): a
//! token bucket per direction that every remote of the process shares. Uploads wait
//! before they send; downloads wait after they arrive, so the average rate over a run
//! stays at the limit. The waits lie outside the remotes' deadlines (`deadline.rs`): a
//! throttled transfer is not a stalled remote.

use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use bytes::Bytes;

use super::{DynRemote, ObjectInfo, Remote, WriteAccess};
use crate::error::Result;

/// Bytes per second, in each direction, for every remote the process opens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BandwidthLimits {
    pub upload: Option<u64>,
    pub download: Option<u64>,
}

static LIMITS: OnceLock<(Option<Throttle>, Option<Throttle>)> = OnceLock::new();

/// Set the process's limits, once, before the first remote is opened (later calls
/// change nothing).
pub fn set_bandwidth_limits(limits: BandwidthLimits) {
    let _ = LIMITS.set((
        limits.upload.map(Throttle::new),
        limits.download.map(Throttle::new),
    ));
}

/// `remote` behind the process's limits, if it has any.
pub(super) fn limited(remote: DynRemote) -> DynRemote {
    match LIMITS.get() {
        Some((None, None)) | None => remote,
        Some(_) => std::sync::Arc::new(Limited { inner: remote }),
    }
}

/// A token bucket: `rate` bytes per second, with a burst of one second's worth.
struct Throttle {
    rate: f64,
    /// Bytes that may go now (negative: owed), and when that was computed.
    level: Mutex<(f64, Instant)>,
}

impl Throttle {
    fn new(bytes_per_second: u64) -> Throttle {
        let rate = bytes_per_second.max(1) as f64;
        Throttle {
            rate,
            level: Mutex::new((rate, Instant::now())),
        }
    }

    /// Take `n` bytes from the bucket, waiting until they are paid for.
    async fn take(&self, n: usize) {
        let wait = {
            let mut level = self.level.lock().unwrap_or_else(|p| p.into_inner());
            let now = Instant::now();
            let refill = now.duration_since(level.1).as_secs_f64() * self.rate;
            level.0 = (level.0 + refill).min(self.rate) - n as f64;
            level.1 = now;
            (level.0 < 0.0).then(|| Duration::from_secs_f64(-level.0 / self.rate))
        };
        if let Some(wait) = wait {
            tokio::time::sleep(wait).await;
        }
    }
}

async fn upload(n: usize) {
    if let Some((Some(t), _)) = LIMITS.get() {
        t.take(n).await;
    }
}

async fn download(got: Result<Bytes>) -> Result<Bytes> {
    if let (Some((_, Some(t))), Ok(b)) = (LIMITS.get(), &got) {
        t.take(b.len()).await;
    }
    got
}

struct Limited {
    inner: DynRemote,
}

#[async_trait]
impl Remote for Limited {
    fn url(&self) -> &str {
        self.inner.url()
    }
    async fn put(&self, access: WriteAccess, path: &str, data: Bytes) -> Result<()> {
        upload(data.len()).await;
        self.inner.put(access, path, data).await
    }
    async fn put_new(&self, access: WriteAccess, path: &str, data: Bytes) -> Result<bool> {
        upload(data.len()).await;
        self.inner.put_new(access, path, data).await
    }
    async fn put_once(&self, access: WriteAccess, path: &str, data: Bytes) -> Result<bool> {
        upload(data.len()).await;
        self.inner.put_once(access, path, data).await
    }
    async fn get(&self, path: &str) -> Result<Bytes> {
        download(self.inner.get(path).await).await
    }
    async fn get_max(&self, path: &str, max: u64) -> Result<Bytes> {
        download(self.inner.get_max(path, max).await).await
    }
    async fn get_sized(&self, path: &str, size: u64) -> Result<Bytes> {
        download(self.inner.get_sized(path, size).await).await
    }
    async fn get_range(&self, path: &str, offset: u64, len: u64) -> Result<Bytes> {
        download(self.inner.get_range(path, offset, len).await).await
    }
    async fn stat(&self, path: &str) -> Result<ObjectInfo> {
        self.inner.stat(path).await
    }
    async fn list(&self, prefix: &str) -> Result<Vec<ObjectInfo>> {
        self.inner.list(prefix).await
    }
    async fn list_temp(&self) -> Result<Vec<ObjectInfo>> {
        self.inner.list_temp().await
    }
    async fn delete(&self, access: WriteAccess, path: &str) -> Result<()> {
        self.inner.delete(access, path).await
    }
    async fn exists(&self) -> Result<bool> {
        self.inner.exists().await
    }
    async fn create(&self, access: WriteAccess) -> Result<()> {
        self.inner.create(access).await
    }
    fn high_latency(&self) -> bool {
        self.inner.high_latency()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bucket_holds_the_average_rate() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        let t = Throttle::new(1 << 20);
        let start = Instant::now();
        // One second's burst (1 MiB) goes at once, then 1 MiB a second: 1.5 MiB more take 1.5 s.
        rt.block_on(async {
            for _ in 0..5 {
                t.take(512 << 10).await;
            }
        });
        let took = start.elapsed().as_secs_f64();
        assert!(took >= 1.4, "{took}");
    }
}
