//! The locks each remote lists, checked one by one: locks are not replicated metadata
//! (they come and go, and are never copied), so the survey checks them apart.

use std::collections::HashMap;

use bytes::Bytes;
use futures::{StreamExt, stream};

use super::{BadCopy, get_copy, listed_over, refused_copy};
use crate::error::Result;
use crate::repo::{Repository, State};

/// A remote's copy of a lock that is not an authentic lock of this repository.
#[derive(Clone, Debug)]
pub(crate) struct BadLock {
    pub(crate) remote: usize,
    pub(crate) path: String,
    pub(crate) why: BadCopy,
    /// The copy as served (repair removes it only if it is still not authentic).
    pub(crate) bytes: Bytes,
}

/// Every lock each remote lists, fetched from that remote and checked. One gone since
/// the listing (its holder finished) is no finding; one that cannot be read as an
/// object of a lock's size (a FIFO, a giant) is refused as the metadata copies are.
pub(super) fn bad_locks<S: State>(
    repo: &Repository<S>,
    listings: &[Result<HashMap<String, u64>>],
) -> Vec<BadLock> {
    let copies = listings.iter().enumerate().flat_map(|(r, l)| {
        (l.iter().flat_map(|l| l.iter()))
            .filter(|(p, _)| p.starts_with("locks/"))
            .map(move |(p, &size)| (r, p.clone(), size))
    });
    let checked: Vec<std::result::Result<(usize, String, Bytes), BadLock>> = repo.block_on(
        stream::iter(copies.map(|(r, path, listed)| async move {
            let limit = crate::repo::metadata_limit(&path);
            let fetched = match listed_over(&path, listed, limit) {
                Some(bad) => Err(bad),
                None => get_copy(repo, r, &path, limit).await?,
            };
            let (why, bytes) = match fetched {
                Ok(bytes) => match repo.authenticate_lock(&path, &bytes) {
                    Ok(()) => return Some(Ok((r, path, bytes))),
                    Err(e) => (refused_copy(repo, &path, &bytes, &e), bytes),
                },
                Err(bad) => (bad, Bytes::new()),
            };
            Some(Err(BadLock {
                remote: r,
                path,
                why,
                bytes,
            }))
        }))
        .buffer_unordered(16)
        .filter_map(|b| async move { b })
        .collect(),
    );
    let (mut authentic, mut bad) = (Vec::new(), Vec::new());
    for c in checked {
        match c {
            Ok(copy) => authentic.push(copy),
            Err(b) => bad.push(b),
        }
    }
    // Authentic on its own, but not its lock's holder's: a forgery by another signer.
    for (r, path, why) in repo.lock_copies_not_their_holders(&authentic) {
        let bytes = (authentic.iter())
            .find(|(i, p, _)| *i == r && *p == path)
            .map(|(_, _, b)| b.clone())
            .unwrap_or_default();
        bad.push(BadLock {
            remote: r,
            path,
            why: BadCopy::Forged(why),
            bytes,
        });
    }
    bad
}
