//! `tangle delete`: restic's forget and prune in one command, with re-encoding.
//!
//! 1. Decide which snapshots go (ids, or a retention policy: [`policy`]).
//! 2. Find the blobs the kept snapshots need; an extent holding none of them is removed.
//! 3. Re-encode every live codeword that points into a removed extent ([`reencode`]):
//!    new pointers among live data shards, new parity, a re-signed certificate.
//! 4. Write the consolidated index without the removed extents (in segments of at most
//!    2^20 blobs), committed by heads of this run (so backups dedup against it).
//! 5. Write the signed deletion record naming the snapshots, extents and old index
//!    segments; from here on verify and repair treat them as deleted, not lost.
//! 6. Remove the named objects from every remote (and what earlier, interrupted deletes
//!    named), counting the bytes freed per remote.
//! 7. Remove the leftovers of interrupted runs that no record names (shard objects no
//!    certificate accounts for, temp files: [`super::leftovers`]), when every remote
//!    answered.
//!
//! Every step leaves a verifiable repository if the process dies: before step 5 nothing
//! is named deleted and everything removed-to-be is still whole; after it, what remains
//! of the named objects is reclaimable information, removed by the next delete or repair.
//! A re-encode interrupted between its parity and its certificate leaves parity that
//! verify calls repairable (the old pointers are still there for repair to use).

pub mod policy;
mod reencode;
pub mod repack;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use serde::Serialize;

use super::extent_writer::{RunHeads, Tip, segment_blobs};
use super::leftovers::{self, RemoteLeftovers};
use super::survey::Survey;
use crate::content::index::{ExtentBlobs, IndexEntry};
use crate::content::{BlobId, IndexSegment, WriterExtents};
use crate::crypto::writer::SEALED_KEY_LEN;
use crate::error::{Error, Result};
use crate::extent::{Certificate, DeletedExtent, Deletion, ExtentName, Head};
use crate::repo::{Indexed, Repository, Unlocked};

pub struct DeleteOptions {
    /// Full ids of the snapshots to remove.
    pub remove: Vec<String>,
    pub dry_run: bool,
    /// Go on with remotes unreachable (they are cleaned by the next repair).
    pub allow_degraded: bool,
    /// How much unused space may stay in partly used extents.
    pub max_unused: repack::MaxUnused,
}

#[derive(Serialize, Debug, Clone)]
pub struct RemoteBytes {
    pub remote: String,
    pub bytes: u64,
}

#[derive(Serialize, Debug, Default)]
pub struct DeleteReport {
    pub dry_run: bool,
    /// Snapshots removed (full ids).
    pub snapshots_removed: Vec<String>,
    pub snapshots_kept: usize,
    /// Extents that hold nothing a kept snapshot needs.
    pub extents_removed: usize,
    /// Live codewords re-encoded because they pointed into a removed extent.
    pub extents_reencoded: usize,
    /// Index segments replaced by the consolidated index.
    pub(crate) index_segments_replaced: usize,
    /// Heads made redundant by the delete's own head (history consolidation).
    pub(crate) heads_replaced: usize,
    /// Partly used or small extents whose live blobs were copied into new extents (they
    /// are counted in `extents_removed` too).
    pub extents_repacked: usize,
    /// Live bytes copied by repacking.
    pub bytes_repacked: u64,
    /// Bytes freed per remote (what the removed objects occupied).
    pub freed: Vec<RemoteBytes>,
    pub bytes_freed: u64,
    /// Bytes read and written to re-encode (shards, pointers, parity, certificates).
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// Of those, what repacking moved (live blobs read; new extents' shards written)...
    pub(crate) repack_bytes_read: u64,
    pub(crate) repack_bytes_written: u64,
    /// ...and what re-encoding moved (data and pointer shards read; parity and
    /// certificates written): the parity updates entanglement adds to a prune.
    pub reencode_bytes_read: u64,
    pub reencode_bytes_written: u64,
    /// Objects an earlier, interrupted delete had named and left behind, removed now.
    pub(crate) leftovers_removed: usize,
    /// Leftovers of interrupted runs that no record names, removed too (with `dry_run`,
    /// that would be): shard objects no certificate accounts for and temp files of
    /// writes cut short (`ops::leftovers`; an interrupted run's certified extents are in
    /// `extents_removed`). Only when every remote answered. Every remote's copy counts.
    pub(crate) leftovers_reclaimed: usize,
    pub(crate) leftover_bytes_reclaimed: u64,
    /// Per remote, in config order.
    pub(crate) leftovers_by_remote: Vec<RemoteLeftovers>,
    /// With a policy: the verdict on every snapshot it considered, and why.
    pub decisions: Vec<policy::Decision>,
}

