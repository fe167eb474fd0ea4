//! Fuzzing entry points (cargo feature `testing` only): one function per decoder of
//! something a remote serves. Each must return, without panicking, hanging or allocating
//! without bound, whatever its input.
//!
//! Signatures and AEAD are checked before anything is decoded, so random bytes would
//! never get past them. Each entry point therefore takes the decoder's *inner* input
//! (what sits behind the signature and the encryption), seals and signs it with a fixed
//! test key, and then runs the real open-and-decode path, so the checks and the decoders
//! are both exercised. Only [`envelope`], the outermost layer, parses its input directly.
//!
//! The cargo-fuzz targets (`fuzz/fuzz_targets/`), the corpus replay
//! (`tests/library/fuzz_corpus.rs`) and the corpus generator call these; the generator uses the
//! `*_input` functions below, the inverses of the harnesses.

use crate::content::blob::{BlobKind, decode_blob, encode_blob};
use crate::content::index::{Index, IndexSegment};
use crate::content::snapshot::Snapshot;
use crate::content::tree::Tree;
use crate::crypto::envelope::{self, ObjectKind};
use crate::crypto::{self, KeyFile, MasterKey, Signer, Signers};
use crate::error::{Error, Result};
use crate::extent::{Certificate, ExtentName, Head};
use crate::repo::Config;

/// A fuzz target's entry point.
pub(crate) type Harness = fn(&[u8]);

/// Every fuzz target: its name (the directory of its corpus, `fuzz/corpus/<name>/`) and
/// its entry point.
pub const TARGETS: &[(&str, Harness)] = &[
    ("envelope", envelope),
    ("config", config),
    ("key_file", key_file),
    ("certificate", certificate),
    ("head", head),
    ("snapshot", snapshot),
    ("index", index),
    ("tree", tree),
    ("blob", blob),
    ("deletion", deletion),
];

const KINDS: [ObjectKind; 7] = [
    ObjectKind::Config,
    ObjectKind::Key,
    ObjectKind::Extent,
    ObjectKind::Head,
    ObjectKind::Snapshot,
    ObjectKind::Index,
    ObjectKind::Deletion,
];

/// The fixed master key the harnesses seal and sign with.
pub(crate) fn test_key() -> MasterKey {
    MasterKey {
        encryption: [0x11; 32],
        id_key: [0x22; 32],
        signing_seed: [0x33; 32],
    }
}

/// The key-encryption key the key-file harness uses in place of Argon2's output.
const TEST_KEK: [u8; 32] = [0x44; 32];

fn signer() -> Signer {
    test_key().signer()
}

/// The outermost layer, parsed directly: an object of any kind, then the input as a
/// payload, which must come back unchanged.
pub fn envelope(data: &[u8]) {
    let signer = signer();
    for kind in KINDS {
        let _ = envelope::open_unverified(kind, data);
        let _ = envelope::open(kind, data, &signer.public());
    }
    let sealed = envelope::seal(ObjectKind::Head, data, &signer);
    let opened = envelope::open(ObjectKind::Head, &sealed, &signer.public());
    assert_eq!(opened.ok(), Some(data), "an envelope does not round-trip");
    let _ = envelope::content_id(data);
}

/// A config payload. The config is self-signed, so the test key is put where the owner
/// key goes (after the format version and the 16-byte id) before it is signed.
pub fn config(data: &[u8]) {
    let signer = signer();
    let mut payload = data.to_vec();
    if let Ok((_, rest)) = postcard::take_from_bytes::<u32>(data) {
        let at = data.len() - rest.len() + 16;
        if let Some(owner) = payload.get_mut(at..at + 32) {
            owner.copy_from_slice(&signer.public().0);
        }
    }
    let object = envelope::seal(ObjectKind::Config, &payload, &signer);
    if let Ok(c) = Config::from_object(&object) {
        let _ = (c.id_hex(), c.coding.overhead());
    }
}

