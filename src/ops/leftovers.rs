//! Leftovers of interrupted runs: objects a backup, repack or move wrote that nothing
//! committed uses and nothing ever will (docs/DESIGN.md §14b). `prune` removes them, and
//! so does every `delete` (which removes an interrupted run's certified extents through
//! its deletion record already, and the rest here); `verify` counts the stray shards.
//!
//! What is a leftover, judged from a survey taken under the exclusive lock:
//!
//! * a **stray shard**: `shards/E/i` on remote `r` that no certificate accounts for: E's
//!   authentic certificate places shard `i` on another remote (or has no shard `i`), or
//!   no remote lists any certificate of E and no head or certificate names E (its
//!   certificate was never written);
//! * an **uncommitted extent** (its certificate and shards, with the password): no head's
//!   chain reaches it, no index segment that stays names it, no certificate that stays
//!   names it as `prev` or pointer, and it holds no blob a snapshot needs that only it
//!   holds;
//! * an **uncommitted index segment** (with the password): no head names it and it names
//!   no extent that stays;
//! * a **temp file** (`.tmp-*`) of a write cut short, except under `locks/` and
//!   `repairs/`, where other processes write at any moment.
//!
//! What a deletion record names is not a leftover here: `delete` and `repair` remove it.
//! Nothing is a leftover unless every remote answered with the repository ([`away`]).
//! Each remote's leftovers come from its own listing, judged against the authentic
//! objects of all remotes, so a remote's listing can make only its own objects go.

use std::collections::HashSet;

use serde::Serialize;

use super::survey::Survey;
use crate::content::{BlobId, OpenedSegment};
use crate::error::Result;
use crate::extent::{Deletions, ExtentName, Head};
use crate::repo::names::ObjectName;
use crate::repo::{Indexed, Repository, State};

/// What a leftover is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LeftoverKind {
    /// An index segment no head commits to.
    IndexSegment,
    /// The certificate of an uncommitted extent.
    Certificate,
    /// A shard of an uncommitted extent.
    Shard,
    /// A shard object no certificate accounts for on its remote.
    StrayShard,
    /// A temp file of a write cut short.
    TempFile,
}

/// One remote's copy of a leftover.
#[derive(Clone, Debug)]
pub(crate) struct Leftover {
    pub(crate) remote: usize,
    pub(crate) path: String,
    pub(crate) bytes: u64,
    pub(crate) kind: LeftoverKind,
}

/// Every leftover, in the order [`remove`] takes them.
#[derive(Debug, Default)]
pub(crate) struct Found {
    /// Index segments first, then certificates, then shards (of uncommitted extents, then
    /// stray ones), then temp files: an interruption leaves leftovers of the same kinds,
    /// never an uncommitted segment whose extents are gone.
    pub(crate) objects: Vec<Leftover>,
    /// Uncommitted extents and index segments among them (each counted once, however
    /// many remotes hold a copy).
    pub(crate) extents: usize,
    pub(crate) index_segments: usize,
    /// Why objects no head commits to were kept nevertheless (for a warning).
    pub(crate) kept: Vec<String>,
}

/// Leftovers on one remote.
#[derive(Serialize, Debug, Clone, Default, PartialEq, Eq)]
pub struct RemoteLeftovers {
    pub remote: String,
    pub objects: u64,
    pub bytes: u64,
}

impl Found {
    pub(crate) fn count(&self, kind: LeftoverKind) -> usize {
        self.objects.iter().filter(|o| o.kind == kind).count()
    }

    pub(crate) fn bytes(&self) -> u64 {
        crate::util::saturating_sum(self.objects.iter().map(|o| o.bytes))
    }

    /// Objects and bytes per remote, every remote in config order.
    pub(crate) fn by_remote(&self, survey: &Survey) -> Vec<RemoteLeftovers> {
        let mut out: Vec<RemoteLeftovers> = (survey.urls.iter())
            .map(|url| RemoteLeftovers {
                remote: url.clone(),
                ..Default::default()
            })
            .collect();
        for o in &self.objects {
            if let Some(r) = out.get_mut(o.remote) {
                r.objects += 1;
                r.bytes = r.bytes.saturating_add(o.bytes);
            }
        }
        out
    }
}

