//! `tangle key list | add | remove | passwd`: the key files (`keys/<content id>`), each
//! wrapping the one master key under a password.
//!
//! Adding a key writes a new key file everywhere (as a backup writes its metadata).
//! Removing one is history, like a delete: a signed deletion record names the key file
//! (FORMAT §5.7, `keys`), written first under the key's own name (`removed-keys/<id>`)
//! and then with the other records, and only then is the file taken off every reachable
//! remote. So `repair` never copies it back from a remote that was away, and unlocking
//! refuses it wherever it is still found ([`Repository::unlock`]), even on every remote
//! after a removal that stopped before taking it off: a later `key remove` or `repair`
//! finishes that.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use bytes::Bytes;
use serde::Serialize;

use crate::crypto::envelope::{self, ObjectKind};
use crate::crypto::{KdfParams, KeyFile};
use crate::error::{Error, Result};
use crate::repo::{HasKey, Repository, State};

/// One key file.
#[derive(Serialize, Debug, Clone)]
pub struct KeyInfo {
    /// Content id (`keys/<id>`).
    pub(crate) id: String,
    pub short_id: String,
    /// The key that opened the repository in this run.
    pub current: bool,
    /// When the key was made (RFC 3339), and where, as its key file records.
    pub created: String,
    pub host: String,
    pub user: String,
    /// The remotes that hold a copy (`repair` copies it to the others).
    pub remotes: Vec<String>,
}

/// What `key list` found.
#[derive(Debug)]
pub struct KeyList {
    /// Oldest first.
    pub keys: Vec<KeyInfo>,
    /// `url: error` of remotes that could not be listed.
    pub unreachable: Vec<String>,
    /// Key files listed somewhere that no remote has an authentic copy of (verify
    /// reports them): `id: why`.
    pub unreadable: Vec<String>,
    /// Removed keys (a deletion record names them) whose key file some remote still
    /// holds: a removal that stopped, or a remote that was away. They open nothing;
    /// `repair` or `key remove` takes the files off.
    pub removed: Vec<KeyInfo>,
}

#[derive(Serialize, Debug)]
pub struct AddReport {
    pub id: String,
    pub short_id: String,
    /// `url: error` of the remotes that did not take the key file (`repair` copies it).
    pub not_written: Vec<String>,
}

pub struct RemoveOptions {
    /// The key's id or a unique prefix of it.
    pub id: String,
    /// Remove the key that opened the repository.
    pub force: bool,
    /// Go on with remotes unreachable (the next repair removes the key file there).
    pub allow_degraded: bool,
}

#[derive(Serialize, Debug)]
pub struct RemoveReport {
    pub(crate) id: String,
    pub short_id: String,
    /// It was the key that opened the repository in this run.
    pub(crate) was_current: bool,
    /// Remotes the key file was removed from.
    pub removed_from: Vec<String>,
    /// Remotes that could not be reached: the key file stays there until `repair` runs
    /// (it never opens the repository again meanwhile).
    pub pending: Vec<String>,
    /// Key files that earlier, interrupted removals named and left behind, removed now.
    pub(crate) leftovers_removed: usize,
}

#[derive(Serialize, Debug)]
pub struct PasswdReport {
    pub added: AddReport,
    pub removed: RemoveReport,
}

/// The key files as the remotes hold them: per remote its key paths (or why it cannot
/// be used for a removal: unreachable or holding no repository).
struct Holdings {
    urls: Vec<String>,
    per_remote: Vec<std::result::Result<BTreeSet<String>, String>>,
}

impl Holdings {
    fn take<S: State>(repo: &Repository<S>) -> Holdings {
        let urls: Vec<String> = repo.remotes().iter().map(|r| r.url().to_string()).collect();
        let listings = repo.list_each("keys");
        let configs = repo.block_on(futures::future::join_all(
            repo.remotes().iter().map(|r| r.stat("config")),
        ));
        let per_remote = (listings.into_iter().zip(configs))
            .map(|(l, c)| match (l, c) {
                (Err(e), _) => Err(e.to_string()),
                // An unmounted disk, a wiped bucket: nothing to remove the key from.
                (Ok(_), Err(_)) => Err("holds no repository".to_string()),
                (Ok(l), Ok(_)) => Ok(l),
            })
            .collect();
        Holdings { urls, per_remote }
    }

    fn down(&self) -> Vec<String> {
        (self.urls.iter().zip(&self.per_remote))
            .filter_map(|(u, l)| l.as_ref().err().map(|e| format!("{u} ({e})")))
            .collect()
    }