/// Why a delete changed nothing: these remotes (URL and why) were unreachable or held
/// no repository. Kept as the error's `source()`, so that `run` can tell a night with a
/// disk away (delete waits for the next one) from a failure.
#[derive(Debug, Clone)]
pub struct RemotesAway(pub Vec<String>);

impl std::fmt::Display for RemotesAway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "remote {} is away", self.0.join(", remote "))
    }
}

impl std::error::Error for RemotesAway {}

impl RemotesAway {
    /// The remotes `e` says were away, if that is why it failed.
    pub fn of(e: &Error) -> Option<&RemotesAway> {
        std::error::Error::source(e).and_then(|s| s.downcast_ref::<RemotesAway>())
    }
}

/// Delete what `opts` names, counting the extents repacked or re-encoded and the bytes
/// they move in `progress` (for a progress bar).
pub fn run_with_progress(
    repo: Repository<Unlocked>,
    opts: &DeleteOptions,
    progress: &crate::ops::Progress,
) -> Result<DeleteReport> {
    use crate::ops::Progress;
    let survey = Survey::take(&repo)?;
    // Unreachable, or answering without the repository (wiped, or an unmounted disk).
    let down: Vec<String> = (survey.listings.iter().zip(&survey.urls))
        .filter_map(|(l, url)| match l {
            Err(e) => Some(format!("{url} ({e})")),
            Ok(l) if !l.contains_key("config") => Some(format!("{url} (holds no repository)")),
            Ok(_) => None,
        })
        .collect();
    if !down.is_empty() && !opts.allow_degraded {
        return Err(Error::fatal(format!(
            "remote {} is unreachable or empty: delete changed nothing (--allow-degraded deletes \
             anyway; the next repair cleans that remote)",
            down.join(", remote ")
        ))
        .with_source(RemotesAway(down)));
    }
    // Only index segments no deletion record replaced.
    let replaced = survey.deleted.index.clone();
    let repo = &mut repo.load_index_where(|id| !replaced.contains(id))?;
    // A snapshot that cannot be read would count as not kept, and the extents only it
    // uses would go: refuse instead (repair may restore it from another remote).
    let (snaps, unreadable) = repo.snapshots_and_unreadable()?;
    if let Some(e) = unreadable.first() {
        return Err(Error::fatal(format!(
            "{} snapshots cannot be read ({e}); delete changed nothing (run `tangle verify`)",
            unreadable.len()
        )));
    }
    let snaps: Vec<(String, crate::content::Snapshot)> = (snaps.into_iter())
        .filter(|(id, _)| !survey.deleted.snapshots.contains(id))
        .collect();
    let remove: HashSet<&str> = opts.remove.iter().map(String::as_str).collect();
    let kept: Vec<&(String, crate::content::Snapshot)> = snaps
        .iter()
        .filter(|(id, _)| !remove.contains(id.as_str()))
        .collect();
    let mut report = DeleteReport {
        dry_run: opts.dry_run,
        snapshots_removed: (snaps.iter())
            .filter(|(id, _)| remove.contains(id.as_str()))
            .map(|(id, _)| id.clone())
            .collect(),
        snapshots_kept: kept.len(),
        ..Default::default()
    };

    // Blobs the kept snapshots need, and how much of each extent they use.
    let live_blobs = live_blobs(repo, kept.iter().map(|(_, s)| s.tree))?;
    let mut live_bytes: HashMap<ExtentName, u64> = HashMap::new();
    for (_, e, loc) in (repo.index().iter()?).filter(|(id, _, _)| live_blobs.contains(id)) {
        *live_bytes.entry(e).or_default() += loc.length as u64;
    }
    // Certificates oldest first. An extent that holds no live blob goes, and so does one
    // no index knows: an interrupted run's (a backup's or a delete's repack), which
    // nothing committed depends on: backups build only on indexed extents, and none runs
    // now (the exclusive lock).
    let removed: Vec<Arc<Certificate>> = (survey.certs.iter())
        .filter(|c| !live_bytes.contains_key(&c.name()))
        .cloned()
        .collect();
    let mut removed_names: HashSet<ExtentName> = removed.iter().map(|c| c.name()).collect();
    let staying: Vec<Arc<Certificate>> = (survey.certs.iter())
        .filter(|c| !removed_names.contains(&c.name()))
        .cloned()
        .collect();
    // Partly used and small extents are copied into new ones and then removed too; not
    // a writer's: its blobs are under its run's key and named with its id key, which an
    // owner's extent and index segment cannot say yet (it stays whole while it holds a
    // live blob).
    let repackable: Vec<Arc<Certificate>> = (staying.iter())
        .filter(|c| !repo.index().written_by_writer(&c.name()))
        .cloned()
        .collect();
    let repack = repack::choose(
        &repackable,
        &live_bytes,
        opts.max_unused,
        repo.config.extent_size as u64,
    );
    report.extents_repacked = repack.len();
    report.bytes_repacked = (repack.iter())
        .map(|c| live_bytes.get(&c.name()).copied().unwrap_or(0))
        .sum();
    removed_names.extend(repack.iter().map(|c| c.name()));
    let live: Vec<Arc<Certificate>> = (staying.iter())
        .filter(|c| !removed_names.contains(&c.name()))
        .cloned()
        .collect();
    // Codewords with a pointer into what this delete removes (or an earlier one did).
    let gone = |e: &ExtentName| removed_names.contains(e) || survey.deleted.extents.contains_key(e);
    let to_reencode: Vec<Arc<Certificate>> = (live.iter())
        .filter(|c| c.pointers.iter().any(|p| gone(&p.extent)))
        .cloned()
        .collect();
    report.extents_removed = removed.len() + repack.len();
    report.extents_reencoded = to_reencode.len();

    // What the removal frees per remote: every copy of the named objects.
    let mut record = Deletion {
        repo_id: repo.config.id,
        time: chrono::Utc::now().timestamp(),
        snapshots: report.snapshots_removed.clone(),
        extents: (removed.iter().chain(&repack))
            .map(|c| DeletedExtent {
                name: c.name(),
                writer: c.writer,
                seq: c.seq,
                prev: c.prev,
            })
            .collect(),
        ..Default::default()
    };
    let old_segments: Vec<String> = (repo.list_union("index")?.into_iter())
        .filter_map(|p| p.strip_prefix("index/").map(str::to_string))
        .filter(|id| !replaced.contains(id))
        .collect();
    // With nothing removed, a delete still consolidates a history of more segments than
    // the consolidated index takes (one per `segment_blobs` blobs).
    let consolidated = repo.index().len().div_ceil(segment_blobs()).max(1);
    let nothing_to_do = record.snapshots.is_empty()
        && record.extents.is_empty()
        && old_segments.len() <= consolidated;
    if !nothing_to_do {
        record.index = old_segments.clone();
        record.heads = redundant_heads(repo, &survey, &record);
    }
    let mut named = survey.deleted.clone();
    named.add(&record);
    let mut freed: BTreeMap<usize, u64> = BTreeMap::new();
    for (r, l) in survey.listings.iter().enumerate() {
        if let Ok(l) = l {
            for (path, size) in l {
                if named.names(path) {
                    let freed = freed.entry(r).or_default();
                    *freed = freed.saturating_add(*size);
                }
            }
        }
    }
    report.freed = (freed.iter())
        .map(|(&r, &bytes)| RemoteBytes {
            remote: survey.urls[r].clone(),
            bytes,
        })
        .collect();
    report.bytes_freed = crate::util::saturating_sum(freed.values().copied());
    // Leftovers of interrupted runs no record names: judged only with every remote
    // there (one away may hold the certificate that accounts for a shard). An extent
    // this delete removes keeps nothing it names (an interrupted run's certified extent
    // does not keep the shards of the uncertified one before it).
    let mut strays = leftovers::Found::default();
    if down.is_empty() {
        strays.objects = leftovers::stray_shards(repo, &survey, &named, &removed_names);
        strays.objects.extend(leftovers::temp_files(repo, &survey));
    }
    report.leftovers_reclaimed = strays.objects.len();
    report.leftover_bytes_reclaimed = strays.bytes();
    report.leftovers_by_remote = strays.by_remote(&survey);
    if opts.dry_run {
        // Estimates: repacking reads the live blobs and writes them with parity;
        // re-encoding reads a codeword's data and pointer shards and writes its parity.
        let coding = repo.config.coding;
        let (s, p) = (coding.data_shards as u64, coding.parity_shards as u64);
        report.repack_bytes_read = report.bytes_repacked;
        report.repack_bytes_written = report.bytes_repacked * (s + p) / s.max(1);
        report.reencode_bytes_read = (to_reencode.iter())
            .map(|c| c.shard_size as u64 * (c.data_shards as u64 + c.pointers.len() as u64))
            .sum();
        report.reencode_bytes_written = (to_reencode.iter())
            .map(|c| c.shard_size as u64 * c.parity_shards as u64)
            .sum();
        report.bytes_read = report.repack_bytes_read + report.reencode_bytes_read;
        report.bytes_written = report.repack_bytes_written + report.reencode_bytes_written;
        return Ok(report);
    }
    let signer = repo.signer();
    let reencode_bytes: u64 = (to_reencode.iter())
        .map(|c| c.shard_size as u64 * c.shards.len() as u64)
        .sum();
    progress.set_totals(
        (repack.len() + to_reencode.len()) as u64,
        report.bytes_repacked + reencode_bytes,
    );

    // 3a. Repack into new extents (leftovers of an interrupted run until the head below).
    let repacked = if repack.is_empty() {
        repack::Repacked::default()
    } else {
        repack::write(repo, &repack, &live_blobs, &removed_names, progress)?
    };
    // Never name a new extent like one about to be removed (re-sealing makes this
    // impossible; removing it would lose the repacked blobs).
    if let Some(e) = (repacked.extents.iter()).find(|e| removed_names.contains(&e.extent)) {
        return Err(Error::fatal(format!(
            "internal: repacked extent {} has the name of an extent being removed; delete stopped before removing anything",
            e.extent.short()
        )));
    }
    report.repack_bytes_read = repacked.bytes_read;
    report.repack_bytes_written = repacked.bytes_written;

    // 3b. Re-encode, oldest first.
    let mut catalog = reencode::Catalog::new(live.clone());
    let seed = u64::from_le_bytes(crate::crypto::random_bytes()?);
    for (k, cert) in to_reencode.iter().enumerate() {
        let (_, moved) = reencode::reencode(
            repo,
            &signer,
            cert,
            &mut catalog,
            seed ^ k as u64,
            opts.allow_degraded,
        )?;
        report.reencode_bytes_read += moved.read;
        report.reencode_bytes_written += moved.written;
        Progress::add(&progress.files_done, 1);
        Progress::add(
            &progress.bytes_done,
            cert.shard_size as u64 * cert.shards.len() as u64,
        );
    }

    report.bytes_read = report.repack_bytes_read + report.reencode_bytes_read;
    report.bytes_written = report.repack_bytes_written + report.reencode_bytes_written;

    if !nothing_to_do {
        // 4. The index of what stays, in bounded segments, committed by heads of this run
        // (the last also commits the repacked extents' chain).
        let mut segment = consolidated_index(repo, &removed_names)?;
        segment.extents.extend(repacked.extents);
        let writer = match repacked.last {
            Some(_) => repacked.writer,
            None => crate::crypto::random_bytes()?,
        };
        // In as many segments as it takes to keep each within what readers accept.
        let mut heads = RunHeads::new(writer, 0);
        heads.commit(repo, segment, Tip::Last(repacked.last), None)?;
        report.bytes_written += heads.segment_bytes * repo.remotes().len() as u64;
        report.index_segments_replaced = record.index.len();
        report.heads_replaced = record.heads.len();

        // 5. The record: from here on, what it names is deleted, not lost.
        repo.write_deletion_record(&record)?;
    }

    // 6. Remove every named object that a reachable remote still holds.
    for (r, l) in survey.listings.iter().enumerate() {
        let Ok(l) = l else { continue };
        for path in l.keys().filter(|p| named.names(p)) {
            repo.remove_deleted_object(r, path)?;
            if survey.deleted.names(path) {
                report.leftovers_removed += 1;
            }
        }
    }
    // 7. Leftovers of interrupted runs (the exclusive lock is held: no run is writing).
    leftovers::remove(repo, &strays.objects)?;
    Ok(report)
}

