//! The model of an entangled archive that `entanglement_sim.rs` measures and
//! `cli_pointer_coverage.rs` compares a real repository with: a history of extents placed
//! by the real `codec::place`, entangled by the real `codec::pointers::choose` (or by the
//! chooser it replaced, kept here for comparison, or not at all: plain Reed-Solomon at
//! the same storage), damaged by presence bitmaps and repaired by the real
//! `codec::peel`. No I/O. Coverage and spares are counted here from the codewords, not
//! with the library's own counting, so comparing the two checks both.

#![allow(dead_code)]

use rand::{Rng, RngExt};
use rand_distr::{Distribution, Normal};
use tangle::codec::peel::{Codeword, peel};
use tangle::codec::place;
use tangle::codec::pointers::{self, Candidate, Catalog, Want};

/// The size rule of the chooser before least-pointed-first: pointers up to 12.5% larger.
const MAX_GROWTH: f64 = 1.125;
use tangle::extent::ExtentName;

/// tangle's default coding for 3 remotes: 4 data + 2 pointers + 3 parity (1.75x).
pub const REMOTES: usize = 3;
pub const S: usize = 4;
pub const P: usize = 3;
pub const T: usize = 2;
pub const WIDTH: usize = S + P;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chooser {
    /// No pointers: plain Reed-Solomon 4+3.
    Plain,
    /// `codec::pointers::choose`: least-pointed first.
    Current,
    /// The chooser before it (its default "mixed" strategy): alternately an older extent
    /// by a half-normal draw from the newest (sigma = min(n, 1000), clamped at the
    /// oldest) or uniformly, then its first data shard after a random start on a remote
    /// with room; 48 draws per pointer.
    Before,
}

/// A history of `n` extents: own symbol `i` of extent `e` is `e * WIDTH + i` (data
/// first, then parity); pointers are data symbols of older extents.
pub struct History {
    pub n: usize,
    pub codewords: Vec<Codeword>,
    /// Remote of every own symbol.
    pub remote_of: Vec<usize>,
    /// Pointer symbols of each codeword.
    pub pointers: Vec<Vec<usize>>,
}

fn name(e: usize) -> ExtentName {
    let mut b = [0u8; 32];
    b[..8].copy_from_slice(&(e as u64).to_le_bytes());
    ExtentName(b)
}

impl History {
    /// Extents whose own shards have these sizes, in order (one writer: extent `e` has
    /// sequence number `e`), each choosing pointers among all older ones as a backup
    /// does. A codeword's shard size is its largest input, as when sealing.
    pub fn build(chooser: Chooser, own_sizes: &[u32], rng: &mut impl Rng) -> History {
        let n = own_sizes.len();
        let mut h = History {
            n,
            codewords: Vec::with_capacity(n),
            remote_of: Vec::with_capacity(n * WIDTH),
            pointers: Vec::with_capacity(n),
        };
        let mut catalog = Catalog::new();
        let mut sizes: Vec<u32> = Vec::with_capacity(n);
        for (e, &own_size) in own_sizes.iter().enumerate() {
            let own: Vec<usize> = (0..WIDTH).map(|i| place(e as u64, i, REMOTES)).collect();
            let mut on = vec![0usize; REMOTES];
            for &r in &own {
                on[r] += 1;
            }
            let chosen: Vec<usize> = match chooser {
                Chooser::Plain => Vec::new(),
                Chooser::Current => {
                    let want = Want {
                        at: e,
                        pointers: T,
                        parity: P,
                        shard_size: own_size,
                    };
                    pointers::choose(rng, &want, &mut on, &catalog, |_| true)
                        .iter()
                        .map(|c| c.extent * WIDTH + c.shard as usize)
                        .collect()
                }
                Chooser::Before => before(rng, own_size, &mut on, &sizes, &h.remote_of),
            };
            assert!(
                on.iter().all(|&k| k <= P),
                "remote rule broken at extent {e}: {on:?}"
            );
            let size = (chosen.iter())
                .map(|&x| sizes[x / WIDTH])
                .fold(own_size, u32::max);
            for &x in &chosen {
                catalog.point(x / WIDTH, (x % WIDTH) as u8, e);
            }
            let own16: Vec<u16> = own.iter().map(|&r| r as u16).collect();
            let ptr16: Vec<u16> = chosen.iter().map(|&x| h.remote_of[x] as u16).collect();
            catalog.push(name(e), Candidate::new(size, S, P, &own16, &ptr16));
            sizes.push(size);
            h.remote_of.extend(&own);
            let mut symbols: Vec<usize> = (0..S).map(|i| e * WIDTH + i).collect();
            symbols.extend(&chosen);
            symbols.extend((S..WIDTH).map(|i| e * WIDTH + i));
            h.codewords.push(Codeword { symbols, parity: P });
            h.pointers.push(chosen);
        }
        h
    }

    /// Fraction of data shards still lost after peeling, given which own symbols are
    /// present.
    pub fn lost(&self, mut present: Vec<bool>) -> f64 {
        peel(&self.codewords, &mut present);
        let lost = (0..self.n * WIDTH)
            .filter(|&x| x % WIDTH < S && !present[x])
            .count();
        lost as f64 / (self.n * S) as f64
    }

    fn pointed(&self) -> Vec<bool> {
        let mut pointed = vec![false; self.n * WIDTH];
        for &x in self.pointers.iter().flatten() {
            pointed[x] = true;
        }
        pointed
    }

