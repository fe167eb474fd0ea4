//! `verify --read-data-subset`: which extents a partial read takes, in restic's three
//! forms (`check --read-data-subset`), and what the report says it read.
//!
//! * `P%` (or a bare `P`): a random share of the extents, drawn with the seed; the draw is
//!   the one of earlier versions, so a seed still takes the same extents.
//! * `n/t`: group `n` of `t`, by the extent's name (its first 8 bytes as a big-endian
//!   number, modulo `t`), so no state and no seed: the groups do not move when extents
//!   are added, and `1/t` … `t/t` together read every extent exactly once.
//! * `SIZE` (`500M`, `2G`; K, M, G, T are powers of 1024): random extents, drawn with
//!   the seed, while their shards fit in that many bytes.
//!
//! Every form reads at least one extent when the repository has any, except a group
//! that holds none (taking one from another group would read it twice in a rotation).

use std::sync::Arc;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use super::report::{DetectionRate, SubsetForm, SubsetReport};
use crate::error::{Error, Result};
use crate::extent::{Certificate, ExtentName};

/// Shares of corrupt shards for which a subset report states the chance of detection.
const DETECTION_FRACTIONS: [f64; 4] = [0.001, 0.01, 0.05, 0.10];

/// How much of the repository a partial read takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Subset {
    /// A random share of the extents, in percent (0 to 100), drawn with the seed.
    Percent(f64),
    /// Group `n` of `t` (1 ≤ n ≤ t): the extents whose [`group`] is `n`.
    Group { n: u64, t: u64 },
    /// Random extents, drawn with the seed, while their shards fit in this many bytes.
    Size(u64),
}

impl Subset {
    /// `2%` or `2` (percent), `n/t` (`1/7`), or a size with K, M, G or T (`500M`). Anything
    /// else is a usage error (exit 1) saying what is wrong and what is accepted.
    pub fn parse(text: &str) -> Result<Subset> {
        let s = text.trim();
        let bad = |why: String| {
            Error::usage(format!(
                "read-data-subset {text:?}: {why} (give a percentage like 2%, a group n/t like 1/7, or a size like 500M)"
            ))
        };
        if let Some((n, t)) = s.split_once('/') {
            let (Ok(n), Ok(t)) = (n.trim().parse::<u64>(), t.trim().parse::<u64>()) else {
                return Err(bad("n/t wants two whole numbers".into()));
            };
            if t == 0 {
                return Err(bad("t, the number of groups, must be at least 1".into()));
            }
            if n == 0 || n > t {
                return Err(bad(format!("n must be from 1 to {t} in n/t")));
            }
            return Ok(Subset::Group { n, t });
        }
        if s.ends_with(|c: char| "kKmMgGtT".contains(c)) {
            return crate::util::parse_size(s)
                .map(Subset::Size)
                .ok_or_else(|| bad("not a size".into()));
        }
        match s.strip_suffix('%').unwrap_or(s).trim().parse::<f64>() {
            Ok(p) if (0.0..=100.0).contains(&p) => Ok(Subset::Percent(p)),
            Ok(_) => Err(bad("a percentage must be from 0% to 100%".into())),
            Err(_) => Err(bad("not a percentage, a group or a size".into())),
        }
    }

    /// Whether the seed chooses the extents (not for `n/t`).
    pub fn is_seeded(&self) -> bool {
        !matches!(self, Subset::Group { .. })
    }

    /// The extents to read, as indices into `certs`, in order: at least one when there
    /// are any, except for a group that holds none.
    pub(super) fn choose(&self, certs: &[Arc<Certificate>], seed: u64) -> Vec<usize> {
        let count = certs.len();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut chosen: Vec<usize> = match *self {
            Subset::Percent(pct) => {
                let p = (pct / 100.0).clamp(0.0, 1.0);
                let mut v: Vec<usize> = (0..count).filter(|_| rng.random_bool(p)).collect();
                if v.is_empty() && count > 0 {
                    v.push(rng.random_range(0..count));
                }
                v
            }
            Subset::Group { n, t } => (0..count)
                .filter(|&e| group(&certs[e].name(), t) == n)
                .collect(),
            Subset::Size(budget) => {
                let mut order: Vec<usize> = (0..count).collect();
                order.shuffle(&mut rng);
                let mut total = 0u64;
                let mut v = Vec::new();
                for e in order {
                    let bytes = certs[e].shard_bytes();
                    if !v.is_empty() && total.saturating_add(bytes) > budget {
                        break;
                    }
                    total = total.saturating_add(bytes);
                    v.push(e);
                }
                v
            }
        };
        chosen.sort_unstable();
        chosen
    }

