//! Rebuilding an extent through other codewords, read only.
//!
//! An extent whose own codeword has lost more than `p` symbols may still come back: a
//! later codeword that names one of its data shards as a pointer restores that shard when
//! it decodes, and once enough of them are back the extent's own codeword decodes too.
//! This is `repair`'s peeling (`codec::peel`) over the codeword graph of every
//! certificate ([`Graph`], which `repair` and `verify` use too), but a reader decodes only
//! the codewords the extent needs ([`peel::needed`]), keeps what they restore in memory,
//! and writes nothing: any reader can do it (restore, dump, cat, ls...), and `repair`
//! makes it permanent.
//!
//! Every symbol fed to Reed-Solomon is either fetched and checked against its certified
//! size and BLAKE3, or restored by an earlier decode and checked the same way. A remote
//! that serves a shard that does not match is named in a warning, the shard is not used,
//! and the plan is made again without it.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use bytes::Bytes;
use futures::future::join_all;

use super::names::ObjectName;
use super::read_around::ShardDamage;
use super::{Repository, State};
use crate::codec::{
    self,
    peel::{self, Codeword},
};
use crate::error::{Error, Kind, Result};
use crate::extent::{Certificate, ExtentName};

/// Restored shards kept across rebuilds within a process (a later codeword decoded for
/// one lost extent often restores shards of its neighbours): up to this many shards.
const REBUILT_SHARDS: usize = 8;

/// The codeword graph of a repository's certificates, oldest first: symbol
/// `offset[e] + i` is shard `i` of extent `e`, and each extent's codeword spans its own
/// data shards, its pointers (the pointed-at data shards' symbols) and its parity shards,
/// in the order the coder takes them.
pub(crate) struct Graph {
    pub(crate) codewords: Vec<Codeword>,
    /// Which symbols are there to read (as the caller saw them).
    pub(crate) present: Vec<bool>,
    pub(crate) offset: Vec<usize>,
}

impl Graph {
    /// The graph of `certs` (oldest first; `pos` finds an extent's place), shard `i` of
    /// extent `e` present where `present(e, i)`. A pointer a codeword cannot use — into
    /// an extent no certificate is known for, at a shard that is not a data shard, or at
    /// one larger than the codeword's shards — is a symbol of its own that is never
    /// present (decoding the codeword may "restore" it, but there is nowhere to put it).
    pub(crate) fn new(
        certs: &[Arc<Certificate>],
        pos: &HashMap<ExtentName, usize>,
        present: impl Fn(usize, usize) -> bool,
    ) -> Graph {
        let mut offset = Vec::with_capacity(certs.len());
        let mut n = 0;
        for c in certs {
            offset.push(n);
            n += c.shards.len();
        }
        let mut present: Vec<bool> = (certs.iter().enumerate())
            .flat_map(|(e, c)| (0..c.shards.len()).map(move |i| (e, i)))
            .map(|(e, i)| present(e, i))
            .collect();
        let mut codewords = Vec::with_capacity(certs.len());
        for (e, c) in certs.iter().enumerate() {
            let s = c.data_shards as usize;
            let mut symbols: Vec<usize> = (0..s).map(|i| offset[e] + i).collect();
            for p in &c.pointers {
                match pos.get(&p.extent) {
                    Some(&pe)
                        if p.shard < certs[pe].data_shards
                            && certs[pe].shard_size <= c.shard_size =>
                    {
                        symbols.push(offset[pe] + p.shard as usize)
                    }
                    _ => {
                        symbols.push(present.len());
                        present.push(false);
                    }
                }
            }
            symbols.extend((s..c.shards.len()).map(|i| offset[e] + i));
            codewords.push(Codeword {
                symbols,
                parity: c.parity_shards as usize,
            });
        }
        Graph {
            codewords,
            present,
            offset,
        }
    }

    /// Which extent and shard symbol `sym` is (`None` for a pointer no shard backs).
    pub(crate) fn locate(&self, certs: &[Arc<Certificate>], sym: usize) -> Option<(usize, usize)> {
        let e = self.offset.partition_point(|&o| o <= sym).checked_sub(1)?;
        let i = sym - self.offset[e];
        (i < certs.get(e)?.shards.len()).then_some((e, i))
    }
}

/// What a reader knows, for the rest of the process, once it first rebuilt an extent
/// through other codewords: every certificate, which shards the remotes list, and what
/// it learned since (shards that turned out not to match, extents found lost).
pub(super) struct Rescue {
    certs: Vec<Arc<Certificate>>,
    pos: HashMap<ExtentName, usize>,
    /// `present`: listed on the certified remote at the certified size, and not found
    /// to be otherwise when read.
    graph: Graph,
    /// Symbols restored by decoding, newest last (at most [`REBUILT_SHARDS`]), each
    /// unpadded and checked against its certificate.
    rebuilt: VecDeque<(usize, Bytes)>,
    /// Extents found lost for good (what is present only shrinks within a process), and
    /// why.
    lost: HashMap<ExtentName, String>,
}

