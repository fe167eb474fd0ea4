//! A lock as stored: `locks/<id>`, a text signed by the owner (FORMAT.md §5.7), or by a
//! writer, whose backups hold it on create-only storage as `locks/<id>`, `locks/<id>-<beat>`
//! for each refresh and `locks/<id>-end` once released (see [`LockPart`]).
//!
//! The first nine lines are those of every tangle since locks were signed, so older
//! binaries read newer locks (they ignore the lines after `refreshed`); the lines after
//! them are `key value` pairs a reader skips when it does not know the key.

use bytes::Bytes;

use super::liveness::ProcessIdentity;
use crate::crypto::Signer;
use crate::crypto::envelope::{self, ObjectKind};
use crate::error::{Error, Result};
use crate::repo::names::{LockPart, lock_part};

pub(super) const MAGIC: &str = "tangle lock v2";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockKind {
    /// Backups (and key additions): any number at once, none during an exclusive one.
    Shared,
    /// Delete, remote changes, key changes: alone.
    Exclusive,
}

/// A lock found on the remotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockInfo {
    /// `locks/<id>`, whichever of the lock's objects it was read from.
    pub path: String,
    pub kind: LockKind,
    pub(crate) host: String,
    pub(crate) pid: u32,
    pub(crate) command: String,
    /// Seconds since the epoch by the holder's clock (shown, never compared): when it was
    /// taken, and last rewritten.
    pub(crate) since: i64,
    pub(crate) refreshed: i64,
    /// Raised by one at every refresh: what a reader watches (0 in locks of older
    /// binaries, whose `refreshed` stands in for it).
    pub(crate) beat: u64,
    /// Who holds it on its machine, for a reader on the same machine.
    pub(crate) holder: ProcessIdentity,
    /// Let go by its holder: read from `locks/<id>-end`, which a holder on create-only
    /// storage writes instead of removing its lock.
    pub(crate) released: bool,
}