/// Heads the delete's own head makes redundant: each commits an index segment this
/// delete replaces, and its chain (walked through deleted extents, whose records keep
/// their `prev`) reaches no live extent that a newer kept head's chain does not. Newest
/// first, so the tip of every chain is the head that stays.
fn redundant_heads(
    repo: &Repository<Indexed>,
    survey: &Survey,
    record: &Deletion,
) -> Vec<([u8; 16], u64)> {
    let mut heads: Vec<Head> = (survey.meta.range("heads/".to_string()..))
        .take_while(|(p, _)| p.starts_with("heads/"))
        .filter_map(|(p, m)| Head::from_object(m.good.as_ref()?, repo.signers(), p).ok())
        .collect();
    heads.sort_by_key(|h| std::cmp::Reverse((h.time, h.writer, h.seq)));
    let replaced: HashSet<&String> = survey.deleted.index.iter().chain(&record.index).collect();
    let mut gone: HashMap<ExtentName, Option<ExtentName>> = (survey.deleted.extents.values())
        .map(|d| (d.name, d.prev))
        .collect();
    gone.extend(record.extents.iter().map(|d| (d.name, d.prev)));
    let prev_of = |e: &ExtentName| match survey.cert_pos.get(e) {
        Some(&i) => survey.certs[i].prev,
        None => gone.get(e).copied().flatten(),
    };
    let mut reached: HashSet<ExtentName> = HashSet::new();
    let mut out = Vec::new();
    for h in heads {
        let commits_live_index = h.index.as_ref().is_some_and(|i| !replaced.contains(i));
        // Needed if its chain reaches a live extent no newer kept head reaches.
        let mut needed = false;
        let mut next = h.extent.map(|(e, _)| e);
        while let Some(x) = next {
            if !reached.insert(x) {
                break;
            }
            needed |= !gone.contains_key(&x);
            next = prev_of(&x);
        }
        if !needed && !commits_live_index {
            out.push((h.writer, h.seq));
        }
    }
    out
}

