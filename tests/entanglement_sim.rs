//! Simulation of shard loss over tangle's real placement, pointer chooser and peeling
//! planner (no I/O: presence bitmaps; see `entanglement_model`). Each trial builds one
//! history of extents of mixed sizes — a full backup followed by incremental backups
//! that end in small extents, so the size rule is exercised — three ways: plain
//! Reed-Solomon 4+3, entangled with the current chooser, and entangled with the chooser
//! it replaced, all at 1.75x storage. Every loss scenario applies one loss pattern per
//! trial to all three (paired), and the 95% intervals come from the spread over trials.
//!
//! `cargo test --features testing --test entanglement_sim -- --nocapture` prints the
//! table that docs/ENTANGLEMENT.md reproduces. The test fails unless entanglement loses
//! significantly less than plain Reed-Solomon under random 10% and 20% loss and with a
//! remote lost plus 1% or 5% random loss (and not more anywhere), at most 0.4x / 0.4x /
//! 0.5x of it (upper end of the interval) in random 10%, remote + 1% and remote + 5%, and
//! significantly less than the old chooser in the burst scenario.

mod entanglement_model;

use entanglement_model::*;
use rand::rngs::StdRng;
use rand::{Rng, RngExt, SeedableRng};
use tangle::codec::shard_size_for;

/// Trials (each a different history and loss pattern).
const SEEDS: u64 = 200;
/// Extents of the full backup, then incremental runs.
const FULL_EXTENTS: usize = 800;
const INCREMENTALS: usize = 100;
const EXTENT: usize = 16 << 20;

/// Own shard sizes of a full backup followed by incrementals. A full extent is the
/// target size less what the next chunk (0.5 MiB plus an exponential with mean 0.5 MiB,
/// at most 8 MiB: the default chunker's range) did not fit into, so some differ by more
/// than the size rule allows. Each incremental run writes 0 to 2 full extents and ends in
/// one small extent, log-uniform between 64 KiB and 16 MiB.
fn history_sizes(rng: &mut impl Rng) -> Vec<u32> {
    let mut sizes: Vec<u32> = (0..FULL_EXTENTS).map(|_| full_extent(rng)).collect();
    sizes.push(small_extent(rng));
    for _ in 0..INCREMENTALS {
        for _ in 0..rng.random_range(0..3) {
            sizes.push(full_extent(rng));
        }
        sizes.push(small_extent(rng));
    }
    sizes
}

fn full_extent(rng: &mut impl Rng) -> u32 {
    const MIB: f64 = (1 << 20) as f64;
    let chunk = ((0.5 - 0.5 * (1.0 - rng.random::<f64>()).ln()) * MIB).min(8.0 * MIB);
    let fill = EXTENT - (rng.random::<f64>() * chunk) as usize;
    shard_size_for(fill, S) as u32
}

fn small_extent(rng: &mut impl Rng) -> u32 {
    let len = EXTENT as f64 * 2f64.powf(-8.0 * rng.random::<f64>());
    shard_size_for(len as usize, S) as u32
}

const CHOOSERS: [Chooser; 3] = [Chooser::Plain, Chooser::Current, Chooser::Before];

