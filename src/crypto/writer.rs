//! Keys for writers: backup hosts that may add history but neither read nor delete it
//! (DESIGN.md §17, issue 35). Not yet used by any command: these are the primitives the
//! format changes build on, tested on their own.
//!
//! * The owner's KEM key (X25519) derives from the master key; its public half goes in
//!   the config, and writers seal each run's key to it with HPKE (RFC 9180, base mode:
//!   DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305). One seal per run, not
//!   per blob.
//! * A writer's signing key is its own Ed25519 key; its id is the first 16 bytes of the
//!   BLAKE3 of the public key.
//! * A writer's id key (blob ids of its data) derives from the owner's id key and the
//!   writer id, so the owner can recompute every writer's ids and no writer can compute
//!   another's.

use hpke::{Deserializable, Kem as _, OpModeR, OpModeS, Serializable};
use serde::{Deserialize, Serialize};
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::{CryptoError, MasterKey, OwnerPublicKey, Signer, random_bytes};
use crate::error::Result;

type Kem = hpke::kem::X25519HkdfSha256;
type Kdf = hpke::kdf::HkdfSha256;
type Aead = hpke::aead::ChaCha20Poly1305;

/// A writer's id: the first 16 bytes of `H(writer public key)`. Heads live under
/// `heads/<hex of it>/`.
pub(crate) type WriterId = [u8; 16];

/// Bytes of a run key sealed to the owner: the encapsulated X25519 key (32), the
/// encrypted run key (32) and the AEAD tag (16).
pub(crate) const SEALED_KEY_LEN: usize = 80;

const OWNER_KEM_CONTEXT: &str = "tangle owner kem v1";
const WRITER_ID_KEY_CONTEXT: &str = "tangle writer ids v1";
const PATH_TABLE_KEY_CONTEXT: &str = "tangle writer path table v1";
const RUN_KEY_INFO: &[u8] = b"tangle run key v1";

/// The key that encrypts one writer run's blobs, snapshot and index segment. It lives
/// only in memory while the run lasts and is wiped when dropped, so a host broken into
/// later cannot decrypt what it wrote before.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct RunKey(pub(crate) [u8; 32]);

impl RunKey {
    pub(crate) fn generate() -> Result<RunKey> {
        Ok(RunKey(random_bytes()?))
    }

    /// The AEAD key (as the master key's encryption key is for the owner's objects).
    pub(crate) fn encryption_key(&self) -> &[u8; 32] {
        &self.0
    }
}

impl std::fmt::Debug for RunKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RunKey(<redacted>)")
    }
}

/// What a sealed run key is bound to: it opens only for the repository and the writer
/// it was sealed for, so a remote cannot move one writer's sealed key onto another's
/// objects or into another repository.
fn run_key_info(repo_id: &[u8; 16], writer: &WriterId) -> Vec<u8> {
    let mut info = Vec::with_capacity(RUN_KEY_INFO.len() + 32);
    info.extend_from_slice(RUN_KEY_INFO);
    info.extend_from_slice(repo_id);
    info.extend_from_slice(writer);
    info
}

/// A writer run's content keys as the owner opened them, with what they were opened
/// from: the writer and its sealed run key (an owner's index segment that lists the
/// writer's extents repeats both, FORMAT.md §5.6).
pub(crate) struct RunKeys {
    pub(crate) content: super::ContentKey,
    pub(crate) writer: WriterId,
    pub(crate) sealed: [u8; SEALED_KEY_LEN],
}

impl std::fmt::Debug for RunKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "RunKeys(writer {}, <redacted>)",
            hex::encode(self.writer)
        )
    }
}

/// The owner's key-encapsulation key pair, derived from the master key (RFC 9180
/// `DeriveKeyPair` from `BLAKE3 derive_key("tangle owner kem v1", master key)`).
pub(crate) struct OwnerKem {
    secret: <Kem as hpke::Kem>::PrivateKey,
    public: [u8; 32],
}

impl OwnerKem {
    pub(crate) fn derive(master: &MasterKey) -> OwnerKem {
        let mut bytes = master.to_bytes();
        let mut ikm = blake3::derive_key(OWNER_KEM_CONTEXT, &bytes);
        bytes.zeroize();
        let (secret, public) = Kem::derive_keypair(&ikm);
        ikm.zeroize();
        let mut p = [0u8; 32];
        p.copy_from_slice(&public.to_bytes());
        OwnerKem { secret, public: p }
    }

    /// The public half, as the config carries it.
    pub(crate) fn public(&self) -> [u8; 32] {
        self.public
    }