/// Every tree and content blob the snapshots with these root trees reference.
fn live_blobs(
    repo: &Repository<Indexed>,
    roots: impl Iterator<Item = BlobId>,
) -> Result<HashSet<BlobId>> {
    let live = crate::ops::live::live_blobs(repo, roots).map_err(|e| {
        e.context("a kept snapshot cannot be read completely; delete changes nothing (run `tangle verify`)")
    })?;
    // A kept blob the index does not place (its segment unreadable) would leave its
    // extent counted as holding nothing live, and removed.
    if let Some(id) = live.iter().find(|id| repo.index().get(id).is_none()) {
        return Err(Error::fatal(format!(
            "blob {} of a kept snapshot is in no readable index segment; delete changed \
             nothing (run `tangle verify`)",
            hex::encode(&id[..8])
        )));
    }
    Ok(live)
}

/// The loaded index without the removed extents, as one segment.
fn consolidated_index(
    repo: &Repository<Indexed>,
    removed: &HashSet<ExtentName>,
) -> Result<IndexSegment> {
    let mut by_extent: HashMap<ExtentName, Vec<IndexEntry>> = HashMap::new();
    for (id, extent, loc) in repo.index().iter()? {
        if removed.contains(&extent) {
            continue;
        }
        by_extent.entry(extent).or_default().push(IndexEntry {
            id,
            kind: loc.kind,
            offset: loc.offset,
            length: loc.length,
            raw_len: loc.raw_len,
        });
    }
    let mut extents: Vec<ExtentBlobs> = by_extent
        .into_iter()
        .map(|(extent, mut blobs)| {
            blobs.sort_by_key(|b| b.offset);
            ExtentBlobs { extent, blobs }
        })
        .collect();
    extents.sort_by_key(|e| e.extent);
    // A writer's extents stay under its run's key: listed apart, with the key as the
    // writer sealed it (FORMAT.md §5.6, version 2).
    let mut segment = IndexSegment::default();
    let mut writers: BTreeMap<[u8; SEALED_KEY_LEN], WriterExtents> = BTreeMap::new();
    for e in extents {
        match repo.index().writer_run_of(&e.extent) {
            None => segment.extents.push(e),
            Some(run) => (writers.entry(run.sealed))
                .or_insert_with(|| WriterExtents {
                    writer: run.writer,
                    sealed_key: run.sealed.to_vec(),
                    extents: Vec::new(),
                })
                .extents
                .push(e),
        }
    }
    segment.writers = writers.into_values().collect();
    Ok(segment)
}
