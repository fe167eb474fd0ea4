//! Choosing pointers: which data shards of older extents a new codeword entangles with.
//!
//! The rule that makes entanglement help rather than hurt when a whole remote is lost:
//! **no remote may hold more than `p` symbols of a codeword, pointers included.** Own
//! shards are placed first (round-robin), so pointers go to the remotes with room left.
//! Within that rule the strategy picks which older extent: `Normal` favours recent ones
//! (half-normal distance from the newest, sigma = min(n, 1000), as in STEP), `Uniform`
//! any, and `Mixed` alternates.

use rand::{Rng, RngExt};
use rand_distr::{Distribution, Normal};

use super::PointerStrategy;

/// What the chooser needs to know about an older extent.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub shard_size: u32,
    /// Remote of each data shard.
    pub data_remotes: Vec<u16>,
}

/// A chosen pointer: data shard `shard` of `candidates[extent]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chosen {
    pub extent: usize,
    pub shard: u8,
}

/// Pointers may be at most this much larger than the new extent's own shards (the
/// codeword's shard size grows to the largest input; the excess is zero padding).
pub const MAX_GROWTH: f64 = 1.125;
/// Draws per pointer before settling for fewer pointers.
const ATTEMPTS: usize = 48;

/// Choose up to `t` pointers. `symbols_on` counts the codeword's own shards per remote;
/// it is updated with the chosen pointers. `candidates` are in age order, oldest first.
pub fn choose(
    rng: &mut impl Rng,
    strategy: PointerStrategy,
    t: usize,
    parity: usize,
    own_shard_size: u32,
    symbols_on: &mut [usize],
    candidates: &[Candidate],
) -> Vec<Chosen> {
    let mut chosen: Vec<Chosen> = Vec::new();
    let n = candidates.len();
    if n == 0 {
        return chosen;
    }
    let sigma = (n.min(1000)) as f64;
    let normal = Normal::new(0.0, sigma).ok();
    let limit = (own_shard_size as f64 * MAX_GROWTH) as u32;
    for k in 0..t {
        let recent = match strategy {
            PointerStrategy::Normal => true,
            PointerStrategy::Uniform => false,
            PointerStrategy::Mixed => k % 2 == 0,
        };
        for _ in 0..ATTEMPTS {
            let idx = match (&normal, recent) {
                (Some(dist), true) => {
                    let d = dist.sample(rng).abs() as usize;
                    n - 1 - d.min(n - 1)
                }
                _ => rng.random_range(0..n),
            };
            let c = &candidates[idx];
            if c.shard_size > limit {
                continue;
            }
            // A data shard of it on a remote with room, not chosen already.
            let start = rng.random_range(0..c.data_remotes.len().max(1));
            let pick = (0..c.data_remotes.len())
                .map(|i| (start + i) % c.data_remotes.len())
                .find(|&j| {
                    let r = c.data_remotes[j] as usize;
                    r < symbols_on.len()
                        && symbols_on[r] < parity
                        && !chosen
                            .iter()
                            .any(|ch| ch.extent == idx && ch.shard as usize == j)
                });
            if let Some(j) = pick {
                symbols_on[c.data_remotes[j] as usize] += 1;
                chosen.push(Chosen {
                    extent: idx,
                    shard: j as u8,
                });
                break;
            }
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::place;
    use rand::SeedableRng;

    fn history(n: usize, remotes: usize, s: usize) -> Vec<Candidate> {
        (0..n)
            .map(|seq| Candidate {
                shard_size: 4096,
                data_remotes: (0..s)
                    .map(|i| place(seq as u64, i, remotes) as u16)
                    .collect(),
            })
            .collect()
    }

    #[test]
    fn pointers_respect_the_remote_rule() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let cands = history(50, 3, 4);
        for strategy in [
            PointerStrategy::Normal,
            PointerStrategy::Uniform,
            PointerStrategy::Mixed,
        ] {
            for seq in 0..30u64 {
                let mut on = vec![0usize; 3];
                for i in 0..7 {
                    on[place(seq, i, 3)] += 1;
                }
                let chosen = choose(&mut rng, strategy, 2, 3, 4096, &mut on, &cands);
                assert_eq!(chosen.len(), 2, "{strategy:?}");
                assert!(on.iter().all(|&c| c <= 3), "{on:?}");
                for c in &chosen {
                    assert!((c.shard as usize) < 4);
                }
            }
        }
    }

    #[test]
    fn no_room_no_pointers_and_size_limit() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let cands = history(10, 3, 4);
        let mut full = vec![3usize, 3, 3];
        assert!(
            choose(
                &mut rng,
                PointerStrategy::Mixed,
                2,
                3,
                4096,
                &mut full,
                &cands
            )
            .is_empty()
        );
        let mut on = vec![3usize, 2, 2];
        assert!(
            choose(
                &mut rng,
                PointerStrategy::Mixed,
                2,
                3,
                1024,
                &mut on,
                &cands
            )
            .is_empty(),
            "too big"
        );
        assert!(choose(&mut rng, PointerStrategy::Mixed, 2, 3, 4096, &mut on, &[]).is_empty());
    }

    #[test]
    fn normal_prefers_recent() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let cands = history(5000, 3, 4);
        let mut recent = 0;
        for seq in 0..200u64 {
            let mut on = vec![0usize; 3];
            for i in 0..7 {
                on[place(seq, i, 3)] += 1;
            }
            for c in choose(
                &mut rng,
                PointerStrategy::Normal,
                2,
                3,
                4096,
                &mut on,
                &cands,
            ) {
                recent += usize::from(c.extent >= 5000 - 2000);
            }
        }
        assert!(
            recent > 300,
            "half-normal with sigma 1000 should mostly pick the newest 2000: {recent}"
        );
    }
}
