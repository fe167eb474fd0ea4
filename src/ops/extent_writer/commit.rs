//! Committing what a run wrote: the blob lists of its extents as index segments, each
//! named by a head of the run's writer (FORMAT.md §5.6, *Heads*).
//!
//! A segment holds at most [`segment_blobs`] blobs, a few tens of MiB: readers refuse an
//! index object over 256 MiB (`metadata_limit`), about 6.5 million blobs, so a run with
//! more (a first backup of millions of files, or `delete`'s consolidated index of a large
//! repository) would write a segment no one could load, and its blobs would be in no
//! index. A run of more blobs writes several segments, each committed by a head of its
//! own, numbered one after the other on the run's writer: the last head is the run's, and
//! names its snapshot.

use bytes::Bytes;

use crate::content::IndexSegment;
use crate::content::index::ExtentBlobs;
use crate::crypto::envelope::{self, ObjectKind};
use crate::error::Result;
use crate::extent::{ExtentName, Head};
use crate::repo::{Appends, Repository};

/// Blobs an index segment holds at most: about 44 MiB sealed, a sixth of what a reader
/// accepts (`TANGLE_TEST_SEGMENT_BLOBS` in builds with the `testing` feature, for tests).
pub(crate) const SEGMENT_BLOBS: usize = 1 << 20;

