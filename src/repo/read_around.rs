//! What the readers of this process read around: every shard a read wanted and did not
//! get as certified (missing, not matching its certificate, or not served), by extent,
//! shard and remote. Restore and dump summarise it in one warning per remote, and add
//! the extents with corrupt or unreadable shards to the cache's suspect extents
//! (`suspect-extents.json`, as `verify --read-data` does), so the next plain `repair`
//! hashes those extents' shards again and rebuilds what is still damaged (a listing
//! shows it missing shards, not corrupt ones). The record is a hint, never evidence:
//! repair hashes every shard of a suspect extent itself, and writes only bytes that
//! match the owner's certificate, to the remote the certificate names. Extents of a
//! remote that is away are not remembered: reading them all again would cost the next
//! repair a `--read-data` of most of the repository, and it sees the remote away.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use super::{Repository, State};
use crate::error::{Error, Kind};
use crate::extent::{Certificate, ExtentName};

/// Per shard (extent, index) read around: the remote it was read around on, and why.
type DamageByShard = BTreeMap<(ExtentName, usize), (usize, ShardDamage)>;

/// Why a shard was read around.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ShardDamage {
    /// The remote does not have it.
    Missing,
    /// The remote served other bytes (another size, or not the certified hash), or an
    /// object it refused to read as a shard: a remote that may lie.
    Corrupt,
    /// The remote did not serve it (timed out, refused the read).
    Unreadable,
    /// Its remote is away for this process (it did not answer).
    Away,
}

/// Shards read around in this process: (extent, shard) → (remote, why). The first
/// reason seen is kept; a shard read intact later (a remote that answered again) is
/// taken off.
#[derive(Default)]
pub(super) struct ReadAround {
    shards: Mutex<DamageByShard>,
    /// Set with the first entry: until then a shard read intact takes no lock.
    any: AtomicBool,
}

/// One remote's part of what was read around (`restore --json`'s `damage_read_around`).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct RemoteReadAround {
    /// The remote's URL.
    pub remote: String,
    /// Shards it does not have.
    pub missing: u64,
    /// Shards it served with bytes that do not match their certificates.
    pub corrupt: u64,
    /// Shards it did not serve (it did not answer, or refused the read).
    pub unreadable: u64,
}

impl<S: State> Repository<S> {
    /// Reading shard `index` of `cert` from its remote failed with `e`.
    pub(super) fn note_read_failed(&self, cert: &Certificate, index: usize, e: &Error) {
        let remote = cert.shards.get(index).map(|s| s.remote as usize);
        let why = match e.kind() {
            _ if remote.is_some_and(|r| self.inner.health.down(r).is_some()) => ShardDamage::Away,
            Kind::NotFound => ShardDamage::Missing,
            Kind::Corrupt => ShardDamage::Corrupt,
            _ => ShardDamage::Unreadable,
        };
        self.note_read_around(cert, index, why);
    }

    /// Shard `index` of `cert` was not read as certified, for `why`.
    pub(super) fn note_read_around(&self, cert: &Certificate, index: usize, why: ShardDamage) {
        let Some(info) = cert.shards.get(index) else {
            return;
        };
        (self.inner.read_around.shards.lock())
            .unwrap_or_else(|p| p.into_inner())
            .entry((cert.name(), index))
            .or_insert((info.remote as usize, why));
        self.inner.read_around.any.store(true, Ordering::Release);
    }

    /// Shard `index` of `cert` was read as certified after all.
    pub(super) fn note_read_intact(&self, cert: &Certificate, index: usize) {
        if self.inner.read_around.any.load(Ordering::Acquire) {
            (self.inner.read_around.shards.lock())
                .unwrap_or_else(|p| p.into_inner())
                .remove(&(cert.name(), index));
        }
    }

    /// The shards reads went around so far, and why.
    fn shards_read_around(&self) -> std::sync::MutexGuard<'_, DamageByShard> {
        (self.inner.read_around.shards.lock()).unwrap_or_else(|p| p.into_inner())
    }

    /// What this process read around, per remote (config order; remotes with nothing
    /// read around are left out).
    pub fn damage_read_around(&self) -> Vec<RemoteReadAround> {
        let map = self.shards_read_around();
        let mut per: BTreeMap<usize, RemoteReadAround> = BTreeMap::new();
        for &(r, why) in map.values() {
            let e = per.entry(r).or_insert_with(|| RemoteReadAround {
                remote: self
                    .inner
                    .remotes
                    .get(r)
                    .map_or("?", |x| x.url())
                    .to_string(),
                missing: 0,
                corrupt: 0,
                unreadable: 0,
            });
            match why {
                ShardDamage::Missing => e.missing += 1,
                ShardDamage::Corrupt => e.corrupt += 1,
                ShardDamage::Unreadable | ShardDamage::Away => e.unreadable += 1,
            }
        }
        per.into_values().collect()
    }

    /// Add the extents with a shard this process found corrupt or could not read from a
    /// remote that answered to the suspect extents the next plain `repair` hashes again
    /// (best effort, like the rest of the cache). Missing shards need no memory: repair
    /// sees them in the listings, as it sees a remote that is away.
    pub(crate) fn remember_damage_read_around(&self) {
        let extents: Vec<String> = {
            let map = self.shards_read_around();
            (map.iter())
                .filter(|(_, (_, why))| {
                    matches!(why, ShardDamage::Corrupt | ShardDamage::Unreadable)
                })
                .map(|((name, _), _)| name.hex())
                .collect()
        };
        if extents.is_empty() {
            return;
        }
        let mut suspects = self.suspect_extents();
        let before = suspects.len();
        suspects.extend(extents);
        suspects.sort();
        suspects.dedup();
        if suspects.len() != before {
            self.set_suspect_extents(&suspects);
        }
    }
}