/// A key file payload, read as `Repository::unlock` reads it, then unwrapped without
/// Argon2 (far too slow to fuzz): its `wrapped` field is taken as the plaintext master
/// key and sealed under a fixed key-encryption key first.
pub fn key_file(data: &[u8]) {
    let signer = signer();
    let object = envelope::seal(ObjectKind::Key, data, &signer);
    let Ok(mut kf) = envelope::open(ObjectKind::Key, &object, &signer.public())
        .and_then(|p| Ok(postcard::from_bytes::<KeyFile>(p)?))
    else {
        return;
    };
    if kf.seal_wrapped_for_tests(&TEST_KEK).is_err() {
        return;
    }
    if let Ok(master) = kf.unwrap_with_kek(&TEST_KEK) {
        let _ = master.signer().public() == signer.public();
    }
}

/// A certificate payload, under the name it claims (so the checks after the name
/// check run too), then what readers do with an accepted one: locate every block.
pub fn certificate(data: &[u8]) {
    let signer = signer();
    let object = envelope::seal(ObjectKind::Extent, data, &signer);
    let name = postcard::from_bytes::<Certificate>(data)
        .map(|c| c.name())
        .unwrap_or(ExtentName([0; 32]));
    let Ok(c) = Certificate::from_object(&object, &Signers::owner_only(signer.public()), &name)
    else {
        return;
    };
    let _ = Certificate::placement_of(&object);
    let mut offset = 0u64;
    for &len in &c.block_lengths {
        for (shard, _, _) in c.locate(offset, len as u64) {
            assert!(
                shard < c.data_shards as usize,
                "a block past the data shards"
            );
        }
        offset += len as u64;
    }
}

/// A head payload, at the path it claims.
pub fn head(data: &[u8]) {
    let signer = signer();
    let object = envelope::seal(ObjectKind::Head, data, &signer);
    let path = postcard::from_bytes::<Head>(data)
        .map(|h| h.path())
        .unwrap_or_else(|_| "heads/00/0".into());
    if let Ok(h) = Head::from_object(&object, &Signers::owner_only(signer.public()), &path) {
        assert_eq!(h.path(), path);
    }
}

/// A deletion record's payload, signed with the test key, opened and checked.
pub fn deletion(data: &[u8]) {
    let signer = signer();
    let object = envelope::seal(ObjectKind::Deletion, data, &signer);
    if let Ok(d) = crate::extent::Deletion::from_object(&object, &signer.public()) {
        let mut all = crate::extent::Deletions::default();
        all.add(&d);
        for p in d.metadata_paths() {
            assert!(all.names(&p), "{p}");
        }
    }
}

/// `plaintext` encrypted with `key` (additional data `aad`), signed as a `kind` object,
/// and that object's payload as opening it gives it back (`None`: not sealed or not opened).
fn sealed_and_opened(
    key: &MasterKey,
    kind: ObjectKind,
    aad: &[u8],
    plaintext: &[u8],
) -> Option<Vec<u8>> {
    let signer = key.signer();
    let sealed = crypto::seal(&key.encryption, aad, plaintext).ok()?;
    let object = envelope::seal(kind, &sealed, &signer);
    let payload = envelope::open(kind, &object, &signer.public()).ok()?;
    Some(payload.to_vec())
}

/// A snapshot plaintext: encrypted, signed, then read as `Repository::snapshots` reads it.
pub fn snapshot(data: &[u8]) {
    let key = test_key();
    let aad = crate::content::snapshot::AAD;
    let Some(payload) = sealed_and_opened(&key, ObjectKind::Snapshot, aad, data) else {
        return;
    };
    if let Ok(s) = Snapshot::decrypt(&key, &payload) {
        let _ = s.time();
    }
}