    /// Every key path on any usable remote, with the URLs of the remotes holding it.
    fn keys(&self) -> BTreeMap<String, Vec<String>> {
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (u, l) in self.urls.iter().zip(&self.per_remote) {
            for p in l.iter().flatten() {
                out.entry(p.clone()).or_default().push(u.clone());
            }
        }
        out
    }
}

fn key_id(path: &str) -> &str {
    path.trim_start_matches("keys/")
}

fn short(id: &str) -> String {
    id[..8.min(id.len())].to_string()
}

fn info<S: State>(repo: &Repository<S>, id: &str, kf: &KeyFile, remotes: Vec<String>) -> KeyInfo {
    KeyInfo {
        id: id.to_string(),
        short_id: short(id),
        current: repo.key_id() == Some(id),
        created: chrono::DateTime::from_timestamp(kf.created, 0)
            .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
            .unwrap_or_else(|| kf.created.to_string()),
        host: kf.host.clone(),
        user: kf.user.clone(),
        remotes,
    }
}

/// Every key file no deletion record names, oldest first. Needs only the public key;
/// `current` is set if the repository is unlocked.
pub fn list<S: State>(repo: &Repository<S>) -> Result<KeyList> {
    let removed = &repo.deletions()?.keys;
    let listings = repo.list_each("keys");
    let mut holders: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut unreachable = Vec::new();
    for (r, l) in repo.remotes().iter().zip(listings) {
        match l {
            Ok(paths) => {
                for p in paths {
                    holders.entry(p).or_default().push(r.url().to_string());
                }
            }
            Err(e) => unreachable.push(format!("{}: {e}", r.url())),
        }
    }
    let mut keys = Vec::new();
    let mut unreadable = Vec::new();
    let mut leftovers = Vec::new();
    for (path, remotes) in holders {
        let id = key_id(&path);
        let kf = repo.read_key_file(&path);
        if removed.contains(id) {
            let mut k = match &kf {
                Ok(kf) => info(repo, id, kf, remotes),
                Err(_) => KeyInfo {
                    id: id.to_string(),
                    short_id: short(id),
                    current: false,
                    created: String::new(),
                    host: String::new(),
                    user: String::new(),
                    remotes,
                },
            };
            k.current = false;
            leftovers.push(k);
            continue;
        }
        match kf {
            Ok(kf) => keys.push((kf.created, info(repo, id, &kf, remotes))),
            Err(e) => unreadable.push(format!("{}: {e}", short(id))),
        }
    }
    keys.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.id.cmp(&b.1.id)));
    Ok(KeyList {
        keys: keys.into_iter().map(|(_, k)| k).collect(),
        unreachable,
        unreadable,
        removed: leftovers,
    })
}

/// Wrap the repository's master key under `password` in a new key file and write it to
/// every remote (needs the repository unlocked).
pub fn add<S: HasKey>(repo: &Repository<S>, password: &[u8], kdf: KdfParams) -> Result<AddReport> {
    if password.is_empty() {
        return Err(Error::usage("empty password"));
    }
    let signer = repo.signer();
    let key = KeyFile::wrap(repo.key(), password, kdf)?;
    let object = envelope::seal(ObjectKind::Key, &postcard::to_stdvec(&key)?, &signer);
    let id = envelope::content_id(&object);
    let path = format!("keys/{id}");
    repo.write_replicated(&path, Bytes::from(object))
        .map_err(|e| e.context("writing the new key file"))?;
    Ok(AddReport {
        short_id: short(&id),
        id,
        not_written: repo.failed_remotes(),
    })
}

