//! Buffers for whole objects, given back when the last view of what was read into them
//! is dropped (every backend reads large objects into them). A restore reads every data
//! shard once (~500 MB of 4 MiB shards on the benchmark tree, 16 in the shard cache at a
//! time): a fresh buffer for each cost a page fault per 4 KiB page, 0.35 CPU s on the
//! local remote and more over S3 and SFTP.

use std::sync::Mutex;

use bytes::Bytes;

/// Objects smaller than this get a buffer of their own (allocating them costs little).
const LARGE: usize = 1 << 20;
/// Buffers kept for reuse: enough for the shards read while the oldest ones are
/// still being decoded, little memory once nothing is read.
const KEPT: usize = 2;
/// Larger buffers are not kept: shards are at most a few MiB.
const LARGEST: usize = 32 << 20;

static FREE: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());

/// An empty buffer with room for `size` bytes: a kept one if one is large enough.
/// Large ones are made a whole number of MiB, so that one fits the next shard,
/// whose size differs by a few bytes. Room for at most [`LARGEST`] is set aside: `size`
/// is the remote's word (a listing, a header, an fstat), and a larger object makes the
/// buffer grow only as its bytes arrive.
pub(crate) fn buffer(size: u64) -> Vec<u8> {
    let size = size.min(LARGEST as u64) as usize;
    if size < LARGE {
        return Vec::with_capacity(size);
    }
    let mut free = FREE.lock().unwrap_or_else(|p| p.into_inner());
    match free.iter().position(|b| b.capacity() >= size) {
        Some(i) => free.swap_remove(i),
        None => Vec::with_capacity(size.next_multiple_of(LARGE)),
    }
}

/// `buf`'s bytes, its buffer kept for [`buffer`] once the last view of it is gone.
pub(crate) fn bytes(buf: Vec<u8>) -> Bytes {
    if buf.capacity() >= LARGE && buf.capacity() <= LARGEST {
        Bytes::from_owner(GivenBack(buf))
    } else {
        Bytes::from(buf)
    }
}

struct GivenBack(Vec<u8>);

impl AsRef<[u8]> for GivenBack {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Drop for GivenBack {
    fn drop(&mut self) {
        let mut free = FREE.lock().unwrap_or_else(|p| p.into_inner());
        if free.len() < KEPT {
            let mut buf = std::mem::take(&mut self.0);
            buf.clear();
            free.push(buf);
        }
    }
}
