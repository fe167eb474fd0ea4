//! Which snapshots a policy considers (`--host`, `--tag`: [`Filter`]) and how they are
//! grouped (`--group-by`: [`GroupBy`], shared with `snapshots` in [`crate::ops::select`]);
//! each group is judged on its own.

use chrono::{DateTime, Utc};

use crate::ops::select;
pub use crate::ops::select::GroupBy;
pub(super) use crate::ops::select::{GroupKey, split_tags};

/// Which snapshots the policy considers (`--host`, `--tag`); the others are left alone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Any of these hosts (empty: any host).
    pub hosts: Vec<String>,
    /// Tag lists as for [`Policy::keep_tags`](super::Policy::keep_tags): the snapshot must match one of them
    /// (empty: any tags).
    pub tags: Vec<String>,
}

impl Filter {
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.hosts.is_empty() && self.tags.is_empty()
    }

    pub(crate) fn matches(&self, s: &SnapshotRef) -> bool {
        (self.hosts.is_empty() || self.hosts.contains(&s.host))
            && (self.tags.is_empty() || self.tags.iter().any(|l| has_tags(s, &split_tags(l))))
    }
}

/// What the policy needs to know about a snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotRef {
    pub(crate) id: String,
    pub(crate) time: DateTime<Utc>,
    pub(crate) host: String,
    pub(crate) paths: Vec<String>,
    pub(crate) tags: Vec<String>,
    /// The writer that signed it (`None`: the owner): retention groups by it always.
    pub(crate) writer: Option<crate::crypto::writer::WriterId>,
}

impl SnapshotRef {
    /// From a snapshot record's fields (`time_ns`: nanoseconds since the epoch, UTC).
    pub fn new(
        id: impl Into<String>,
        time_ns: i64,
        host: impl Into<String>,
        paths: Vec<String>,
        tags: Vec<String>,
    ) -> SnapshotRef {
        SnapshotRef {
            id: id.into(),
            time: DateTime::from_timestamp_nanos(time_ns),
            host: host.into(),
            paths,
            tags,
            writer: None,
        }
    }

    /// The same, signed by `writer`.
    pub fn signed_by(mut self, writer: Option<crate::crypto::writer::WriterId>) -> SnapshotRef {
        self.writer = writer;
        self
    }
}

/// The snapshot has every tag of `list`; the empty list matches untagged snapshots only.
pub(super) fn has_tags(s: &SnapshotRef, list: &[String]) -> bool {
    select::has_tags(&s.tags, list)
}

pub(super) fn tag_reason(list: &[String]) -> String {
    match list {
        [] => "without tags".to_string(),
        [one] => format!("tag {one}"),
        many => format!("tags {}", many.join(",")),
    }
}

/// The group a snapshot belongs to: sorted paths and tags, as restic, and always the
/// writer that signed it.
pub(super) fn group_key(s: &SnapshotRef, by: GroupBy) -> GroupKey {
    GroupKey::new(&s.host, &s.paths, &s.tags, by).of_writer(s.writer.as_ref())
}
