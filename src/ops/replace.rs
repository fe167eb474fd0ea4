//! Replacing snapshots by changed copies (`tag`; `rewrite --forget` too): the new
//! snapshot objects are written first, then one deletion record naming the old ones,
//! then the old objects are removed from every remote. Shared by the commands that
//! change what a snapshot says without changing what it stores.
//!
//! Nothing but snapshot objects goes: the new snapshots use the trees and blobs of the
//! old ones (or, for `rewrite`, new trees committed before), so no extent, index segment
//! or head loses a user and nothing needs re-encoding; the record names only snapshots
//! (FORMAT.md §5.7), as `key remove`'s names only a key. The caller holds the exclusive
//! lock (DESIGN.md §14a). A crash leaves the repository verifiable: before the record,
//! both the old and the new snapshot are listed (run the command again, or delete one);
//! after it, the old snapshot is deleted, and copies a remote still holds are
//! reclaimable leftovers that the next `delete` or `repair` removes.

use bytes::Bytes;

use crate::content::Snapshot;
use crate::crypto::envelope::{self, ObjectKind};
use crate::error::{Error, Result};
use crate::extent::Deletion;
use crate::repo::{HasKey, Repository};

/// The owner's sealed snapshot object and its id (the content id, as backup names it).
fn seal_snapshot<S: HasKey>(repo: &Repository<S>, s: &Snapshot) -> Result<(String, Bytes)> {
    let object = envelope::seal(
        ObjectKind::Snapshot,
        &s.encrypt(repo.key())?,
        &repo.signer(),
    );
    Ok((envelope::content_id(&object), Bytes::from(object)))
}

/// Refuse to replace a snapshot a writer key signed (DESIGN.md §17): its tree and blobs
/// are named in that writer's id space and sealed under its run key, and retention
/// groups it by its signer; a copy signed by the owner would belong to the owner's
/// group and could become an owner backup's parent, whose unchanged files would then be
/// named in the writer's space.
pub(crate) fn refuse_writers<'a>(
    snapshots: impl IntoIterator<Item = (&'a String, &'a Snapshot)>,
    command: &str,
) -> Result<()> {
    let theirs: Vec<String> = (snapshots.into_iter())
        .filter_map(|(id, s)| {
            let w = s.writer.as_ref()?;
            Some(format!(
                "{} (writer {})",
                &id[..8.min(id.len())],
                hex::encode(w)
            ))
        })
        .collect();
    if theirs.is_empty() {
        return Ok(());
    }
    Err(Error::fatal(format!(
        "{command} changes only the owner's snapshots, and {} written with a writer key: {}; \
         {command} changed nothing (leave them out by id, or with --host/--tag/--path)",
        if theirs.len() == 1 {
            "this one was"
        } else {
            "these were"
        },
        theirs.join(", ")
    )))
}

/// Write each new snapshot (`(old id, new snapshot)`), then, when `forget_old`, the
/// deletion record naming the old ones and the removal of their copies. Returns the new
/// ids, in the order given. A remote that cannot remove its copy is warned about (the
/// record already names it deleted: readers skip it, the next `delete` or `repair`
/// removes it).
pub(crate) fn replace<S: HasKey>(
    repo: &Repository<S>,
    changes: &[(String, Snapshot)],
    forget_old: bool,
) -> Result<Vec<String>> {
    let mut new_ids = Vec::with_capacity(changes.len());
    for (old, s) in changes {
        let (id, object) = seal_snapshot(repo, s)?;
        repo.write_replicated(&format!("snapshots/{id}"), object)
            .map_err(|e| {
                e.context(format!(
                    "writing the new snapshot of {}",
                    &old[..8.min(old.len())]
                ))
            })?;
        new_ids.push(id);
    }
    if !forget_old || changes.is_empty() {
        return Ok(new_ids);
    }
    let record = Deletion {
        repo_id: repo.config.id,
        time: chrono::Utc::now().timestamp(),
        snapshots: changes.iter().map(|(old, _)| old.clone()).collect(),
        ..Default::default()
    };
    repo.write_deletion_record(&record)?;
    for (old, _) in changes {
        let path = format!("snapshots/{old}");
        for r in 0..repo.remotes().len() {
            if let Err(e) = repo.remove_deleted_object(r, &path) {
                repo.warn(&format!(
                    "{e} (it is recorded as deleted; the next delete or repair removes it)"
                ));
            }
        }
    }
    Ok(new_ids)
}
