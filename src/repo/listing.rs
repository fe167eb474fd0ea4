//! Listing the remotes: the union of what each holds below a prefix, without what the
//! owner's deletion records name, and listings made ahead for commands that list several
//! prefixes one after another.

use std::collections::BTreeSet;

use futures::future::join_all;

use super::{Repository, State, names, remote};
use crate::error::{Error, Result};
use crate::extent::Deletions;

/// What each remote answered to a listing, in remote order.
pub(super) type RemoteListings = Vec<Result<Vec<remote::ObjectInfo>>>;

impl<S: State> Repository<S> {
    /// Paths of all objects below `prefix` on any reachable remote, without those the
    /// owner's deletion records name (a remote that missed a delete still serves them
    /// until `repair`; they are no longer part of the repository).
    pub(crate) fn list_union(&self, prefix: &str) -> Result<Vec<String>> {
        let mut names = self.list_union_all(prefix)?;
        self.prune_object_cache(prefix, &names);
        if !matches!(prefix, "deletions" | "locks") {
            let deleted = self.deletions()?;
            if !deleted.is_empty() {
                names.retain(|p| !deleted.names(p));
            }
        }
        Ok(names)
    }

    /// Everything the authentic deletion records name, read once per process. A record
    /// that no remote serves authentically is ignored (a forged one never counts).
    pub(crate) fn deletions(&self) -> Result<&Deletions> {
        if let Some(d) = self.inner.deletions.get() {
            return Ok(d);
        }
        let mut all = Deletions::default();
        let mut listed = self.list_union_all("deletions")?;
        self.prune_object_cache("deletions", &listed);
        // A key removal stopped between its two records has only the one named by the key.
        // A remote that cannot list them is no reason to stop (the listing of `deletions/`
        // worked on some remote).
        if let Ok(keys) = self.list_union_all(names::REMOVED_KEYS) {
            self.prune_object_cache(names::REMOVED_KEYS, &keys);
            listed.extend(keys);
        }
        let records = self.read_objects(&listed, |path, b| self.deletion_record(path, b));
        for record in records {
            match record {
                Ok(d) => all.add(&d),
                // Verify reports it; a forged record never counts.
                Err(e) => self.warn(&format!("skipping deletion record: {e}")),
            }
        }
        Ok(self.inner.deletions.get_or_init(|| all))
    }

    /// Per remote, the canonical object paths below `prefix`, or why it could not be
    /// listed. A remote that does not answer is noted as down for this process.
    pub(crate) fn list_each(&self, prefix: &str) -> Vec<Result<BTreeSet<String>>> {
        let ahead = (self.inner.listed_ahead.lock())
            .unwrap_or_else(|p| p.into_inner())
            .remove(prefix);
        let results = match ahead {
            Some(results) => results,
            None => self.inner.rt.block_on(self.list_remotes(prefix)),
        };
        (results.into_iter().enumerate())
            .map(|(i, r)| {
                if let Err(e) = &r {
                    self.inner.health.note_list_error(i, e);
                }
                // Foreign names are never objects (see `names`): not read, not trusted.
                r.map(|list| {
                    (list.into_iter())
                        .map(|o| o.path)
                        .filter(|p| names::is_canonical(p))
                        .collect()
                })
            })
            .collect()
    }

    pub(super) async fn list_remotes(&self, prefix: &str) -> RemoteListings {
        join_all(
            self.inner
                .remotes
                .iter()
                .enumerate()
                .map(|(i, r)| async move {
                    // A remote already known not to answer is not asked again.
                    match self.inner.health.down(i) {
                        Some(e) => Err(Error::fatal(e)),
                        None => r.list(prefix).await,
                    }
                }),
        )
        .await
    }

    /// List `prefixes` on every remote now, all at once, for the first
    /// [`list_each`](Self::list_each) of each to use: a command that lists them one after
    /// another (keys to unlock, deletions, index, snapshots, heads) waits for one round
    /// trip instead of one per prefix. Only for commands that write nothing below these
    /// prefixes before they list them (the read-only ones): a listing used after the
    /// command wrote would miss what it wrote.
    pub(crate) fn list_ahead(&self, prefixes: &[String]) {
        let listed = self.inner.rt.block_on(join_all(
            (prefixes.iter()).map(|p| async move { (p.clone(), self.list_remotes(p).await) }),
        ));
        (self.inner.listed_ahead.lock())
            .unwrap_or_else(|p| p.into_inner())
            .extend(listed);
    }

    /// What a read-only command lists before it reads a snapshot: the key files (to
    /// unlock), the deletion records, the index (if it loads it), the snapshots, and the
    /// heads of the writers this client has seen (to notice a rollback); see
    /// [`list_ahead`](Self::list_ahead).
    pub fn list_ahead_for_reading(&self, index: bool) {
        let mut prefixes: Vec<String> = ["keys", names::REMOVED_KEYS, "deletions", "snapshots"]
            .into_iter()
            .chain(index.then_some("index"))
            .map(String::from)
            .collect();
        let mut writers: Vec<String> = self.known_heads().into_keys().collect();
        writers.sort();
        prefixes.extend(writers.iter().map(|w| format!("heads/{w}")));
        self.list_ahead(&prefixes);
    }

    /// Paths of all objects below `prefix` on any reachable remote, deleted or not.
    pub(super) fn list_union_all(&self, prefix: &str) -> Result<Vec<String>> {
        union_of(&self.list_each(prefix), prefix)
    }
}

/// The union of per-remote listings; an error only if no remote could be listed.
pub(super) fn union_of(listings: &[Result<BTreeSet<String>>], prefix: &str) -> Result<Vec<String>> {
    let mut names = BTreeSet::new();
    let mut last_err = None;
    let mut ok = 0;
    for l in listings {
        match l {
            Ok(list) => {
                ok += 1;
                names.extend(list.iter().cloned());
            }
            Err(e) => last_err = Some(e),
        }
    }
    match (ok, last_err) {
        (0, Some(e)) => Err(e
            .clone()
            .context(format!("listing {prefix} on every remote failed"))),
        _ => Ok(names.into_iter().collect()),
    }
}