pub(crate) fn segment_blobs() -> usize {
    #[cfg(feature = "testing")]
    if let Some(n) = std::env::var("TANGLE_TEST_SEGMENT_BLOBS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
    {
        return n;
    }
    SEGMENT_BLOBS
}

/// The heads a run writes: one writer's, numbered from `next_seq`.
pub(crate) struct RunHeads {
    pub(crate) writer: [u8; 16],
    pub(crate) next_seq: u64,
    /// Bytes of the index segments written (one copy).
    pub(crate) segment_bytes: u64,
}

impl RunHeads {
    pub(crate) fn new(writer: [u8; 16], first_seq: u64) -> RunHeads {
        RunHeads {
            writer,
            next_seq: first_seq,
            segment_bytes: 0,
        }
    }

    /// Commit `segment` and name `snapshot`: the segment (split into pieces of at most
    /// [`segment_blobs`] blobs, an extent never split) is written piece by piece, each
    /// followed by a head that commits it and the extent `tip` says (every extent of the
    /// segment is stored before this is called); the last head names `snapshot`. An
    /// empty segment writes no piece, only the head (when there is a snapshot to name).
    /// Returns the heads written, oldest first.
    pub(crate) fn commit<S: Appends>(
        &mut self,
        repo: &Repository<S>,
        segment: IndexSegment,
        tip: Tip,
        snapshot: Option<String>,
    ) -> Result<Vec<Head>> {
        let pieces = segment.split(segment_blobs());
        if pieces.is_empty() && snapshot.is_none() {
            return Ok(Vec::new());
        }
        let tips = tip.per_piece(&pieces);
        let n = pieces.len().max(1);
        let mut pieces = pieces.into_iter();
        let mut heads = Vec::with_capacity(n);
        for (k, extent) in tips.into_iter().enumerate().take(n) {
            let piece = pieces.next();
            let index = match &piece {
                Some(p) => {
                    let (id, bytes) = write_segment(repo, p)?;
                    self.segment_bytes += bytes;
                    Some(id)
                }
                None => None,
            };
            let head = Head {
                repo_id: repo.config.id,
                writer: self.writer,
                seq: self.next_seq,
                extent,
                snapshot: if k + 1 == n { snapshot.clone() } else { None },
                index,
                skipped: repo.health().skipped(),
                time: chrono::Utc::now().timestamp(),
            };
            let signer = repo.run_signer();
            repo.write_replicated(&head.path(), Bytes::from(head.to_object(&signer)?))
                .map_err(|e| e.context("writing the head"))?;
            self.next_seq = self.next_seq.saturating_add(1);
            // A writer keeps what it committed, to dedup against next time.
            if let (Some(w), Some(id), Some(p)) = (signer.writer_id(), &head.index, &piece) {
                repo.cache_writer_segment(w, id, p);
            }
            heads.push(head);
        }
        Ok(heads)
    }

    /// [`commit`](Self::commit) of the blob lists of extents this run stored, in the
    /// order it sealed them, `last` the last of them (or of the run, if none).
    pub(crate) fn commit_extents<S: Appends>(
        &mut self,
        repo: &Repository<S>,
        extents: Vec<ExtentBlobs>,
        last: Option<(ExtentName, u64)>,
        snapshot: Option<String>,
    ) -> Result<Vec<Head>> {
        let segment = IndexSegment {
            extents,
            writers: Vec::new(),
        };
        self.commit(repo, segment, Tip::Chain(last), snapshot)
    }
}

/// Which extent each head of a commit names (`Head::extent`: it commits that extent and
/// its ancestors).
pub(crate) enum Tip {
    /// The segment lists the run's extents in chain order (consecutive positions) ending
    /// at this one: each head names the last extent of its own piece, so that no head
    /// commits an extent whose segment is not written yet (a run killed between two
    /// heads leaves no committed extent that no index lists).
    Chain(Option<(ExtentName, u64)>),
    /// The segment is not in chain order (delete's consolidated index): the last head
    /// names this extent, the others none.
    Last(Option<(ExtentName, u64)>),
}

impl Tip {
    /// The extent each of the heads of `pieces` names (one head when there are none).
    fn per_piece(self, pieces: &[IndexSegment]) -> Vec<Option<(ExtentName, u64)>> {
        let n = pieces.len().max(1);
        let (tip, chain) = match self {
            Tip::Chain(t) => (t, true),
            Tip::Last(t) => (t, false),
        };
        let mut out = vec![None; n];
        out[n - 1] = tip;
        let Some((name, seq)) = tip.filter(|_| chain) else {
            return out;
        };
        // Positions count back from the tip, which must be the last extent listed.
        let listed: Vec<ExtentName> = pieces
            .iter()
            .flat_map(|p| p.extents.iter().map(|e| e.extent))
            .collect();
        if listed.last() != Some(&name) {
            return vec![tip; n];
        }
        let mut end = 0usize;
        for (k, piece) in pieces.iter().enumerate().take(n - 1) {
            end += piece.extents.len();
            let back = (listed.len() - end) as u64;
            out[k] = seq
                .checked_sub(back)
                .and_then(|s| Some((*listed.get(end.checked_sub(1)?)?, s)));
        }
        out
    }
}

/// A snapshot or index payload as stored: a writer's run key sealed to the owner, then
/// the content sealed under it; the owner's content as it is.
pub(crate) fn sealed_payload<S: Appends>(repo: &Repository<S>, sealed: Vec<u8>) -> Vec<u8> {
    match repo.sealed_run_key() {
        Some(key) => [&key[..], &sealed].concat(),
        None => sealed,
    }
}

/// Seal and write one index segment (as the run's snapshot is sealed); its content id
/// and size.
fn write_segment<S: Appends>(
    repo: &Repository<S>,
    segment: &IndexSegment,
) -> Result<(String, u64)> {
    let payload = sealed_payload(repo, segment.encrypt(repo.content_keys())?);
    let object = Bytes::from(envelope::seal(
        ObjectKind::Index,
        &payload,
        &repo.run_signer(),
    ));
    let id = envelope::content_id(&object);
    let bytes = object.len() as u64;
    repo.write_replicated(&format!("index/{id}"), object)
        .map_err(|e| e.context("writing the index"))?;
    Ok((id, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(extents: &[u8]) -> IndexSegment {
        IndexSegment {
            extents: (extents.iter())
                .map(|&e| ExtentBlobs {
                    extent: ExtentName([e; 32]),
                    blobs: Vec::new(),
                })
                .collect(),
            writers: Vec::new(),
        }
    }

    #[test]
    fn each_head_of_a_split_chain_names_the_last_extent_of_its_piece() {
        let name = |e: u8| ExtentName([e; 32]);
        // Extents 1..=5 at chain positions 10..=14, in three pieces.
        let pieces = [piece(&[1, 2]), piece(&[3]), piece(&[4, 5])];
        let tips = Tip::Chain(Some((name(5), 14))).per_piece(&pieces);
        assert_eq!(
            tips,
            vec![
                Some((name(2), 11)),
                Some((name(3), 12)),
                Some((name(5), 14))
            ]
        );
        // Not in chain order (delete's index): only the last head names the tip.
        let tips = Tip::Last(Some((name(9), 3))).per_piece(&pieces);
        assert_eq!(tips, vec![None, None, Some((name(9), 3))]);
        // A tip that is not the last extent listed: every head names it, as before.
        let tips = Tip::Chain(Some((name(9), 3))).per_piece(&pieces);
        assert_eq!(tips, vec![Some((name(9), 3)); 3]);
        // No piece (an unchanged backup): one head, naming the run's last extent.
        assert_eq!(
            Tip::Chain(Some((name(9), 3))).per_piece(&[]),
            vec![Some((name(9), 3))]
        );
        assert_eq!(Tip::Chain(None).per_piece(&pieces), vec![None, None, None]);
    }
}
