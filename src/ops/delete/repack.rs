//! Repacking: the live blobs of partly used extents, and of small ones, are copied into
//! new extents (sealed like a backup's: chained, entangled, signed), so the old extents
//! can be removed whole. Each blob is re-sealed under a fresh nonce on the way: a new
//! extent made of an old one's blocks would otherwise get the old one's name. Partly used extents are chosen as restic's prune chooses packs:
//! most unused first, until what stays unused is within `--max-unused`. Small extents
//! (every backup's last one is) are merged whenever there are two or more, so history
//! does not leave one certificate per backup behind.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::content::BlobId;
use crate::error::{Error, Result};
use crate::extent::{Certificate, ExtentName};
use crate::ops::Progress;
use crate::ops::extent_writer::{Appender, StoredBlob};
use crate::repo::{Indexed, Repository};

/// How much unused space may stay in partly used extents (restic's `--max-unused`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MaxUnused {
    /// A share of the live data, in percent.
    Percent(f64),
    Bytes(u64),
    Unlimited,
}

impl Default for MaxUnused {
    /// restic's default.
    fn default() -> Self {
        MaxUnused::Percent(5.0)
    }
}

impl MaxUnused {
    /// `5%`, `100M` (k, M, G, T: powers of 1024, as restic), `0`, or `unlimited`.
    pub fn parse(s: &str) -> std::result::Result<MaxUnused, String> {
        let s = s.trim();
        if s == "unlimited" {
            return Ok(MaxUnused::Unlimited);
        }
        if let Some(p) = s.strip_suffix('%') {
            return match p.trim().parse::<f64>() {
                Ok(v) if (0.0..=100.0).contains(&v) => Ok(MaxUnused::Percent(v)),
                _ => Err(format!("{s:?} is not a percentage from 0% to 100%")),
            };
        }
        crate::util::parse_size(s)
            .map(MaxUnused::Bytes)
            .ok_or_else(|| {
                format!("{s:?} is not a size (e.g. 100M), a percentage (5%) or `unlimited`")
            })
    }
}

/// An extent below this share of the extent size is small (1 MiB of the default 16:
/// a tiny backup's tail, not an increment of real size, which would cost more to
/// move again at every delete than it saves).
const SMALL_DIVISOR: u64 = 16;

/// The extents to repack, oldest first. `candidates` stay (they hold live blobs),
/// `live_bytes` is what of each the kept snapshots use.
pub(super) fn choose(
    candidates: &[Arc<Certificate>],
    live_bytes: &HashMap<ExtentName, u64>,
    max_unused: MaxUnused,
    extent_size: u64,
) -> Vec<Arc<Certificate>> {
    let unused = |c: &Certificate| {
        c.size
            .saturating_sub(live_bytes.get(&c.name()).copied().unwrap_or(0))
    };
    let live_total: u64 = candidates.iter().map(|c| c.size - unused(c)).sum();
    let mut unused_total: u64 = candidates.iter().map(|c| unused(c)).sum();
    let allowed = match max_unused {
        MaxUnused::Percent(p) => (live_total as f64 * p / 100.0) as u64,
        MaxUnused::Bytes(b) => b,
        MaxUnused::Unlimited => u64::MAX,
    };
    let mut chosen: HashSet<ExtentName> = HashSet::new();
    let mut by_share: Vec<&Arc<Certificate>> =
        candidates.iter().filter(|c| unused(c) > 0).collect();
    by_share.sort_by(|a, b| {
        let share = |c: &Certificate| unused(c) as f64 / c.size.max(1) as f64;
        share(b).total_cmp(&share(a))
    });
    for c in by_share {
        if unused_total <= allowed {
            break;
        }
        unused_total -= unused(c);
        chosen.insert(c.name());
    }
    let small: Vec<ExtentName> = (candidates.iter())
        .filter(|c| c.size < extent_size / SMALL_DIVISOR && !chosen.contains(&c.name()))
        .map(|c| c.name())
        .collect();
    if small.len() >= 2 {
        chosen.extend(small);
    }
    (candidates.iter())
        .filter(|c| chosen.contains(&c.name()))
        .cloned()
        .collect()
}

/// What a repack wrote.
#[derive(Default)]
pub(super) struct Repacked {
    /// The new extents' blob lists, for the consolidated index.
    pub(crate) extents: Vec<crate::content::index::ExtentBlobs>,
    /// The writer of the new extents and its last one, for the delete's head.
    pub(crate) writer: [u8; 16],
    pub(crate) last: Option<(ExtentName, u64)>,
    pub(crate) bytes_read: u64,
    pub(crate) bytes_written: u64,
}

/// Copy the live blobs of `extents` into new extents of a fresh writer. Pointers never
/// go into `exclude` (what this delete removes, repacked extents included).
pub(super) fn write(
    repo: &Repository<Indexed>,
    extents: &[Arc<Certificate>],
    live: &HashSet<BlobId>,
    exclude: &HashSet<ExtentName>,
    shown: &Progress,
) -> Result<Repacked> {
    let order: HashMap<ExtentName, usize> = extents
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name(), i))
        .collect();
    // In storage order, so each old extent is read front to back.
    let mut blobs: Vec<(usize, u32, BlobId, crate::content::BlobKind, u32)> =
        (repo.index().iter()?)
            .filter(|(id, _, _)| live.contains(id))
            .filter_map(|(id, e, loc)| {
                order
                    .get(&e)
                    .map(|&i| (i, loc.offset, id, loc.kind, loc.raw_len))
            })
            .collect();
    blobs.sort_unstable_by_key(|b| (b.0, b.1));
    let progress = Progress::default();
    let mut appender = Appender::fresh_chain(repo, &progress, exclude)?;
    let mut bytes_read = 0;
    let mut current = None;
    for (extent, _, id, kind, raw_len) in blobs {
        if current.replace(extent).is_some_and(|c| c != extent) {
            Progress::add(&shown.files_done, 1);
        }
        let data = repo.read_blob_stored(&id, kind).map_err(|e| {
            Error::new(
                e.kind(),
                format!(
                    "repacking: {e}; delete changed nothing (run `tangle verify`, then `tangle repair`)"
                ),
            )
        })?;
        bytes_read += data.len() as u64;
        Progress::add(&shown.bytes_done, data.len() as u64);
        let data = crate::content::blob::reseal_blob(repo.key(), kind, &data)?;
        appender.append(StoredBlob {
            id,
            kind,
            raw_len,
            data,
        })?;
    }
    appender.finish()?;
    Progress::add(&shown.files_done, current.is_some() as u64);
    Ok(Repacked {
        extents: std::mem::take(&mut appender.extents),
        writer: appender.writer(),
        last: appender.last,
        bytes_read,
        bytes_written: appender.bytes_stored,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_unused_parses_restic_forms() {
        assert_eq!(MaxUnused::parse("5%"), Ok(MaxUnused::Percent(5.0)));
        assert_eq!(MaxUnused::parse("0"), Ok(MaxUnused::Bytes(0)));
        assert_eq!(MaxUnused::parse("100M"), Ok(MaxUnused::Bytes(100 << 20)));
        assert_eq!(MaxUnused::parse("2g"), Ok(MaxUnused::Bytes(2 << 30)));
        assert_eq!(MaxUnused::parse("unlimited"), Ok(MaxUnused::Unlimited));
        for bad in ["", "101%", "-1%", "5x", "M", "99999999999T"] {
            assert!(MaxUnused::parse(bad).is_err(), "{bad}");
        }
    }
}
