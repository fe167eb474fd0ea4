//! The repository's object names, and the rule that only canonical names are objects.
//!
//! Every object tangle writes has exactly one spelling (lower-case hex of fixed length,
//! decimal shard numbers without leading zeros). Anything else a remote lists — a junk
//! file, a certificate copied to its upper-case hex name — is *foreign*: verify reports
//! it naming its remote, and nothing reads, trusts or copies it. Without this rule a
//! remote could raise alarms repair can never clear (a junk `keys/x` that no remote has
//! "an authentic copy" of) or plant a second spelling of an authentic certificate that
//! looks like a fork and that repair would spread.

use crate::extent::{ExtentName, REVOKED_WRITERS, WRITERS};

/// The per-remote identity marker (see [`super::marker`]).
pub(crate) const MARKER_PATH: &str = "remote-id";

/// Where a key's removal record is found by the key's id (`removed-keys/<key id>`):
/// unlocking checks only the one that could name the key that opened (FORMAT §5.7).
pub(crate) const REMOVED_KEYS: &str = "removed-keys";

/// `removed-keys/<id>`: the removal record of key file `keys/<id>`, under a name derived
/// from the key.
pub(crate) fn removed_key_path(key_id: &str) -> String {
    format!("{REMOVED_KEYS}/{key_id}")
}

/// What a canonical object path names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ObjectName {
    Config,
    /// The remote's identity marker.
    Marker,
    /// `keys/<content id>`.
    Key,
    /// `heads/<writer>/<seq>`.
    Head,
    /// `extents/<name>`: a certificate.
    Certificate(ExtentName),
    /// `snapshots/<content id>`.
    Snapshot,
    /// `index/<content id>`.
    Index,
    /// `deletions/<content id>`: a signed deletion record.
    Deletion,
    /// `removed-keys/<key id>`: the deletion record of a key's removal, named by the key.
    RemovedKey,
    /// `writers/<writer id>`: the owner's grant of a writer key.
    Writer,
    /// `revoked-writers/<writer id>`: the owner's revocation of a writer key.
    RevokedWriter,
    /// `locks/<random id>`: a backup's or delete's lock (not replicated by repair); also
    /// `locks/<id>-<beat>` and `locks/<id>-end`, the refreshes and release of a lock
    /// held on create-only storage (see [`LockPart`]).
    Lock,
    /// `repairs/<random id>`: a running repair's unsigned marker (see `repo::lock`).
    RepairMarker,
    /// `shards/<extent>/<index>`.
    Shard(ExtentName, usize),
}

impl ObjectName {
    /// Classify `path`: `None` if it is not the canonical name of any object.
    pub(crate) fn parse(path: &str) -> Option<ObjectName> {
        let parts: Vec<&str> = path.split('/').collect();
        match parts.as_slice() {
            ["config"] => Some(ObjectName::Config),
            [MARKER_PATH] => Some(ObjectName::Marker),
            ["keys", id] if is_hex(id, 64) => Some(ObjectName::Key),
            ["snapshots", id] if is_hex(id, 64) => Some(ObjectName::Snapshot),
            ["index", id] if is_hex(id, 64) => Some(ObjectName::Index),
            ["deletions", id] if is_hex(id, 64) => Some(ObjectName::Deletion),
            [REMOVED_KEYS, id] if is_hex(id, 64) => Some(ObjectName::RemovedKey),
            [WRITERS, id] if is_hex(id, 32) => Some(ObjectName::Writer),
            [REVOKED_WRITERS, id] if is_hex(id, 32) => Some(ObjectName::RevokedWriter),
            ["locks", name] if lock_part(name).is_some() => Some(ObjectName::Lock),
            ["repairs", id] if is_hex(id, 64) => Some(ObjectName::RepairMarker),
            ["heads", writer, seq] if is_hex(writer, 32) && is_hex(seq, 16) => {
                Some(ObjectName::Head)
            }
            ["extents", name] if is_hex(name, 64) => {
                ExtentName::parse(name).ok().map(ObjectName::Certificate)
            }
            ["shards", name, index] if is_hex(name, 64) => {
                let index = canonical_index(index)?;
                ExtentName::parse(name)
                    .ok()
                    .map(|n| ObjectName::Shard(n, index))
            }
            _ => None,
        }
    }

    /// Metadata: replicated on every remote and repaired (everything but shards, the
    /// marker, which differs per remote by design, and locks and repair markers, which
    /// come and go).
    pub(crate) fn is_metadata(&self) -> bool {
        !matches!(
            self,
            ObjectName::Shard(..)
                | ObjectName::Marker
                | ObjectName::Lock
                | ObjectName::RepairMarker
        )
    }
}

