//! The model of an entangled archive that `entanglement_sim.rs` measures and
//! `tests/e2e/pointer_coverage.rs` compares a real repository with: a history of extents placed
//! by the real `codec::place`, entangled by the real `extent::pointers::choose` (or not at
//! all: plain Reed-Solomon), damaged by presence bitmaps and repaired by the real
//! `codec::peel`. No I/O. Coverage and spares are counted here from the codewords, not
//! with the library's own counting, so comparing the two checks both.

use rand::Rng;
use tangle::codec::peel::{Codeword, peel};
use tangle::codec::{Coding, place, shard_size_for};
use tangle::extent::ExtentName;
use tangle::extent::pointers::{self, Candidate, Catalog, Want};

/// A coding on a number of remotes: `s` data + `p` parity shards per extent, `t`
/// pointers (0: plain Reed-Solomon).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub remotes: usize,
    pub s: usize,
    pub p: usize,
    pub t: usize,
}

impl Layout {
    /// What `init` chooses for `remotes` remotes.
    pub fn default_for(remotes: usize) -> Layout {
        let c = Coding::default_for(remotes).expect("a default coding");
        Layout {
            remotes,
            s: c.data_shards as usize,
            p: c.parity_shards as usize,
            t: c.pointers as usize,
        }
    }

    pub fn plain(remotes: usize, s: usize, p: usize) -> Layout {
        Layout {
            remotes,
            s,
            p,
            t: 0,
        }
    }

    pub fn width(&self) -> usize {
        self.s + self.p
    }

    pub fn overhead(&self) -> f64 {
        self.width() as f64 / self.s as f64
    }

    /// Every plain split of at most 16 shards per extent storing at most `overhead`
    /// times the data (the references the default is measured against).
    pub fn plain_at_most(remotes: usize, overhead: f64) -> Vec<Layout> {
        let mut v = Vec::new();
        for s in 1..16 {
            for p in 1..=16 - s {
                let l = Layout::plain(remotes, s, p);
                if l.overhead() <= overhead + 1e-9 {
                    v.push(l);
                }
            }
        }
        v
    }

    pub fn label(&self) -> String {
        if self.t == 0 {
            format!("RS {}+{}", self.s, self.p)
        } else {
            format!("{}+{}, {} pointers", self.s, self.p, self.t)
        }
    }
}

/// A history of `n` extents: own symbol `i` of extent `e` is `e * slots + i` (data
/// first, then parity); pointers are data symbols of older extents.
pub struct History {
    pub layout: Layout,
    pub n: usize,
    /// Symbol slots per extent: the wider of the layout's codeword and a tree extent's.
    pub slots: usize,
    pub codewords: Vec<Codeword>,
    /// Remote of every own symbol.
    pub remote_of: Vec<usize>,
    /// Pointer symbols of each codeword.
    pub pointers: Vec<Vec<usize>>,
    /// Shard size of each extent.
    pub shard_sizes: Vec<u32>,
    /// Whether each extent holds trees.
    pub trees: Vec<bool>,
}

/// An extent of a history, by its data length.
#[derive(Clone, Copy, Debug)]
pub enum Extent {
    Data(usize),
    /// Only the end-to-end binary's `pointer_coverage` (a real repository's tree extents)
    /// makes these.
    #[allow(dead_code)]
    Tree(usize),
}

fn name(e: usize) -> ExtentName {
    let mut b = [0u8; 32];
    b[..8].copy_from_slice(&(e as u64).to_le_bytes());
    ExtentName(b)
}

impl History {
    /// Extents of these data lengths, in order (one writer: extent `e` has sequence
    /// number `e`), each choosing pointers among all older ones as a backup does.
    pub fn build(layout: Layout, extent_lengths: &[usize], rng: &mut impl Rng) -> History {
        let extents: Vec<Extent> = extent_lengths.iter().map(|&l| Extent::Data(l)).collect();
        History::build_mixed(layout, &extents, rng)
    }