    /// The report of a read of `chosen` (indices into `certs`) that read `shards_read` of
    /// the repository's `shards`: what was asked, what was read, and how likely that read
    /// was to catch corruption of a given share of all shards.
    pub(super) fn report(
        &self,
        seed: u64,
        certs: &[Arc<Certificate>],
        chosen: &[usize],
        shards_read: u64,
        shards: usize,
    ) -> SubsetReport {
        let bytes_total = crate::util::saturating_sum(certs.iter().map(|c| c.shard_bytes()));
        let sampled = shards_read as f64 / shards.max(1) as f64;
        let rates: Vec<DetectionRate> = DETECTION_FRACTIONS
            .iter()
            .map(|&f| DetectionRate {
                corrupt_fraction: f,
                // Each of the f·n corrupt shards escapes the read independently.
                probability: 1.0 - (1.0 - sampled).powf((f * shards as f64).max(1.0)),
            })
            .collect();
        let (form, percent, group, budget) = match *self {
            Subset::Percent(p) => (SubsetForm::Percent, p, None, None),
            Subset::Group { n, t } => (SubsetForm::Group, 100.0 / t as f64, Some((n, t)), None),
            Subset::Size(b) => {
                let p = match bytes_total {
                    0 => 100.0,
                    all => (100.0 * b as f64 / all as f64).min(100.0),
                };
                (SubsetForm::Size, p, None, Some(b))
            }
        };
        let mut names: Vec<String> = chosen.iter().map(|&e| certs[e].name().hex()).collect();
        names.sort();
        SubsetReport {
            percent,
            seed: if self.is_seeded() { seed } else { 0 },
            detection: rates
                .iter()
                .map(|r| (r.corrupt_fraction, r.probability))
                .collect(),
            detection_rates: rates,
            form,
            n: group.map(|g| g.0),
            t: group.map(|g| g.1),
            budget_bytes: budget,
            extents_read: chosen.len(),
            extent_names: names,
            bytes_total,
        }
    }
}

/// The group (1 to `t`) an extent belongs to for `n/t`: its name's first 8 bytes as a
/// big-endian number, modulo `t`, plus one. Names are hashes, so the groups are even.
pub fn group(name: &ExtentName, t: u64) -> u64 {
    let mut head = [0u8; 8];
    head.copy_from_slice(&name.0[..8]);
    u64::from_be_bytes(head) % t.max(1) + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_restic_forms() {
        for (text, want) in [
            ("2%", Subset::Percent(2.0)),
            ("2", Subset::Percent(2.0)),
            (" 0.5 % ", Subset::Percent(0.5)),
            ("100%", Subset::Percent(100.0)),
            ("1/7", Subset::Group { n: 1, t: 7 }),
            ("7/7", Subset::Group { n: 7, t: 7 }),
            ("1/1", Subset::Group { n: 1, t: 1 }),
            ("500M", Subset::Size(500 << 20)),
            ("2G", Subset::Size(2 << 30)),
            ("100k", Subset::Size(100 << 10)),
            ("1T", Subset::Size(1 << 40)),
        ] {
            assert_eq!(Subset::parse(text).ok(), Some(want), "{text:?}");
        }
        for bad in [
            "",
            "abc",
            "-5%",
            "101%",
            "NaN%",
            "0/3",
            "4/3",
            "1/0",
            "1/",
            "/3",
            "a/b",
            "500X",
            "M",
            "-5M",
            "1.5G",
            "99999999T",
        ] {
            let e = Subset::parse(bad).expect_err(bad);
            assert_eq!(e.kind(), crate::Kind::Usage, "{bad}");
            assert!(e.message().contains("500M"), "{bad}: {e}");
        }
    }

    #[test]
    fn groups_cover_every_name_once_and_are_even() {
        let t = 7;
        let mut sizes = [0usize; 7];
        for i in 0..7000u32 {
            let name = ExtentName(*blake3::hash(&i.to_le_bytes()).as_bytes());
            let g = group(&name, t);
            assert!((1..=t).contains(&g));
            sizes[g as usize - 1] += 1;
        }
        assert!(sizes.iter().all(|&s| (800..1200).contains(&s)), "{sizes:?}");
    }
}
