//! A certified pointer shard read a window at a time as the encoder gets to it, and
//! hash-checked once read through (see [`Repository::pointer_input`]).

use crate::codec::{self, StripeSource};
#[cfg(doc)]
use crate::repo::{Repository, State};

/// How much of a pointer shard [`ShardStream`] reads at a time (a whole number of the
/// encoder's stripes, so a stripe never spans two windows).
pub(crate) const SHARD_WINDOW: usize = 4 * codec::STRIPE;
const _: () = assert!(SHARD_WINDOW.is_multiple_of(codec::STRIPE));

/// Reads `n` bytes at an offset of a shard from its remote; `None` if that fails.
pub(super) type FetchRange<'a> = Box<dyn FnMut(usize, usize) -> Option<bytes::Bytes> + 'a>;

/// A certified shard read a window at a time (see [`Repository::pointer_input`]).
pub(super) struct ShardStream<'a> {
    fetch: FetchRange<'a>,
    /// The certified size and hash.
    size: usize,
    hash: [u8; 32],
    hasher: blake3::Hasher,
    window: bytes::Bytes,
    window_at: usize,
    /// A read failed or came back short: what follows is zeros and the shard is refused.
    pub(super) failed: bool,
}

impl<'a> ShardStream<'a> {
    pub(super) fn new(fetch: FetchRange<'a>, size: usize, hash: [u8; 32]) -> Self {
        ShardStream {
            fetch,
            size,
            hash,
            hasher: blake3::Hasher::new(),
            window: bytes::Bytes::new(),
            window_at: 0,
            failed: false,
        }
    }

    pub(super) fn next_window(&mut self) {
        let at = self.window_at + self.window.len();
        let n = SHARD_WINDOW.min(self.size - at);
        match (self.fetch)(at, n) {
            Some(b) if b.len() == n => {
                self.hasher.update(&b);
                self.window = b;
                self.window_at = at;
            }
            _ => {
                self.failed = true;
                self.window = bytes::Bytes::new();
            }
        }
    }
}

impl StripeSource for ShardStream<'_> {
    fn size(&self) -> usize {
        self.size
    }

    fn stripe(&mut self, off: usize, len: usize) -> &[u8] {
        let end = (off + len).min(self.size);
        if off >= end || self.failed {
            return &[];
        }
        if off < self.window_at {
            // Coded again (another pointer was refused): read through from the start.
            self.hasher.reset();
            self.window = bytes::Bytes::new();
            self.window_at = 0;
        }
        if end > self.window_at + self.window.len() {
            self.next_window();
            if self.failed {
                return &[];
            }
        }
        let within = off.saturating_sub(self.window_at);
        let upto = end - self.window_at;
        self.window.get(within..upto).unwrap_or_default()
    }

    fn verified(&mut self) -> bool {
        !self.failed
            && self.window_at + self.window.len() == self.size
            && self.hasher.finalize().as_bytes() == &self.hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::STRIPE;

    /// A shard served from memory.
    fn stream_over(shard: &[u8], hash: [u8; 32]) -> ShardStream<'static> {
        let data = bytes::Bytes::copy_from_slice(shard);
        let fetch = move |at: usize, n: usize| Some(data.slice(at..(at + n).min(data.len())));
        ShardStream::new(Box::new(fetch), shard.len(), hash)
    }

    fn read_through(s: &mut ShardStream<'_>) -> Vec<u8> {
        let mut out = Vec::new();
        let mut off = 0;
        while off < s.size() {
            let part = s.stripe(off, STRIPE).to_vec();
            out.extend_from_slice(&part);
            off += STRIPE;
        }
        out
    }

    #[test]
    fn shard_stream_hands_out_the_shard_and_checks_it_each_time_through() {
        let shard: Vec<u8> = (0..SHARD_WINDOW * 2 + STRIPE + 64)
            .map(|i| (i % 251) as u8)
            .collect();
        let hash = *blake3::hash(&shard).as_bytes();
        let mut s = stream_over(&shard, hash);
        s.next_window();
        assert_eq!(read_through(&mut s), shard);
        assert!(s.verified());
        // Coded again after another pointer was refused: read through from the start.
        assert_eq!(read_through(&mut s), shard);
        assert!(s.verified(), "the second pass hashes the shard afresh");
        // A shard that is not the certified one is refused once read through.
        let mut other = shard.clone();
        other[SHARD_WINDOW + 5] ^= 1;
        let mut s = stream_over(&other, hash);
        s.next_window();
        assert_eq!(read_through(&mut s), other);
        assert!(!s.verified());
    }

    #[test]
    fn shard_stream_refuses_a_short_read_and_hands_out_nothing_after_it() {
        let shard: Vec<u8> = vec![7; SHARD_WINDOW + 100];
        let hash = *blake3::hash(&shard).as_bytes();
        let served = bytes::Bytes::from(shard[..SHARD_WINDOW + 10].to_vec());
        let fetch = move |at: usize, n: usize| Some(served.slice(at..(at + n).min(served.len())));
        let mut s = ShardStream::new(Box::new(fetch), shard.len(), hash);
        s.next_window();
        assert!(!s.failed);
        assert_eq!(s.stripe(SHARD_WINDOW, STRIPE), &[] as &[u8]);
        assert!(!s.verified());
    }
}