/// Why an extent could not be rebuilt through other codewords.
enum Failed {
    /// Peeling cannot restore this many of its data shards (with what the remotes serve,
    /// less what turned out wrong; 0: a plan failed without teaching anything new).
    Lost(usize),
    /// A decode from verified inputs gave a shard its certificate does not vouch for
    /// (owner-signed certificates that contradict each other): why.
    Broken(String),
}

/// Why a shard read did not give the certified shard.
enum Unread {
    /// Missing, or its remote did not answer: nothing to say about the remote.
    Missing,
    /// The remote served something else (other bytes, another size, or an object it
    /// refused to read as a shard): `why`, naming the remote.
    Wrong(String),
}

impl<S: State> Repository<S> {
    /// Shard `index` of an extent as [`fetch_verified`](Self::fetch_verified) reads it,
    /// saying why it is not the certified shard.
    async fn fetch_checked(&self, cert: &Certificate, index: usize) -> Result<Bytes, Unread> {
        let info = cert.shards.get(index).ok_or(Unread::Missing)?;
        let r = info.remote as usize;
        let url = self
            .inner
            .remotes
            .get(r)
            .map_or("?", |x| x.url())
            .to_string();
        let what = format!("shard {index} of extent {}", cert.name().short());
        let path = cert.name().shard_path(index);
        let read = match self.get_shard_from(r, &path, cert.shard_size as u64).await {
            Ok(b) if b.len() != cert.shard_size as usize => Err(Unread::Wrong(format!(
                "remote {url} serves {what} with {} bytes, not the certified {}",
                b.len(),
                cert.shard_size
            ))),
            Ok(b) if blake3::hash(&b).as_bytes() != &info.hash => Err(Unread::Wrong(format!(
                "remote {url} serves {what} with bytes that do not match its certificate"
            ))),
            Ok(b) => Ok(b),
            Err(e) => {
                self.note_read_failed(cert, index, &e);
                if e.kind() == Kind::Corrupt && self.inner.health.down(r).is_none() {
                    return Err(Unread::Wrong(format!("remote {url}: {what}: {e}")));
                }
                return Err(Unread::Missing);
            }
        };
        match &read {
            Ok(_) => self.note_read_intact(cert, index),
            Err(_) => self.note_read_around(cert, index, ShardDamage::Corrupt),
        }
        read
    }

    /// Every certificate and what the remotes list under `shards/`, once per process.
    fn rescue_state(&self) -> Result<Rescue> {
        let certs = self.load_catalog()?;
        let pos: HashMap<ExtentName, usize> = (certs.iter().enumerate())
            .map(|(e, c)| (c.name(), e))
            .collect();
        let mut listed: HashSet<(usize, usize)> = HashSet::new();
        let listings = self.inner.rt.block_on(self.list_remotes("shards"));
        for (r, listing) in listings.into_iter().enumerate() {
            let Ok(listing) = listing.inspect_err(|e| self.inner.health.note_list_error(r, e))
            else {
                continue;
            };
            for o in listing {
                let Some(ObjectName::Shard(name, i)) = ObjectName::parse(&o.path) else {
                    continue;
                };
                let Some(&e) = pos.get(&name) else { continue };
                let c = &certs[e];
                if c.shards.get(i).is_some_and(|s| s.remote as usize == r)
                    && o.size == c.shard_size as u64
                {
                    listed.insert((e, i));
                }
            }
        }
        let graph = Graph::new(&certs, &pos, |e, i| listed.contains(&(e, i)));
        Ok(Rescue {
            certs,
            pos,
            graph,
            rebuilt: VecDeque::new(),
            lost: HashMap::new(),
        })
    }