/// The remotes that did not answer with the repository, as `URL (why)`: unreachable, or
/// answering without a config (wiped, an unmounted disk). While there is one, nothing is
/// a leftover: it may hold the one copy of a certificate (an interrupted run's writes
/// reach the remotes in any order) or a newer placement of one.
pub(crate) fn away(survey: &Survey) -> Vec<String> {
    (survey.listings.iter().zip(&survey.urls))
        .filter_map(|(l, url)| match l {
            Err(e) => Some(format!("{url} ({e})")),
            Ok(l) if !l.contains_key("config") => Some(format!("{url} (holds no repository)")),
            Ok(_) => None,
        })
        .collect()
}

/// Every authentic head the survey found.
fn heads<S: State>(repo: &Repository<S>, survey: &Survey) -> Vec<Head> {
    (survey.meta.range("heads/".to_string()..))
        .take_while(|(p, _)| p.starts_with("heads/"))
        .filter_map(|(p, m)| Head::from_object(m.good.as_ref()?, repo.signers(), p).ok())
        .collect()
}

/// Whether the certificate of `e` is listed but no copy is authentic, or authentic copies
/// disagree: what it says is unknown, so nothing of `e` is judged.
fn cert_unknown(survey: &Survey, e: &ExtentName) -> bool {
    survey
        .meta
        .get(&e.cert_path())
        .is_some_and(|m| m.good.is_none() || m.conflicting)
}

/// Shard objects no certificate accounts for, on every remote that answered: from each
/// remote's own listing, judged against the authentic certificates of all remotes.
/// `named`: what deletion records name (never a leftover); `dead`: extents removed as
/// uncommitted (their shards are theirs, not strays, and what they name counts for
/// nothing).
pub(crate) fn stray_shards<S: State>(
    repo: &Repository<S>,
    survey: &Survey,
    named: &Deletions,
    dead: &HashSet<ExtentName>,
) -> Vec<Leftover> {
    // Extents on any head's chain (every head, not only each writer's newest), or named
    // by a certificate that stays: such an extent without a certificate lost it (damage);
    // its certificate was written once. Its shards stay.
    let mut referenced = survey.reached_from(&heads(repo, survey));
    for c in survey.certs.iter().filter(|c| !dead.contains(&c.name())) {
        referenced.extend(c.prev);
        referenced.extend(c.pointers.iter().map(|p| p.extent));
    }
    let cert_listed = |e: &ExtentName| {
        let path = e.cert_path();
        (survey.listings.iter().flatten()).any(|l| l.contains_key(&path))
    };
    let mut out = Vec::new();
    for (r, listing) in survey.listings.iter().enumerate() {
        let Ok(l) = listing else { continue };
        for (path, &bytes) in l {
            let Some(ObjectName::Shard(e, i)) = ObjectName::parse(path) else {
                continue;
            };
            if named.names(path) || dead.contains(&e) || cert_unknown(survey, &e) {
                continue;
            }
            let stray = match survey.cert_pos.get(&e) {
                Some(&k) => (survey.certs[k].shards.get(i)).is_none_or(|s| s.remote as usize != r),
                None => !cert_listed(&e) && !referenced.contains(&e),
            };
            if stray {
                out.push(Leftover {
                    remote: r,
                    path: path.clone(),
                    bytes,
                    kind: LeftoverKind::StrayShard,
                });
            }
        }
    }
    out.sort_by(|a, b| (&a.path, a.remote).cmp(&(&b.path, b.remote)));
    out
}

/// Temp files of writes cut short on every remote that answered, outside `locks/` and
/// `repairs/`. A remote that cannot list them is skipped with a warning.
pub(crate) fn temp_files<S: State>(repo: &Repository<S>, survey: &Survey) -> Vec<Leftover> {
    let remotes = repo.remotes();
    let listed = repo.block_on(futures::future::join_all(
        (survey.listings.iter().enumerate())
            .filter(|(_, l)| l.is_ok())
            .map(|(r, _)| async move { (r, remotes[r].list_temp().await) }),
    ));
    let mut out = Vec::new();
    for (r, temps) in listed {
        match temps {
            Ok(temps) => out.extend(
                (temps.into_iter())
                    .filter(|o| !o.path.starts_with("locks/") && !o.path.starts_with("repairs/"))
                    .map(|o| Leftover {
                        remote: r,
                        path: o.path,
                        bytes: o.size,
                        kind: LeftoverKind::TempFile,
                    }),
            ),
            Err(e) => repo.warn(&format!(
                "cannot list the temp files on {}: {e}; they stay",
                survey.urls[r]
            )),
        }
    }
    out.sort_by(|a, b| (&a.path, a.remote).cmp(&(&b.path, b.remote)));
    out
}