    /// The same with tree extents among them, coded as a backup codes them
    /// (`Coding::for_trees`: 4+12, no pointers, never pointed at). An extent's symbols
    /// are the first of its slots; the rest belong to no codeword.
    pub fn build_mixed(layout: Layout, extents: &[Extent], rng: &mut impl Rng) -> History {
        let (t, r) = (layout.t, layout.remotes);
        let trees = Coding::for_trees();
        let w = layout.width().max(trees.width());
        let n = extents.len();
        let mut h = History {
            layout,
            n,
            slots: w,
            codewords: Vec::with_capacity(n),
            remote_of: Vec::with_capacity(n * w),
            pointers: Vec::with_capacity(n),
            shard_sizes: Vec::with_capacity(n),
            trees: Vec::with_capacity(n),
        };
        let mut catalog = Catalog::new();
        for (e, extent) in extents.iter().enumerate() {
            let (len, tree) = match *extent {
                Extent::Data(l) => (l, false),
                Extent::Tree(l) => (l, true),
            };
            let (s, p) = match tree {
                false => (layout.s, layout.p),
                true => (trees.data_shards as usize, trees.parity_shards as usize),
            };
            let own_size = shard_size_for(len, s) as u32;
            let own: Vec<usize> = (0..s + p).map(|i| place(e as u64, i, r)).collect();
            let mut on = vec![0usize; r];
            for &x in &own {
                on[x] += 1;
            }
            let want = Want {
                at: e,
                pointers: if tree { 0 } else { t },
                parity: p,
                shard_size: own_size,
            };
            let chosen: Vec<usize> = pointers::choose(rng, &want, &mut on, &catalog, |_| true)
                .iter()
                .map(|c| c.extent * w + c.shard as usize)
                .collect();
            // (Plain splits that break the remote rule by themselves are references
            // too; pointers must never add to a remote at its limit.)
            let own_on = own.iter().fold(vec![0usize; r], |mut v, &x| {
                v[x] += 1;
                v
            });
            assert!(
                on.iter().zip(&own_on).all(|(&k, &o)| k <= p.max(o)),
                "remote rule broken at extent {e}: {on:?}"
            );
            for &x in &chosen {
                catalog.point(x / w, (x % w) as u8, e);
                assert!(
                    h.shard_sizes[x / w] <= own_size,
                    "a pointer grew a codeword"
                );
                assert!(!h.trees[x / w], "a pointer names a tree extent");
            }
            let own16: Vec<u16> = own.iter().map(|&x| x as u16).collect();
            let ptr16: Vec<u16> = chosen.iter().map(|&x| h.remote_of[x] as u16).collect();
            catalog.push(name(e), Candidate::new(own_size, s, p, &own16, &ptr16));
            h.shard_sizes.push(own_size);
            h.trees.push(tree);
            h.remote_of
                .extend((0..w).map(|i| own.get(i).copied().unwrap_or(0)));
            let mut symbols: Vec<usize> = (0..s).map(|i| e * w + i).collect();
            symbols.extend(&chosen);
            symbols.extend((s..s + p).map(|i| e * w + i));
            h.codewords.push(Codeword { symbols, parity: p });
            h.pointers.push(chosen);
        }
        h
    }

    /// What is still lost after peeling, given which own symbols are present.
    pub fn lost(&self, mut present: Vec<bool>) -> Lost {
        peel(&self.codewords, &mut present);
        let (s, w) = (self.layout.s, self.slots);
        let young_from = self.n - (self.n / 10).max(1);
        let mut lost = Lost::default();
        for e in 0..self.n {
            let gone = (0..s).filter(|&i| !present[e * w + i]).count();
            lost.data_shards += gone as f64 / (self.n * s) as f64;
            if gone > 0 {
                lost.extents += 1.0;
                if e >= young_from {
                    lost.newest_extents += 1.0;
                }
            }
        }
        lost
    }

