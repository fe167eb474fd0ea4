//! Simulation of shard loss over tangle's real placement and pointer choice (no I/O:
//! presence bitmaps), repaired by the real peeling planner. It shows what remote-aware
//! entanglement buys over plain Reed-Solomon at the same storage cost, and fails if it
//! ever does worse. `cargo test --test entanglement_sim -- --nocapture` prints the table
//! that docs/ENTANGLEMENT.md reproduces.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tangle::codec::peel::{Codeword, peel};
use tangle::codec::pointers::{Candidate, choose};
use tangle::codec::{PointerStrategy, place};

const EXTENTS: usize = 1500;
const REMOTES: usize = 3;
const SEEDS: u64 = 4;

#[derive(Clone, Copy)]
enum Loss {
    /// Every shard lost independently with this probability.
    Random(f64),
    /// Remote 0 lost whole, plus random loss elsewhere.
    RemotePlus(f64),
}

/// Fraction of data shards that stay lost after peeling.
fn simulate(s: usize, t: usize, p: usize, strategy: PointerStrategy, loss: Loss, seed: u64) -> f64 {
    let mut rng = StdRng::seed_from_u64(seed);
    let width = s + p;
    let mut codewords = Vec::with_capacity(EXTENTS);
    let mut catalog: Vec<Candidate> = Vec::new();
    let mut remote_of = Vec::with_capacity(EXTENTS * width);
    for e in 0..EXTENTS {
        let mut on = vec![0usize; REMOTES];
        for i in 0..width {
            let r = place(e as u64, i, REMOTES);
            on[r] += 1;
            remote_of.push(r);
        }
        let chosen = choose(&mut rng, strategy, t, p, 4096, &mut on, &catalog);
        assert!(on.iter().all(|&n| n <= p), "remote rule broken: {on:?}");
        let mut symbols: Vec<usize> = (0..s).map(|i| e * width + i).collect();
        symbols.extend(chosen.iter().map(|c| c.extent * width + c.shard as usize));
        symbols.extend((s..width).map(|i| e * width + i));
        codewords.push(Codeword { symbols, parity: p });
        catalog.push(Candidate {
            shard_size: 4096,
            data_remotes: (0..s).map(|i| place(e as u64, i, REMOTES) as u16).collect(),
        });
    }
    let mut present: Vec<bool> = remote_of
        .iter()
        .map(|&r| match loss {
            Loss::Random(q) => !rng.random_bool(q),
            Loss::RemotePlus(q) => r != 0 && !rng.random_bool(q),
        })
        .collect();
    peel(&codewords, &mut present);
    let lost = (0..EXTENTS)
        .flat_map(|e| (0..s).map(move |i| e * width + i))
        .filter(|&id| !present[id])
        .count();
    lost as f64 / (EXTENTS * s) as f64
}

fn mean(s: usize, t: usize, p: usize, strategy: PointerStrategy, loss: Loss) -> f64 {
    (0..SEEDS)
        .map(|seed| simulate(s, t, p, strategy, loss, seed))
        .sum::<f64>()
        / SEEDS as f64
}

#[test]
fn entanglement_never_loses_more_than_plain_reed_solomon() {
    let scenarios: Vec<(String, Loss)> = [0.01, 0.05, 0.10, 0.15, 0.20, 0.30]
        .iter()
        .map(|&q| (format!("random loss {:.0}%", q * 100.0), Loss::Random(q)))
        .chain([0.01, 0.02, 0.05, 0.10].iter().map(|&q| {
            (
                format!("remote lost + {:.0}% random", q * 100.0),
                Loss::RemotePlus(q),
            )
        }))
        .collect();
    println!("| scenario | RS 4+3 (1.75x) | entangled 4,t2,3 mixed (1.75x) | normal | uniform |");
    println!("|---|---|---|---|---|");
    let mut worse = Vec::new();
    for (name, loss) in scenarios {
        let plain = mean(4, 0, 3, PointerStrategy::Mixed, loss);
        let mixed = mean(4, 2, 3, PointerStrategy::Mixed, loss);
        let normal = mean(4, 2, 3, PointerStrategy::Normal, loss);
        let uniform = mean(4, 2, 3, PointerStrategy::Uniform, loss);
        let pct = |x: f64| format!("{:.3}%", x * 100.0);
        println!(
            "| {name} | {} | {} | {} | {} |",
            pct(plain),
            pct(mixed),
            pct(normal),
            pct(uniform)
        );
        if mixed > plain {
            worse.push(format!("{name}: entangled {mixed} > plain {plain}"));
        }
    }
    assert!(
        worse.is_empty(),
        "entanglement did worse than plain RS: {worse:?}"
    );
}

#[test]
fn any_one_remote_lost_alone_loses_nothing() {
    for strategy in [
        PointerStrategy::Mixed,
        PointerStrategy::Normal,
        PointerStrategy::Uniform,
    ] {
        assert_eq!(simulate(4, 2, 3, strategy, Loss::RemotePlus(0.0), 1), 0.0);
    }
    assert_eq!(
        simulate(4, 0, 3, PointerStrategy::Mixed, Loss::RemotePlus(0.0), 1),
        0.0
    );
}
