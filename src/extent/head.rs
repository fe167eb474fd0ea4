//! Heads: signed statements "writer W's newest extent is E", one per finished run, at
//! `heads/<writer>/<seq>`. They let a reader find the end of every chain and let
//! verify notice rollbacks (a remote serving an older head than it has seen).

use serde::{Deserialize, Serialize};

use super::ExtentError;
use super::ExtentName;
use crate::crypto::envelope::{self, ObjectKind};
use crate::crypto::{OwnerPublicKey, Signer};
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

    pub fn from_object(bytes: &[u8], owner: &OwnerPublicKey, path: &str) -> Result<Head> {
        let head: Head = postcard::from_bytes(envelope::open(ObjectKind::Head, bytes, owner)?)
            .map_err(ExtentError::Malformed)?;
        if head.path() != path {
            return Err(ExtentError::MisplacedHead {
                path: path.to_string(),
                claims: head.path(),
            }
            .into());
        }
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
        let obj = h.to_object(&s).unwrap();
        assert_eq!(Head::from_object(&obj, &s.public(), &h.path()).unwrap(), h);
        assert!(Head::from_object(&obj, &s.public(), "heads/x/0").is_err());
        assert!(Head::from_object(&obj[1..], &s.public(), &h.path()).is_err());
    }
}
