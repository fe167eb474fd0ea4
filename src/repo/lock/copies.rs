//! Reading the locks: every copy of every lock object on the remotes, checked, grouped
//! into locks (a lock on create-only storage is several objects) at their newest beat,
//! and judged by what this reader knows of each holder.

use std::collections::BTreeMap;
use std::time::Duration;

use futures::StreamExt;

use super::{LockInfo, LockState, MAX_SIZE, SeenLock, human_duration, liveness, object};
use crate::crypto::envelope::SignedBy;
use crate::error::{Error, Kind, Result};
use crate::remote::DynRemote;
use crate::repo::names::LockPart;
use crate::repo::{Repository, State};

/// What every remote's `locks/` holds.
pub(super) struct LockCopies {
    /// The authentic locks, each at the highest beat any remote serves (or released).
    pub(super) locks: Vec<LockInfo>,
    /// Per lock (`locks/<id>`): every object of it some remote lists, what removing it
    /// removes.
    pub(super) objects: BTreeMap<String, std::collections::BTreeSet<String>>,
    /// Paths no remote serves authentic, with what each remote served instead.
    pub(super) bad: BTreeMap<String, Vec<(usize, String)>>,
    /// Copies (remote, path) that pass their own checks but are signed by another key
    /// than their lock's holder (see [`holders`]).
    pub(super) not_holders: Vec<(usize, String)>,
    /// Paths some remote could not serve (a read failed), with why.
    pub(super) unreadable: BTreeMap<String, String>,
    /// Every remote listed, and served or lacked each copy it listed.
    pub(super) complete: bool,
    /// The remotes whose listing failed, and why.
    pub(super) unlisted: Vec<(usize, Error)>,
}

/// Every lock copy on `remotes` (those `usable`), each fetched from the remote that lists
/// it and checked against the owner and repository.
pub(super) async fn read_lock_copies(
    remotes: &[DynRemote],
    usable: &[bool],
    signers: &crate::crypto::Signers,
    repo_id: &[u8; 16],
    list_within: Option<Duration>,
) -> LockCopies {
    let listings = futures::future::join_all(remotes.iter().enumerate().map(|(i, r)| async move {
        if !usable.get(i).copied().unwrap_or(false) {
            return Err(Error::fatal("unreachable"));
        }
        match list_within {
            Some(limit) => tokio::time::timeout(limit, r.list("locks"))
                .await
                .unwrap_or_else(|_| {
                    Err(Error::fatal(format!(
                        "{} did not list its locks within {}",
                        r.url(),
                        human_duration(limit)
                    )))
                }),
            None => r.list("locks").await,
        }
    }))
    .await;
    let mut complete = true;
    let mut unlisted = Vec::new();
    let mut copies = Vec::new();
    for (i, listing) in listings.into_iter().enumerate() {
        match listing {
            Ok(list) => copies.extend(
                (list.into_iter())
                    .filter(|o| {
                        crate::repo::names::ObjectName::parse(&o.path)
                            == Some(crate::repo::names::ObjectName::Lock)
                    })
                    .map(|o| (i, o.path)),
            ),
            Err(e) => {
                complete = false;
                if usable.get(i).copied().unwrap_or(false) {
                    unlisted.push((i, e));
                }
            }
        }
    }
    let read: Vec<(usize, String, Result<bytes::Bytes>)> = futures::stream::iter(copies)
        .map(|(i, path)| async move {
            let got = remotes[i].get_max(&path, MAX_SIZE).await;
            (i, path, got)
        })
        .buffer_unordered(16)
        .collect()
        .await;
    let mut best: BTreeMap<String, LockInfo> = BTreeMap::new();
    let mut objects: BTreeMap<String, std::collections::BTreeSet<String>> = BTreeMap::new();
    let mut refused: BTreeMap<String, Vec<(usize, String)>> = BTreeMap::new();
    let mut unreadable = BTreeMap::new();
    // Copies that pass their own checks, with who signed each.
    let mut signed = Vec::new();
    for (i, path, got) in read {
        if let Some((base, _)) = object::lock_object(&path) {
            objects.entry(base).or_default().insert(path.clone());
        }
        let why = match got {
            Ok(bytes) => match LockInfo::signed_object(&path, &bytes, signers, repo_id) {
                Ok((lock, by)) => {
                    signed.push((i, path, lock, by));
                    continue;
                }
                Err(e) => e.to_string(),
            },
            // Gone since the listing: its holder finished.
            Err(e) if e.kind() == Kind::NotFound => continue,
            // Too large, or not a lock's shape: not a lock, whatever it claims.
            Err(e) if e.kind() == Kind::Corrupt => e.to_string(),
            Err(e) => {
                complete = false;
                unreadable.insert(path, e.to_string());
                continue;
            }
        };
        refused.entry(path).or_default().push((i, why));
    }
    let holders = holders(signed.iter().map(|(_, path, _, by)| (path.as_str(), *by)));
    // Object paths some remote served authentic.
    let mut authentic = std::collections::HashSet::new();
    let mut not_holders = Vec::new();
    for (i, path, lock, by) in signed {
        if !holders.get(&lock.path).is_some_and(|h| h.contains(&by)) {
            not_holders.push((i, path.clone()));
            refused
                .entry(path)
                .or_default()
                .push((i, not_the_holders(&lock.path)));
            continue;
        }
        authentic.insert(path);
        // Released beats every beat; else the highest beat wins.
        let newer = best
            .get(&lock.path)
            .is_none_or(|b| (lock.released, lock.progress()) > (b.released, b.progress()));
        if newer {
            best.insert(lock.path.clone(), lock);
        }
    }
    refused.retain(|p, _| !authentic.contains(p));
    unreadable.retain(|p, _| !authentic.contains(p));
    objects.retain(|base, _| best.contains_key(base));
    LockCopies {
        locks: best.into_values().collect(),
        objects,
        bad: refused,
        not_holders,
        unreadable,
        complete,
        unlisted,
    }
}

