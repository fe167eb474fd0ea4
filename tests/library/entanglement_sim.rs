//! Simulation of shard loss over tangle's real placement, pointer chooser and peeling
//! planner (no I/O: presence bitmaps; see `entanglement_model`). Each trial builds one
//! history of extents of mixed sizes — a full backup followed by incremental backups
//! that end in small extents, so the size rule is exercised — once with the default
//! coding for the number of remotes and once with every plain Reed-Solomon split of at
//! most 16 shards that stores no more bytes. Every loss scenario applies one loss
//! pattern per trial to all of them (paired: the same shard positions are lost), and
//! the default is compared with the best plain split for that scenario.
//!
//! `cargo test --release --features testing --test library entanglement_sim:: -- --nocapture`
//! prints the table that docs/ENTANGLEMENT.md reproduces (`TANGLE_SIM_REMOTES=2,3,4,5`
//! for more remote counts, 3 by default; `TANGLE_SIM_LAYOUT=S/P/T` measures another
//! coding in the default's place; `TANGLE_SIM_SHAPE=full+dailies|dailies` builds the
//! durability harness's histories instead, to set the model beside the binary). The test fails unless, on 3 remotes, the
//! default loses at most half the extents of the best plain split in random 10% and
//! 20% loss and with a remote lost plus 1% or 5%, at most 0.8x in the burst, and no
//! more among the newest 10% of extents in any scenario (means over the trials).

use crate::entanglement_model::{History, Interval, Layout, Loss, Lost, interval, ratio};
use rand::rngs::StdRng;
use rand::{Rng, RngExt, SeedableRng};

/// Trials (each a different history and loss pattern).
const SEEDS: u64 = 120;
/// Extents of the full backup, then incremental runs (about 500 extents in all).
const FULL_EXTENTS: usize = 300;
const INCREMENTALS: usize = 100;
const EXTENT: usize = 16 << 20;

/// The history's shape (`TANGLE_SIM_SHAPE`): `model` (the default: a full backup of
/// [`FULL_EXTENTS`] and [`INCREMENTALS`] runs), or one of the durability harness's regimes
/// (scripts/durability.py), to set the model beside the binary on the same shape:
/// `full+dailies` (100 full extents, then 60 dailies of one small extent each) and
/// `dailies` (150 dailies). A harness daily adds E/4096 to E/4 of data.
#[derive(Clone, Copy, PartialEq)]
enum Shape {
    Model,
    FullDailies,
    Dailies,
}

fn shape() -> Shape {
    match std::env::var("TANGLE_SIM_SHAPE").as_deref() {
        Err(_) | Ok("model") => Shape::Model,
        Ok("full+dailies") => Shape::FullDailies,
        Ok("dailies") => Shape::Dailies,
        Ok(v) => panic!("TANGLE_SIM_SHAPE={v:?}: want model, full+dailies or dailies"),
    }
}

/// Extent lengths of a full backup followed by incrementals. A full extent is the
/// target size less what the next chunk (0.5 MiB plus an exponential with mean 0.5 MiB,
/// at most 8 MiB: the default chunker's range) did not fit into, so some differ by more
/// than the size rule allows. Each incremental run writes 0 to 2 full extents and ends in
/// one small extent, log-uniform between 64 KiB and 16 MiB.
fn history_lengths(rng: &mut impl Rng) -> Vec<usize> {
    let daily =
        |rng: &mut dyn FnMut() -> f64| (EXTENT as f64 * 2f64.powf(-2.0 - 10.0 * rng())) as usize;
    match shape() {
        Shape::Model => {}
        Shape::FullDailies => {
            let mut sizes: Vec<usize> = (0..100).map(|_| full_extent(rng)).collect();
            sizes.extend((0..60).map(|_| daily(&mut || rng.random::<f64>())));
            return sizes;
        }
        Shape::Dailies => {
            return (0..150)
                .map(|_| daily(&mut || rng.random::<f64>()))
                .collect();
        }
    }
    let mut sizes: Vec<usize> = (0..FULL_EXTENTS).map(|_| full_extent(rng)).collect();
    sizes.push(small_extent(rng));
    for _ in 0..INCREMENTALS {
        for _ in 0..rng.random_range(0..3) {
            sizes.push(full_extent(rng));
        }
        sizes.push(small_extent(rng));
    }
    sizes
}

