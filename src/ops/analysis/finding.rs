//! What verify reports, and repair and stats with it: findings (severity, kind, where,
//! what repair would do), what lost data costs, pointer coverage and storage. Everything
//! here is part of `verify --json` (and of `repair --json`, `stats --json`): keys and
//! values only ever gain members, existing ones keep their names and meaning.

use serde::Serialize;

use crate::extent::ExtentName;

#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Not damage: leftovers of interrupted runs, spare-less extents that still decode.
    Info,
    /// `repair` can fix it (exit 20).
    Repairable,
    /// Data is lost (exit 21).
    Unrecoverable,
    /// Bad signature, rollback, fork, foreign key (exit 22).
    Trust,
}

impl Severity {
    pub(crate) fn exit_code(self) -> u8 {
        match self {
            Severity::Info => 0,
            Severity::Repairable => 20,
            Severity::Unrecoverable => 21,
            Severity::Trust => 22,
        }
    }
}

/// Every kind of finding; serialized as the kebab-case names scripts match on.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum FindingKind {
    /// A remote lists fine but holds no repository (lost or wiped).
    RemoteEmpty,
    /// A remote cannot be listed.
    RemoteUnreachable,
    /// Something an interrupted run left (information only).
    Leftover,
    /// Remotes serve different authentic versions of one object or chain position.
    Fork,
    /// A copy is well-formed but not signed by the owner.
    BadSignature,
    /// No remote has an authentic copy of a metadata object.
    MetadataLost,
    /// A metadata copy is missing on one remote.
    MissingMetadata,
    /// A certificate copy has an older placement revision than another remote's.
    StaleCertificate,
    /// A metadata copy is damaged.
    CorruptMetadata,
    /// A remote (or every remote) serves an older state than was seen.
    Rollback,
    /// An extent follows one that no remote has.
    ChainGap,
    /// An extent does not continue its writer's verifier chain.
    ChainBroken,
    /// A shard is missing, of the wrong size or corrupt, and can be rebuilt.
    BadShard,
    /// A shard is missing, of the wrong size or corrupt, and cannot be rebuilt.
    LostShard,
    /// Data shards of an extent cannot be recovered.
    DataLost,
    /// An extent still decodes but has no spare left (information only).
    AtRisk,
    /// Stored parity is not what the data and pointers encode to.
    ParityInconsistent,
    /// With the password: a snapshot's trees or blobs cannot be read.
    SnapshotIncomplete,
    /// A remote holds something that is no object's canonical name (information only:
    /// never read, trusted or copied).
    ForeignObject,
    /// With the password: no key file can be read anywhere (the snapshots cannot be
    /// checked, nor restored).
    KeysUnreadable,
    /// A key file a deletion record names (a removed password) is still on a remote.
    RemovedKey,
}

impl FindingKind {
    #[cfg(test)]
    pub(crate) const ALL: [FindingKind; 21] = [
        FindingKind::RemoteEmpty,
        FindingKind::RemoteUnreachable,
        FindingKind::Leftover,
        FindingKind::Fork,
        FindingKind::BadSignature,
        FindingKind::MetadataLost,
        FindingKind::MissingMetadata,
        FindingKind::StaleCertificate,
        FindingKind::CorruptMetadata,
        FindingKind::Rollback,
        FindingKind::ChainGap,
        FindingKind::ChainBroken,
        FindingKind::BadShard,
        FindingKind::LostShard,
        FindingKind::DataLost,
        FindingKind::AtRisk,
        FindingKind::ParityInconsistent,
        FindingKind::SnapshotIncomplete,
        FindingKind::ForeignObject,
        FindingKind::KeysUnreadable,
        FindingKind::RemovedKey,
    ];