/// Every leftover (needs the key: uncommitted extents and segments are judged by the
/// index and the snapshots). Call only when [`away`] is empty, under the exclusive lock
/// (or for a dry run). May replace the loaded index.
pub(crate) fn find(repo: &mut Repository<Indexed>, survey: &Survey) -> Result<Found> {
    let mut found = Found::default();
    let (dead_extents, dead_segments) = uncommitted(repo, survey, &mut found.kept)?;
    found.extents = dead_extents.len();
    found.index_segments = dead_segments.len();
    let copies = |path: &str, kind: LeftoverKind| -> Vec<Leftover> {
        (survey.listings.iter().enumerate())
            .filter_map(|(r, l)| {
                let bytes = *l.as_ref().ok()?.get(path)?;
                Some(Leftover {
                    remote: r,
                    path: path.to_string(),
                    bytes,
                    kind,
                })
            })
            .collect()
    };
    let mut segments: Vec<&String> = dead_segments.iter().collect();
    segments.sort();
    for id in segments {
        found
            .objects
            .extend(copies(&format!("index/{id}"), LeftoverKind::IndexSegment));
    }
    let mut extents: Vec<&ExtentName> = dead_extents.iter().collect();
    extents.sort();
    for e in &extents {
        found
            .objects
            .extend(copies(&e.cert_path(), LeftoverKind::Certificate));
    }
    let mut shards = Vec::new();
    for (r, listing) in survey.listings.iter().enumerate() {
        let Ok(l) = listing else { continue };
        for (path, &bytes) in l {
            if let Some(ObjectName::Shard(e, _)) = ObjectName::parse(path)
                && dead_extents.contains(&e)
            {
                shards.push(Leftover {
                    remote: r,
                    path: path.clone(),
                    bytes,
                    kind: LeftoverKind::Shard,
                });
            }
        }
    }
    shards.sort_by(|a, b| (&a.path, a.remote).cmp(&(&b.path, b.remote)));
    found.objects.extend(shards);
    found
        .objects
        .extend(stray_shards(repo, survey, &survey.deleted, &dead_extents));
    found.objects.extend(temp_files(repo, survey));
    Ok(found)
}

/// Remove `objects` in their order, each from its own remote. Stops at the first error
/// (what is left stays a leftover).
pub(crate) fn remove<S: State>(repo: &Repository<S>, objects: &[Leftover]) -> Result<()> {
    for o in objects {
        match o.kind {
            LeftoverKind::TempFile => repo.remove_temp_file(o.remote, &o.path)?,
            _ => repo.remove_leftover(o.remote, &o.path)?,
        }
    }
    Ok(())
}