    /// Open a run key a writer sealed to this owner.
    pub(crate) fn open_run_key(
        &self,
        sealed: &[u8; SEALED_KEY_LEN],
        repo_id: &[u8; 16],
        writer: &WriterId,
    ) -> Result<RunKey> {
        let encapped = <Kem as hpke::Kem>::EncappedKey::from_bytes(&sealed[..32])
            .map_err(|_| CryptoError::SealedKey)?;
        let mut plain = hpke::single_shot_open::<Aead, Kdf, Kem>(
            &OpModeR::Base,
            &self.secret,
            &encapped,
            &run_key_info(repo_id, writer),
            &sealed[32..],
            b"",
        )
        .map_err(|_| CryptoError::SealedKey)?;
        if plain.len() != 32 {
            plain.zeroize();
            return Err(CryptoError::SealedKey.into());
        }
        let mut key = [0u8; 32];
        key.copy_from_slice(&plain);
        plain.zeroize();
        Ok(RunKey(key))
    }
}

/// Seal `key` to the owner's KEM public key, for `writer` in repository `repo_id`.
pub(crate) fn seal_run_key(
    owner_kem: &[u8; 32],
    key: &RunKey,
    repo_id: &[u8; 16],
    writer: &WriterId,
) -> Result<[u8; SEALED_KEY_LEN]> {
    let public =
        <Kem as hpke::Kem>::PublicKey::from_bytes(owner_kem).map_err(|_| CryptoError::SealedKey)?;
    let (encapped, ciphertext) = hpke::single_shot_seal::<Aead, Kdf, Kem>(
        &OpModeS::Base,
        &public,
        &run_key_info(repo_id, writer),
        &key.0,
        b"",
    )
    .map_err(|_| CryptoError::Aead)?;
    let encapped = encapped.to_bytes();
    if encapped.len() + ciphertext.len() != SEALED_KEY_LEN {
        return Err(CryptoError::Aead.into());
    }
    let mut out = [0u8; SEALED_KEY_LEN];
    out[..32].copy_from_slice(&encapped);
    out[32..].copy_from_slice(&ciphertext);
    Ok(out)
}

/// A writer's id from its public key.
pub(crate) fn writer_id(public: &OwnerPublicKey) -> WriterId {
    let h = blake3::hash(&public.0);
    let mut id = [0u8; 16];
    id.copy_from_slice(&h.as_bytes()[..16]);
    id
}

/// The key of a writer's blob ids, from the owner's id key: the owner can recompute it
/// for any writer (to rebuild the index from the extents), a writer knows only its own.
pub(crate) fn writer_id_key(owner_id_key: &[u8; 32], writer: &WriterId) -> [u8; 32] {
    let mut material = [0u8; 48];
    material[..32].copy_from_slice(owner_id_key);
    material[32..].copy_from_slice(writer);
    let key = blake3::derive_key(WRITER_ID_KEY_CONTEXT, &material);
    material.zeroize();
    key
}

/// What `tangle writer add` hands to a backup host: enough to sign and seal, nothing that
/// decrypts. The owner's two public keys are pinned here, so a remote can neither offer
/// its own config nor collect run keys with its own KEM key.
#[derive(Clone, Serialize, Deserialize, Zeroize, ZeroizeOnDrop)]
pub struct WriterKey {
    /// Repository id (the config's `id`).
    #[serde(with = "hex::serde")]
    pub repo_id: [u8; 16],
    /// A name for people (`tangle writer list`), e.g. the host.
    #[zeroize(skip)]
    pub(crate) label: String,
    #[serde(with = "hex::serde")]
    signing_seed: [u8; 32],
    #[serde(with = "hex::serde")]
    id_key: [u8; 32],
    #[serde(with = "hex::serde")]
    pub(crate) owner: [u8; 32],
    #[serde(with = "hex::serde")]
    pub(crate) owner_kem: [u8; 32],
}

/// The first line of a writer key file, so that a wrong file is named as such.
const WRITER_KEY_HEADER: &str = "tangle writer key v1";

impl WriterKey {
    /// A new writer for the repository `repo_id`, made by its owner.
    pub(crate) fn generate(
        repo_id: [u8; 16],
        label: &str,
        master: &MasterKey,
    ) -> Result<WriterKey> {
        let signing_seed: [u8; 32] = random_bytes()?;
        let writer = writer_id(&Signer::from_seed(&signing_seed).public());
        Ok(WriterKey {
            repo_id,
            label: label.to_string(),
            signing_seed,
            id_key: writer_id_key(&master.id_key, &writer),
            owner: master.signer().public().0,
            owner_kem: OwnerKem::derive(master).public(),
        })
    }

    /// The writer's signing key: what it seals names this writer.
    pub fn signer(&self) -> Signer {
        Signer::writer(&self.signing_seed)
    }

    pub fn id(&self) -> WriterId {
        writer_id(&self.signer().public())
    }

