//! Reused extent buffers. Every extent's 16 MiB of data is written once and freed when
//! its uploads finish; freshly allocated, such a buffer costs a page fault, a zeroed
//! page, a memory-cgroup charge and a freed page per 4 KiB (about 3 µs each here).
//! Buffers come back here when the last shard cut from them is dropped and the next
//! extent refills them.

use std::sync::{Arc, Mutex};

use bytes::Bytes;

/// At most one idle buffer: an extent's buffer comes back once its uploads are done and
/// the next extent moves into it (see `ExtentBuilder::pooled`), so one is all a run
/// reuses; a second would only sit resident. Clones share the same pool.
#[derive(Clone, Default)]
pub(crate) struct BufferPool {
    idle: Arc<Mutex<Option<Vec<u8>>>>,
}

impl BufferPool {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// An idle buffer, emptied, with room for at least `capacity` bytes; `None` while
    /// every buffer is still held by the shards of an extent in flight.
    pub(crate) fn reuse(&self, capacity: usize) -> Option<Vec<u8>> {
        let mut buf = self.lock().take()?;
        buf.clear();
        buf.reserve(capacity);
        Some(buf)
    }

    /// `buf` as shared bytes that return it to the pool once the last slice of it is
    /// dropped (the uploads that wrote it are done).
    pub(crate) fn share(&self, buf: Vec<u8>) -> Bytes {
        Bytes::from_owner(Pooled {
            buf,
            pool: self.clone(),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Vec<u8>>> {
        self.idle.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How many buffers are idle.
    #[cfg(test)]
    pub(crate) fn idle(&self) -> usize {
        usize::from(self.lock().is_some())
    }
}

struct Pooled {
    buf: Vec<u8>,
    pool: BufferPool,
}

impl AsRef<[u8]> for Pooled {
    fn as_ref(&self) -> &[u8] {
        &self.buf
    }
}

impl Drop for Pooled {
    fn drop(&mut self) {
        // Kept if the pool is empty; freed here if it already holds one.
        let buf = std::mem::take(&mut self.buf);
        self.pool.lock().get_or_insert(buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_comes_back_when_its_last_slice_is_dropped() {
        let pool = BufferPool::new();
        assert!(pool.reuse(1 << 20).is_none());
        let mut buf = Vec::with_capacity(1 << 20);
        buf.extend_from_slice(&[7; 1000]);
        let ptr = buf.as_ptr();
        let shared = pool.share(buf);
        let (a, b) = (shared.slice(0..500), shared.slice(500..));
        drop(shared);
        drop(a);
        assert_eq!(pool.idle(), 0, "a slice is still alive");
        assert_eq!(&b[..], &[7; 500][..]);
        drop(b);
        assert_eq!(pool.idle(), 1);
        let again = pool.reuse(1 << 20).unwrap();
        assert_eq!(again.as_ptr(), ptr, "the same allocation is reused");
        assert!(again.is_empty() && again.capacity() >= 1 << 20);
        assert_eq!(pool.idle(), 0);
    }

    #[test]
    fn the_pool_keeps_one_idle_buffer_at_most() {
        let pool = BufferPool::new();
        let (x, y) = (pool.share(vec![1; 10]), pool.share(vec![2; 10]));
        drop((x, y));
        assert_eq!(pool.idle(), 1);
    }
}
