//! A survey of the repository's storage layer as it is on every remote: which objects each
//! remote lists, which metadata copies are authentic, which certificates exist, and the
//! state of every shard. `verify` reports it; `repair` plans from it. Needs no password:
//! everything is checked against the owner's public key and the signed certificates.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use bytes::Bytes;
use futures::stream::{self, StreamExt};

use crate::codec::peel::Codeword;
use crate::crypto::envelope::{self, ObjectKind};
use crate::error::Result;
use crate::extent::{Certificate, Deletions, ExtentName, Head, REVOKED_WRITERS, WRITERS};
use crate::repo::{Foreign, Graph, Repository, State, names};

mod locks;
pub(crate) use locks::BadLock;
use locks::bad_locks;

/// One remote's copy of a metadata object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CopyState {
    Missing,
    /// Authentic; the BLAKE3 of its bytes.
    Good([u8; 32]),
    /// Present but not to be trusted as it is; why.
    Bad(BadCopy),
    /// The remote could not be asked.
    Unreachable,
}

/// Why a present copy is not good.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BadCopy {
    /// Garbage, truncated, not matching its content hash, of another repository, or
    /// unreadable: the reason.
    Corrupt(String),
    /// Well-formed but not signed by the repository owner; the check that failed.
    Forged(String),
    /// An authentic certificate whose placement revision is older than another
    /// remote's copy (a rebalance re-signed it; this remote missed the update).
    Stale { placement: u32, current: u32 },
    /// Provably no object of this repository ([`Repository::foreign_copy`]): another
    /// repository's, signed by another owner or by this one. Rewritten where another
    /// remote holds an authentic copy, else removed by repair.
    Foreign(Foreign),
}

impl CopyState {
    /// Whether `repair` rewrites this copy from an authentic one: missing, corrupt,
    /// forged and stale copies; good ones need nothing and unreachable ones cannot be.
    pub(crate) fn needs_rewrite(&self) -> bool {
        matches!(self, CopyState::Missing | CopyState::Bad(_))
    }
}

impl std::fmt::Display for BadCopy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadCopy::Corrupt(why) => f.write_str(why),
            BadCopy::Forged(why) => write!(f, "not signed by the repository owner ({why})"),
            BadCopy::Stale { placement, current } => write!(
                f,
                "stale certificate (placement revision {placement}, current {current})"
            ),
            BadCopy::Foreign(x) => write!(f, "not this repository's: {}", x.why),
        }
    }
}

#[derive(Debug)]
pub(crate) struct MetaObject {
    pub(crate) copies: Vec<CopyState>,
    /// Bytes of one authentic copy (what repair re-replicates).
    pub(crate) good: Option<Bytes>,
    /// Authentic copies that differ from each other (a fork, for objects that are not
    /// content-addressed).
    pub(crate) conflicting: bool,
    /// Present somewhere but authentic nowhere, though well-formed: possibly forged.
    pub(crate) forged: bool,
}

impl MetaObject {
    /// The copies that are provably another repository's, by remote.
    pub(crate) fn foreign_copies(&self) -> impl Iterator<Item = (usize, &Foreign)> {
        (self.copies.iter().enumerate()).filter_map(|(r, c)| match c {
            CopyState::Bad(BadCopy::Foreign(x)) => Some((r, x)),
            _ => None,
        })
    }

    /// No remote holds an authentic copy and every copy there is is provably another
    /// repository's: the path names no object of this repository, nothing is lost, and
    /// repair removes the copies.
    pub(crate) fn only_foreign(&self) -> bool {
        self.good.is_none()
            && self.foreign_copies().next().is_some()
            && self.copies.iter().all(|c| {
                matches!(
                    c,
                    CopyState::Missing
                        | CopyState::Unreachable
                        | CopyState::Bad(BadCopy::Foreign(_))
                )
            })
    }
}

/// The state of one shard on the remote that should hold it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ShardState {
    Ok,
    Missing,
    WrongSize(u64),
    /// Read and hashed: does not match the certificate.
    Corrupt,
    Unreachable,
}

