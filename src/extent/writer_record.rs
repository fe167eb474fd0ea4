//! Writer records (DESIGN.md §17): the owner's signed grant of a writer key, at
//! `writers/<writer id>`, and its revocation, at `revoked-writers/<writer id>`. Both are
//! written once and never changed (a revoked writer is not granted again: `writer add`
//! makes a new one), so a remote cannot serve an "older" record: either it holds the
//! revocation or it lacks it, and `repair` copies it there. Readable with the public key.

use serde::{Deserialize, Serialize};

use super::ExtentError;
use crate::crypto::envelope::{self, ObjectKind};
use crate::crypto::writer::{WriterId, writer_id};
use crate::crypto::{OwnerPublicKey, Signer};
use crate::error::Result;

/// Where the grants live.
pub(crate) const WRITERS: &str = "writers";
/// Where the revocations live.
pub(crate) const REVOKED_WRITERS: &str = "revoked-writers";
/// The longest label `writer add` accepts (bytes).
pub(crate) const MAX_LABEL_LEN: usize = 64;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct WriterRecord {
    pub(crate) repo_id: [u8; 16],
    /// The first 16 bytes of the BLAKE3 of `public`.
    pub(crate) writer: WriterId,
    /// The writer's Ed25519 public key: what its objects are signed with.
    pub(crate) public: OwnerPublicKey,
    /// A name for people (`writer list`), unique in the repository.
    pub(crate) label: String,
    /// Seconds since the epoch (UTC) when the owner granted it.
    pub(crate) created: i64,
    /// `None` in the grant; in the revocation, when and from where the writer's
    /// objects are refused.
    pub(crate) revoked: Option<Revocation>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Revocation {
    /// Seconds since the epoch (UTC).
    pub(crate) time: i64,
    /// The writer's newest head the owner had seen and still accepts (`None`: none);
    /// a later head of the writer is a trust violation.
    pub(crate) last_head: Option<u64>,
}

impl WriterRecord {
    /// A grant for the writer with this public key.
    pub(crate) fn grant(
        repo_id: [u8; 16],
        public: OwnerPublicKey,
        label: &str,
        created: i64,
    ) -> Self {
        WriterRecord {
            repo_id,
            writer: writer_id(&public),
            public,
            label: label.to_string(),
            created,
            revoked: None,
        }
    }

    /// Where this record is stored: the grant under `writers/`, the revocation under
    /// `revoked-writers/`.
    pub(crate) fn path(&self) -> String {
        let dir = match self.revoked {
            None => WRITERS,
            Some(_) => REVOKED_WRITERS,
        };
        format!("{dir}/{}", hex::encode(self.writer))
    }

    pub(crate) fn to_object(&self, signer: &Signer) -> Result<Vec<u8>> {
        Ok(envelope::seal(
            ObjectKind::Writer,
            &postcard::to_stdvec(self)?,
            signer,
        ))
    }

    /// Parse, check the owner's signature and that the record belongs at `path` (its
    /// kind of record, its writer id, an id that is its key's).
    pub(crate) fn from_object(bytes: &[u8], owner: &OwnerPublicKey, path: &str) -> Result<Self> {
        let payload = envelope::open(ObjectKind::Writer, bytes, owner)?;
        let (r, rest): (WriterRecord, _) =
            postcard::take_from_bytes(payload).map_err(ExtentError::Malformed)?;
        if !rest.is_empty() {
            return Err(ExtentError::Inconsistent {
                what: "writer record length",
            }
            .into());
        }
        if r.writer != writer_id(&r.public) || !valid_label(&r.label) {
            return Err(ExtentError::Inconsistent {
                what: "writer record fields",
            }
            .into());
        }
        ExtentError::check_placed(path, r.path())?;
        Ok(r)
    }
}

/// A label `writer add` accepts: 1 to [`MAX_LABEL_LEN`] ASCII letters, digits and
/// `. _ @ -`, not starting with `.` or `-` (it names the key file by default, and is
/// typed on command lines).
pub(crate) fn valid_label(label: &str) -> bool {
    label.len() <= MAX_LABEL_LEN
        && !label.starts_with(['.', '-'])
        && !label.is_empty()
        && (label.bytes()).all(|b| b.is_ascii_alphanumeric() || b"._@-".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grants_and_revocations_live_at_their_own_paths() {
        let owner = Signer::from_seed(&[1; 32]);
        let writer = Signer::from_seed(&[2; 32]).public();
        let grant = WriterRecord::grant([3; 16], writer, "host-a", 100);
        let at = grant.path();
        assert_eq!(at, format!("writers/{}", hex::encode(writer_id(&writer))));
        let obj = grant.to_object(&owner).unwrap();
        assert_eq!(
            WriterRecord::from_object(&obj, &owner.public(), &at).unwrap(),
            grant
        );
        let revoked = WriterRecord {
            revoked: Some(Revocation {
                time: 200,
                last_head: Some(7),
            }),
            ..grant.clone()
        };
        assert!(revoked.path().starts_with("revoked-writers/"));
        let robj = revoked.to_object(&owner).unwrap();
        // Each only at its own path, only signed by the owner.
        assert!(WriterRecord::from_object(&robj, &owner.public(), &at).is_err());
        assert!(WriterRecord::from_object(&obj, &owner.public(), &revoked.path()).is_err());
        let forger = Signer::from_seed(&[9; 32]);
        let forged = grant.to_object(&forger).unwrap();
        assert!(WriterRecord::from_object(&forged, &owner.public(), &at).is_err());
        // A writer id that is not its key's.
        let mut lying = grant.clone();
        lying.writer = [0; 16];
        let obj = lying.to_object(&owner).unwrap();
        assert!(WriterRecord::from_object(&obj, &owner.public(), &lying.path()).is_err());
    }

    #[test]
    fn labels() {
        assert!(valid_label("host-a.example") && valid_label("backup@db_1"));
        for bad in ["", "a\nb", "a/b", "../x", ".hidden", "-x", "ü", "a b"] {
            assert!(!valid_label(bad), "{bad:?}");
        }
        assert!(valid_label(&"x".repeat(64)) && !valid_label(&"x".repeat(65)));
    }
}
