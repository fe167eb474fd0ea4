//! Remote identity: every remote holds a marker object (`remote-id`) naming the
//! repository and a random nonce of its own, written when the remote joins (`init`,
//! `remote add`, `remote replace`). A location that already serves this repository is
//! refused however its URL is spelled (a symlink, `file://`, another host name for the
//! same server): otherwise rebalance would "move" shards onto the same directory and
//! then delete them.
//!
//! The check does not trust old markers alone: after writing the newcomer's fresh marker
//! it reads every current remote's marker again, so an alias is caught even when the
//! current remotes have no marker yet (repositories from before markers). The marker is
//! not signed: it only ever makes tangle refuse, never trust.

use bytes::Bytes;

use super::names::MARKER_PATH;
use crate::error::{Error, Result};
use crate::remote::DynRemote;

const WRITE: crate::remote::WriteAccess = crate::remote::WriteAccess::repository();
const MAGIC: &str = "tangle remote-id v1";
/// Far more than a marker's size: a bound for reading one.
const MAX_SIZE: u64 = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Marker {
    repo_id: [u8; 16],
    nonce: [u8; 16],
}

impl Marker {
    fn fresh(repo_id: [u8; 16]) -> Result<Marker> {
        Ok(Marker {
            repo_id,
            nonce: crate::crypto::random_bytes()?,
        })
    }

    fn to_bytes(self) -> Bytes {
        Bytes::from(format!(
            "{MAGIC}\nrepository {}\nremote {}\n",
            hex::encode(self.repo_id),
            hex::encode(self.nonce)
        ))
    }

    fn parse(bytes: &[u8]) -> Option<Marker> {
        let text = std::str::from_utf8(bytes).ok()?;
        let mut lines = text.lines();
        let field = |line: Option<&str>, key: &str| -> Option<[u8; 16]> {
            let mut out = [0u8; 16];
            hex::decode_to_slice(line?.strip_prefix(key)?, &mut out).ok()?;
            Some(out)
        };
        (lines.next()? == MAGIC).then_some(())?;
        Some(Marker {
            repo_id: field(lines.next(), "repository ")?,
            nonce: field(lines.next(), "remote ")?,
        })
    }
}

/// The marker `remote` serves, if it serves a readable one (any failure reads as none:
/// the marker can only make tangle refuse, so a missing one is never an error).
async fn read(remote: &DynRemote) -> Option<Marker> {
    let bytes = remote.get_max(MARKER_PATH, MAX_SIZE).await.ok()?;
    Marker::parse(&bytes)
}

fn alias_error(new: &DynRemote, of: &DynRemote) -> Error {
    Error::usage(format!(
        "{} is already remote {} of this repository (the same location under another \
         name); refusing to use it twice",
        new.url(),
        of.url()
    ))
}

/// Give `new` (created, about to join) a fresh marker of repository `repo_id`, unless it
/// is the same location as one of `current` (the remotes it joins): then leave every
/// marker as it was and refuse with a usage error naming the remote it aliases.
pub(super) async fn claim(
    new: &DynRemote,
    current: &[&DynRemote],
    repo_id: [u8; 16],
) -> Result<()> {
    let before: Vec<Option<Marker>> =
        futures::future::join_all(current.iter().map(|r| read(r))).await;
    if let Some(existing) = read(new).await.filter(|m| m.repo_id == repo_id)
        && let Some(k) = before.iter().position(|m| *m == Some(existing))
    {
        return Err(alias_error(new, current[k]));
    }
    // Otherwise a marker of a remote that left the repository: replaced below.
    let fresh = Marker::fresh(repo_id)?;
    new.put(WRITE, MARKER_PATH, fresh.to_bytes())
        .await
        .map_err(|e| e.context(format!("writing the identity marker to {}", new.url())))?;
    let after: Vec<Option<Marker>> =
        futures::future::join_all(current.iter().map(|r| read(r))).await;
    if let Some(k) = after.iter().position(|m| *m == Some(fresh)) {
        // Same location: put back what it had (best effort; it is only a marker).
        let _ = match before[k] {
            Some(old) => current[k].put(WRITE, MARKER_PATH, old.to_bytes()).await,
            None => current[k].delete(WRITE, MARKER_PATH).await,
        };
        return Err(alias_error(new, current[k]));
    }
    Ok(())
}

/// Remove the marker from `remote` (an init that failed after claiming).
pub(super) async fn remove(remote: &DynRemote) {
    let _ = remote.delete(WRITE, MARKER_PATH).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_round_trip_and_garbage_is_none() {
        let m = Marker::fresh([7; 16]).unwrap();
        assert_eq!(Marker::parse(&m.to_bytes()), Some(m));
        assert_ne!(Marker::fresh([7; 16]).unwrap(), m);
        for bad in [
            &b""[..],
            b"tangle remote-id v1\n",
            b"\xff\xfe",
            b"junk\nrepository 00\n",
        ] {
            assert_eq!(Marker::parse(bad), None);
        }
    }

    #[test]
    fn claiming_refuses_an_alias_and_restores_its_marker() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("r0");
        let link = tmp.path().join("r0-link");
        let r0 = crate::remote::open(dir.to_str().unwrap()).unwrap();
        rt.block_on(r0.create(WRITE)).unwrap();
        std::os::unix::fs::symlink(&dir, &link).unwrap();
        let alias = crate::remote::open(link.to_str().unwrap()).unwrap();
        let other = crate::remote::open(tmp.path().join("r1").to_str().unwrap()).unwrap();
        rt.block_on(other.create(WRITE)).unwrap();

        // Without any marker yet (an old repository): caught by the fresh marker.
        let e = rt.block_on(claim(&alias, &[&r0], [1; 16])).unwrap_err();
        assert!(e.to_string().contains("already remote"), "{e}");
        assert!(rt.block_on(read(&r0)).is_none(), "the probe marker stayed");

        rt.block_on(claim(&r0, &[], [1; 16])).unwrap();
        let m0 = rt.block_on(read(&r0)).unwrap();
        assert!(rt.block_on(claim(&alias, &[&r0], [1; 16])).is_err());
        assert_eq!(rt.block_on(read(&r0)), Some(m0), "r0's marker changed");
        rt.block_on(claim(&other, &[&r0], [1; 16])).unwrap();
    }
}
