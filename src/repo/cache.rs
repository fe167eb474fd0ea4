//! The client's local state for a repository (under `--cache-dir`): its writer id and the
//! newest heads it has seen, its memory against a rollback of every remote at once, and
//! copies of the metadata objects that never change under their name (snapshots, index
//! segments and deletion records are named by their hash; a head's path is written once),
//! so a command fetches only what is new since the last one. A cached copy passes the
//! same checks (signature, content address, path) as a fetched one before it is used, and
//! `verify` never reads the cache: it asks every remote. Certificates, which are re-signed
//! under their names, are kept apart (`catalog/`) and read only for the backup's pointer
//! catalog, where a copy behind the current one costs no correctness (see
//! `Repository::load_catalog_kept`).

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Repository, State};
use crate::error::Result;
use crate::extent::ExtentName;
use crate::util::{read_regular_file, replace_file};

/// The directory of the certificates kept for the pointer catalog.
const CATALOG: &str = "catalog";

/// The largest state file (remembered heads, suspect extents) read back: far beyond
/// what they hold (about 60 bytes a writer or extent), so only damage is refused.
const STATE_FILE_LIMIT: u64 = 64 << 20;
/// A writer's file table holds about 100 bytes a file: room for tens of millions.
const FILE_TABLE_LIMIT: u64 = 4 << 30;

/// Where per-repository local state lives: `--cache-dir`, else `$XDG_CACHE_HOME/tangle`,
/// else `~/.cache/tangle`.
pub(crate) fn default_cache_dir() -> Option<PathBuf> {
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        return Some(PathBuf::from(x).join("tangle"));
    }
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| PathBuf::from(h).join(".cache").join("tangle"))
}

/// The object kinds kept in the cache: immutable under their names (a key's removal
/// record is written once under the key's name: `key remove` reuses one already there).
const CACHED_PREFIXES: [&str; 7] = [
    "snapshots",
    "index",
    "heads",
    "deletions",
    super::names::REMOVED_KEYS,
    crate::extent::WRITERS,
    crate::extent::REVOKED_WRITERS,
];

impl<S: State> Repository<S> {
    /// Where the cached copy of the object at `path` lives, if it is a kind the cache keeps.
    fn cached_object_file(&self, path: &str) -> Option<PathBuf> {
        let kind = path.split('/').next()?;
        if !CACHED_PREFIXES.contains(&kind) || !super::names::is_canonical(path) {
            return None;
        }
        Some(self.inner.cache_dir.as_ref()?.join("objects").join(path))
    }

    /// The cached bytes of `path` (unchecked: the caller checks them as if fetched).
    pub(super) fn cached_object(&self, path: &str) -> Option<Vec<u8>> {
        read_regular_file(&self.cached_object_file(path)?, super::metadata_limit(path)).ok()
    }

    /// Keep a copy of an object that passed its checks (best effort: a cache that cannot
    /// be written only costs the next command a fetch).
    pub(super) fn cache_object(&self, path: &str, bytes: &[u8]) {
        let Some(file) = self.cached_object_file(path) else {
            return;
        };
        let _ = replace_file(&file, bytes);
    }

