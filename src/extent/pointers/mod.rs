//! Choosing pointers: which data shards of older extents a new codeword entangles with.
//!
//! It lives in the extent layer, not in the codec: it chooses among certified extents
//! (the catalog is built from their certificates and names them by [`ExtentName`]), and
//! the codec below only codes the symbols it is given. Backup's appender, delete's
//! re-encode and the coverage analysis (all in `ops`) use it.
//!
//! Two rules bound the choice:
//! * **Remote rule**: no remote may hold more than `p` symbols of a codeword, pointers
//!   included. Own shards are placed first (round-robin), so pointers go to the remotes
//!   with room left. This is what makes entanglement help rather than hurt when a whole
//!   remote is lost.
//! * **Size rule**: a pointer is never larger than the new extent's own shards, so a
//!   pointer never makes a codeword's shards (and the bytes stored) larger; a small
//!   extent only points at shards at most as small.
//!
//! Within them, two kinds of pointer:
//! * **Young** ([`young_pointers`]: one of four): the youngest data shard no codeword
//!   points at yet. The newest extents are the ones people restore, and an extent is only
//!   protected by codewords written after it; this gives every extent a first rescuer
//!   within a few extents.
//! * **Far** (the rest): a data shard at least [`FAR_DISTANCE`] extents older, fewest
//!   far pointers at it first, uniformly among those. A run of damaged consecutive
//!   extents (an outage, a bad region of a disk) takes its near rescuers with it; only far
//!   ones can bring it back. With `t/s = 0.5` pointers per data shard this gives half of
//!   all data shards a far rescuer. Among the least far-pointed, a shard that would give
//!   its extent a **spare** comes first: one on a remote where the extent's codeword
//!   holds `p` symbols, none of them a pointer or a pointed-at data shard, so that losing
//!   that remote leaves the extent nothing to lose — unless another codeword can restore
//!   one of those symbols.
//!
//! Tree extents ([`crate::codec::Coding::for_trees`], and the whole copies of one data
//! shard that older repositories hold) are never pointed at: they are protected by
//! their own parity, and a pointer there would be spent on data that needs it least
//! ([`crate::codec::Coding::pointable`]).
//!
//! The counts come from the certificates ([`Catalog::from_certificates`]), which every
//! backup loads anyway: another host's backups are counted, and there is no cache to go
//! stale. The choice is recorded in the new extent's certificate, so extents written by
//! an older chooser stay exactly as they are.

mod classes;

use std::collections::HashMap;
use std::sync::OnceLock;

use rand::Rng;

use super::{Certificate, ExtentName, Pointer};
use classes::{Classes, Query};

/// A far pointer names an extent at least this many extents older than the codeword
/// (512 MiB of data with the default 16 MiB extents), so that a run of consecutive
/// damaged extents shorter than that does not hold both an extent and its far rescuer
/// (docs/ENTANGLEMENT.md).
pub(crate) const FAR_DISTANCE: usize = 32;

/// How many of a codeword's `t` pointers are young ones (the rest are far): one in four.
/// With `t < 4` every pointer is far: the model found a young pointer then cost more in
/// bursts than it saved for the newest extents.
pub(crate) fn young_pointers(t: usize) -> usize {
    #[cfg(feature = "testing")]
    if let Some(n) = crate::codec::experiments::young_pointers() {
        return n.min(t);
    }
    t / 4
}

/// What the chooser knows about an older extent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Size of its shards (what a pointer to it weighs).
    pub(crate) shard_size: u32,
    /// Remote of each data shard.
    pub(crate) data_remotes: Vec<u16>,
    /// Remotes holding `p` symbols of its codeword none of which is a pointer: losing one
    /// leaves the extent no spare unless another codeword points at one of its data
    /// shards there.
    pub(crate) exposed: Vec<u16>,
    /// How many codewords point at each data shard.
    pub(crate) pointed: Vec<u32>,
    /// How many of those are at least [`FAR_DISTANCE`] newer.
    pub(crate) far_pointed: Vec<u32>,
    /// Whether pointers may name it ([`crate::codec::Coding::pointable`]).
    pub(crate) pointable: bool,
}

