//! Which snapshots a policy considers (`--host`, `--tag`: [`Filter`]) and how they are
//! grouped (`--group-by`: [`GroupBy`]); each group is judged on its own.

use std::fmt;

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::error::{Error, Result};

/// What separates groups of snapshots (`--group-by`); restic's default is `host,paths`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GroupBy {
    pub host: bool,
    pub paths: bool,
    pub tags: bool,
}

impl Default for GroupBy {
    fn default() -> Self {
        GroupBy {
            host: true,
            paths: true,
            tags: false,
        }
    }
}

impl GroupBy {
    /// No grouping at all: the policy sees every considered snapshot as one group.
    pub const NONE: GroupBy = GroupBy {
        host: false,
        paths: false,
        tags: false,
    };

    /// Parse `host,paths,tags` (any subset, comma-separated, `path`/`tag`/`hosts` also
    /// accepted as restic does); `''` disables grouping.
    pub fn parse(s: &str) -> Result<GroupBy> {
        let mut g = GroupBy::NONE;
        for part in s.split(',').map(str::trim) {
            match part {
                "host" | "hosts" => g.host = true,
                "path" | "paths" => g.paths = true,
                "tag" | "tags" => g.tags = true,
                "" => {}
                other => {
                    return Err(Error::usage(format!(
                        "invalid --group-by {s:?}: unknown criterion {other:?} \
                         (use host, paths and/or tags, comma-separated, or '' for no grouping)"
                    )));
                }
            }
        }
        Ok(g)
    }
}

impl fmt::Display for GroupBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<&str> = [
            (self.host, "host"),
            (self.paths, "paths"),
            (self.tags, "tags"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
        f.write_str(&parts.join(","))
    }
}

impl std::str::FromStr for GroupBy {
    type Err = Error;
    fn from_str(s: &str) -> Result<GroupBy> {
        GroupBy::parse(s)
    }
}

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
    pub fn is_empty(&self) -> bool {
        self.hosts.is_empty() && self.tags.is_empty()
    }

    pub fn matches(&self, s: &SnapshotRef) -> bool {
        (self.hosts.is_empty() || self.hosts.contains(&s.host))
            && (self.tags.is_empty() || self.tags.iter().any(|l| has_tags(s, &split_tags(l))))
    }
}

/// What the policy needs to know about a snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotRef {
    pub id: String,
    pub time: DateTime<Utc>,
    pub host: String,
    pub paths: Vec<String>,
    pub tags: Vec<String>,
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
        }
    }
}

/// Comma-separated tag list, blanks trimmed; `""` is the empty list (untagged).
pub(super) fn split_tags(list: &str) -> Vec<String> {
    list.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(String::from)
        .collect()
}

/// The snapshot has every tag of `list`; the empty list matches untagged snapshots only.
pub(super) fn has_tags(s: &SnapshotRef, list: &[String]) -> bool {
    if list.is_empty() {
        return s.tags.is_empty();
    }
    list.iter().all(|t| s.tags.contains(t))
}

pub(super) fn tag_reason(list: &[String]) -> String {
    match list {
        [] => "without tags".to_string(),
        [one] => format!("tag {one}"),
        many => format!("tags {}", many.join(",")),
    }
}

/// The group a snapshot belongs to: sorted paths and tags, as restic.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct GroupKey {
    host: Option<String>,
    paths: Option<Vec<String>>,
    tags: Option<Vec<String>>,
}

impl GroupKey {
    pub(super) fn of(s: &SnapshotRef, by: GroupBy) -> GroupKey {
        let sorted = |v: &[String]| {
            let mut v = v.to_vec();
            v.sort();
            v
        };
        GroupKey {
            host: by.host.then(|| s.host.clone()),
            paths: by.paths.then(|| sorted(&s.paths)),
            tags: by.tags.then(|| sorted(&s.tags)),
        }
    }
}

impl fmt::Display for GroupKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(h) = &self.host {
            parts.push(format!("host {h}"));
        }
        if let Some(p) = &self.paths {
            parts.push(format!("paths [{}]", p.join(", ")));
        }
        if let Some(t) = &self.tags {
            parts.push(format!("tags [{}]", t.join(", ")));
        }
        f.write_str(&parts.join(", "))
    }
}
