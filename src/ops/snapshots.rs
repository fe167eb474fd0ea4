//! `tangle snapshots`: every snapshot, as the user sees it.

use crate::error::Result;
use crate::ops::listing::SnapshotInfo;
use crate::repo::{HasKey, Repository};

/// Every snapshot, oldest first; warns (through the repository's warning handler) when
/// the remotes serve an older state than this client last saw.
pub fn list<S: HasKey>(repo: &Repository<S>) -> Result<Vec<SnapshotInfo>> {
    let stale = repo.older_than_seen()?;
    if let Some(why) = &stale {
        repo.warn(why);
    }
    Ok(repo
        .snapshots()?
        .iter()
        .map(|(id, s)| SnapshotInfo {
            repository_stale: stale.is_some(),
            ..SnapshotInfo::new(id, s)
        })
        .collect())
}