    /// The name in `--json` (and in messages about kinds).
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::RemoteEmpty => "remote-empty",
            FindingKind::RemoteUnreachable => "remote-unreachable",
            FindingKind::Leftover => "leftover",
            FindingKind::Fork => "fork",
            FindingKind::BadSignature => "bad-signature",
            FindingKind::MetadataLost => "metadata-lost",
            FindingKind::MissingMetadata => "missing-metadata",
            FindingKind::StaleCertificate => "stale-certificate",
            FindingKind::CorruptMetadata => "corrupt-metadata",
            FindingKind::Rollback => "rollback",
            FindingKind::ChainGap => "chain-gap",
            FindingKind::ChainBroken => "chain-broken",
            FindingKind::BadShard => "bad-shard",
            FindingKind::LostShard => "lost-shard",
            FindingKind::DataLost => "data-lost",
            FindingKind::AtRisk => "at-risk",
            FindingKind::ParityInconsistent => "parity-inconsistent",
            FindingKind::SnapshotIncomplete => "snapshot-incomplete",
            FindingKind::ForeignObject => "foreign-object",
            FindingKind::KeysUnreadable => "keys-unreadable",
            FindingKind::RemovedKey => "removed-key",
        }
    }
}

impl std::fmt::Display for FindingKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Lets callers that matched on the old string kinds (`f.kind == "bad-shard"`) keep
/// working.
impl PartialEq<&str> for FindingKind {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<str> for FindingKind {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

#[derive(Serialize, Clone, Debug)]
pub struct Finding {
    pub severity: Severity,
    pub kind: FindingKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remote: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) extent: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) shard: Option<usize>,
    pub message: String,
    /// What `repair` would do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repair: Option<String>,
    /// `data-lost` only: what the loss costs in snapshots and paths (its fields sit on
    /// the finding itself; null without the password).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub lost: Option<LostData>,
}

impl Finding {
    pub(crate) fn new(severity: Severity, kind: FindingKind, message: String) -> Finding {
        Finding {
            severity,
            kind,
            remote: None,
            path: None,
            extent: None,
            shard: None,
            message,
            repair: None,
            lost: None,
        }
    }
    /// The remote concerned; the message names it too (the human output is the message).
    pub(crate) fn remote(mut self, url: &str) -> Self {
        if !self.message.contains(url) {
            self.message = format!("{} (on {url})", self.message);
        }
        self.remote = Some(url.to_string());
        self
    }
    pub(crate) fn path(mut self, p: &str) -> Self {
        self.path = Some(p.to_string());
        self
    }
    pub(crate) fn extent(mut self, e: &ExtentName, shard: Option<usize>) -> Self {
        self.extent = Some(e.hex());
        self.shard = shard;
        self
    }
    pub(crate) fn repair(mut self, r: impl Into<String>) -> Self {
        self.repair = Some(r.into());
        self
    }
    pub(crate) fn lost(mut self, l: LostData) -> Self {
        self.lost = Some(l);
        self
    }
}

/// What the lost data shards of one extent cost, in what was backed up (on a `data-lost`
/// finding). When this is not known, every field but `paths_unknown` is `None` (null in
/// `--json`) and `paths_unknown` says why.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct LostData {
    /// Full ids of the snapshots that lose something (a file's content or a
    /// directory's listing), oldest first.
    pub snapshots: Option<Vec<String>>,
    /// Of those, the ones whose root directory listing is lost: nothing of them can be
    /// restored.
    pub snapshots_unrestorable: Option<Vec<String>>,
    /// Per snapshot (in the order of `snapshots`), every path that loses something, in
    /// byte order of the paths.
    pub paths: Option<Vec<LostPath>>,
    /// Bytes of file content the lost shards held that some snapshot refers to, each
    /// chunk counted once however many files and snapshots share it.
    pub lost_bytes: Option<u64>,
    /// Why the fields above are not known; `None` when they are.
    pub paths_unknown: Option<LostUnknown>,
}

/// Why verify cannot name what a `data-lost` extent costs.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum LostUnknown {
    /// Verify ran without the password (or could read no key file): no index, no trees.
    NoPassword,
    /// No index segment names the extent (its segment is lost as well), so what it held
    /// is unknown.
    NotIndexed,
}

impl LostData {
    /// Nothing known, for the reason given: every other field null.
    pub(crate) fn unknown(why: LostUnknown) -> LostData {
        LostData {
            snapshots: None,
            snapshots_unrestorable: None,
            paths: None,
            lost_bytes: None,
            paths_unknown: Some(why),
        }
    }
}