pub(crate) struct Survey {
    pub(crate) urls: Vec<String>,
    /// Per remote: its listing (path → size), or the error that kept it from listing.
    /// Canonical object names only: everything else is in `foreign`.
    pub(crate) listings: Vec<Result<HashMap<String, u64>>>,
    /// (remote, path) of every listed path that is no object's canonical name: reported,
    /// never read, trusted or copied.
    pub(crate) foreign: Vec<(usize, String)>,
    /// What the owner's deletion records name. Those objects are not part of the
    /// repository any more: they are left out of `meta`, `certs` and `shards`.
    pub(crate) deleted: Deletions,
    /// (remote, path, size) of objects a deletion record names that a remote still holds
    /// (an interrupted delete, a remote that was down): never damage; `delete` and
    /// `repair` remove them.
    pub(crate) reclaimable: Vec<(usize, String, u64)>,
    pub(crate) meta: BTreeMap<String, MetaObject>,
    /// Authentic certificates, oldest first.
    pub(crate) certs: Vec<Arc<Certificate>>,
    pub(crate) cert_pos: HashMap<ExtentName, usize>,
    /// `shards[e][i]`: state of shard `i` of `certs[e]`.
    pub(crate) shards: Vec<Vec<ShardState>>,
    /// Lock copies that are not authentic (planted or damaged), each checked on the
    /// remote that lists it: locks are not replicated metadata (they come and go, and
    /// are never copied), so they are not in `meta`.
    pub(crate) bad_locks: Vec<BadLock>,
}

/// Metadata bytes the survey fetches at once at most, in KiB (see [`fetch_limit`]).
const FETCH_BUDGET_KIB: u64 = 512 << 10;

/// The most bytes fetched for the metadata object at `path`, listed at `listed` bytes:
/// its kind's limit, and for objects named by their hash (immutable, so the listing's
/// size is theirs) no more than listed, so a remote that lists small and serves big is
/// cut short. A listed size of 0 is no size (an SFTP server may not report one; these
/// objects are never empty).
fn fetch_limit(path: &str, listed: u64) -> u64 {
    let limit = crate::repo::metadata_limit(path);
    match path.split('/').next() {
        Some("index" | "snapshots" | "deletions") if listed > 0 => limit.min(listed),
        _ => limit,
    }
}

/// A copy listed bigger than `limit` is refused unread.
fn listed_over(path: &str, listed: u64, limit: u64) -> Option<BadCopy> {
    (listed > limit)
        .then(|| BadCopy::Corrupt(format!("{path} is listed at {listed} bytes, over {limit}")))
}

/// Remote `r`'s copy of `path`, `limit` bytes at most; `None` if gone since the listing.
/// One that cannot be read within the limit (a FIFO, a giant, a read error) is refused.
async fn get_copy<S: State>(
    repo: &Repository<S>,
    r: usize,
    path: &str,
    limit: u64,
) -> Option<std::result::Result<Bytes, BadCopy>> {
    match repo.remotes()[r].get_max(path, limit).await {
        Ok(bytes) => Some(Ok(bytes)),
        Err(e) if e.kind() == crate::Kind::NotFound => None,
        Err(e) => Some(Err(BadCopy::Corrupt(e.to_string()))),
    }
}

/// Why a copy that failed its authentication (`e`) is refused: forged if well-formed but
/// signed by someone else, else corrupt.
fn refused_copy<S: State>(
    repo: &Repository<S>,
    path: &str,
    bytes: &[u8],
    e: &crate::Error,
) -> BadCopy {
    if let Some(foreign) = repo.foreign_copy(path, bytes) {
        BadCopy::Foreign(foreign)
    } else if looks_forged(repo, path, bytes) {
        BadCopy::Forged(e.to_string())
    } else {
        BadCopy::Corrupt(e.to_string())
    }
}

/// Whether a copy that failed [`Repository::authenticate_metadata`] is well-formed but signed by someone else.
fn looks_forged<S: State>(repo: &Repository<S>, path: &str, bytes: &[u8]) -> bool {
    let kind = match path.split('/').next() {
        Some("extents") => ObjectKind::Extent,
        Some("heads") => ObjectKind::Head,
        Some("keys") => ObjectKind::Key,
        Some("snapshots") => ObjectKind::Snapshot,
        Some("index") => ObjectKind::Index,
        Some("deletions" | names::REMOVED_KEYS) => ObjectKind::Deletion,
        Some(WRITERS | REVOKED_WRITERS) => ObjectKind::Writer,
        Some("locks") => ObjectKind::Lock,
        _ => ObjectKind::Config,
    };
    let well_formed = envelope::open_unverified(kind, bytes).is_ok();
    let name = path.rsplit('/').next().unwrap_or(path);
    let hash_ok = !matches!(
        kind,
        ObjectKind::Key | ObjectKind::Snapshot | ObjectKind::Index | ObjectKind::Deletion
    ) || envelope::content_id(bytes) == name;
    well_formed && hash_ok && envelope::open(kind, bytes, &repo.config.owner).is_err()
}