/// The name of the lock at `path` (`locks/<id>`).
pub(super) fn lock_id(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The lock (`locks/<id>`) an object of a lock belongs to, and which of its objects it is.
pub(super) fn lock_object(path: &str) -> Option<(String, LockPart)> {
    let (id, part) = lock_part(path.strip_prefix("locks/")?)?;
    Some((format!("locks/{id}"), part))
}

impl LockInfo {
    /// What a reader watches for change: the beat, or in an older binary's lock the
    /// time it was last rewritten.
    /// Where a holder on create-only storage writes this state of its lock: the lock
    /// itself at the first beat, a new object at each later one, and the end object once
    /// released.
    pub(super) fn once_path(&self) -> String {
        match (self.released, self.beat) {
            (true, _) => format!("{}-end", self.path),
            (false, 0 | 1) => self.path.clone(),
            (false, beat) => format!("{}-{beat}", self.path),
        }
    }

    pub(crate) fn progress(&self) -> u64 {
        if self.beat > 0 {
            self.beat
        } else {
            self.refreshed.max(0) as u64
        }
    }

    /// The signed object: the text names the repository and the lock's own id, so that a
    /// lock cannot be replayed into another repository of the same owner or under
    /// another name.
    pub(super) fn to_object(&self, repo_id: &[u8; 16], signer: &Signer) -> Bytes {
        let kind = match self.kind {
            LockKind::Shared => "shared",
            LockKind::Exclusive => "exclusive",
        };
        let mut text = format!(
            "{MAGIC}\nrepo {}\nid {}\nkind {kind}\nhost {}\npid {}\ncommand {}\nsince {}\nrefreshed {}\nbeat {}\n",
            hex::encode(repo_id),
            lock_id(&self.path),
            self.host,
            self.pid,
            self.command,
            self.since,
            self.refreshed,
            self.beat,
        );
        let h = &self.holder;
        for (key, value) in [
            ("boot", h.boot.clone()),
            ("pidns", h.pidns.clone()),
            ("start", h.start.map(|s| s.to_string())),
            ("released", self.released.then(|| "1".to_string())),
        ] {
            if let Some(v) = value {
                text.push_str(&format!("{key} {v}\n"));
            }
        }
        Bytes::from(envelope::seal(ObjectKind::Lock, text.as_bytes(), signer))
    }

    /// The lock at `path` if `bytes` is an authentic lock of repository `repo_id`: signed
    /// by the owner, or a shared one by a granted writer (a writer never excludes others).
    pub(super) fn from_object(
        path: &str,
        bytes: &[u8],
        signers: &crate::crypto::Signers,
        repo_id: &[u8; 16],
    ) -> Result<LockInfo> {
        Self::signed_object(path, bytes, signers, repo_id).map(|(lock, _)| lock)
    }

    /// [`from_object`](Self::from_object), and who signed it: every object of one lock
    /// must be its holder's (see [`super::copies`]).
    pub(super) fn signed_object(
        path: &str,
        bytes: &[u8],
        signers: &crate::crypto::Signers,
        repo_id: &[u8; 16],
    ) -> Result<(LockInfo, envelope::SignedBy)> {
        let (text, signed_by) = signers.open(ObjectKind::Lock, bytes)?;
        let (base, part) =
            lock_object(path).ok_or_else(|| Error::corrupt("not the name of a lock"))?;
        let lock = Self::parse(&base, text, repo_id)
            .ok_or_else(|| Error::corrupt("a signed lock of another repository or name"))?;
        // Each object of a lock says which it is, so none can be served as another.
        let fits = match part {
            LockPart::Base => !lock.released,
            LockPart::Beat(beat) => !lock.released && lock.beat == beat,
            LockPart::End => lock.released,
        };
        if !fits {
            return Err(Error::corrupt(format!(
                "a signed lock served under another of its names ({path})"
            )));
        }
        if let (envelope::SignedBy::Writer(w), LockKind::Exclusive) = (signed_by, lock.kind) {
            return Err(Error::new(
                crate::error::Kind::Trust,
                format!(
                    "an exclusive lock signed by writer {}: only the owner takes those",
                    hex::encode(w)
                ),
            ));
        }
        Ok((lock, signed_by))
    }

    fn parse(path: &str, text: &[u8], repo_id: &[u8; 16]) -> Option<LockInfo> {
        let text = std::str::from_utf8(text).ok()?;
        let mut lines = text.lines();
        (lines.next()? == MAGIC).then_some(())?;
        (lines.next()?.strip_prefix("repo ")? == hex::encode(repo_id)).then_some(())?;
        (lines.next()?.strip_prefix("id ")? == lock_id(path)).then_some(())?;
        let mut field = |key: &str| -> Option<String> {
            Some(
                lines
                    .next()?
                    .strip_prefix(key)?
                    .strip_prefix(' ')?
                    .to_string(),
            )
        };
        let kind = match field("kind")?.as_str() {
            "shared" => LockKind::Shared,
            "exclusive" => LockKind::Exclusive,
            _ => return None,
        };
        let mut lock = LockInfo {
            path: path.to_string(),
            kind,
            host: field("host")?,
            pid: field("pid")?.parse().ok()?,
            command: field("command")?,
            since: field("since")?.parse().ok()?,
            refreshed: field("refreshed")?.parse().ok()?,
            beat: 0,
            holder: ProcessIdentity::default(),
            released: false,
        };
        for line in lines {
            let (key, value) = line.split_once(' ')?;
            match key {
                "beat" => lock.beat = value.parse().ok()?,
                "boot" => lock.holder.boot = Some(value.to_string()),
                "pidns" => lock.holder.pidns = Some(value.to_string()),
                "start" => lock.holder.start = Some(value.parse().ok()?),
                "released" => lock.released = value == "1",
                _ => {}
            }
        }
        Some(lock)
    }

    pub fn describe(&self) -> String {
        let since = chrono::DateTime::from_timestamp(self.since, 0)
            .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
            .unwrap_or_else(|| self.since.to_string());
        format!(
            "{} (pid {} on {}, since {since} by its clock)",
            self.command, self.pid, self.host
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lock's canonical name.
    const X: &str = "locks/abababababababababababababababababababababababababababababababab";

    fn sample() -> LockInfo {
        LockInfo {
            path: X.into(),
            kind: LockKind::Exclusive,
            host: "elsewhere".into(),
            pid: 7,
            command: "delete".into(),
            since: 100,
            refreshed: 200,
            beat: 4,
            holder: ProcessIdentity {
                boot: Some("b00t".into()),
                pidns: Some("pid:[4026531836]".into()),
                start: Some(12345),
            },
            released: false,
        }
    }

    #[test]
    fn locks_round_trip_and_refuse_forgeries_and_replays() {
        let l = sample();
        let (signer, id) = (Signer::from_seed(&[7; 32]), [3u8; 16]);
        let object = l.to_object(&id, &signer);
        let owner = crate::crypto::Signers::owner_only(signer.public());
        assert_eq!(
            LockInfo::from_object(X, &object, &owner, &id).ok(),
            Some(l.clone())
        );
        assert!(LockInfo::from_object(X, b"junk", &owner, &id).is_err());
        let forger = Signer::from_seed(&[8; 32]);
        let forged = l.to_object(&id, &forger);
        assert!(LockInfo::from_object(X, &forged, &owner, &id).is_err());
        assert!(
            LockInfo::from_object(&format!("locks/{}", "cd".repeat(32)), &object, &owner, &id)
                .is_err(),
            "a lock copied under another name"
        );
        assert!(
            LockInfo::from_object(X, &object, &owner, &[4; 16]).is_err(),
            "a lock of another repository"
        );
    }

    #[test]
    fn a_granted_writer_takes_shared_locks_only() {
        let (owner, writer) = (Signer::from_seed(&[7; 32]), Signer::writer(&[9; 32]));
        let wid = *writer.writer_id().unwrap();
        let mut signers = crate::crypto::Signers::owner_only(owner.public());
        signers.grant(wid, writer.public(), None);
        let id = [3u8; 16];
        let shared = LockInfo {
            kind: LockKind::Shared,
            ..sample()
        };
        let object = shared.to_object(&id, &writer);
        assert_eq!(
            LockInfo::from_object(X, &object, &signers, &id).ok(),
            Some(shared)
        );
        let exclusive = LockInfo {
            kind: LockKind::Exclusive,
            ..sample()
        };
        let e = LockInfo::from_object(X, &exclusive.to_object(&id, &writer), &signers, &id)
            .unwrap_err();
        assert!(e.to_string().contains("only the owner takes those"), "{e}");
        // A writer nobody granted: not authentic at all.
        let stranger = crate::crypto::Signers::owner_only(owner.public());
        assert!(LockInfo::from_object(X, &object, &stranger, &id).is_err());
    }

    #[test]
    fn an_older_binarys_lock_reads_and_a_newer_one_keeps_its_first_lines() {
        let id = [3u8; 16];
        let old = format!(
            "{MAGIC}\nrepo {}\nid {}\nkind shared\nhost h\npid 9\ncommand backup\nsince 5\nrefreshed 77\n",
            hex::encode(id),
            lock_id(X)
        );
        let l = LockInfo::parse(X, old.as_bytes(), &id).expect("an old lock");
        assert_eq!((l.beat, l.progress(), l.holder.boot), (0, 77, None));
        // What an older binary reads of a new lock: the same first nine lines.
        let signer = Signer::from_seed(&[7; 32]);
        let new = sample().to_object(&id, &signer);
        let text = envelope::open(ObjectKind::Lock, &new, &signer.public()).unwrap();
        let text = std::str::from_utf8(text).unwrap();
        assert!(text.starts_with(&format!("{MAGIC}\nrepo {}\nid {}\nkind exclusive\nhost elsewhere\npid 7\ncommand delete\nsince 100\nrefreshed 200\n", hex::encode(id), lock_id(X))), "{text}");
        // Keys a reader does not know are skipped.
        let later = format!("{old}beat 3\nfuture thing\n");
        assert_eq!(
            LockInfo::parse(X, later.as_bytes(), &id).map(|l| l.beat),
            Some(3)
        );
    }

    #[test]
    fn a_lock_on_create_only_storage_is_one_object_per_beat_and_one_to_release_it() {
        let (signer, id) = (Signer::from_seed(&[7; 32]), [3u8; 16]);
        let owner = crate::crypto::Signers::owner_only(signer.public());
        let mut l = LockInfo {
            path: X.into(),
            beat: 1,
            ..sample()
        };
        assert_eq!(l.once_path(), X);
        l.beat = 5;
        let beat5 = format!("{X}-5");
        assert_eq!(l.once_path(), beat5);
        let object = l.to_object(&id, &signer);
        let read = LockInfo::from_object(&beat5, &object, &owner, &id).unwrap();
        assert_eq!((read.path.as_str(), read.beat), (X, 5));
        // A beat served under another beat's name or as the end: refused. (As the lock
        // itself it reads as what it is, a later beat of it: an owner's lock is one object
        // rewritten with higher beats.)
        for other in [format!("{X}-6"), format!("{X}-end")] {
            assert!(
                LockInfo::from_object(&other, &object, &owner, &id).is_err(),
                "beat 5 read as {other}"
            );
        }
        l.released = true;
        assert_eq!(l.once_path(), format!("{X}-end"));
        let end = l.to_object(&id, &signer);
        let read = LockInfo::from_object(&format!("{X}-end"), &end, &owner, &id).unwrap();
        assert!(read.released);
        // An end served as a beat or as the lock itself would hide nothing, but is refused.
        assert!(LockInfo::from_object(&beat5, &end, &owner, &id).is_err());
        assert!(LockInfo::from_object(X, &end, &owner, &id).is_err());
        // Names that are not canonical are no lock's.
        for junk in [
            format!("{X}-1"),
            format!("{X}-05"),
            format!("{X}-x"),
            format!("{X}-"),
        ] {
            assert!(
                LockInfo::from_object(&junk, &object, &owner, &id).is_err(),
                "{junk}"
            );
        }
    }
}