fn full_extent(rng: &mut impl Rng) -> usize {
    const MIB: f64 = (1 << 20) as f64;
    let chunk = ((0.5 - 0.5 * (1.0 - rng.random::<f64>()).ln()) * MIB).min(8.0 * MIB);
    EXTENT - (rng.random::<f64>() * chunk) as usize
}

fn small_extent(rng: &mut impl Rng) -> usize {
    (EXTENT as f64 * 2f64.powf(-8.0 * rng.random::<f64>())) as usize
}

fn scenarios() -> Vec<(String, Loss)> {
    let mut v: Vec<(String, Loss)> = [0.05, 0.10, 0.20, 0.30]
        .iter()
        .map(|&q| (format!("random loss {:.0}%", q * 100.0), Loss::Random(q)))
        .collect();
    v.extend([0.01, 0.05, 0.10].iter().map(|&q| {
        (
            format!("remote lost + {:.0}% random", q * 100.0),
            Loss::RemotePlus(q),
        )
    }));
    v.push((
        "burst: 30 extents lose 2 remotes + 1% random".to_string(),
        Loss::Burst {
            extents: 30,
            random: 0.01,
        },
    ));
    v
}

/// The layouts of one remote count: the default first, then for every number of data
/// shards the plain split with the most parity that stores no more.
fn layouts(remotes: usize) -> Vec<Layout> {
    let d = candidate(remotes).unwrap_or_else(|| Layout::default_for(remotes));
    let mut v = vec![d];
    for s in 1..16 {
        let best = (Layout::plain_at_most(remotes, d.overhead()).into_iter())
            .filter(|l| l.s == s)
            .max_by_key(|l| l.p);
        v.extend(best.filter(|l| *l != d));
    }
    v
}

/// One trial: per scenario and layout, what was lost; per layout, pointer coverage and
/// the worst share of extents keeping a spare with one remote lost.
struct Trial {
    lost: Vec<Vec<Lost>>,
    coverage: f64,
    spare: f64,
}

fn trial(seed: u64, layouts: &[Layout], scenarios: &[(String, Loss)]) -> Trial {
    let mut rng = StdRng::seed_from_u64(seed);
    let lengths = history_lengths(&mut rng);
    let histories: Vec<History> = (layouts.iter().enumerate())
        .map(|(k, &l)| {
            let mut r = StdRng::seed_from_u64(seed.wrapping_mul(7919).wrapping_add(k as u64 + 1));
            History::build(l, &lengths, &mut r)
        })
        .collect();
    let lost = (scenarios.iter().enumerate())
        .map(|(k, (_, loss))| {
            let damage_seed = seed * 1000 + k as u64 + 500_000;
            (histories.iter())
                .map(|h| h.lost(loss.pattern(h, damage_seed)))
                .collect()
        })
        .collect();
    let d = &histories[0];
    Trial {
        lost,
        coverage: d.coverage(),
        spare: (0..d.layout.remotes)
            .map(|r| d.spare_without(r))
            .fold(f64::INFINITY, f64::min),
    }
}

/// All trials, spread over the available cores.
fn trials(layouts: &[Layout], scenarios: &[(String, Loss)]) -> Vec<Trial> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let mut all: Vec<(u64, Trial)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    (t..SEEDS)
                        .step_by(threads as usize)
                        .map(|seed| (seed, trial(seed, layouts, scenarios)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("trial thread"))
            .collect()
    });
    all.sort_by_key(|(seed, _)| *seed);
    all.into_iter().map(|(_, t)| t).collect()
}

fn pct(i: Interval) -> String {
    format!("{:.3}% ± {:.3}", i.mean * 100.0, i.half * 100.0)
}

fn num(i: Interval) -> String {
    format!("{:.2} ± {:.2}", i.mean, i.half)
}

fn range(i: Option<Interval>) -> String {
    match i {
        Some(i) => format!("{:.2} ({:.2}–{:.2})", i.mean, i.low(), i.high()),
        None => "–".to_string(),
    }
}

/// `TANGLE_SIM_LAYOUT=S/P/T` measures that coding in place of the default (to explore
/// candidates; the assertions then apply to it).
fn candidate(remotes: usize) -> Option<Layout> {
    let v = std::env::var("TANGLE_SIM_LAYOUT").ok()?;
    let n: Vec<usize> = v.split('/').filter_map(|x| x.trim().parse().ok()).collect();
    match n[..] {
        [s, p, t] => Some(Layout { remotes, s, p, t }),
        _ => panic!("TANGLE_SIM_LAYOUT={v:?}: want S/P/T"),
    }
}