/// An index segment's framed plaintext (`u32 LE plain_len ‖ zstd(postcard)`): encrypted,
/// signed, read as `Repository::load_index` reads it, and added to an in-memory index.
pub fn index(data: &[u8]) {
    let key = test_key();
    let aad = crate::content::index::AAD;
    let Some(payload) = sealed_and_opened(&key, ObjectKind::Index, aad, data) else {
        return;
    };
    let Ok(segment) = IndexSegment::decrypt(&key, &payload) else {
        return;
    };
    let mut idx = Index::default();
    idx.add_segment(&segment);
    // Before and after the entries are packed into the sorted table.
    for merged in [false, true] {
        if merged {
            idx.finish_loading();
        }
        for e in &segment.extents {
            for b in &e.blobs {
                assert!(idx.get(&b.id).is_some(), "an indexed blob is not found");
                assert!(idx.contains(&b.id), "an indexed blob is not confirmed");
            }
        }
    }
}

/// A tree plaintext: stored as a tree blob, read back as `Repository::load_tree` does.
pub fn tree(data: &[u8]) {
    let key = test_key();
    let Ok(stored) = encode_blob(&key, BlobKind::Tree, data) else {
        return;
    };
    let plain = decode_blob(
        &key,
        BlobKind::Tree,
        &key.blob_id(data),
        &stored,
        data.len(),
    );
    let Ok(plain) = plain else {
        panic!("a tree blob does not round-trip");
    };
    if let Ok(t) = Tree::from_bytes(&plain) {
        for n in &t.nodes {
            assert!(t.find(&n.name).is_some(), "a tree entry is not found");
            let _ = n.name_lossy();
        }
    }
}

/// A data blob's framing: `raw_len (u32 LE, the plaintext length the index promises) ‖
/// flag ‖ body`, encrypted, then decoded as the blob reader does. The id cannot match
/// (the plaintext is not known in advance): everything before that check runs.
pub fn blob(data: &[u8]) {
    let Some((raw_len, framed)) = data.split_first_chunk::<4>() else {
        return;
    };
    let key = test_key();
    let Ok(stored) = crypto::seal(&key.encryption, BlobKind::Data.aad(), framed) else {
        return;
    };
    let raw_len = u32::from_le_bytes(*raw_len) as usize;
    let _ = decode_blob(&key, BlobKind::Data, &[0; 32], &stored, raw_len);
}

// ---------------------------------------------------------------------------------
// The inverses, for the corpus generator: the inner input of each real object
// ---------------------------------------------------------------------------------

/// The input of the config, certificate, head, snapshot or index harness for a real
/// object (its payload, decrypted with `key` for snapshots and index segments).
pub fn object_input(kind: ObjectKind, object: &[u8], key: &MasterKey) -> Result<Vec<u8>> {
    let payload = envelope::open_unverified(kind, object)?;
    match kind {
        ObjectKind::Snapshot => {
            crypto::open(&key.encryption, crate::content::snapshot::AAD, payload)
        }
        ObjectKind::Index => crypto::open(&key.encryption, crate::content::index::AAD, payload),
        _ => Ok(payload.to_vec()),
    }
}

/// The input of the key-file harness for a real key file: its payload with `wrapped`
/// replaced by the master key it wraps (which `password` opens).
pub fn key_file_input(object: &[u8], password: &[u8]) -> Result<Vec<u8>> {
    let mut kf: KeyFile =
        postcard::from_bytes(envelope::open_unverified(ObjectKind::Key, object)?)?;
    kf.wrapped = kf.unwrap(password)?.to_bytes().to_vec();
    Ok(postcard::to_stdvec(&kf)?)
}

/// The input of the blob harness for a blob with this plaintext, framed as the writer
/// frames it.
pub fn blob_input(kind: BlobKind, plaintext: &[u8]) -> Result<Vec<u8>> {
    let key = test_key();
    let framed = crypto::open(
        &key.encryption,
        kind.aad(),
        &encode_blob(&key, kind, plaintext)?,
    )?;
    let raw_len = u32::try_from(plaintext.len())
        .map_err(|_| Error::fatal("blob larger than 4 GiB"))?
        .to_le_bytes();
    Ok([&raw_len[..], &framed].concat())
}