/// Who holds each lock (`locks/<id>`), from the signers of its objects that pass their
/// own checks (`(object path, signer)`): whoever signed the lock itself, or where no
/// remote serves that, its lowest beat, else its end. A granted writer may sign locks,
/// but only its own: an object of a lock signed by anyone else (a beat that would keep it
/// alive, an end that would release it) is not the lock's.
pub(in crate::repo) fn holders<'a>(
    signed: impl Iterator<Item = (&'a str, SignedBy)>,
) -> BTreeMap<String, Vec<SignedBy>> {
    let mut first: BTreeMap<String, (u64, Vec<SignedBy>)> = BTreeMap::new();
    for (path, by) in signed {
        let Some((base, part)) = object::lock_object(path) else {
            continue;
        };
        let rank = match part {
            LockPart::Base => 0,
            LockPart::Beat(beat) => beat,
            LockPart::End => u64::MAX,
        };
        let (lowest, signers) = first.entry(base).or_insert((rank, Vec::new()));
        if rank < *lowest {
            (*lowest, *signers) = (rank, vec![by]);
        } else if rank == *lowest && !signers.contains(&by) {
            signers.push(by);
        }
    }
    (first.into_iter())
        .map(|(base, (_, s))| (base, s))
        .collect()
}

/// Why an object of lock `base` signed by someone else than its holder is refused.
pub(in crate::repo) fn not_the_holders(base: &str) -> String {
    format!("signed by another key than the one that holds {base}")
}

/// Judge each lock of `copies` by this reader's knowledge, remembering (in `watch`) when
/// it first saw each beat.
pub(super) fn judge(copies: &LockCopies, watch: &liveness::Watch) -> Vec<SeenLock> {
    let beats: Vec<(String, u64)> = (copies.locks.iter())
        .map(|l| (l.path.clone(), l.progress()))
        .collect();
    let ages = watch.observe(&beats, copies.complete);
    (copies.locks.iter().zip(ages))
        .map(|(l, unchanged)| SeenLock {
            info: l.clone(),
            state: match l.holder.running(l.pid) {
                _ if l.released => LockState::Released,
                Some(true) => LockState::Running,
                Some(false) => LockState::Gone,
                None => LockState::Watched {
                    unchanged,
                    complete: copies.complete,
                },
            },
        })
        .collect()
}

