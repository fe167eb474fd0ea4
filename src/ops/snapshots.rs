//! `tangle snapshots`: the snapshots, as the user sees them, filtered (`--host`, `--tag`,
//! `--path`), grouped (`--group-by`) and cut to the newest of each group (`--latest`).

use serde::Serialize;

use crate::error::Result;
use crate::ops::listing::SnapshotInfo;
use crate::ops::select::{self, GroupBy, GroupKey, SnapshotFilter};
use crate::repo::{HasKey, Repository};

/// One group of `snapshots --group-by` (restic's shape): what its snapshots share, and
/// them, oldest first.
#[derive(Serialize, Debug, Clone)]
pub struct SnapshotGroup {
    /// `host`, `paths` (sorted), `tags` (sorted): null for a field not grouped by.
    pub group_key: GroupKey,
    pub snapshots: Vec<SnapshotInfo>,
}

/// The snapshots `specs` name (ids, prefixes, `latest`: the newest that `filter`
/// selects), or with none every snapshot `filter` selects, in groups by `by` (in the
/// order of their keys; one group with `GroupBy::NONE`), each oldest first and with
/// `latest` only its newest `latest`. Warns (through the repository's warning handler)
/// when the remotes serve an older state than this client last saw.
pub fn groups<S: HasKey>(
    repo: &Repository<S>,
    specs: &[String],
    filter: &SnapshotFilter,
    by: GroupBy,
    latest: Option<usize>,
) -> Result<Vec<SnapshotGroup>> {
    let stale = repo.older_than_seen()?;
    if let Some(why) = &stale {
        repo.warn(why);
    }
    let chosen = select::find_all(repo, specs, filter)?;
    let labels: std::collections::HashMap<String, String> =
        match chosen.iter().any(|s| s.1.writer.is_some()) {
            true => (repo.writers()?.into_iter())
                .map(|w| (hex::encode(w.grant.writer), w.grant.label))
                .collect(),
            false => Default::default(),
        };
    let mut out: Vec<SnapshotGroup> = select::group(chosen, by, latest)
        .into_iter()
        .map(|(group_key, snaps)| SnapshotGroup {
            group_key,
            snapshots: (snaps.iter())
                .map(|(id, s)| {
                    let info = SnapshotInfo::new(id, s);
                    SnapshotInfo {
                        repository_stale: stale.is_some(),
                        writer_label: (info.writer.as_ref()).and_then(|w| labels.get(w).cloned()),
                        ..info
                    }
                })
                .collect(),
        })
        .collect();
    // Not grouped: one (possibly empty) group, so that callers need not tell.
    if out.is_empty() && by == GroupBy::NONE {
        out.push(SnapshotGroup {
            group_key: GroupKey::new("", &[], &[], by),
            snapshots: Vec::new(),
        });
    }
    Ok(out)
}