impl Candidate {
    /// An extent whose own shards (data first, then parity) are on `shard_remotes` and
    /// whose pointers' shards are on `pointer_remotes`; nothing points at it yet.
    pub fn new(
        shard_size: u32,
        data_shards: usize,
        parity: usize,
        shard_remotes: &[u16],
        pointer_remotes: &[u16],
    ) -> Candidate {
        let data_shards = data_shards.min(shard_remotes.len());
        let mut on: Vec<(u16, usize, bool)> = Vec::new();
        let all = shard_remotes
            .iter()
            .map(|&r| (r, false))
            .chain(pointer_remotes.iter().map(|&r| (r, true)));
        for (r, pointer) in all {
            match on.iter_mut().find(|(x, _, _)| *x == r) {
                Some((_, n, p)) => {
                    *n += 1;
                    *p |= pointer;
                }
                None => on.push((r, 1, pointer)),
            }
        }
        Candidate {
            shard_size,
            data_remotes: shard_remotes[..data_shards].to_vec(),
            exposed: (on.iter())
                .filter(|&&(_, n, pointer)| n >= parity && !pointer)
                .map(|&(r, _, _)| r)
                .collect(),
            pointed: vec![0; data_shards],
            far_pointed: vec![0; data_shards],
            pointable: crate::codec::Coding::pointable(data_shards, parity),
        }
    }

    /// Whether losing remote `r` leaves this extent without a spare: its codeword holds
    /// `p` symbols there and no other codeword can restore any of them.
    fn needs_spare_on(&self, r: u16) -> bool {
        self.exposed.contains(&r)
            && !(self.data_remotes.iter().zip(&self.pointed)).any(|(&x, &n)| x == r && n > 0)
    }
}

/// A chosen pointer: data shard `shard` of the catalog's extent number `extent`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chosen {
    pub extent: usize,
    pub shard: u8,
}

/// The codeword being sealed, as far as its pointers are concerned.
#[derive(Clone, Copy, Debug)]
pub struct Want {
    /// The codeword's position in the catalog (the catalog's length for a new extent):
    /// what "young" and "far" are measured from.
    pub at: usize,
    /// Pointers wanted (`t`).
    pub pointers: usize,
    /// Parity shards (`p`): no remote may hold more symbols of the codeword.
    pub parity: usize,
    /// Size of the codeword's own shards: no pointer may be larger.
    pub shard_size: u32,
}

/// Share of data shards that some codeword points at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Coverage {
    pub(crate) pointed: usize,
    pub(crate) data_shards: usize,
}

/// The extents pointers may use, oldest first, with how many codewords point at each of
/// their data shards.
///
/// Built from certificates ([`Catalog::from_certificates`]) for a backup, and again for
/// anything that re-encodes a codeword (delete): build it from the certificates that
/// stay, [`Catalog::unpoint`] the pointers of the codeword being re-encoded that it
/// drops, and [`choose`] replacements with its own shards (and the pointers it keeps)
/// counted in `symbols_on` and `usable` admitting only extents older than it.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    candidates: Vec<Candidate>,
    names: Vec<ExtentName>,
    position: HashMap<ExtentName, usize>,
    /// The candidates' data shards sorted for [`choose`], built by its first call.
    classes: OnceLock<Classes>,
}

impl Catalog {
    pub fn new() -> Catalog {
        Catalog::default()
    }