fn scenarios() -> Vec<(String, Loss)> {
    let mut v: Vec<(String, Loss)> = [0.01, 0.05, 0.10, 0.15, 0.20, 0.30]
        .iter()
        .map(|&q| (format!("random loss {:.0}%", q * 100.0), Loss::Random(q)))
        .collect();
    v.extend([0.01, 0.02, 0.05, 0.10].iter().map(|&q| {
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

/// One trial: per scenario, the lost fraction per chooser; and per chooser, pointer
/// coverage and the worst share of extents keeping a spare with one remote lost.
struct Trial {
    lost: Vec<[f64; 3]>,
    coverage: [f64; 3],
    spare: [f64; 3],
}

fn trial(seed: u64, scenarios: &[(String, Loss)]) -> Trial {
    let mut rng = StdRng::seed_from_u64(seed);
    let sizes = history_sizes(&mut rng);
    let histories: Vec<History> = (CHOOSERS.iter().enumerate())
        .map(|(k, &c)| {
            let mut r = StdRng::seed_from_u64(seed.wrapping_mul(7919).wrapping_add(k as u64 + 1));
            History::build(c, &sizes, &mut r)
        })
        .collect();
    let n = sizes.len();
    let lost = (scenarios.iter().enumerate())
        .map(|(k, (_, loss))| {
            let mut r = StdRng::seed_from_u64(seed * 1000 + k as u64 + 500_000);
            let pattern = loss.pattern(n, &mut r);
            let mut out = [0.0; 3];
            for (o, h) in out.iter_mut().zip(&histories) {
                *o = h.lost(pattern.clone());
            }
            out
        })
        .collect();
    let mut coverage = [0.0; 3];
    let mut spare = [0.0; 3];
    for (k, h) in histories.iter().enumerate() {
        coverage[k] = h.coverage();
        spare[k] = (0..REMOTES)
            .map(|r| h.spare_without(r))
            .fold(f64::INFINITY, f64::min);
    }
    Trial {
        lost,
        coverage,
        spare,
    }
}

/// All trials, spread over the available cores.
fn trials(scenarios: &[(String, Loss)]) -> Vec<Trial> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let mut all: Vec<(u64, Trial)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    (t..SEEDS)
                        .step_by(threads as usize)
                        .map(|seed| (seed, trial(seed, scenarios)))
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

fn range(i: Option<Interval>) -> String {
    match i {
        Some(i) => format!("{:.2} ({:.2}–{:.2})", i.mean, i.low(), i.high()),
        None => "–".to_string(),
    }
}

#[test]
fn entanglement_beats_plain_reed_solomon_with_confidence() {
    let scenarios = scenarios();
    let started = std::time::Instant::now();
    let trials = trials(&scenarios);
    let column = |s: usize, c: usize| -> Vec<f64> { trials.iter().map(|t| t.lost[s][c]).collect() };
    println!(
        "{SEEDS} trials of {FULL_EXTENTS} full extents + {INCREMENTALS} incremental runs (about {} extents) on {REMOTES} remotes; {:.1?}",
        FULL_EXTENTS + 1 + 2 * INCREMENTALS,
        started.elapsed()
    );
    println!();
    println!(
        "| scenario | RS 4+3 | entangled, least-pointed-first | entangled, before | least-pointed / RS | before / RS | RS − least-pointed (paired) |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut failures = Vec::new();
    for (s, (name, loss)) in scenarios.iter().enumerate() {
        let (rs, now, old) = (column(s, 0), column(s, 1), column(s, 2));
        let gain = paired(&rs, &now);
        let r_now = ratio(&now, &rs);
        println!(
            "| {name} | {} | {} | {} | {} | {} | {:.3}% ({:.3}–{:.3}) |",
            pct(interval(&rs)),
            pct(interval(&now)),
            pct(interval(&old)),
            range(r_now),
            range(ratio(&old, &rs)),
            gain.mean * 100.0,
            gain.low() * 100.0,
            gain.high() * 100.0,
        );
        let must_beat = matches!(loss, Loss::Random(q) if *q == 0.10 || *q == 0.20)
            || matches!(loss, Loss::RemotePlus(q) if *q == 0.01 || *q == 0.05);
        if must_beat && gain.low() <= 0.0 {
            failures.push(format!("{name}: RS − entangled {gain:?} is not above 0"));
        }
        if gain.mean < 0.0 {
            failures.push(format!("{name}: entangled loses more than RS ({gain:?})"));
        }
        let bound = match loss {
            Loss::Random(q) if *q == 0.10 => Some(0.4),
            Loss::RemotePlus(q) if *q == 0.01 => Some(0.4),
            Loss::RemotePlus(q) if *q == 0.05 => Some(0.5),
            _ => None,
        };
        if let Some(b) = bound {
            match r_now {
                Some(r) if r.high() <= b => {}
                _ => failures.push(format!("{name}: entangled / RS {r_now:?} not at most {b}")),
            }
        }
        if let Loss::Burst { .. } = loss {
            let better = paired(&old, &now);
            if better.low() <= 0.0 {
                failures.push(format!(
                    "{name}: not better than the old chooser (old − new {better:?})"
                ));
            }
        }
    }
    let cov = |k: usize| interval(&trials.iter().map(|t| t.coverage[k]).collect::<Vec<_>>());
    let spare = |k: usize| interval(&trials.iter().map(|t| t.spare[k]).collect::<Vec<_>>());
    println!();
    println!(
        "| chooser | data shards pointed at | extents keeping a spare with one remote lost (worst remote) |"
    );
    println!("|---|---|---|");
    for (k, label) in [(1, "least-pointed-first"), (2, "before")] {
        println!("| {label} | {} | {} |", pct(cov(k)), pct(spare(k)));
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn any_one_remote_lost_alone_loses_nothing() {
    let mut rng = StdRng::seed_from_u64(1);
    let sizes = history_sizes(&mut rng);
    for chooser in CHOOSERS {
        let h = History::build(chooser, &sizes, &mut rng);
        let pattern = Loss::RemotePlus(0.0).pattern(h.n, &mut rng);
        assert_eq!(h.lost(pattern), 0.0, "{chooser:?}");
    }
}
