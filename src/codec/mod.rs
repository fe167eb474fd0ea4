//! The codec: how a sealed extent becomes shards, where the shards go, and how lost
//! shards come back.
//!
//! A codeword is `s` data shards (the extent's bytes, split in order and zero-padded)
//! plus `t` pointer shards (data shards of older extents; chosen a layer up, in
//! `extent::pointers`) plus `p` Reed-Solomon parity shards over those `s + t` inputs.
//! Only data and parity shards of the extent itself are stored with it; pointers are
//! stored by the extent they belong to. Data shards are stored as they are (systematic
//! code), so reading needs no decoding unless something is missing or corrupt.

mod coding;
mod error;
pub mod peel;
mod rs;

pub use coding::Coding;
pub(crate) use error::CodecError;
pub(crate) use rs::{SHARD_ALIGN, STRIPE, StripeSource, encode_parity_streamed};
pub use rs::{encode_parity, reconstruct, shard_size_for};

/// Which remote holds shard `index` of the extent with sequence number `seq`:
/// round-robin from a per-extent rotation so load spreads evenly and no remote holds
/// more than `ceil((s+p)/R)` shards of one extent.
pub fn place(seq: u64, index: usize, remotes: usize) -> usize {
    #[cfg(feature = "testing")]
    if remotes >= 4 && experiments::skip_one_placement() {
        // Each extent on R - 1 remotes, skipping remote `seq mod R`, round-robin over the
        // others from a rotating start (docs/DURABILITY.md, "Placement on R - 1 remotes").
        let skip = (seq % remotes as u64) as usize;
        let start = (seq / remotes as u64) as usize;
        return (skip + 1 + (start + index) % (remotes - 1)) % remotes;
    }
    ((seq % remotes as u64) as usize + index) % remotes
}

/// Switches for durability experiments through the binary (`scripts/durability.sh
/// --binary-env`), in builds with the `testing` feature only. Each is read once.
#[cfg(feature = "testing")]
pub(crate) mod experiments {
    use std::sync::OnceLock;

    /// `TANGLE_TEST_PLACEMENT=skip-one`: with 4 or more remotes, place each extent's
    /// shards on all remotes but one, a different one for each extent.
    pub(crate) fn skip_one_placement() -> bool {
        static ON: OnceLock<bool> = OnceLock::new();
        *ON.get_or_init(|| std::env::var("TANGLE_TEST_PLACEMENT").is_ok_and(|v| v == "skip-one"))
    }

    /// `TANGLE_TEST_YOUNG_POINTERS=N`: N young pointers per codeword (at most `t`)
    /// instead of `t / 4`.
    pub(crate) fn young_pointers() -> Option<usize> {
        static N: OnceLock<Option<usize>> = OnceLock::new();
        *N.get_or_init(|| {
            std::env::var("TANGLE_TEST_YOUNG_POINTERS")
                .ok()
                .and_then(|v| v.parse().ok())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_respects_parity_budget() {
        for remotes in 2..7 {
            let c = Coding::default_for(remotes).unwrap();
            for seq in 0..10u64 {
                let mut count = vec![0usize; remotes];
                for i in 0..c.data_shards as usize + c.parity_shards as usize {
                    count[place(seq, i, remotes)] += 1;
                }
                assert!(
                    count.iter().all(|&n| n <= c.parity_shards as usize),
                    "{remotes} remotes: {count:?}"
                );
            }
        }
    }
}
