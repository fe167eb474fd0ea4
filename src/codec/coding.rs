//! Coding parameters and the rule that makes them safe for a number of remotes.

use serde::{Deserialize, Serialize};

use super::CodecError;
use crate::error::Result;

/// How pointers were once chosen among older extents. Kept in the config for its format
/// (every repository records `Mixed`, the only value `init` ever wrote); the chooser in
/// [`super::pointers`] is least-pointed-first whatever it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub(crate) enum PointerStrategy {
    /// Half-normal, biased to recent extents.
    Normal,
    /// Uniform over the archive.
    Uniform,
    /// Half of each.
    #[default]
    Mixed,
}

/// Data shards of a tree extent ([`Coding::for_trees`]).
pub(crate) const TREE_DATA_SHARDS: u8 = 4;
/// Parity shards of a tree extent.
pub(crate) const TREE_PARITY_SHARDS: u8 = 12;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coding {
    pub data_shards: u8,
    pub parity_shards: u8,
    /// Pointer shards per codeword (entanglement); 0 is plain Reed-Solomon.
    pub pointers: u8,
    pub(crate) strategy: PointerStrategy,
}

impl Coding {
    /// The coding `init` chooses for `remotes` remotes. Losing any one remote loses
    /// nothing; codewords are wider than any plain Reed-Solomon code of at most 16
    /// shards at the same storage, with as many pointers as the remote rule
    /// `s + t + p <= p·R` allows. Chosen by measuring losses in the model and through the
    /// binary against the best such plain code (docs/ENTANGLEMENT.md, DURABILITY.md);
    /// repositories keep the coding they were made with. On 3 remotes 12+9 (21 shards)
    /// rather than 8+6: after one large backup followed by small ones (the young tail of
    /// the large one has no rescuers the size rule allows), 8+6 lost 0.58x of plain
    /// 8+6's extents with a remote lost + 5% through the binary, 12+9 0.29x
    /// (DURABILITY.md). On 5 remotes 17+7 (24 shards) rather than 12+5, for the same
    /// reason: 12+5 lost 0.52x of plain 12+5's extents under random 20% loss after a
    /// large first backup, 17+7 0.40x. On 4 remotes 15+9 (24 shards) rather than 10+6:
    /// a third to a fifth of 10+6's losses under random 20% loss and with a remote lost
    /// + 5%, the same in bursts.
    ///
    /// | R | s+p, t | storage |
    /// |---|---|---|
    /// | 2 | 2+2, 0 | 2.00x (no room for pointers without more than 2x) |
    /// | 3 | 12+9, 6 | 1.75x |
    /// | 4 | 15+9, 12 | 1.60x |
    /// | 5 | 17+7, 11 | 1.41x |
    /// | R ≥ 6 | 2(R−1)+3, at most s/2 (s at most 16) | 1 + 3/(2(R−1)); not measured |
    pub fn default_for(remotes: usize) -> Result<Coding> {
        let (s, p, t) = match remotes {
            0 | 1 => {
                return Err(CodecError::TooFewRemotes.into());
            }
            2 => (2, 2, 0),
            3 => (12, 9, 6),
            4 => (15, 9, 12),
            5 => (17, 7, 11),
            r => {
                let s = (2 * (r - 1)).min(16);
                (s, 3, (3 * (r - 1) - s).min(s / 2))
            }
        };
        Ok(Coding {
            data_shards: s as u8,
            parity_shards: p as u8,
            pointers: t as u8,
            strategy: PointerStrategy::default(),
        })
    }

    /// The coding of extents that hold tree blobs (directories): 4 data + 12 parity
    /// shards (4x storage) and no pointers, on any number of remotes. A lost tree makes
    /// whole snapshots unrestorable where a lost data extent costs only its files, and
    /// trees are small (well under 1% of a repository), so they get far more protection
    /// than data: with 3 remotes a tree extent survives any two remotes lost plus one
    /// more shard, and with 20% of all shards lost at random it is lost with probability
    /// about 2·10⁻⁷ (three whole copies: 8·10⁻³). Repositories made before this coding
    /// keep trees as copies (1 data shard) or inside data extents.
    pub fn for_trees() -> Coding {
        Coding {
            data_shards: TREE_DATA_SHARDS,
            parity_shards: TREE_PARITY_SHARDS,
            pointers: 0,
            strategy: PointerStrategy::default(),
        }
    }

    /// Whether an extent coded `s + p` holds trees, in a repository whose file data is
    /// coded `self`: 4+12 ([`Coding::for_trees`]) or one data shard (the whole copies
    /// of 2026-11-27), unless file data is coded so too.
    pub(crate) fn is_tree_extent(&self, data_shards: u8, parity_shards: u8) -> bool {
        (data_shards, parity_shards) != (self.data_shards, self.parity_shards)
            && (data_shards == 1
                || (data_shards, parity_shards) == (TREE_DATA_SHARDS, TREE_PARITY_SHARDS))
    }

    /// Whether pointers may name the data shards of an extent of this shape. Not a tree
    /// extent: one data shard (whole copies, the tree coding before 4+12) or parity at
    /// least twice the data (3x storage or more: `for_trees`, or a coding so strong that
    /// a pointer is better spent elsewhere). Such extents are protected by their own
    /// parity; a pointer there would be spent on data that needs it least.
    pub(crate) fn pointable(data_shards: usize, parity_shards: usize) -> bool {
        data_shards > 1 && parity_shards < 2 * data_shards
    }

    pub fn width(&self) -> usize {
        self.data_shards as usize + self.parity_shards as usize
    }

    /// Storage per byte of data, e.g. 1.75.
    pub(crate) fn overhead(&self) -> f64 {
        self.width() as f64 / self.data_shards as f64
    }

    /// Refuse parameters that cannot survive the loss of one whole remote: every remote
    /// may hold at most `p` symbols of a codeword, pointers included.
    pub(crate) fn check(&self, remotes: usize) -> Result<()> {
        let (s, p, t) = (
            self.data_shards as usize,
            self.parity_shards as usize,
            self.pointers as usize,
        );
        if s == 0 || p == 0 {
            return Err(CodecError::ZeroShards.into());
        }
        if s + t + p > 255 {
            return Err(CodecError::TooManyShards.into());
        }
        if remotes < 2 {
            return Err(CodecError::TooFewRemotes.into());
        }
        if s + t + p > p * remotes {
            return Err(CodecError::UnsafeCoding {
                data: s,
                pointers: t,
                parity: p,
                remotes,
            }
            .into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults() {
        let c = Coding::default_for(3).unwrap();
        assert_eq!((c.data_shards, c.parity_shards, c.pointers), (12, 9, 6));
        assert!(Coding::default_for(1).is_err());
        for r in 2..20 {
            let c = Coding::default_for(r).unwrap();
            c.check(r).unwrap();
            Coding::for_trees().check(r).unwrap();
            let (s, p, t) = (c.data_shards as usize, c.parity_shards as usize, c.pointers);
            if (3..=5).contains(&r) {
                assert_eq!(
                    s + t as usize + p,
                    p * r,
                    "{r} remotes: as many pointers as fit"
                );
            }
        }
    }

    #[test]
    fn rejects_unsafe() {
        let mut c = Coding::default_for(3).unwrap();
        c.data_shards = 6;
        c.parity_shards = 1;
        c.pointers = 2;
        assert!(c.check(3).is_err());
        c.pointers = 0;
        assert!(c.check(3).is_err());
        c.data_shards = 0;
        assert!(c.check(3).is_err());
    }
}