    /// Share of data shards that at least one codeword points at.
    pub fn coverage(&self) -> f64 {
        let pointed = self.pointed().iter().filter(|&&p| p).count();
        pointed as f64 / (self.n * S) as f64
    }

    /// Share of extents that keep a spare symbol when remote `r` is lost: their codeword
    /// holds fewer than `p` symbols there, or one of those is also in another codeword (a
    /// pointer, restored by its own extent's codeword; or a data shard some codeword
    /// points at), which restores it.
    pub fn spare_without(&self, r: usize) -> f64 {
        let pointed = self.pointed();
        let spare = (0..self.n)
            .filter(|&e| {
                let on_r: Vec<usize> = (self.codewords[e].symbols.iter())
                    .copied()
                    .filter(|&x| self.remote_of[x] == r)
                    .collect();
                on_r.len() < P
                    || on_r
                        .iter()
                        .any(|&x| x / WIDTH != e || (x % WIDTH < S && pointed[x]))
            })
            .count();
        spare as f64 / self.n as f64
    }
}

/// The chooser before least-pointed-first, as it was in `src/codec/pointers.rs` with the
/// default strategy.
fn before(
    rng: &mut impl Rng,
    own_size: u32,
    symbols_on: &mut [usize],
    sizes: &[u32],
    remote_of: &[usize],
) -> Vec<usize> {
    let n = sizes.len();
    let mut chosen: Vec<usize> = Vec::new();
    if n == 0 {
        return chosen;
    }
    let normal = Normal::new(0.0, n.min(1000) as f64).ok();
    let limit = (own_size as f64 * MAX_GROWTH) as u32;
    for k in 0..T {
        let recent = k % 2 == 0;
        for _ in 0..48 {
            let idx = match (&normal, recent) {
                (Some(dist), true) => {
                    let d = dist.sample(rng).abs() as usize;
                    n - 1 - d.min(n - 1)
                }
                _ => rng.random_range(0..n),
            };
            if sizes[idx] > limit {
                continue;
            }
            let start = rng.random_range(0..S);
            let pick = (0..S)
                .map(|i| idx * WIDTH + (start + i) % S)
                .find(|&x| symbols_on[remote_of[x]] < P && !chosen.contains(&x));
            if let Some(x) = pick {
                symbols_on[remote_of[x]] += 1;
                chosen.push(x);
                break;
            }
        }
    }
    chosen
}

/// Damage to the own symbols of `n` extents.
#[derive(Clone, Copy, Debug)]
pub enum Loss {
    /// Every shard lost independently with this probability.
    Random(f64),
    /// Remote 0 lost whole, plus random loss elsewhere.
    RemotePlus(f64),
    /// `extents` consecutive extents (at a random place) lose their shards on two
    /// remotes (a random pair), plus random loss everywhere.
    Burst { extents: usize, random: f64 },
}

impl Loss {
    /// Which own symbols survive (the same pattern for every history of `n` extents).
    pub fn pattern(&self, n: usize, rng: &mut impl Rng) -> Vec<bool> {
        let (burst, lost_remotes, q) = match *self {
            Loss::Random(q) => (0..0, [usize::MAX; 2], q),
            Loss::RemotePlus(q) => (0..0, [0, usize::MAX], q),
            Loss::Burst { extents, random } => {
                let start = rng.random_range(0..=n.saturating_sub(extents));
                let kept = rng.random_range(0..REMOTES);
                let lost = [(kept + 1) % REMOTES, (kept + 2) % REMOTES];
                (start..start + extents, lost, random)
            }
        };
        (0..n * WIDTH)
            .map(|x| {
                let (e, i) = (x / WIDTH, x % WIDTH);
                let r = place(e as u64, i, REMOTES);
                let whole_remote = matches!(self, Loss::RemotePlus(_)) && r == lost_remotes[0];
                let in_burst = burst.contains(&e) && lost_remotes.contains(&r);
                !whole_remote && !in_burst && !rng.random_bool(q)
            })
            .collect()
    }
}

/// A mean and the half-width of its 95% confidence interval.
#[derive(Clone, Copy, Debug)]
pub struct Interval {
    pub mean: f64,
    pub half: f64,
}

impl Interval {
    pub fn low(&self) -> f64 {
        self.mean - self.half
    }
    pub fn high(&self) -> f64 {
        self.mean + self.half
    }
}

/// Two-sided 97.5% quantile of Student's t with `df` degrees of freedom (Cornish-Fisher
/// expansion around the normal; within 0.001 for df >= 10).
fn t975(df: f64) -> f64 {
    let z = 1.959_964f64;
    z + (z.powi(3) + z) / (4.0 * df)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * df * df)
}

/// Mean of `x` with its 95% interval (Student's t).
pub fn interval(x: &[f64]) -> Interval {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    Interval {
        mean,
        half: t975(n - 1.0) * (var / n).sqrt(),
    }
}

/// Mean of the paired differences `a - b`.
pub fn paired(a: &[f64], b: &[f64]) -> Interval {
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    interval(&d)
}

/// The ratio of means `mean(a) / mean(b)` over paired trials, with its 95% interval by
/// the delta method (the interval of `mean(a - ratio * b)`, scaled by `mean(b)`). `None`
/// when `b` is never positive.
pub fn ratio(a: &[f64], b: &[f64]) -> Option<Interval> {
    let mb = b.iter().sum::<f64>() / b.len() as f64;
    if mb <= 0.0 {
        return None;
    }
    let r = a.iter().sum::<f64>() / a.len() as f64 / mb;
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - r * y).collect();
    Some(Interval {
        mean: r,
        half: interval(&d).half / mb,
    })
}