impl Survey {
    /// List every remote, fetch and check every metadata copy, and stat every shard.
    pub(crate) fn take<S: State>(repo: &Repository<S>) -> Result<Survey> {
        let remotes = repo.remotes();
        let urls: Vec<String> = remotes.iter().map(|r| r.url().to_string()).collect();
        let mut foreign = Vec::new();
        let listings: Vec<Result<HashMap<String, u64>>> = repo
            .block_on(futures::future::join_all(
                remotes.iter().map(|r| r.list("")),
            ))
            .into_iter()
            .enumerate()
            .map(|(i, l)| {
                // Whether a remote answers is decided afresh by each survey.
                match &l {
                    Ok(_) => repo.health().mark_up(i),
                    Err(e) => repo.health().note_list_error(i, e),
                }
                l.map(|v| {
                    v.into_iter()
                        .filter(|o| {
                            let canonical = names::is_canonical(&o.path);
                            if !canonical {
                                foreign.push((i, o.path.clone()));
                            }
                            canonical
                        })
                        .map(|o| (o.path, o.size))
                        .collect()
                })
            })
            .collect();

        // Every metadata path any remote has.
        let mut paths: Vec<String> = listings
            .iter()
            .flatten()
            .flat_map(|l| l.keys().filter(|p| names::is_metadata(p)).cloned())
            .collect();
        paths.sort();
        paths.dedup();
        if !paths.iter().any(|p| p == "config") {
            paths.insert(0, "config".into());
        }

        let fetches = paths
            .iter()
            .flat_map(|p| (0..remotes.len()).map(move |r| (p.clone(), r)));
        // Bytes being fetched at once, in KiB: each fetch holds its size limit's worth
        // (below), so 32 fetches of a remote's oversized fakes cannot take 32 x 256 MiB.
        let in_flight = tokio::sync::Semaphore::new(FETCH_BUDGET_KIB as usize);
        // The copies of a path are the same bytes on every remote when all is well:
        // each distinct copy is checked once (a signature check is ~50 µs, and with a
        // long history they were most of a survey's time).
        let authentic: std::sync::Mutex<HashSet<(String, [u8; 32])>> = Default::default();
        let results: Vec<(String, usize, CopyState, Option<Bytes>)> = repo.block_on(
            stream::iter(fetches.map(|(path, r)| {
                let (listing, in_flight, authentic) = (&listings[r], &in_flight, &authentic);
                async move {
                    let listed = match listing {
                        Err(_) => return (path, r, CopyState::Unreachable, None),
                        Ok(l) => match l.get(&path) {
                            None => return (path, r, CopyState::Missing, None),
                            Some(&size) => size,
                        },
                    };
                    let limit = fetch_limit(&path, listed);
                    if let Some(bad) = listed_over(&path, listed, limit) {
                        return (path, r, CopyState::Bad(bad), None);
                    }
                    let kib = limit.div_ceil(1024).clamp(1, FETCH_BUDGET_KIB) as u32;
                    let Ok(_permit) = in_flight.acquire_many(kib).await else {
                        return (path, r, CopyState::Unreachable, None);
                    };
                    match get_copy(repo, r, &path, limit).await {
                        None => (path, r, CopyState::Missing, None),
                        Some(Err(bad)) => (path, r, CopyState::Bad(bad), None),
                        Some(Ok(b)) => {
                            let hash = *blake3::hash(&b).as_bytes();
                            let key = (path.clone(), hash);
                            let seen = (authentic.lock())
                                .unwrap_or_else(|p| p.into_inner())
                                .contains(&key);
                            match if seen {
                                Ok(())
                            } else {
                                repo.authenticate_metadata(&path, &b)
                            } {
                                Ok(()) => {
                                    (authentic.lock())
                                        .unwrap_or_else(|p| p.into_inner())
                                        .insert(key);
                                    (path, r, CopyState::Good(hash), Some(b))
                                }
                                Err(e) => {
                                    let bad = refused_copy(repo, &path, &b, &e);
                                    (path, r, CopyState::Bad(bad), None)
                                }
                            }
                        }
                    }
                }
            }))
            .buffer_unordered(32)
            .collect(),
        );
        let mut meta: BTreeMap<String, MetaObject> = BTreeMap::new();
        // Authentic certificate copies: (remote, placement revision, bytes) per path.
        let mut cert_copies: HashMap<String, Vec<(usize, u32, Bytes)>> = HashMap::new();
        for (path, r, copy, bytes) in results {
            if let (true, Some(b)) = (path.starts_with("extents/"), &bytes) {
                let placement = Certificate::placement_of(b).unwrap_or(0);
                cert_copies
                    .entry(path.clone())
                    .or_default()
                    .push((r, placement, b.clone()));
            }
            let m = meta.entry(path).or_insert_with(|| MetaObject {
                copies: vec![CopyState::Missing; remotes.len()],
                good: None,
                conflicting: false,
                forged: false,
            });
            m.forged |= matches!(copy, CopyState::Bad(BadCopy::Forged(_)));
            m.copies[r] = copy;
            if let Some(b) = bytes
                && m.good.is_none()
            {
                m.good = Some(b);
            }
        }
        // A certificate copy with an older placement revision is stale, not a fork:
        // rebalancing re-signs certificates, and a remote may have missed that.
        for (path, copies) in cert_copies {
            let (Some(m), Some(current)) =
                (meta.get_mut(&path), copies.iter().map(|(_, p, _)| *p).max())
            else {
                continue;
            };
            for (r, placement, bytes) in copies {
                if placement < current {
                    m.copies[r] = CopyState::Bad(BadCopy::Stale { placement, current });
                } else if m.good.as_ref().and_then(|g| Certificate::placement_of(g))
                    != Some(current)
                {
                    m.good = Some(bytes);
                }
            }
        }
        for (path, m) in meta.iter_mut() {
            let mut goods = m.copies.iter().filter_map(|c| {
                if let CopyState::Good(h) = c {
                    Some(*h)
                } else {
                    None
                }
            });
            if let Some(first) = goods.next() {
                // Two authentic records of one key's removal say the same: no fork.
                m.conflicting = goods.any(|h| h != first) && !path.starts_with("removed-keys/");
                m.forged = false;
            }
        }

        // The owner's deletion records: what they name is no longer part of the
        // repository. A key's removal may have only its record named by the key (one
        // that stopped before the other).
        let mut deleted = Deletions::default();
        for (path, m) in &meta {
            if !(path.starts_with("deletions/") || path.starts_with("removed-keys/")) {
                continue;
            }
            if let Some(Ok(d)) = m.good.as_ref().map(|b| repo.deletion_record(path, b)) {
                deleted.add(&d);
            }
        }
        meta.retain(|path, _| !deleted.names(path));
        let mut reclaimable = Vec::new();
        for (r, l) in listings.iter().enumerate() {
            if let Ok(l) = l {
                reclaimable.extend(
                    l.iter()
                        .filter(|(p, _)| deleted.names(p))
                        .map(|(p, &size)| (r, p.clone(), size)),
                );
            }
        }
        reclaimable.sort();

        // Authentic certificates, oldest first.
        let mut certs: Vec<Arc<Certificate>> = Vec::new();
        for (path, m) in &meta {
            if let (Some(name), Some(b)) = (path.strip_prefix("extents/"), &m.good) {
                let c = Certificate::from_object(b, repo.signers(), &ExtentName::parse(name)?)?;
                certs.push(Arc::new(c));
            }
        }
        certs.sort_by_key(|c| (c.timestamp, c.writer, c.seq));
        let cert_pos: HashMap<ExtentName, usize> = certs
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name(), i))
            .collect();

        // Shards: listing first, then (optionally) content.
        let shards: Vec<Vec<ShardState>> = certs
            .iter()
            .map(|c| {
                (0..c.shards.len())
                    .map(|i| match &listings[c.shards[i].remote as usize] {
                        Err(_) => ShardState::Unreachable,
                        Ok(l) => match l.get(&c.name().shard_path(i)) {
                            None => ShardState::Missing,
                            Some(&size) if size != c.shard_size as u64 => {
                                ShardState::WrongSize(size)
                            }
                            Some(_) => ShardState::Ok,
                        },
                    })
                    .collect()
            })
            .collect();
        let bad_locks = bad_locks(repo, &listings);
        Ok(Survey {
            urls,
            listings,
            foreign,
            deleted,
            reclaimable,
            meta,
            certs,
            cert_pos,
            shards,
            bad_locks,
        })
    }

    /// Download the shards of the extents `pick` selects, check each against its
    /// certified hash (marking bad ones `Corrupt`), and where all inputs are intact check
    /// that the stored parity is what the data and pointers encode to. Returns the bytes
    /// read, the shards checked, and the extents whose parity is inconsistent.
    pub(crate) fn read_data<S: State>(
        &mut self,
        repo: &Repository<S>,
        pick: &dyn Fn(usize) -> bool,
        progress: &crate::ops::Progress,
    ) -> (u64, u64, Vec<usize>) {
        use crate::ops::Progress;
        let jobs: Vec<usize> = (0..self.certs.len()).filter(|&e| pick(e)).collect();
        // Counted in extents ("files") and shard bytes.
        let all: u64 = (jobs.iter()).map(|&e| self.certs[e].shard_bytes()).sum();
        progress.set_totals(jobs.len() as u64, all);
        let certs = &self.certs;
        let shards = &self.shards;
        let results: Vec<(usize, Vec<bool>, u64, bool)> = repo.block_on(
            stream::iter(jobs.into_iter().map(|e| async move {
                let c = &certs[e];
                let fetches = (0..c.shards.len()).map(|i| {
                    let listed = shards[e][i] == ShardState::Ok;
                    async move {
                        if !listed {
                            return None;
                        }
                        repo.fetch_verified(c, i).await
                    }
                });
                let got: Vec<Option<Bytes>> = futures::future::join_all(fetches).await;
                let bytes: u64 = got.iter().flatten().map(|b| b.len() as u64).sum();
                let ok: Vec<bool> = got.iter().map(|g| g.is_some()).collect();
                let s = c.data_shards as usize;
                let mut consistent = true;
                if got.iter().all(|g| g.is_some()) {
                    let pointers = repo.pointer_inputs_async(c).await;
                    if pointers.iter().all(|p| p.is_some()) {
                        let inputs: Vec<&[u8]> = got[..s]
                            .iter()
                            .map(|g| g.as_deref().unwrap_or_default())
                            .chain(pointers.iter().map(|g| g.as_deref().unwrap_or_default()))
                            .collect();
                        consistent =
                            match crate::codec::encode_parity(&inputs, c.parity_shards as usize) {
                                Ok(parity) => parity
                                    .iter()
                                    .zip(&c.shards[s..])
                                    .all(|(p, info)| blake3::hash(p).as_bytes() == &info.hash),
                                Err(_) => false,
                            };
                    }
                }
                Progress::add(&progress.files_done, 1);
                Progress::add(&progress.bytes_done, c.shard_bytes());
                (e, ok, bytes, consistent)
            }))
            .buffer_unordered(1)
            .collect(),
        );
        let (mut bytes, mut checked, mut inconsistent) = (0, 0, Vec::new());
        for (e, ok, b, consistent) in results {
            bytes += b;
            for (i, good) in ok.into_iter().enumerate() {
                if self.shards[e][i] == ShardState::Ok {
                    checked += 1;
                    if !good {
                        let remote = self.certs[e].shards[i].remote as usize;
                        self.shards[e][i] = if repo.health().down(remote).is_some() {
                            ShardState::Unreachable
                        } else {
                            ShardState::Corrupt
                        };
                    }
                }
            }
            if !consistent {
                inconsistent.push(e);
            }
        }
        (bytes, checked, inconsistent)
    }

    /// The storage graph for peeling: symbol ids are `offset[e] + i` for shard `i` of
    /// extent `e`; returns the codewords and which symbols are present and intact.
    /// A pointer to an extent without an authentic certificate counts as a lost symbol.
    pub(crate) fn graph(&self) -> (Vec<Codeword>, Vec<bool>, Vec<usize>) {
        let g = Graph::new(&self.certs, &self.cert_pos, |e, i| {
            self.shards[e][i] == ShardState::Ok
        });
        (g.codewords, g.present, g.offset)
    }

    /// The extents the chains of `heads` reach: each head's extent and its ancestors,
    /// through deleted extents too (their records keep `prev`).
    pub(crate) fn reached_from<'a>(
        &self,
        heads: impl IntoIterator<Item = &'a Head>,
    ) -> HashSet<ExtentName> {
        let mut reached = HashSet::new();
        for head in heads {
            let mut next = head.extent.map(|(e, _)| e);
            while let Some(e) = next {
                if !reached.insert(e) {
                    break;
                }
                next = match self.cert_pos.get(&e) {
                    Some(&i) => self.certs[i].prev,
                    None => self.deleted.extents.get(&e).and_then(|d| d.prev),
                };
            }
        }
        reached
    }
}