/// The uncommitted extents and index segments (ids) that are provably dead. Anything
/// that cannot be judged (a segment or snapshot that cannot be read) is kept, and why is
/// added to `kept`.
fn uncommitted(
    repo: &mut Repository<Indexed>,
    survey: &Survey,
    kept: &mut Vec<String>,
) -> Result<(HashSet<ExtentName>, HashSet<String>)> {
    let none = || (HashSet::new(), HashSet::new());
    let heads = heads(repo, survey);
    let committed = survey.reached_from(&heads);
    let head_index: HashSet<&str> = heads.iter().filter_map(|h| h.index.as_deref()).collect();
    // Every index segment no record names: what each one names must be known.
    let mut segments: Vec<(String, OpenedSegment)> = Vec::new();
    for (path, m) in
        (survey.meta.range("index/".to_string()..)).take_while(|(p, _)| p.starts_with("index/"))
    {
        let id = path.trim_start_matches("index/").to_string();
        let read = match &m.good {
            None => Err(crate::Error::corrupt("no remote holds an authentic copy")),
            Some(b) => repo.open_index_segment(b),
        };
        match read {
            Ok(s) => segments.push((id, s)),
            Err(e) => {
                kept.push(format!(
                    "index segment {path} cannot be read ({e}): it may name any extent, so no \
                     uncommitted extent or segment is removed (run `tangle verify`)"
                ));
                return Ok(none());
            }
        }
    }
    let mut dead_ext: HashSet<ExtentName> = (survey.certs.iter())
        .map(|c| c.name())
        .filter(|e| !committed.contains(e) && !cert_unknown(survey, e))
        .collect();
    let mut dead_seg: HashSet<usize> = (0..segments.len())
        .filter(|&k| !head_index.contains(segments[k].0.as_str()))
        .collect();
    settle(survey, &segments, &mut dead_ext, &mut dead_seg);

    // A snapshot may need a blob that only a dead segment indexes, in a dead extent: one
    // written by a version that wrote its snapshot before its head. Walk the snapshots
    // only if such blobs exist.
    let staying_blobs = |dead_seg: &HashSet<usize>| -> HashSet<BlobId> {
        (segments.iter().enumerate())
            .filter(|(k, _)| !dead_seg.contains(k))
            .flat_map(|(_, (_, s))| {
                s.segment
                    .all_extents()
                    .flat_map(|e| e.blobs.iter().map(|b| b.id))
            })
            .collect()
    };
    let only_dead = |dead_ext: &HashSet<ExtentName>,
                     dead_seg: &HashSet<usize>,
                     staying: &HashSet<BlobId>|
     -> Vec<(ExtentName, BlobId)> {
        (dead_seg.iter())
            .flat_map(|&k| segments[k].1.segment.all_extents())
            .filter(|e| dead_ext.contains(&e.extent))
            .flat_map(|e| e.blobs.iter().map(move |b| (e.extent, b.id)))
            .filter(|(_, id)| !staying.contains(id))
            .collect()
    };
    let staying = staying_blobs(&dead_seg);
    let at_risk = only_dead(&dead_ext, &dead_seg, &staying);
    if !at_risk.is_empty() {
        // Read the snapshots through every segment, those that stay first.
        let order: Vec<&OpenedSegment> = (segments.iter().enumerate())
            .filter(|(k, _)| !dead_seg.contains(k))
            .chain(
                segments
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| dead_seg.contains(k)),
            )
            .map(|(_, (_, s))| s)
            .collect();
        repo.load_index_segments(order);
        let live = match repo.snapshots_and_unreadable()? {
            (_, unreadable) if !unreadable.is_empty() => Err(format!(
                "{} snapshots cannot be read ({})",
                unreadable.len(),
                unreadable[0]
            )),
            (snaps, _) => super::live::live_blobs(repo, snaps.iter().map(|(_, s)| s.tree))
                .map_err(|e| format!("a snapshot cannot be read completely ({e})")),
        };
        match live {
            Ok(live) => {
                for (e, id) in &at_risk {
                    if live.contains(id) {
                        dead_ext.remove(e);
                    }
                }
            }
            Err(why) => {
                kept.push(format!(
                    "{why}: the uncommitted index segments and the extents they name are kept \
                     (run `tangle verify`)"
                ));
                let named: HashSet<ExtentName> = (dead_seg.iter())
                    .flat_map(|&k| segments[k].1.segment.all_extents().map(|e| e.extent))
                    .collect();
                dead_ext.retain(|e| !named.contains(e));
                dead_seg.clear();
            }
        }
        settle(survey, &segments, &mut dead_ext, &mut dead_seg);
    }
    let dead_seg = dead_seg
        .into_iter()
        .map(|k| segments[k].0.clone())
        .collect();
    Ok((dead_ext, dead_seg))
}

/// Shrink the dead sets until they agree: an extent stays if a segment or certificate
/// that stays names it; a segment stays if it names an extent that stays (or one whose
/// certificate cannot be judged).
fn settle(
    survey: &Survey,
    segments: &[(String, OpenedSegment)],
    dead_ext: &mut HashSet<ExtentName>,
    dead_seg: &mut HashSet<usize>,
) {
    loop {
        let mut named: HashSet<ExtentName> = (segments.iter().enumerate())
            .filter(|(k, _)| !dead_seg.contains(k))
            .flat_map(|(_, (_, s))| s.segment.all_extents().map(|e| e.extent))
            .collect();
        for c in survey
            .certs
            .iter()
            .filter(|c| !dead_ext.contains(&c.name()))
        {
            named.extend(c.prev);
            named.extend(c.pointers.iter().map(|p| p.extent));
        }
        let extents_before = dead_ext.len();
        dead_ext.retain(|e| !named.contains(e));
        let stays = |e: &ExtentName| {
            (survey.cert_pos.contains_key(e) && !dead_ext.contains(e)) || cert_unknown(survey, e)
        };
        let segments_before = dead_seg.len();
        dead_seg.retain(|&k| {
            !segments[k]
                .1
                .segment
                .all_extents()
                .any(|e| stays(&e.extent))
        });
        if dead_ext.len() == extents_before && dead_seg.len() == segments_before {
            return;
        }
    }
}