    fn pointed(&self) -> Vec<bool> {
        let mut pointed = vec![false; self.n * self.slots];
        for &x in self.pointers.iter().flatten() {
            pointed[x] = true;
        }
        pointed
    }

    /// Share of the data extents' data shards that at least one codeword points at.
    pub fn coverage(&self) -> f64 {
        let w = self.slots;
        let pointed = (self.pointed().iter().enumerate())
            .filter(|&(x, &p)| p && x % w < self.layout.s)
            .count();
        let data = self.trees.iter().filter(|&&t| !t).count();
        pointed as f64 / (data * self.layout.s) as f64
    }

    /// Share of extents that keep a spare symbol when remote `r` is lost: their codeword
    /// holds fewer than `p` symbols there, or one of those is also in another codeword (a
    /// pointer, restored by its own extent's codeword; or a data shard some codeword
    /// points at), which restores it.
    pub fn spare_without(&self, r: usize) -> f64 {
        let (s, w) = (self.layout.s, self.slots);
        let pointed = self.pointed();
        let spare = (0..self.n)
            .filter(|&e| {
                let p = self.codewords[e].parity;
                let on_r: Vec<usize> = (self.codewords[e].symbols.iter())
                    .copied()
                    .filter(|&x| self.remote_of[x] == r)
                    .collect();
                on_r.len() < p
                    || on_r
                        .iter()
                        .any(|&x| x / w != e || (x % w < s && pointed[x]))
            })
            .count();
        spare as f64 / self.n as f64
    }
}

/// What a damage pattern cost a history.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lost {
    /// Fraction of all data shards.
    pub data_shards: f64,
    /// Extents with a data shard lost.
    pub extents: f64,
    /// Of them, among the newest 10%.
    pub newest_extents: f64,
}

/// Damage to the own symbols of a history.
#[derive(Clone, Copy, Debug)]
pub enum Loss {
    /// Every shard lost independently with this probability.
    Random(f64),
    /// One remote (seeded) lost whole, plus random loss elsewhere.
    RemotePlus(f64),
    /// `extents` consecutive extents (at most a third of the history, at a seeded place)
    /// lose their shards on two remotes (a seeded pair), plus random loss everywhere.
    Burst { extents: usize, random: f64 },
}

/// A uniform draw in [0, 1) that depends only on its arguments (splitmix64).
fn unit(seed: u64, extent: u64, shard: u64) -> f64 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(extent.wrapping_mul(0xBF58_476D_1CE4_E5B9))
        .wrapping_add(shard.wrapping_mul(0x94D0_49BB_1331_11EB));
    for _ in 0..2 {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
    }
    (z >> 11) as f64 / (1u64 << 53) as f64
}

impl Loss {
    /// Which own symbols of `h` survive. Positions depend only on (seed, extent, shard
    /// index), so every layout of one history loses the same positions it has (as the
    /// durability harness does through the binary).
    pub fn pattern(&self, h: &History, seed: u64) -> Vec<bool> {
        let (r, w, n) = (h.layout.remotes, h.slots, h.n);
        let pick = |k: u64, below: usize| (unit(seed, u64::MAX - k, 0) * below as f64) as usize;
        let (burst, lost_remotes, q) = match *self {
            Loss::Random(q) => (0..0, [usize::MAX; 2], q),
            Loss::RemotePlus(q) => (0..0, [pick(1, r), usize::MAX], q),
            Loss::Burst { extents, random } => {
                let len = extents.min(n / 3).max(1);
                let start = pick(2, n - len + 1);
                let first = pick(3, r);
                let second = (first + 1 + pick(4, r - 1)) % r;
                (start..start + len, [first, second], random)
            }
        };
        let whole = matches!(self, Loss::RemotePlus(_));
        (0..n * w)
            .map(|x| {
                let (e, i) = (x / w, x % w);
                let on = place(e as u64, i, r);
                let gone = (whole && on == lost_remotes[0])
                    || (burst.contains(&e) && lost_remotes.contains(&on));
                !gone && unit(seed, e as u64, i as u64) >= q
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
