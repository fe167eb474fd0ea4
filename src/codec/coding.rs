//! Coding parameters and the rule that makes them safe for a number of remotes.

use serde::{Deserialize, Serialize};

use super::CodecError;
use crate::error::Result;

/// How pointers were once chosen among older extents. Kept in the config for its format
/// (every repository records `Mixed`, the only value `init` ever wrote); the chooser in
/// [`super::pointers`] is least-pointed-first whatever it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum PointerStrategy {
    /// Half-normal, biased to recent extents.
    Normal,
    /// Uniform over the archive.
    Uniform,
    /// Half of each.
    #[default]
    Mixed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coding {
    pub data_shards: u8,
    pub parity_shards: u8,
    /// Pointer shards per codeword (entanglement); 0 is plain Reed-Solomon.
    pub pointers: u8,
    pub strategy: PointerStrategy,
}

impl Coding {
    /// Defaults such that losing any one remote loses nothing: p = 3 parity shards and as
    /// many data shards as fit when every remote may hold at most p symbols of a codeword
    /// (2 of them kept free for pointers); 2 remotes get plain 2+2.
    pub fn default_for(remotes: usize) -> Result<Coding> {
        let (s, p, t) = match remotes {
            0 | 1 => {
                return Err(CodecError::TooFewRemotes.into());
            }
            2 => (2, 2, 0),
            r => ((3 * (r - 1) - 2).min(16), 3, 2),
        };
        Ok(Coding {
            data_shards: s as u8,
            parity_shards: p,
            pointers: t,
            strategy: PointerStrategy::default(),
        })
    }

    pub fn width(&self) -> usize {
        self.data_shards as usize + self.parity_shards as usize
    }

    /// Storage per byte of data, e.g. 1.75.
    pub fn overhead(&self) -> f64 {
        self.width() as f64 / self.data_shards as f64
    }

    /// Refuse parameters that cannot survive the loss of one whole remote: every remote
    /// may hold at most `p` symbols of a codeword, pointers included.
    pub fn check(&self, remotes: usize) -> Result<()> {
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

    pub fn describe(&self) -> String {
        format!(
            "{} data + {} parity shards, {} pointers ({:.2}x storage)",
            self.data_shards,
            self.parity_shards,
            self.pointers,
            self.overhead()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults() {
        let c = Coding::default_for(3).unwrap();
        assert_eq!((c.data_shards, c.parity_shards, c.pointers), (4, 3, 2));
        assert!(Coding::default_for(1).is_err());
        for r in 2..10 {
            Coding::default_for(r).unwrap().check(r).unwrap();
        }
    }

    #[test]
    fn rejects_unsafe() {
        let mut c = Coding::default_for(3).unwrap();
        c.data_shards = 6;
        c.parity_shards = 1;
        c.pointers = 0;
        assert!(c.check(3).is_err());
        c.data_shards = 0;
        assert!(c.check(3).is_err());
    }
}