    /// The key of this writer's blob ids.
    pub(crate) fn id_key(&self) -> &[u8; 32] {
        &self.id_key
    }

    /// The blob id of `plaintext` as this writer names it.
    #[cfg(test)]
    fn blob_id(&self, plaintext: &[u8]) -> [u8; 32] {
        *blake3::keyed_hash(&self.id_key, plaintext).as_bytes()
    }

    /// The key of the writer's path table in its cache: paths are kept only as keyed
    /// hashes, so a stolen cache lists no names.
    pub(crate) fn path_table_key(&self) -> [u8; 32] {
        blake3::derive_key(PATH_TABLE_KEY_CONTEXT, &self.signing_seed)
    }

    /// The key file's text: a header line, then JSON.
    pub fn to_file_text(&self) -> Result<String> {
        let json = serde_json::to_string_pretty(self).map_err(|_| CryptoError::WriterKeyFile)?;
        Ok(format!("{WRITER_KEY_HEADER}\n{json}\n"))
    }

    pub fn from_file_text(text: &str) -> Result<WriterKey> {
        let body = text
            .strip_prefix(WRITER_KEY_HEADER)
            .and_then(|rest| rest.strip_prefix('\n'))
            .ok_or(CryptoError::WriterKeyFile)?;
        serde_json::from_str(body).map_err(|_| CryptoError::WriterKeyFile.into())
    }
}

impl std::fmt::Debug for WriterKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "WriterKey({}, <redacted>)", self.label)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn master() -> MasterKey {
        MasterKey::from_bytes(&[7u8; 96]).expect("96 bytes")
    }

    #[test]
    fn a_sealed_run_key_opens_only_for_its_owner_repository_and_writer() {
        let owner = OwnerKem::derive(&master());
        let key = RunKey::generate().unwrap();
        let (repo, writer) = ([1u8; 16], [2u8; 16]);
        let sealed = seal_run_key(&owner.public(), &key, &repo, &writer).unwrap();
        let opened = owner.open_run_key(&sealed, &repo, &writer).unwrap();
        assert_eq!(opened.0, key.0);

        // Another writer, another repository, another owner: refused.
        assert!(owner.open_run_key(&sealed, &repo, &[3u8; 16]).is_err());
        assert!(owner.open_run_key(&sealed, &[9u8; 16], &writer).is_err());
        let other = OwnerKem::derive(&MasterKey::from_bytes(&[8u8; 96]).unwrap());
        assert!(other.open_run_key(&sealed, &repo, &writer).is_err());
        // Any flipped bit: refused.
        for i in [0, 31, 32, 63, 64, 79] {
            let mut bad = sealed;
            bad[i] ^= 1;
            assert!(
                owner.open_run_key(&bad, &repo, &writer).is_err(),
                "byte {i}"
            );
        }
    }

    #[test]
    fn seals_are_randomised_and_the_owner_kem_is_deterministic() {
        let m = master();
        assert_eq!(OwnerKem::derive(&m).public(), OwnerKem::derive(&m).public());
        let key = RunKey::generate().unwrap();
        let p = OwnerKem::derive(&m).public();
        let a = seal_run_key(&p, &key, &[0; 16], &[0; 16]).unwrap();
        let b = seal_run_key(&p, &key, &[0; 16], &[0; 16]).unwrap();
        assert_ne!(a, b, "a fresh encapsulation every time");
    }

    #[test]
    fn writer_keys_name_blobs_apart_and_survive_their_file() {
        let m = master();
        let a = WriterKey::generate([5; 16], "host-a", &m).unwrap();
        let b = WriterKey::generate([5; 16], "host-b", &m).unwrap();
        assert_ne!(a.id(), b.id());
        assert_ne!(a.blob_id(b"same"), b.blob_id(b"same"));
        assert_ne!(a.blob_id(b"same"), m.blob_id(b"same"));
        // The owner can recompute a writer's ids.
        let k = writer_id_key(&m.id_key, &a.id());
        assert_eq!(
            *blake3::keyed_hash(&k, b"same").as_bytes(),
            a.blob_id(b"same")
        );

        let text = a.to_file_text().unwrap();
        assert!(text.starts_with("tangle writer key v1\n"));
        let back = WriterKey::from_file_text(&text).unwrap();
        assert_eq!(back.id(), a.id());
        assert_eq!(back.blob_id(b"x"), a.blob_id(b"x"));
        assert_eq!(back.owner_kem, OwnerKem::derive(&m).public());
        assert_eq!(back.label, "host-a");
        assert!(WriterKey::from_file_text("not a key").is_err());
        assert!(WriterKey::from_file_text(&text.replace("host-a", "\u{0}\"")).is_err());
        assert!(!format!("{a:?}").contains(&hex::encode(a.signing_seed)));
    }
}