/// Judging one copy of a lock object, for verify and repair (the survey reads them).
impl<S: State> Repository<S> {
    /// Whether `bytes` is an authentic copy of lock `path` of this repository, on its own
    /// (see [`lock_copies_not_their_holders`](Self::lock_copies_not_their_holders) for
    /// what a lock's other objects can tell).
    pub(crate) fn authenticate_lock(&self, path: &str, bytes: &[u8]) -> Result<()> {
        LockInfo::from_object(path, bytes, self.signers(), &self.config.id).map(|_| ())
    }

    /// Of `served` (remote, path, bytes: every lock copy the remotes serve that passes
    /// [`authenticate_lock`](Self::authenticate_lock)), those signed by another key than
    /// their lock's holder (a granted writer releasing or renewing another's lock), each
    /// with why.
    pub(crate) fn lock_copies_not_their_holders(
        &self,
        served: &[(usize, String, bytes::Bytes)],
    ) -> Vec<(usize, String, String)> {
        let signed: Vec<(usize, &str, LockInfo, SignedBy)> = (served.iter())
            .filter_map(|(r, path, bytes)| {
                let (lock, by) =
                    LockInfo::signed_object(path, bytes, self.signers(), &self.config.id).ok()?;
                Some((*r, path.as_str(), lock, by))
            })
            .collect();
        let holders = holders(signed.iter().map(|(_, p, _, by)| (*p, *by)));
        (signed.into_iter())
            .filter(|(_, _, lock, by)| !holders.get(&lock.path).is_some_and(|h| h.contains(by)))
            .map(|(r, path, lock, _)| (r, path.to_string(), not_the_holders(&lock.path)))
            .collect()
    }

    /// Every copy of every lock the usable remotes list now, judged.
    pub(super) fn lock_copies_now(&self) -> LockCopies {
        let usable = self.lock_remotes_usable();
        self.inner.rt.block_on(read_lock_copies(
            &self.inner.remotes,
            &usable,
            self.signers(),
            &self.config.id,
            None,
        ))
    }

    /// Whether `bytes`, remote `r`'s copy of lock object `path`, is an authentic object of
    /// its lock, signed by the lock's holder as the remotes serve the lock now.
    pub(in crate::repo) fn lock_copy_is_authentic(
        &self,
        r: usize,
        path: &str,
        bytes: &[u8],
    ) -> bool {
        if self.authenticate_lock(path, bytes).is_err() {
            return false;
        }
        let all = self.lock_copies_now();
        !(all.not_holders.iter()).any(|(i, p)| *i == r && p == path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const X: &str = "locks/abababababababababababababababababababababababababababababababab";

    #[test]
    fn a_lock_is_its_first_objects_signers_and_no_one_elses() {
        let (a, b) = (SignedBy::Writer([1; 16]), SignedBy::Writer([2; 16]));
        let (beat, end) = (format!("{X}-2"), format!("{X}-end"));
        // The lock itself decides, whatever signed its later objects.
        let h = holders([(end.as_str(), b), (X, a), (beat.as_str(), b)].into_iter());
        assert_eq!(h.get(X), Some(&vec![a]));
        // Without it, its lowest beat; without beats, its end.
        let h = holders([(end.as_str(), b), (beat.as_str(), a)].into_iter());
        assert_eq!(h.get(X), Some(&vec![a]));
        let h = holders([(end.as_str(), SignedBy::Owner)].into_iter());
        assert_eq!(h.get(X), Some(&vec![SignedBy::Owner]));
        // Names that are no lock's object are skipped.
        assert!(holders([("locks/x", a)].into_iter()).is_empty());
    }
}
