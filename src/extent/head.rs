//! Heads: signed statements "writer W's newest extent is E", one per finished run, at
//! `heads/<writer>/<seq>`. They let a reader find the end of every chain and let
//! verify notice rollbacks (a remote serving an older head than it has seen).

use serde::{Deserialize, Serialize};

use super::ExtentError;
use super::ExtentName;
use crate::crypto::envelope::{self, ObjectKind, SignedBy};
use crate::crypto::{CryptoError, Signer, Signers};
use crate::error::Result;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Head {
    pub repo_id: [u8; 16],
    pub writer: [u8; 16],
    /// Increases by one with every head of this writer.
    pub seq: u64,
    /// The writer's newest extent and its chain position (None before its first one).
    pub extent: Option<(ExtentName, u64)>,
    /// Snapshot of the run that wrote this head, if any: written after the head, so a
    /// run stopped in between names one that no remote has.
    pub snapshot: Option<String>,
    /// Index segment written by the run (its content id): committed by this head.
    pub index: Option<String>,
    /// Remotes (config indices) this run could not write to: they lack its objects
    /// legitimately, until `repair` copies them (verify then does not call it a rollback).
    /// A failure of the head write itself is not in it; verify's rollback check asks
    /// only for what was written before the head (the newest extent's certificate).
    pub skipped: Vec<u16>,
    pub time: i64,
}

impl Head {
    pub fn path(&self) -> String {
        super::head_path(&self.writer, self.seq)
    }

    pub fn to_object(&self, signer: &Signer) -> Result<Vec<u8>> {
        Ok(envelope::seal(
            ObjectKind::Head,
            &postcard::to_stdvec(self)?,
            signer,
        ))
    }

    /// Parse and check: signed by the owner, or by the writer it is the head of (not
    /// after that writer's revocation), and stored at its own path.
    pub(crate) fn from_object(bytes: &[u8], signers: &Signers, path: &str) -> Result<Head> {
        let (payload, by) = signers.open(ObjectKind::Head, bytes)?;
        let head: Head = postcard::from_bytes(payload).map_err(ExtentError::Malformed)?;
        if let SignedBy::Writer(w) = by {
            if head.writer != w {
                return Err(Signers::not_its_own(ObjectKind::Head, w).into());
            }
            if signers.head_after_revocation(&w, head.seq) {
                return Err(CryptoError::WriterSignature {
                    kind: ObjectKind::Head,
                    writer: w,
                    why: "after the owner revoked it",
                }
                .into());
            }
        }
        ExtentError::check_placed(path, head.path())?;
        Ok(head)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_rejection() {
        let s = Signer::from_seed(&[1; 32]);
        let h = Head {
            repo_id: [1; 16],
            writer: [2; 16],
            seq: 7,
            extent: Some((ExtentName([3; 32]), 4)),
            snapshot: None,
            index: None,
            skipped: vec![],
            time: 9,
        };
        let signers = crate::crypto::Signers::owner_only(s.public());
        let open = |obj: &[u8], path: &str| Head::from_object(obj, &signers, path);
        let obj = h.to_object(&s).unwrap();
        assert_eq!(open(&obj, &h.path()).unwrap(), h);
        assert!(open(&obj, "heads/x/0").is_err());
        assert!(open(&obj[1..], &h.path()).is_err());
    }

    #[test]
    fn a_writer_signs_only_its_own_heads_and_none_after_its_revocation() {
        let owner = Signer::from_seed(&[1; 32]);
        let w = Signer::from_seed(&[4; 32]);
        let id = crate::crypto::writer::writer_id(&w.public());
        let head = |writer, seq| Head {
            repo_id: [1; 16],
            writer,
            seq,
            extent: None,
            snapshot: None,
            index: None,
            skipped: vec![],
            time: 9,
        };
        let by_writer = |h: &Head| {
            envelope::seal_as_writer(ObjectKind::Head, &postcard::to_stdvec(h).unwrap(), &w, &id)
        };
        let mut signers = Signers::owner_only(owner.public());
        let own = head(id, 3);
        // Unknown until granted.
        assert!(Head::from_object(&by_writer(&own), &signers, &own.path()).is_err());
        signers.grant(id, w.public(), None);
        assert_eq!(
            Head::from_object(&by_writer(&own), &signers, &own.path()).unwrap(),
            own
        );
        // Another writer's head, signed by this one: refused, naming it.
        let other = head([9; 16], 3);
        let e = Head::from_object(&by_writer(&other), &signers, &other.path()).unwrap_err();
        assert!(e.to_string().contains("names another writer"), "{e}");
        // Revoked after head 3: head 3 stands, head 4 does not.
        signers.grant(id, w.public(), Some(Some(3)));
        assert!(Head::from_object(&by_writer(&own), &signers, &own.path()).is_ok());
        let later = head(id, 4);
        let e = Head::from_object(&by_writer(&later), &signers, &later.path()).unwrap_err();
        assert!(e.to_string().contains("after the owner revoked it"), "{e}");
    }
}