    /// The extents of `certs` in their order, each data shard counted once for every
    /// codeword among them that points at it (pointers to extents not among them are
    /// not counted: they are not candidates).
    pub(crate) fn from_certificates<'a>(
        certs: impl IntoIterator<Item = &'a Certificate>,
    ) -> Catalog {
        let certs: Vec<&Certificate> = certs.into_iter().collect();
        let mut catalog = Catalog::new();
        for c in &certs {
            let name = c.name();
            catalog.position.insert(name, catalog.names.len());
            catalog.names.push(name);
        }
        let remote_of = |p: &Pointer| {
            let &e = catalog.position.get(&p.extent)?;
            let target = certs[e];
            (p.shard < target.data_shards)
                .then(|| target.shards.get(p.shard as usize).map(|s| s.remote))
                .flatten()
        };
        catalog.candidates = certs.iter().map(|c| candidate(c, remote_of)).collect();
        for c in &certs {
            catalog.count(c);
        }
        catalog
    }

    /// Add a newly sealed extent (the newest) and count its pointers.
    pub(crate) fn push_certificate(&mut self, cert: &Certificate) -> usize {
        let cand = candidate(cert, |p| {
            let &e = self.position.get(&p.extent)?;
            let c = &self.candidates[e];
            c.data_remotes.get(p.shard as usize).copied()
        });
        let i = self.push(cert.name(), cand);
        self.count(cert);
        i
    }

    /// Add an extent (the newest); returns its position.
    pub fn push(&mut self, name: ExtentName, candidate: Candidate) -> usize {
        let i = self.candidates.len();
        self.position.insert(name, i);
        self.names.push(name);
        if let Some(classes) = self.classes.get_mut() {
            classes.push(&candidate);
        }
        self.candidates.push(candidate);
        i
    }

    /// One more codeword, the one at catalog position `from`, points at data shard
    /// `shard` of extent `extent`.
    pub fn point(&mut self, extent: usize, shard: u8, from: usize) {
        self.add(extent, shard, from, |n| *n += 1);
    }

    /// One codeword fewer (the one at `from`) points at it: it was re-encoded or deleted.
    pub(crate) fn unpoint(&mut self, extent: usize, shard: u8, from: usize) {
        self.add(extent, shard, from, |n| *n = n.saturating_sub(1));
    }

    fn add(&mut self, extent: usize, shard: u8, from: usize, f: impl Fn(&mut u32)) {
        let far = from.saturating_sub(extent) >= FAR_DISTANCE;
        let Some(c) = self.candidates.get_mut(extent) else {
            return;
        };
        let Some(&r) = c.data_remotes.get(shard as usize) else {
            return;
        };
        // Whether the extent's other shards on that remote give a spare may change too.
        let mut classes = self.classes.get_mut();
        if let Some(classes) = classes.as_mut() {
            classes.remove_on(extent, c, r);
        }
        f(&mut c.pointed[shard as usize]);
        if far {
            f(&mut c.far_pointed[shard as usize]);
        }
        if let Some(classes) = classes {
            classes.insert_on(extent, c, r);
        }
    }

    fn count(&mut self, cert: &Certificate) {
        let Some(&from) = self.position.get(&cert.name()) else {
            return;
        };
        for p in &cert.pointers {
            if let Some(&e) = self.position.get(&p.extent) {
                self.point(e, p.shard, from);
            }
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.candidates.len()
    }

    pub(crate) fn candidates(&self) -> &[Candidate] {
        &self.candidates
    }

    pub(crate) fn name(&self, extent: usize) -> Option<ExtentName> {
        self.names.get(extent).copied()
    }

    pub(crate) fn position(&self, name: &ExtentName) -> Option<usize> {
        self.position.get(name).copied()
    }

    /// How many data shards some codeword points at, of how many (extents that are never
    /// pointed at, tree extents, not counted).
    pub(crate) fn coverage(&self) -> Coverage {
        let all = (self.candidates.iter())
            .filter(|c| c.pointable)
            .flat_map(|c| &c.pointed);
        Coverage {
            pointed: all.clone().filter(|&&n| n > 0).count(),
            data_shards: all.count(),
        }
    }

    /// How many extents keep a spare when remote `r` is lost: their codeword holds fewer
    /// than `p` symbols there, or one of those is a pointer or a data shard another
    /// codeword points at (which that codeword restores).
    pub(crate) fn spare_without(&self, r: u16) -> usize {
        (self.candidates.iter())
            .filter(|c| !c.needs_spare_on(r))
            .count()
    }
}