/// Remove a key file: refused for the last key, for the key in use without `force`, and
/// with a remote unreachable without `allow_degraded` (nothing is changed then). A key
/// already removed whose file some remote still holds (a removal that stopped) has its
/// removal finished.
pub fn remove<S: HasKey>(repo: &Repository<S>, opts: &RemoveOptions) -> Result<RemoveReport> {
    let holdings = Holdings::take(repo);
    let deleted = repo.deletions()?;
    // The keys that open the repository today: authentic, and named by no record; and
    // the removed ones still held somewhere.
    let mut live: Vec<String> = Vec::new();
    let mut leftover: Vec<String> = Vec::new();
    for path in holdings.keys().keys() {
        let id = key_id(path);
        if deleted.keys.contains(id) {
            leftover.push(id.to_string());
        } else if repo.read_key_file(path).is_ok() {
            live.push(id.to_string());
        }
    }
    let spec = opts.id.to_ascii_lowercase();
    let finishing = !spec.is_empty()
        && !live.iter().any(|k| k.starts_with(&spec))
        && leftover.iter().any(|k| k.starts_with(&spec));
    let id = resolve(if finishing { &leftover } else { &live }, &opts.id)?;
    if !finishing && live.len() == 1 {
        return Err(Error::fatal(format!(
            "refusing to remove key {}: it is the repository's only key, and at least one \
             must remain (add another with `tangle key add` first)",
            short(&id)
        )));
    }
    let was_current = repo.key_id() == Some(id.as_str());
    if was_current && !opts.force {
        return Err(Error::fatal(format!(
            "key {} is the one this command opened the repository with: --force removes it \
             anyway (`tangle key passwd` replaces it by a new one)",
            short(&id)
        )));
    }
    refuse_degraded(&holdings, opts.allow_degraded)?;

    // The record first: from here on the key file is removed, not lost, wherever it is
    // (finishing a removal, its records are written again where they are missing).
    repo.write_key_removal(&id, finishing)?;

    let mut report = RemoveReport {
        short_id: short(&id),
        id: id.clone(),
        was_current,
        removed_from: Vec::new(),
        pending: holdings.down(),
        leftovers_removed: 0,
    };
    let named: HashSet<&str> = (deleted.keys.iter().chain([&id]))
        .map(String::as_str)
        .collect();
    // Every remote is tried: one that refuses (read-only, say) keeps its copy, which
    // opens nothing, until `repair` or another `key remove` takes it off.
    let mut failed = Vec::new();
    for (r, l) in holdings.per_remote.iter().enumerate() {
        let Ok(paths) = l else { continue };
        for path in paths.iter().filter(|p| named.contains(key_id(p))) {
            if let Err(e) = repo.remove_deleted_object(r, path) {
                failed.push(e.to_string());
                continue;
            }
            if key_id(path) == id {
                report.removed_from.push(holdings.urls[r].clone());
            } else {
                report.leftovers_removed += 1;
            }
        }
    }
    if !failed.is_empty() {
        return Err(Error::fatal(format!(
            "key {} is removed (its password opens nothing), but key files stay behind: {}; \
             `tangle repair` (or `tangle key remove` again) takes them off",
            short(&id),
            failed.join("; ")
        )));
    }
    Ok(report)
}

/// Change the password: a new key file for `password`, then the key in use removed.
/// Nothing is written if a remote is unreachable and `allow_degraded` is not set.
pub fn passwd<S: HasKey>(
    repo: &Repository<S>,
    password: &[u8],
    kdf: KdfParams,
    allow_degraded: bool,
) -> Result<PasswdReport> {
    let current = repo.unlocked_by().to_string();
    // Checked before the new key is written, so a refusal leaves both passwords as
    // they were rather than two that work.
    refuse_degraded(&Holdings::take(repo), allow_degraded)?;
    let added = add(repo, password, kdf)?;
    let removed = remove(
        repo,
        &RemoveOptions {
            id: current,
            force: true,
            allow_degraded,
        },
    )
    .map_err(|e| {
        e.context(format!(
            "the new key {} was added (the new password works), then removing the old one",
            added.short_id
        ))
    })?;
    Ok(PasswdReport { added, removed })
}

fn refuse_degraded(holdings: &Holdings, allow_degraded: bool) -> Result<()> {
    let down = holdings.down();
    if !down.is_empty() && !allow_degraded {
        return Err(Error::fatal(format!(
            "remote {} is unreachable or empty: no key was changed (--allow-degraded goes on \
             anyway; the next repair removes the key file from that remote)",
            down.join(", remote ")
        )));
    }
    Ok(())
}

/// The one id among `ids` that `spec` (a full id or a prefix) names.
fn resolve(ids: &[String], spec: &str) -> Result<String> {
    let spec = spec.to_ascii_lowercase();
    if spec.is_empty() {
        return Err(Error::usage("no key id given"));
    }
    let matches: Vec<&String> = ids.iter().filter(|id| id.starts_with(&spec)).collect();
    match matches.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(Error::fatal(format!(
            "no key matches {spec:?} (`tangle key list` shows them)"
        ))),
        more => Err(Error::fatal(format!(
            "{} keys match {spec:?}; give more of the id",
            more.len()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_resolve_to_one_key() {
        let ids = vec!["ab12".to_string(), "ab34".to_string(), "cd56".to_string()];
        assert_eq!(resolve(&ids, "CD").unwrap(), "cd56");
        assert_eq!(resolve(&ids, "ab3").unwrap(), "ab34");
        assert!(
            resolve(&ids, "ab")
                .unwrap_err()
                .to_string()
                .contains("2 keys")
        );
        assert!(resolve(&ids, "ef").is_err());
        assert!(resolve(&ids, "").is_err());
    }
}