/// Which object of a lock a name under `locks/` is. A holder that may rewrite and remove
/// objects keeps its lock in one object, `<id>`, rewritten at each refresh and removed at
/// the end. A holder on create-only storage (a writer key's backup) can do neither, so it
/// adds `<id>-<beat>` at each refresh and `<id>-end` when it lets go (FORMAT.md §5.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LockPart {
    Base,
    Beat(u64),
    End,
}

/// The lock id (64 hex digits) and part of the name `name` under `locks/`; `None` if it
/// is not canonical (beats are decimal from 2, without leading zeros).
pub(crate) fn lock_part(name: &str) -> Option<(&str, LockPart)> {
    let (id, part) = match name.split_once('-') {
        None => (name, LockPart::Base),
        Some((id, "end")) => (id, LockPart::End),
        Some((id, beat)) => {
            let canonical = !beat.is_empty()
                && beat.len() <= 19
                && beat.bytes().all(|b| b.is_ascii_digit())
                && !beat.starts_with('0');
            let beat: u64 = beat.parse().ok().filter(|&b| canonical && b >= 2)?;
            (id, LockPart::Beat(beat))
        }
    };
    is_hex(id, 64).then_some((id, part))
}

/// Whether `path` is the canonical name of a replicated metadata object.
pub(crate) fn is_metadata(path: &str) -> bool {
    ObjectName::parse(path).is_some_and(|n| n.is_metadata())
}

/// Whether `path` is the canonical name of any object (else it is foreign).
pub(crate) fn is_canonical(path: &str) -> bool {
    ObjectName::parse(path).is_some()
}

/// Exactly `len` lower-case hex digits.
fn is_hex(s: &str, len: usize) -> bool {
    s.len() == len && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A shard number as tangle writes it: decimal, no sign, no leading zeros, below 256.
fn canonical_index(s: &str) -> Option<usize> {
    let ok = !s.is_empty()
        && s.len() <= 3
        && s.bytes().all(|b| b.is_ascii_digit())
        && (s == "0" || !s.starts_with('0'));
    ok.then(|| s.parse::<usize>().ok())
        .flatten()
        .filter(|&i| i < 256)
}

#[cfg(test)]
mod tests {
    use super::*;

    const H64: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    const H32: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn canonical_names_parse() {
        let name = ExtentName::parse(H64).unwrap();
        for (path, parsed) in [
            ("config".to_string(), ObjectName::Config),
            ("remote-id".to_string(), ObjectName::Marker),
            (format!("keys/{H64}"), ObjectName::Key),
            (format!("removed-keys/{H64}"), ObjectName::RemovedKey),
            (format!("writers/{H32}"), ObjectName::Writer),
            (format!("revoked-writers/{H32}"), ObjectName::RevokedWriter),
            (format!("heads/{H32}/00000000000000ff"), ObjectName::Head),
            (format!("extents/{H64}"), ObjectName::Certificate(name)),
            (format!("shards/{H64}/10"), ObjectName::Shard(name, 10)),
            (format!("locks/{H64}"), ObjectName::Lock),
            (format!("locks/{H64}-2"), ObjectName::Lock),
            (format!("locks/{H64}-1234"), ObjectName::Lock),
            (format!("locks/{H64}-end"), ObjectName::Lock),
        ] {
            assert_eq!(ObjectName::parse(&path), Some(parsed), "{path}");
        }
        assert!(is_metadata(&removed_key_path(H64)));
        assert!(is_metadata(&format!("revoked-writers/{H32}")));
        assert_eq!(name.cert_path(), format!("extents/{H64}"));
        assert!(is_canonical(&name.shard_path(0)) && is_canonical(&name.shard_path(254)));
    }

    #[test]
    fn other_spellings_are_foreign() {
        let upper = H64.to_uppercase();
        for p in [
            "keys/deadbeef".to_string(),
            "removed-keys/deadbeef".to_string(),
            format!("locks/{H64}-1"),
            format!("locks/{H64}-02"),
            format!("locks/{H64}-"),
            format!("locks/{H64}-End"),
            format!("locks/{H64}-2-end"),
            format!("locks/{upper}-2"),
            format!("removed-keys/{H64}/x"),
            format!("keys/{upper}"),
            format!("extents/{upper}"),
            format!("extents/{H64}/x"),
            format!("shards/{upper}/0"),
            format!("shards/{H64}/01"),
            format!("shards/{H64}/+1"),
            format!("shards/{H64}/256"),
            format!("shards/{H64}"),
            format!("heads/{H32}/ff"),
            format!("heads/{H64}/00000000000000ff"),
            format!("writers/{H64}"),
            format!("revoked-writers/{H32}/x"),
            "README".into(),
            "config.bak".into(),
            "keys".into(),
            String::new(),
        ] {
            assert_eq!(ObjectName::parse(&p), None, "{p}");
        }
    }
}
