//! Writers' heads, and whether the remotes serve an older state than this client saw
//! (a rollback).

use std::collections::{BTreeMap, HashMap, HashSet};

use super::{Repository, State};
use crate::error::Result;
use crate::extent::{Certificate, ExtentName, Head};

impl<S: State> Repository<S> {
    /// Every authentic head of every writer.
    pub(crate) fn heads(&self) -> Result<Vec<Head>> {
        let signers = self.signers();
        let paths = self.list_union("heads")?;
        let heads = self.read_objects(&paths, |path, b| Head::from_object(b, signers, path));
        Ok((heads.into_iter().filter_map(Result::ok))
            .filter(|h| h.repo_id == self.config.id)
            .collect())
    }

    /// Whether the remotes serve an older state than this client last saw: a message
    /// naming the first writer whose newest authentic head on any remote is older than
    /// the head this client remembers (its own last backup, or what its last verify saw).
    /// A rollback of every remote (a restored disk image, a provider's snapshot) shows
    /// only this way; verify reports it as a trust violation, backup refuses to build on
    /// it, and snapshots and restore warn.
    pub(crate) fn older_than_seen(&self) -> Result<Option<String>> {
        let mut known: Vec<(String, u64)> = self.known_heads().into_iter().collect();
        known.sort();
        let deleted = self.deletions()?;
        for (writer, seen) in known {
            let mut id = [0u8; 16];
            if hex::decode_to_slice(&writer, &mut id).is_err() {
                continue;
            }
            // Consolidated away by a delete: gone on purpose, not rolled back (and no
            // longer worth remembering).
            if deleted.heads.contains(&crate::extent::head_path(&id, seen)) {
                self.forget_heads(std::slice::from_ref(&writer));
                continue;
            }
            let have = self.latest_head(&id)?.map(|h| h.seq);
            if have.is_none_or(|h| h < seen) {
                return Ok(Some(format!(
                    "the remotes serve an older state than this client last saw (writer {}: \
                     head {seen} seen, the remotes have {}); a remote may have been rolled \
                     back: run `tangle verify`",
                    &writer[..8.min(writer.len())],
                    have.map_or("none".into(), |h| h.to_string())
                )));
            }
        }
        Ok(None)
    }

    /// The newest head of `writer`, if any.
    pub(crate) fn latest_head(&self, writer: &[u8; 16]) -> Result<Option<Head>> {
        let dir = format!("heads/{}", hex::encode(writer));
        let signers = self.signers();
        for path in self.list_union(&dir)?.into_iter().rev() {
            match self.read_object(&path, |b| Head::from_object(b, signers, &path)) {
                Ok(h) if h.repo_id == self.config.id => return Ok(Some(h)),
                Ok(_) => continue,
                Err(_) => continue,
            }
        }
        Ok(None)
    }

    /// The extents the newest authentic head of each writer commits to, with their
    /// ancestors (through `certs`, and through the deletion records past extents a delete
    /// removed): what verify counts as committed, found without the index. A writer's
    /// backup points only into these, as the owner's points only into what its index
    /// lists: an extent of an interrupted run may be pruned at any time. One read per
    /// writer chain (its newest head), not one per run.
    pub(crate) fn committed_extents(
        &self,
        certs: &[std::sync::Arc<Certificate>],
    ) -> Result<HashSet<ExtentName>> {
        let deleted = self.deletions()?;
        let by_name: HashMap<ExtentName, &Certificate> =
            certs.iter().map(|c| (c.name(), &**c)).collect();
        let mut chains: BTreeMap<&str, Vec<&String>> = BTreeMap::new();
        let paths = self.list_union("heads")?;
        for path in &paths {
            if let Some((dir, _)) = path.rsplit_once('/') {
                chains.entry(dir).or_default().push(path);
            }
        }
        let signers = self.signers();
        let mut reached = HashSet::new();
        for heads in chains.values() {
            // Head numbers are zero-padded: the last listed is the newest.
            let newest = heads.iter().rev().find_map(|path| {
                self.read_object(path, |b| Head::from_object(b, signers, path))
                    .ok()
                    .filter(|h| h.repo_id == self.config.id)
            });
            let mut next = newest.and_then(|h| h.extent).map(|(e, _)| e);
            while let Some(e) = next {
                if !reached.insert(e) {
                    break;
                }
                next = match by_name.get(&e) {
                    Some(c) => c.prev,
                    None => deleted.extents.get(&e).and_then(|d| d.prev),
                };
            }
        }
        Ok(reached)
    }
}
