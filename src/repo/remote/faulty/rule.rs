//! The faults a [`Faulty`](super::Faulty) remote can inject and the rules that say
//! when: which operations, which paths, how likely; and the seeded decisions behind them.

use std::collections::HashSet;

use bytes::Bytes;

use crate::error::Kind;

/// An operation of the [`Remote`](crate::remote::Remote) trait.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Put,
    PutNew,
    /// `put_once`: a create-only write (see [`Remote::put_once`](crate::remote::Remote::put_once)).
    PutOnce,
    Get,
    GetRange,
    Stat,
    List,
    Delete,
    Exists,
    Create,
}

impl Op {
    pub const ALL: [Op; 10] = [
        Op::Put,
        Op::PutNew,
        Op::PutOnce,
        Op::Get,
        Op::GetRange,
        Op::Stat,
        Op::List,
        Op::Delete,
        Op::Exists,
        Op::Create,
    ];
    /// Operations that read objects: `get`, `get_range`.
    pub const READS: [Op; 2] = [Op::Get, Op::GetRange];
    /// Operations that write objects: `put`, `put_new`, `put_once`.
    pub const WRITES: [Op; 3] = [Op::Put, Op::PutNew, Op::PutOnce];

    pub(super) fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// What goes wrong when a rule applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    Error(Kind),
    Timeout,
    Truncate,
    FlipBits(u32),
    LostAck,
}

/// When and where a fault is injected.
#[derive(Clone, Debug)]
pub struct Rule {
    pub(super) fault: Fault,
    pub(super) ops: u16,
    pub(super) prefix: String,
    /// `prefix` is the whole path, not its start.
    pub(super) exact: bool,
    pub(super) probability: f64,
    pub(super) per_call: bool,
    pub(super) limit: Option<u64>,
}

impl Rule {
    /// `fault` on every operation and every path, always.
    pub fn new(fault: Fault) -> Rule {
        Rule {
            fault,
            ops: Op::ALL.iter().fold(0, |m, o| m | o.bit()),
            prefix: String::new(),
            exact: false,
            probability: 1.0,
            per_call: false,
            limit: None,
        }
    }
    /// Only on these operations.
    pub fn ops(mut self, ops: &[Op]) -> Rule {
        self.ops = ops.iter().fold(0, |m, o| m | o.bit());
        self
    }
    /// Only on paths starting with `prefix` (for `list`: the listed prefix).
    pub fn prefix(mut self, prefix: &str) -> Rule {
        self.prefix = prefix.to_string();
        self
    }
    /// Only on this one path (`shards/X/1` is not `shards/X/10`).
    pub fn path(mut self, path: &str) -> Rule {
        self.prefix = path.to_string();
        self.exact = true;
        self
    }
    /// Only for a seeded random share of the paths.
    pub fn probability(mut self, p: f64) -> Rule {
        self.probability = p.clamp(0.0, 1.0);
        self
    }
    /// Decide anew on every call (a transient fault) instead of once per path (a
    /// persistent one: the same object always fails the same way).
    pub fn per_call(mut self) -> Rule {
        self.per_call = true;
        self
    }
    /// Inject at most `n` times.
    pub fn times(mut self, n: u64) -> Rule {
        self.limit = Some(n);
        self
    }
}

/// A 64-bit hash of one decision's inputs (BLAKE3, so any change of input changes it).
pub(super) fn mix(seed: u64, rule: u64, op: Op, path: &str, call: u64) -> u64 {
    let mut h = blake3::Hasher::new();
    h.update(&seed.to_le_bytes());
    h.update(&rule.to_le_bytes());
    h.update(&(op as u64).to_le_bytes());
    h.update(&call.to_le_bytes());
    h.update(path.as_bytes());
    let b = h.finalize();
    u64::from_le_bytes(b.as_bytes()[..8].try_into().unwrap_or([0; 8]))
}

/// `data` with `n` bits flipped at positions derived from `h` (distinct positions, so
/// flips never cancel out; empty data stays empty).
pub(super) fn flip(data: &[u8], n: u32, h: u64) -> Bytes {
    let mut v = data.to_vec();
    if v.is_empty() || n == 0 {
        return Bytes::from(v);
    }
    let bits = v.len() as u64 * 8;
    let mut x = h | 1;
    let mut done = HashSet::new();
    for _ in 0..(n as u64).min(bits) {
        loop {
            // xorshift64*
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            let pos = x.wrapping_mul(0x2545_F491_4F6C_DD1D) % bits;
            if done.insert(pos) {
                v[(pos / 8) as usize] ^= 1 << (pos % 8);
                break;
            }
        }
    }
    Bytes::from(v)
}