    /// Drop cached objects below `prefix` that the remotes no longer list (deleted).
    pub(super) fn prune_object_cache(&self, prefix: &str, listed: &[String]) {
        if !CACHED_PREFIXES.contains(&prefix) {
            return;
        }
        let Some(root) = self.inner.cache_dir.as_ref().map(|d| d.join("objects")) else {
            return;
        };
        let listed: std::collections::HashSet<&str> = listed.iter().map(String::as_str).collect();
        let top = root.join(prefix);
        let mut stack = vec![top.clone()];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let p = entry.path();
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    stack.push(p);
                    continue;
                }
                let rel = p.strip_prefix(&root).ok().and_then(|r| r.to_str());
                if rel.is_none_or(|r| !listed.contains(r)) {
                    let _ = std::fs::remove_file(&p);
                }
            }
            // A writer's directory of heads, once empty, would be walked forever.
            if dir != top {
                let _ = std::fs::remove_dir(&dir);
            }
        }
    }

    /// Where the catalog's copy of extent `name`'s certificate lives.
    fn catalog_copy_file(&self, name: &ExtentName) -> Option<PathBuf> {
        Some(
            self.inner
                .cache_dir
                .as_ref()?
                .join(CATALOG)
                .join(name.hex()),
        )
    }

    /// The kept copy of extent `name`'s certificate (unchecked: the caller checks it as
    /// if fetched). Only the backup's pointer catalog reads these
    /// ([`Repository::load_catalog_kept`]): a certificate is re-signed under its name
    /// (rebalance, re-encoding), so a kept copy may be behind the remotes' current one.
    pub(super) fn catalog_copy(&self, name: &ExtentName) -> Option<Vec<u8>> {
        read_regular_file(
            &self.catalog_copy_file(name)?,
            super::objects::metadata_limit("extents/"),
        )
        .ok()
    }

    /// Keep a certificate that passed its checks for the next catalog (best effort).
    pub(super) fn keep_catalog_copy(&self, name: &ExtentName, bytes: &[u8]) {
        if let Some(file) = self.catalog_copy_file(name) {
            let _ = replace_file(&file, bytes);
        }
    }

    /// Drop kept certificates of extents the remotes no longer list (deleted).
    pub(super) fn prune_catalog_copies(&self, listed: &HashSet<ExtentName>) {
        let Some(dir) = self.inner.cache_dir.as_ref().map(|d| d.join(CATALOG)) else {
            return;
        };
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let keep = (name.to_str()).and_then(|n| ExtentName::parse(n).ok());
            if keep.is_none_or(|n| !listed.contains(&n)) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }

    /// The newest head sequence number this client has seen per writer (its memory
    /// against rollbacks of every remote at once), from the local cache.
    pub(crate) fn known_heads(&self) -> HashMap<String, u64> {
        self.read_state("heads.json")
    }

    /// Remember heads (only ever raising the known sequence numbers).
    pub(crate) fn remember_heads(&self, seen: &HashMap<String, u64>) {
        let mut known = self.known_heads();
        for (w, &seq) in seen {
            let e = known.entry(w.clone()).or_insert(seq);
            *e = (*e).max(seq);
        }
        self.store_known_heads(&known);
    }

    /// Stop remembering these writers' heads: they are ancestors of a remembered head's
    /// chain, so losing them shows as a chain gap without the cache's help.
    pub(crate) fn forget_heads(&self, writers: &[String]) {
        let mut known = self.known_heads();
        for w in writers {
            known.remove(w);
        }
        self.store_known_heads(&known);
    }

    fn store_known_heads(&self, known: &HashMap<String, u64>) {
        self.write_state("heads.json", known);
    }

    /// Record the writer of this client's newest run, whose chain the next run continues.
    pub(crate) fn set_writer_id(&self, id: &[u8; 16]) {
        let Some(dir) = &self.inner.cache_dir else {
            return;
        };
        let _ = replace_file(&dir.join("writer"), hex::encode(id).as_bytes());
    }

    /// The writer of this client's newest run (a new id on first use), kept in the cache
    /// directory. Each run writes under a fresh id of its own and continues this one's
    /// chain.
    pub fn writer_id(&self) -> Result<[u8; 16]> {
        let Some(dir) = &self.inner.cache_dir else {
            return crate::crypto::random_bytes();
        };
        let path = dir.join("writer");
        if let Ok(s) = read_regular_file(&path, 64) {
            let mut id = [0u8; 16];
            if hex::decode_to_slice(s.trim_ascii(), &mut id).is_ok() {
                return Ok(id);
            }
        }
        let id = crate::crypto::random_bytes()?;
        // Without a writable cache every run is a new writer: allowed, chains just get shorter.
        let _ = replace_file(&path, hex::encode(id).as_bytes());
        Ok(id)
    }

    /// Extents the last `verify --read-data` found a corrupt shard in (hex names), so a
    /// plain `repair` re-checks exactly those: a listing cannot see corruption.
    pub(crate) fn suspect_extents(&self) -> Vec<String> {
        self.read_state("suspect-extents.json")
    }

    /// Replace the remembered suspect extents (best effort, like the rest of the cache).
    pub(crate) fn set_suspect_extents(&self, names: &[String]) {
        self.write_state("suspect-extents.json", names);
    }

    /// The JSON state file `name` of the cache directory; the default if there is no
    /// cache, no such file or no sense in it.
    fn read_state<T: DeserializeOwned + Default>(&self, name: &str) -> T {
        (self.inner.cache_dir.as_ref())
            .and_then(|d| read_regular_file(&d.join(name), STATE_FILE_LIMIT).ok())
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    /// Replace the JSON state file `name` (best effort: without a cache, or if it cannot
    /// be written, nothing is kept).
    fn write_state<T: Serialize + ?Sized>(&self, name: &str, value: &T) {
        let Some(dir) = &self.inner.cache_dir else {
            return;
        };
        if let Ok(json) = serde_json::to_vec(value) {
            let _ = replace_file(&dir.join(name), &json);
        }
    }
}