/// What the catalog needs of a certificate; `remote_of` says where a pointer's shard is
/// (`None`: unknown, e.g. an extent no longer certified).
fn candidate(cert: &Certificate, remote_of: impl Fn(&Pointer) -> Option<u16>) -> Candidate {
    let own: Vec<u16> = cert.shards.iter().map(|s| s.remote).collect();
    let pointers: Vec<u16> = cert.pointers.iter().filter_map(remote_of).collect();
    Candidate::new(
        cert.shard_size,
        cert.data_shards as usize,
        cert.parity_shards as usize,
        &own,
        &pointers,
    )
}

/// Choose up to `want.pointers` pointers among the `catalog` positions `usable` admits
/// (see the module documentation for the rules). `symbols_on` counts the codeword's
/// symbols per remote so far; it is updated with the chosen pointers. The catalog is not
/// changed: record the pointers actually used with [`Catalog::point`] (or, for a sealed
/// extent, [`Catalog::push_certificate`]).
///
/// `usable` keeps out what must not be pointed at: extents not older than a codeword
/// being re-encoded, or extents whose shards could not be read just now.
///
/// Takes about the same time however many extents the catalog holds (see `classes`),
/// except where `usable` or the size rule refuse most of them (a re-encode of an old
/// codeword, a small extent): then up to the catalog's data shards per pointer.
pub fn choose(
    rng: &mut impl Rng,
    want: &Want,
    symbols_on: &mut [usize],
    catalog: &Catalog,
    usable: impl Fn(usize) -> bool,
) -> Vec<Chosen> {
    let classes = (catalog.classes).get_or_init(|| Classes::build(&catalog.candidates));
    let young = young_pointers(want.pointers);
    let mut chosen: Vec<Chosen> = Vec::new();
    for k in 0..want.pointers {
        let query = Query {
            candidates: &catalog.candidates,
            want,
            symbols_on,
            chosen: &chosen,
            usable: &usable,
        };
        let pick = if k < young {
            classes.young(&query, rng)
        } else {
            classes.far(&query, rng)
        };
        let Some(p) = pick else { break };
        symbols_on[catalog.candidates[p.extent].data_remotes[p.shard as usize] as usize] += 1;
        chosen.push(p);
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::place;
    use crate::extent::ShardInfo;
    use rand::SeedableRng;

    const S: usize = 4;
    const P: usize = 3;

    fn name(i: usize) -> ExtentName {
        let mut b = [0u8; 32];
        b[..8].copy_from_slice(&(i as u64).to_le_bytes());
        ExtentName(b)
    }

    /// The own shards' remotes of extent `seq` on 3 remotes, data first.
    fn remotes_of(seq: usize) -> Vec<u16> {
        (0..S + P).map(|i| place(seq as u64, i, 3) as u16).collect()
    }

    fn own_counts(seq: usize) -> Vec<usize> {
        let mut on = vec![0usize; 3];
        for r in remotes_of(seq) {
            on[r as usize] += 1;
        }
        on
    }

    fn want(at: usize, pointers: usize, size: u32) -> Want {
        Want {
            at,
            pointers,
            parity: P,
            shard_size: size,
        }
    }

    /// `n` extents of one size, each choosing `t` pointers as a backup would.
    fn grow(rng: &mut impl Rng, n: usize, t: usize, size: u32) -> Catalog {
        let mut cat = Catalog::new();
        for seq in 0..n {
            extend(rng, &mut cat, seq, t, size);
        }
        cat
    }

    fn extend(
        rng: &mut impl Rng,
        cat: &mut Catalog,
        seq: usize,
        t: usize,
        size: u32,
    ) -> Vec<Chosen> {
        let mut on = own_counts(seq);
        let at = cat.len();
        let chosen = choose(rng, &want(at, t, size), &mut on, cat, |_| true);
        assert!(on.iter().all(|&k| k <= P), "remote rule broken: {on:?}");
        record(cat, seq, size, &chosen);
        chosen
    }

    /// Count `chosen` as the pointers of extent `seq` (the catalog's newest) and add it.
    fn record(cat: &mut Catalog, seq: usize, size: u32, chosen: &[Chosen]) {
        let at = cat.len();
        let ptr_remotes: Vec<u16> = (chosen.iter())
            .map(|c| cat.candidates()[c.extent].data_remotes[c.shard as usize])
            .collect();
        for c in chosen {
            cat.point(c.extent, c.shard, at);
        }
        cat.push(
            name(seq),
            Candidate::new(size, S, P, &remotes_of(seq), &ptr_remotes),
        );
    }

    type Key = (u32, usize, u32, bool);

    /// The ranking the module documentation states, by a scan of every data shard (the
    /// chooser before `classes`): the key of data shard `j` of extent `e` for the `k`-th
    /// pointer, smallest first; `None` where it may not be chosen.
    #[allow(clippy::too_many_arguments)]
    fn scan_key(
        k: usize,
        want: &Want,
        symbols_on: &[usize],
        chosen: &[Chosen],
        cat: &Catalog,
        usable: &dyn Fn(usize) -> bool,
        e: usize,
        j: usize,
    ) -> Option<Key> {
        let c = &cat.candidates()[e];
        let r = c.data_remotes[j];
        let here = Chosen {
            extent: e,
            shard: j as u8,
        };
        let room = symbols_on.get(r as usize).is_some_and(|&n| n < want.parity);
        if e >= want.at
            || c.shard_size > want.shard_size
            || !c.pointable
            || !usable(e)
            || !room
            || chosen.contains(&here)
        {
            return None;
        }
        let age = want.at - e;
        Some(if k < young_pointers(want.pointers) {
            (c.pointed[j], age, 0, false)
        } else {
            let near = age < FAR_DISTANCE;
            let gives_spare = !near
                && c.needs_spare_on(r)
                && !(chosen.iter())
                    .any(|ch| ch.extent == e && c.data_remotes.get(ch.shard as usize) == Some(&r));
            (c.far_pointed[j], near as usize, c.pointed[j], !gives_spare)
        })
    }

    /// Checks that every pointer `choose` picked ranks first by [`scan_key`] given the
    /// ones picked before it, and that it stopped only when nothing was left.
    fn check_against_scan(
        want: &Want,
        symbols_before: &[usize],
        chosen: &[Chosen],
        cat: &Catalog,
        usable: &dyn Fn(usize) -> bool,
    ) {
        let mut on = symbols_before.to_vec();
        for k in 0..=chosen.len().min(want.pointers - 1) {
            let key = |e: usize, j: usize| scan_key(k, want, &on, &chosen[..k], cat, usable, e, j);
            let best = (0..cat.len())
                .flat_map(|e| (0..cat.candidates()[e].data_remotes.len()).map(move |j| (e, j)))
                .filter_map(|(e, j)| key(e, j))
                .min();
            match chosen.get(k) {
                Some(c) => {
                    let got = key(c.extent, c.shard as usize);
                    assert!(got.is_some(), "pointer {k} {c:?} may not be chosen");
                    assert_eq!(got, best, "pointer {k} {c:?} at {}", want.at);
                    let r = cat.candidates()[c.extent].data_remotes[c.shard as usize];
                    on[r as usize] += 1;
                }
                None => assert_eq!(best, None, "stopped at {k} of {}", want.pointers),
            }
        }
    }

    #[test]
    fn chooses_as_a_scan_of_every_shard_would() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let mut cat = Catalog::new();
        for seq in 0..260 {
            // Mostly full extents, some small ones, t = 4 and t = 2.
            let size = if seq % 7 == 6 { 1024 } else { 4096 };
            let t = if seq % 3 == 0 { 2 } else { 4 };
            let before = own_counts(seq);
            let mut on = before.clone();
            let w = want(cat.len(), t, size);
            let chosen = choose(&mut rng, &w, &mut on, &cat, |_| true);
            check_against_scan(&w, &before, &chosen, &cat, &|_| true);
            record(&mut cat, seq, size, &chosen);
            if seq % 50 == 49 {
                // A re-encode, as delete makes: an old codeword drops its pointers and
                // chooses among extents older than it, some unusable.
                let at = seq / 2;
                for c in &chosen {
                    cat.unpoint(c.extent, c.shard, seq);
                }
                let usable = |e: usize| !e.is_multiple_of(5);
                let w = want(at, 4, 4096);
                let before = own_counts(at);
                let mut on = before.clone();
                let again = choose(&mut rng, &w, &mut on, &cat, usable);
                check_against_scan(&w, &before, &again, &cat, &usable);
                for c in &again {
                    cat.point(c.extent, c.shard, at);
                }
            }
        }
    }

    #[test]
    fn a_second_shard_on_the_same_remote_gives_no_spare_but_is_still_far() {
        // One far extent, 2 + 2 data shards on remotes 0 and 1, exposed on both; then
        // near ones. The codeword has no room on remote 1: both far pointers go to
        // remote 0, the second ranked as giving no spare, and still before any near one.
        let mut cat = Catalog::new();
        cat.push(
            name(0),
            Candidate::new(4096, 4, 2, &[0, 0, 1, 1, 2, 2], &[]),
        );
        for e in 1..FAR_DISTANCE {
            cat.push(
                name(e),
                Candidate::new(4096, 4, 2, &[0, 1, 2, 0, 1, 2], &[]),
            );
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(4);
        let mut on = vec![0, 2, 0];
        let w = Want {
            at: cat.len(),
            pointers: 2,
            parity: 2,
            shard_size: 4096,
        };
        let chosen = choose(&mut rng, &w, &mut on, &cat, |_| true);
        check_against_scan(&w, &[0, 2, 0], &chosen, &cat, &|_| true);
        let mut shards: Vec<u8> = chosen.iter().map(|c| c.shard).collect();
        shards.sort();
        assert!(chosen.iter().all(|c| c.extent == 0), "{chosen:?}");
        assert_eq!(shards, vec![0, 1]);
    }

    #[test]
    fn ties_are_broken_uniformly() {
        // 5 + FAR_DISTANCE extents of 4 data shards, each shard on a remote of its own
        // (nothing exposed, no spare to give): the 24 shards of the 6 far ones tie.
        let mut cat = Catalog::new();
        for e in 0..5 + FAR_DISTANCE {
            let remotes: Vec<u16> = (0..7).collect();
            cat.push(name(e), Candidate::new(4096, 4, 3, &remotes, &[]));
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(2);
        let mut picked = vec![0u32; 24];
        for _ in 0..24_000 {
            let mut on = vec![1usize; 7];
            let w = want(cat.len(), 1, 4096);
            let c = choose(&mut rng, &w, &mut on, &cat, |_| true);
            assert_eq!(c.len(), 1);
            assert!(c[0].extent < 6, "{c:?} is near");
            picked[c[0].extent * 4 + c[0].shard as usize] += 1;
        }
        // 1,000 each expected, a standard deviation of about 31.
        assert!(
            picked.iter().all(|&n| (850..1150).contains(&n)),
            "{picked:?}"
        );
    }

    #[test]
    fn far_pointers_spread_over_shards_no_far_pointer_names() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut cat = Catalog::new();
        for seq in 0..300 {
            let before: Vec<(u32, u32)> = (cat.candidates().iter())
                .flat_map(|c| c.pointed.iter().copied().zip(c.far_pointed.iter().copied()))
                .collect();
            let chosen = extend(&mut rng, &mut cat, seq, 2, 4096);
            if seq > 0 {
                assert_eq!(chosen.len(), 2, "extent {seq}");
            }
            for c in chosen {
                let (pointed, far) = before[c.extent * S + c.shard as usize];
                if seq - c.extent >= FAR_DISTANCE {
                    assert_eq!(far, 0, "extent {seq}: {c:?}");
                } else {
                    // Near only while nothing is far enough yet.
                    assert!(seq < FAR_DISTANCE + 1, "extent {seq}: {c:?}");
                    assert_eq!(pointed, 0, "extent {seq}: {c:?}");
                }
            }
        }
        let cov = cat.coverage();
        assert_eq!(cov.data_shards, 1200);
        // Near pointers of the first extents may name a shard a far one names again.
        assert!(cov.pointed >= 2 * 299 - 2 * FAR_DISTANCE, "{cov:?}");
        let far: u32 = cat.candidates().iter().flat_map(|c| &c.far_pointed).sum();
        let far_shards = (cat.candidates().iter())
            .flat_map(|c| &c.far_pointed)
            .filter(|&&n| n > 0)
            .count();
        assert_eq!(
            far as usize, far_shards,
            "every far pointer a different shard"
        );
    }

    #[test]
    fn a_young_pointer_names_the_youngest_unpointed_shard() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let mut cat = Catalog::new();
        let pointed = |cat: &Catalog| -> Vec<Vec<u32>> {
            cat.candidates().iter().map(|c| c.pointed.clone()).collect()
        };
        for seq in 0..200 {
            let before = pointed(&cat);
            let mut on = own_counts(seq);
            let at = cat.len();
            let chosen = choose(&mut rng, &want(at, 4, 4096), &mut on, &cat, |_| true);
            if let Some(young) = chosen.first() {
                assert_eq!(before[young.extent][young.shard as usize], 0);
                // No younger extent had an unpointed shard on a remote with room.
                let own = own_counts(seq);
                let younger = cat.candidates().iter().zip(&before).enumerate();
                for (e, (c, pointed)) in younger.skip(young.extent + 1) {
                    for (j, &r) in c.data_remotes.iter().enumerate() {
                        assert!(
                            pointed[j] > 0 || own[r as usize] >= P,
                            "extent {seq}: {e}/{j} is younger"
                        );
                    }
                }
            }
            record(&mut cat, seq, 4096, &chosen);
        }
    }

    #[test]
    fn falls_back_to_the_least_pointed() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let mut cat = grow(&mut rng, 3, 2, 4096);
        // Point at everything once, one shard twice.
        for e in 0..3 {
            for j in 0..S as u8 {
                cat.point(e, j, 3);
            }
        }
        cat.point(0, 1, 3);
        for seq in 3..6 {
            let mut on = own_counts(seq);
            for c in choose(&mut rng, &want(3, 2, 4096), &mut on, &cat, |_| true) {
                assert_eq!(cat.candidates()[c.extent].pointed[c.shard as usize], 1);
            }
        }
    }

    #[test]
    fn no_room_no_pointers_and_size_limit() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let cat = grow(&mut rng, 10, 2, 4096);
        let mut full = vec![3usize, 3, 3];
        assert!(choose(&mut rng, &want(10, 2, 4096), &mut full, &cat, |_| true).is_empty());
        let mut on = vec![3usize, 2, 2];
        assert!(
            choose(&mut rng, &want(10, 2, 4032), &mut on, &cat, |_| true).is_empty(),
            "larger than its own shards, by however little"
        );
        assert_eq!(on, vec![3, 2, 2]);
        let empty = Catalog::new();
        assert!(choose(&mut rng, &want(0, 2, 4096), &mut on, &empty, |_| true).is_empty());
        // A small extent finds the one small shard; tree extents (whole copies as older
        // repositories have them, and 4+12) are never named.
        let mut cat = cat;
        let small = cat.push(name(99), Candidate::new(448, S, P, &remotes_of(10), &[]));
        cat.push(
            name(98),
            Candidate::new(64, 1, 2, &remotes_of(11)[..3], &[]),
        );
        let tree_remotes: Vec<u16> = (0..16).map(|i| place(12, i, 3) as u16).collect();
        cat.push(name(97), Candidate::new(64, 4, 12, &tree_remotes, &[]));
        let mut on = own_counts(12);
        let chosen = choose(&mut rng, &want(12, 2, 448), &mut on, &cat, |_| true);
        assert!(!chosen.is_empty() && chosen.iter().all(|c| c.extent == small));
    }

    #[test]
    fn old_extents_without_a_spare_come_first() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let cat = grow(&mut rng, 400, 2, 4096);
        // With every remote lost in turn, nearly every extent old enough keeps a spare.
        let old = 400 - 2 * FAR_DISTANCE;
        for r in 0..3u16 {
            let exposed_old = cat.candidates()[..old]
                .iter()
                .filter(|c| c.needs_spare_on(r))
                .count();
            assert!(
                exposed_old <= 2,
                "remote {r}: {exposed_old} old extents without a spare"
            );
        }
        // (Without the preference, a third of them — those with 3 symbols on the lost
        // remote — would each lack one with probability about 1/4.) Younger ones may.
        assert!(cat.spare_without(0) >= old - 2, "{}", cat.spare_without(0));
    }

    fn cert(seq: usize, pointers: Vec<Pointer>) -> Certificate {
        Certificate {
            repo_id: [0; 16],
            writer: [0; 16],
            seq: seq as u64,
            prev: None,
            start_verifier: [0; 32],
            verifier: name(seq).0,
            block_lengths: vec![],
            size: 0,
            timestamp: 0,
            data_shards: S as u8,
            parity_shards: P as u8,
            shard_size: 4096,
            pointers,
            shards: remotes_of(seq)
                .into_iter()
                .map(|remote| ShardInfo {
                    hash: [0; 32],
                    remote,
                })
                .collect(),
            placement: 0,
        }
    }

    #[test]
    fn counts_come_from_the_certificates() {
        let p = |e: usize, shard: u8| Pointer {
            extent: name(e),
            shard,
        };
        let certs = vec![
            cert(0, vec![]),
            cert(1, vec![p(0, 1), p(0, 2)]),
            cert(2, vec![p(0, 1), p(1, 0)]),
            // A pointer to an extent not listed, and one to a parity shard: not counted.
            cert(3, vec![p(77, 0), p(2, 5)]),
        ];
        let mut cat = Catalog::from_certificates(&certs);
        assert_eq!(cat.len(), 4);
        assert_eq!(cat.candidates()[0].pointed, vec![0, 2, 1, 0]);
        assert_eq!(cat.candidates()[1].pointed, vec![1, 0, 0, 0]);
        assert_eq!(
            cat.coverage(),
            Coverage {
                pointed: 3,
                data_shards: 16
            }
        );
        // Extent 1's pointers are on remotes 1 and 2 (where shards 1 and 2 of extent 0
        // are), its other remote holds 2 symbols: nothing exposed. Extent 0 holds 3
        // symbols on remote 0, no pointer, and its data shards there (0 and 3) are not
        // pointed at: exposed, and losing remote 0 leaves it no spare.
        assert_eq!(cat.candidates()[1].exposed, Vec::<u16>::new());
        assert_eq!(cat.candidates()[0].exposed, vec![0]);
        assert!(cat.candidates()[0].needs_spare_on(0));
        // The same through push_certificate, one at a time.
        let mut one = Catalog::new();
        for c in &certs {
            one.push_certificate(c);
        }
        assert_eq!(one.candidates(), cat.candidates());
        assert_eq!(cat.candidates()[0].far_pointed, vec![0, 0, 0, 0]);
        cat.unpoint(0, 1, 2);
        assert_eq!(cat.candidates()[0].pointed, vec![0, 1, 1, 0]);
        // Far pointers are counted apart.
        cat.point(0, 3, FAR_DISTANCE);
        cat.point(0, 3, FAR_DISTANCE - 1);
        assert_eq!(cat.candidates()[0].pointed, vec![0, 1, 1, 2]);
        assert_eq!(cat.candidates()[0].far_pointed, vec![0, 0, 0, 1]);
        assert_eq!(cat.position(&name(2)), Some(2));
        assert_eq!(cat.name(3), Some(name(3)));
    }
}
