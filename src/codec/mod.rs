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
    ((seq % remotes as u64) as usize + index) % remotes
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