/// A writer's own blobs, kept by the writer: it cannot read the index (sealed to the
/// owner), so it dedups against the segments it wrote itself. They hold blob ids (keyed
/// hashes under the writer's id key) and places, no content and no names:
/// `<cache>/writers/<writer id>/segments/<index id>`, written once a head commits them.
impl<S: State> Repository<S> {
    /// `<cache>/writers/<writer id>/<leaf>`: what a writer keeps for itself.
    fn writer_cache(
        &self,
        writer: &crate::crypto::writer::WriterId,
        leaf: &str,
    ) -> Option<PathBuf> {
        Some(
            (self.inner.cache_dir.as_ref()?)
                .join("writers")
                .join(hex::encode(writer))
                .join(leaf),
        )
    }

    /// Keep a committed segment of this writer's (best effort: a lost cache costs the
    /// next run its dedup, not correctness).
    pub(crate) fn cache_writer_segment(
        &self,
        writer: &crate::crypto::writer::WriterId,
        index_id: &str,
        segment: &crate::content::IndexSegment,
    ) {
        let Some(dir) = self.writer_cache(writer, "segments") else {
            return;
        };
        if let Ok(bytes) = postcard::to_stdvec(segment) {
            let _ = std::fs::create_dir_all(&dir);
            let _ = replace_file(&dir.join(index_id), &bytes);
        }
    }

    /// The segments this writer kept; one that cannot be read is skipped.
    pub(crate) fn writer_segments(
        &self,
        writer: &crate::crypto::writer::WriterId,
    ) -> Vec<crate::content::IndexSegment> {
        let Some(dir) = self.writer_cache(writer, "segments") else {
            return Vec::new();
        };
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return Vec::new();
        };
        let mut names: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        names.sort();
        (names.iter())
            .filter_map(|p| read_regular_file(p, STATE_FILE_LIMIT).ok())
            .filter_map(|b| postcard::from_bytes(&b).ok())
            .collect()
    }

    /// The files of this writer's last committed run (empty if none is kept).
    pub(crate) fn writer_files(
        &self,
        writer: &crate::crypto::writer::WriterId,
    ) -> crate::content::PathTable {
        (self.writer_cache(writer, "files"))
            .and_then(|p| read_regular_file(&p, FILE_TABLE_LIMIT).ok())
            .and_then(|b| postcard::from_bytes(&b).ok())
            .unwrap_or_default()
    }

    /// Keep the files of a run a head committed (best effort: a lost table costs the next
    /// run a read of every file, not correctness).
    pub(crate) fn cache_writer_files(
        &self,
        writer: &crate::crypto::writer::WriterId,
        files: &crate::content::PathTable,
    ) {
        let Some(path) = self.writer_cache(writer, "files") else {
            return;
        };
        if let (Some(dir), Ok(bytes)) = (path.parent(), postcard::to_stdvec(files)) {
            let _ = std::fs::create_dir_all(dir);
            let _ = replace_file(&path, &bytes);
        }
    }
}