    /// Extent `cert`'s data through other codewords, after its own could not be decoded
    /// (`own`: why). Read only; see the module documentation.
    pub(super) fn rebuild_through_others(&self, cert: &Certificate, own: Error) -> Result<Vec<u8>> {
        let name = cert.name();
        let mut guard = self.inner.rescue.lock().unwrap_or_else(|p| p.into_inner());
        if guard.is_none() {
            *guard = Some(self.rescue_state().map_err(|e| {
                Error::new(
                    own.kind(),
                    format!("{own}; later codewords cannot be looked at: {e}"),
                )
            })?);
        }
        let Some(st) = guard.as_mut() else {
            return Err(own);
        };
        if let Some(why) = st.lost.get(&name) {
            return Err(Error::corrupt(why.clone()));
        }
        let Some(&e) = st.pos.get(&name) else {
            return Err(Error::new(
                own.kind(),
                format!("{own}; no remote lists its certificate, so no later codeword is known"),
            ));
        };
        let mut wrong: Vec<String> = Vec::new();
        match self.rescue_extent(st, e, &mut wrong) {
            Ok((data, decoded)) => {
                let later = decoded.iter().filter(|&&c| c > e).count();
                self.warn_once(
                    &format!("rebuilt-through {}", name.hex()),
                    &format!(
                        "extent {} was rebuilt through {later} later codeword{} ({} decoded, \
                         nothing written): its own shards are damaged; run `tangle repair`",
                        name.short(),
                        if later == 1 { "" } else { "s" },
                        decoded.len()
                    ),
                );
                Ok(data)
            }
            Err(Failed::Broken(why)) => Err(Error::corrupt(format!(
                "{own}; through later codewords: {why}"
            ))),
            Err(Failed::Lost(stay_lost)) => {
                let s = cert.data_shards as usize;
                let named = (0..s)
                    .filter(|&i| {
                        (st.certs[e + 1..].iter()).any(|c| {
                            (c.pointers.iter()).any(|p| p.extent == name && p.shard as usize == i)
                        })
                    })
                    .count();
                let mut why = format!(
                    "{own}; nor through later codewords: they point at {named} of its {s} data \
                     shards, and {}",
                    match stay_lost {
                        0 => "too few of their symbols could be read".to_string(),
                        n => format!("{n} of its data shards stay lost"),
                    }
                );
                if !wrong.is_empty() {
                    let more = wrong.len().saturating_sub(3);
                    why.push_str(&format!(
                        "; not used: {}",
                        wrong[..wrong.len() - more].join("; ")
                    ));
                    if more > 0 {
                        why.push_str(&format!(" and {more} more"));
                    }
                }
                st.lost.insert(name, why.clone());
                Err(Error::corrupt(why))
            }
        }
    }

    /// Plan and decode until extent `e`'s data shards are all in hand: `Ok` with its data
    /// and the codewords decoded. Shards found wrong are warned about, added to `wrong`,
    /// and planned around.
    fn rescue_extent(
        &self,
        st: &mut Rescue,
        e: usize,
        wrong: &mut Vec<String>,
    ) -> Result<(Vec<u8>, Vec<usize>), Failed> {
        let cert = st.certs[e].clone();
        let s = cert.data_shards as usize;
        let targets: Vec<usize> = (0..s).map(|i| st.graph.offset[e] + i).collect();
        // Each round plans with what is known; a shard read that fails teaches something
        // (it is no longer counted present) and the next round plans around it.
        loop {
            let known = st.graph.present.iter().filter(|&&p| p).count();
            let mut have: HashMap<usize, Bytes> = st.rebuilt.iter().cloned().collect();
            let mut before = st.graph.present.clone();
            for &x in have.keys() {
                before[x] = true;
            }
            let mut present = before.clone();
            let plan = peel::peel(&st.graph.codewords, &mut present);
            let stay_lost = targets.iter().filter(|&&x| !present[x]).count();
            if stay_lost > 0 {
                return Err(Failed::Lost(stay_lost));
            }
            let steps = peel::needed(&st.graph.codewords, &before, &plan, &targets);
            // The last step that reads each symbol: restored ones are dropped after it.
            let mut last_use: HashMap<usize, usize> = HashMap::new();
            for (k, &c) in steps.iter().enumerate() {
                for &x in &st.graph.codewords[c].symbols {
                    last_use.insert(x, k);
                }
            }
            let mut learned = false;
            for (k, &c) in steps.iter().enumerate() {
                match self.decode_step(st, c, &before, &mut have, wrong)? {
                    Some(restored) => {
                        for (x, b) in restored {
                            let kept = targets.contains(&x)
                                || last_use.get(&x).is_some_and(|&last| last > k);
                            if st.rebuilt.len() == REBUILT_SHARDS {
                                st.rebuilt.pop_front();
                            }
                            st.rebuilt.push_back((x, b.clone()));
                            if kept {
                                have.insert(x, b);
                            }
                        }
                    }
                    None => {
                        learned = true;
                        break;
                    }
                }
                have.retain(|x, _| {
                    targets.contains(x) || last_use.get(x).is_none_or(|&last| last > k)
                });
            }
            if learned {
                if !more_learned(st, known) {
                    return Err(Failed::Lost(0));
                }
                continue;
            }
            // The data shards: restored, or read as they are.
            let mut data = Vec::with_capacity(s * cert.shard_size as usize);
            for (i, &x) in targets.iter().enumerate() {
                let shard = match have.get(&x) {
                    Some(b) => b.clone(),
                    None => match self.inner.rt.block_on(self.fetch_checked(&cert, i)) {
                        Ok(b) => b,
                        Err(why) => {
                            self.learn(st, x, why, wrong);
                            learned = true;
                            break;
                        }
                    },
                };
                data.extend_from_slice(&shard);
            }
            if learned {
                if !more_learned(st, known) {
                    return Err(Failed::Lost(0));
                }
                continue;
            }
            data.truncate(cert.size as usize);
            return Ok((data, steps));
        }
    }