fn remote_counts() -> Vec<usize> {
    std::env::var("TANGLE_SIM_REMOTES")
        .ok()
        .map(|v| v.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![3])
}

#[test]
fn the_default_beats_the_best_plain_reed_solomon_at_equal_storage() {
    let scenarios = scenarios();
    let mut failures = Vec::new();
    for remotes in remote_counts() {
        let layouts = layouts(remotes);
        let started = std::time::Instant::now();
        let trials = trials(&layouts, &scenarios);
        let d = layouts[0];
        println!(
            "{remotes} remotes: default {} ({:.3}x) against {} plain splits; {SEEDS} trials of {}; {:.1?}",
            d.label(),
            d.overhead(),
            layouts.len() - 1,
            match shape() {
                Shape::Model => format!(
                    "{FULL_EXTENTS} full extents + {INCREMENTALS} incremental runs (about {} extents)",
                    FULL_EXTENTS + 1 + 2 * INCREMENTALS
                ),
                Shape::FullDailies =>
                    "the harness's full+dailies (100 full extents + 60 dailies)".into(),
                Shape::Dailies => "the harness's dailies (150 small extents)".into(),
            },
            started.elapsed()
        );
        println!();
        println!(
            "| scenario | default: lost extents | newest 10% | best plain | its lost extents | newest 10% | lost extents / best plain | newest 10% / best plain | lost data shards, default | best plain |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|");
        for (s, (name, loss)) in scenarios.iter().enumerate() {
            let col = |k: usize, f: fn(&Lost) -> f64| -> Vec<f64> {
                trials.iter().map(|t| f(&t.lost[s][k])).collect()
            };
            let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
            let best = (1..layouts.len())
                .min_by(|&a, &b| {
                    mean(&col(a, |l| l.extents)).total_cmp(&mean(&col(b, |l| l.extents)))
                })
                .expect("plain layouts");
            let (de, be) = (col(0, |l| l.extents), col(best, |l| l.extents));
            let (dn, bn) = (
                col(0, |l| l.newest_extents),
                col(best, |l| l.newest_extents),
            );
            let (dd, bd) = (col(0, |l| l.data_shards), col(best, |l| l.data_shards));
            let r = ratio(&de, &be);
            let rn = ratio(&dn, &bn);
            println!(
                "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                num(interval(&de)),
                num(interval(&dn)),
                layouts[best].label(),
                num(interval(&be)),
                num(interval(&bn)),
                range(r),
                range(rn),
                pct(interval(&dd)),
                pct(interval(&bd)),
            );
            if remotes != 3 || shape() != Shape::Model {
                continue;
            }
            let bound = match loss {
                Loss::Random(q) if *q == 0.10 || *q == 0.20 => Some(0.5),
                Loss::RemotePlus(q) if *q == 0.01 || *q == 0.05 => Some(0.5),
                Loss::Burst { .. } => Some(0.8),
                _ => None,
            };
            if let (Some(b), Some(r)) = (bound, r)
                && r.mean > b
            {
                failures.push(format!(
                    "{remotes} remotes, {name}: default / best plain {r:?} above {b}"
                ));
            }
            if let Some(rn) = rn
                && rn.mean > 1.0
                && bound.is_some()
            {
                failures.push(format!(
                    "{remotes} remotes, {name}: newest 10% default / best plain {rn:?} above 1"
                ));
            }
        }
        let cov = interval(&trials.iter().map(|t| t.coverage).collect::<Vec<_>>());
        let spare = interval(&trials.iter().map(|t| t.spare).collect::<Vec<_>>());
        println!();
        println!(
            "default: data shards pointed at {}; extents keeping a spare with one remote lost (worst remote) {}",
            pct(cov),
            pct(spare)
        );
        println!();
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn any_one_remote_lost_alone_loses_nothing() {
    let mut rng = StdRng::seed_from_u64(1);
    let lengths = history_lengths(&mut rng);
    for remotes in 2..=5 {
        let h = History::build(Layout::default_for(remotes), &lengths, &mut rng);
        for seed in 0..remotes as u64 {
            let pattern = Loss::RemotePlus(0.0).pattern(&h, seed);
            assert_eq!(
                h.lost(pattern).extents,
                0.0,
                "{remotes} remotes, seed {seed}"
            );
        }
    }
}
