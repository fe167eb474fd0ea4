//! The pointer chooser at scale (issue 37: a night costs what changed, not what the
//! repository holds): choosing one codeword's pointers in a catalog of 1,000 extents and
//! in one of 100,000 (1.6 TB of 16 MiB extents), each grown as backups grow it (4+3 on
//! 3 remotes, 2 pointers an extent), so the counts are what a long history has. The two
//! times should be close. Measured 2026-12-02: 2.5 µs and 4.3 µs; the chooser before
//! `classes` (a scan of every data shard per pointer) took 56 µs at 1,000 and 588 µs at
//! 10,000, linear in the catalog.
//! `cargo bench --bench pointer_choice`

mod support;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::StdRng;
use tangle::codec::place;
use tangle::extent::ExtentName;
use tangle::extent::pointers::{self, Candidate, Catalog, Want};

const DATA: usize = 4;
const PARITY: usize = 3;
const POINTERS: usize = 2;
const REMOTES: usize = 3;
const SHARD: u32 = 4 << 20;

fn name(i: usize) -> ExtentName {
    let mut b = [0u8; 32];
    b[..8].copy_from_slice(&(i as u64).to_le_bytes());
    ExtentName(b)
}

/// Symbols per remote of extent `seq`'s own shards, and their remotes.
fn own(seq: usize) -> (Vec<usize>, Vec<u16>) {
    let remotes: Vec<u16> = (0..DATA + PARITY)
        .map(|i| place(seq as u64, i, REMOTES) as u16)
        .collect();
    let mut on = vec![0usize; REMOTES];
    for &r in &remotes {
        on[r as usize] += 1;
    }
    (on, remotes)
}

fn want(at: usize) -> Want {
    Want {
        at,
        pointers: POINTERS,
        parity: PARITY,
        shard_size: SHARD,
    }
}

/// A catalog of `n` extents, each having chosen its pointers as a backup does.
fn grown(n: usize, rng: &mut StdRng) -> Catalog {
    let mut catalog = Catalog::new();
    for seq in 0..n {
        let (mut on, remotes) = own(seq);
        let chosen = pointers::choose(rng, &want(seq), &mut on, &catalog, |_| true);
        let pointer_remotes: Vec<u16> = (chosen.iter())
            .map(|c| place(c.extent as u64, c.shard as usize, REMOTES) as u16)
            .collect();
        for c in &chosen {
            catalog.point(c.extent, c.shard, seq);
        }
        let candidate = Candidate::new(SHARD, DATA, PARITY, &remotes, &pointer_remotes);
        catalog.push(name(seq), candidate);
    }
    catalog
}

fn pointer_choice(c: &mut Criterion) {
    let mut g = c.benchmark_group("choose");
    for n in [1_000usize, 100_000] {
        let mut rng = StdRng::seed_from_u64(1);
        let catalog = grown(n, &mut rng);
        g.bench_with_input(BenchmarkId::from_parameter(n), &catalog, |b, catalog| {
            b.iter(|| {
                let (mut on, _) = own(n);
                pointers::choose(&mut rng, &want(n), &mut on, catalog, |_| true)
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = support::config(20);
    targets = pointer_choice
}
criterion_main!(benches);