    /// Symbol `x` could not be read as certified: it is not present any more.
    fn learn(&self, st: &mut Rescue, x: usize, why: Unread, wrong: &mut Vec<String>) {
        st.graph.present[x] = false;
        if let Unread::Wrong(why) = why {
            self.warn_once(&why, &format!("{why} (not used)"));
            wrong.push(why);
        }
    }

    /// Decode codeword `c` from symbols in `have` and symbols read (those `before` counts
    /// present), and return the symbols it restored, each cut to its shard's size and
    /// checked against its certificate. `Ok(None)`: too few could be read (what failed is
    /// learned, for the next plan).
    #[allow(clippy::type_complexity)]
    fn decode_step(
        &self,
        st: &mut Rescue,
        c: usize,
        before: &[bool],
        have: &mut HashMap<usize, Bytes>,
        wrong: &mut Vec<String>,
    ) -> Result<Option<Vec<(usize, Bytes)>>, Failed> {
        let cert = st.certs[c].clone();
        let symbols = st.graph.codewords[c].symbols.clone();
        let (s, t) = (cert.data_shards as usize, cert.pointers.len());
        let originals = s + t;
        let ss = cert.shard_size as usize;
        let padded = |b: &Bytes| {
            let mut v = b.to_vec();
            v.resize(ss, 0);
            v
        };
        let mut inputs: Vec<Option<Vec<u8>>> = vec![None; symbols.len()];
        let mut count = 0;
        for (k, x) in symbols.iter().enumerate() {
            if count < originals
                && let Some(b) = have.get(x)
            {
                inputs[k] = Some(padded(b));
                count += 1;
            }
        }
        // Then read what is listed, as many at once as are still wanted.
        let candidates: Vec<usize> = (0..symbols.len())
            .filter(|&k| inputs[k].is_none() && before[symbols[k]] && st.graph.present[symbols[k]])
            .collect();
        let mut candidates = candidates.into_iter();
        while count < originals {
            let batch: Vec<usize> = candidates.by_ref().take(originals - count).collect();
            if batch.is_empty() {
                break;
            }
            let located: Vec<Option<(usize, usize)>> = (batch.iter())
                .map(|&k| st.graph.locate(&st.certs, symbols[k]))
                .collect();
            let certs = &st.certs;
            let reads = located.iter().map(|at| async move {
                match at {
                    Some((pe, pi)) => self.fetch_checked(&certs[*pe], *pi).await,
                    None => Err(Unread::Missing),
                }
            });
            let got = self.inner.rt.block_on(join_all(reads));
            for (&k, read) in batch.iter().zip(got) {
                match read {
                    Ok(b) => {
                        inputs[k] = Some(padded(&b));
                        count += 1;
                    }
                    Err(why) => {
                        self.learn(st, symbols[k], why, wrong);
                    }
                }
            }
        }
        if count < originals {
            return Ok(None);
        }
        let missing: Vec<usize> = (0..originals).filter(|&k| inputs[k].is_none()).collect();
        codec::reconstruct(&mut inputs, originals, ss).map_err(|err| {
            Failed::Broken(format!(
                "extent {}: decoding its codeword: {err}",
                cert.name().short()
            ))
        })?;
        let mut restored = Vec::with_capacity(missing.len());
        for k in missing {
            let x = symbols[k];
            let Some((pe, pi)) = st.graph.locate(&st.certs, x) else {
                continue;
            };
            let owner = &st.certs[pe];
            let mut b = inputs[k].take().unwrap_or_default();
            b.truncate(owner.shard_size as usize);
            if blake3::hash(&b).as_bytes() != &owner.shards[pi].hash {
                return Err(Failed::Broken(format!(
                    "shard {pi} of extent {} rebuilt through the codeword of extent {} does \
                     not match its certificate: the two certificates disagree",
                    owner.name().short(),
                    cert.name().short()
                )));
            }
            restored.push((x, Bytes::from(b)));
        }
        Ok(Some(restored))
    }
}

/// Whether a round that failed a read counted fewer shards present than `known` at its
/// start (else the next plan would be the same: give up rather than loop).
fn more_learned(st: &Rescue, known: usize) -> bool {
    st.graph.present.iter().filter(|&&p| p).count() < known
}