/// One path of one snapshot that loses data.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct LostPath {
    /// Full id of the snapshot.
    pub snapshot: String,
    /// Absolute path as backed up (bytes that are not UTF-8 replaced by U+FFFD); `/`
    /// for the root.
    pub(crate) path: String,
    /// The path's exact bytes (for the text output).
    #[serde(skip)]
    pub raw_path: Vec<u8>,
    #[serde(rename = "type")]
    pub kind: LostPathKind,
    /// A file's size; `None` for a directory.
    pub size: Option<u64>,
    /// Bytes of the file that lay in the lost shards (of this extent; a chunk the file
    /// holds twice counts twice); `None` for a directory, whose contents are all lost.
    pub lost_bytes: Option<u64>,
}

/// What a lost path is: a file whose content lost some chunks, or a directory whose
/// listing (tree) is lost, so nothing under it can be restored.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum LostPathKind {
    File,
    Dir,
}

/// How well entanglement protects the committed extents, from their certificates alone
/// (where shards are meant to be, not what the remotes hold now).
#[derive(Serialize, Clone, Debug, Default, PartialEq)]
pub struct PointerCoverage {
    /// Data shards of the committed extents.
    pub data_shards: usize,
    /// Of those, the ones at least one committed codeword points at.
    pub pointed: usize,
    /// `pointed / data_shards` (0 without data shards).
    pub share: f64,
    /// Per remote (config order): the extents that keep a spare symbol if it is lost.
    pub spare_after_losing: Vec<RemoteSpare>,
}

/// Extents that keep a spare symbol when one remote is lost: their codeword holds fewer
/// than `p` symbols there, or one of those is a pointer (restored by its own extent's
/// codeword) or a data shard another codeword points at (restored by that codeword).
#[derive(Serialize, Clone, Debug, Default, PartialEq)]
pub struct RemoteSpare {
    pub remote: String,
    /// Committed extents.
    pub(crate) extents: usize,
    /// Of those, the ones keeping a spare.
    pub(crate) spare: usize,
    /// `spare / extents` (0 without extents).
    pub share: f64,
}

/// Stored shard bytes against the extent data they hold, from the certificates (what
/// the shards on the remotes should add up to), and what the config's coding alone
/// would store: trees (4 data + 12 parity shards) and shards padded to 64 bytes make
/// the difference.
#[derive(Serialize, Clone, Debug, Default, PartialEq)]
pub struct Storage {
    /// Bytes of extent data (the blocks).
    pub extent_bytes: u64,
    /// Bytes of all their shards, data and parity.
    pub shard_bytes: u64,
    /// `shard_bytes / extent_bytes` (0 without data).
    pub overhead: f64,
    /// `(s + p) / s` of the config's coding, what `init` printed.
    pub coding_overhead: f64,
    /// The same for the extents of file data alone (what `coding_overhead` predicts,
    /// padding aside).
    pub file_data: StoredShare,
    /// The same for the tree extents (directories) alone.
    pub trees: StoredShare,
}

/// Extents of one kind: their data and their shards.
#[derive(Serialize, Clone, Debug, Default, PartialEq)]
pub struct StoredShare {
    pub extents: usize,
    pub extent_bytes: u64,
    pub shard_bytes: u64,
    /// `shard_bytes / extent_bytes` (0 without data).
    pub overhead: f64,
}

impl StoredShare {
    pub(crate) fn add(&mut self, extent_bytes: u64, shard_bytes: u64) {
        self.extents += 1;
        self.extent_bytes = self.extent_bytes.saturating_add(extent_bytes);
        self.shard_bytes = self.shard_bytes.saturating_add(shard_bytes);
        self.overhead = ratio(self.shard_bytes, self.extent_bytes);
    }
}

/// `part / whole`, 0 when `whole` is 0.
fn ratio(part: u64, whole: u64) -> f64 {
    match whole {
        0 => 0.0,
        w => part as f64 / w as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_serialize_to_their_names() {
        for k in FindingKind::ALL {
            assert_eq!(
                serde_json::to_value(k).ok(),
                Some(serde_json::Value::String(k.as_str().to_string()))
            );
        }
    }
}
