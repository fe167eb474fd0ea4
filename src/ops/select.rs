//! Choosing snapshots as restic does: the filters `--host`, `--tag` and `--path`
//! ([`SnapshotFilter`]), `latest` within them ([`find`]), and groups (`--group-by`:
//! [`GroupBy`], [`GroupKey`]). Shared by the commands that take a SNAPSHOT (`ls`,
//! `restore`, `dump`, `diff`, `find`, `cat snapshot`, `stats`), by `snapshots` and by
//! `delete`'s retention policy.
//!
//! As in restic, the filters choose among the snapshots for `latest` (and, for `find`,
//! `stats` and `snapshots`, which snapshots are considered when none is named); a
//! snapshot named by its id (or a unique prefix) is taken as given, with a warning when
//! it does not match them.

use std::fmt;
use std::path::Path;

use serde::Serialize;

use crate::content::Snapshot;
use crate::error::{Error, Result, ResultExt};
use crate::ops::backup::sources::normalize;
use crate::repo::{HasKey, IdentifiedSnapshot, Repository};

/// The name of the newest snapshot (among those the filter selects).
pub(crate) const LATEST: &str = "latest";

/// Which snapshots count (`--host`, `--tag`, `--path`); empty: all of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SnapshotFilter {
    /// Any of these hosts (empty: any host).
    pub hosts: Vec<String>,
    /// Comma-separated tag lists: the snapshot must have every tag of one of them (`""`:
    /// no tags at all). Empty: any tags.
    pub tags: Vec<String>,
    /// Absolute paths, normalised as `backup` records them: the snapshot's paths must
    /// include every one (empty: any paths).
    pub paths: Vec<String>,
}

impl SnapshotFilter {
    pub(crate) fn is_empty(&self) -> bool {
        self.hosts.is_empty() && self.tags.is_empty() && self.paths.is_empty()
    }

    pub(crate) fn matches(&self, s: &Snapshot) -> bool {
        (self.hosts.is_empty() || self.hosts.contains(&s.host))
            && (self.tags.is_empty()
                || (self.tags.iter()).any(|l| has_tags(&s.tags, &split_tags(l))))
            && self.paths.iter().all(|p| s.paths.contains(p))
    }

    /// The snapshots (oldest first) that match, in their order.
    pub(crate) fn select(&self, all: Vec<IdentifiedSnapshot>) -> Vec<IdentifiedSnapshot> {
        all.into_iter().filter(|(_, s)| self.matches(s)).collect()
    }
}

impl fmt::Display for SnapshotFilter {
    /// As given on the command line: `--host a --tag x,y --path /home`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let quoted = |v: &str| {
            if v.is_empty() {
                "''".to_string()
            } else {
                v.to_string()
            }
        };
        let flags: Vec<String> = (self.hosts.iter().map(|h| format!("--host {}", quoted(h))))
            .chain(self.tags.iter().map(|t| format!("--tag {}", quoted(t))))
            .chain(self.paths.iter().map(|p| format!("--path {}", quoted(p))))
            .collect();
        f.write_str(&flags.join(" "))
    }
}

/// The snapshot `spec` names among `all` (oldest first, as [`Repository::snapshots`]
/// returns them): `latest` is the newest that `filter` selects; an id or a unique id
/// prefix is taken as given, whatever the filter.
pub(crate) fn resolve(
    all: Vec<IdentifiedSnapshot>,
    spec: &str,
    filter: &SnapshotFilter,
) -> Result<IdentifiedSnapshot> {
    if spec == LATEST {
        let none = all.is_empty();
        return filter.select(all).pop().ok_or_else(|| {
            Error::not_found(if filter.is_empty() || none {
                "the repository has no snapshots yet".to_string()
            } else {
                format!("no snapshot matches {filter}")
            })
        });
    }
    let prefix = spec.to_ascii_lowercase();
    let mut matches: Vec<_> = all
        .into_iter()
        .filter(|(id, _)| id.starts_with(&prefix))
        .collect();
    match matches.len() {
        0 => Err(Error::not_found(format!("no snapshot matches {spec:?}"))),
        1 => Ok(matches.remove(0)),
        n => Err(Error::usage(format!(
            "{n} snapshots match {spec:?}; give more of the id"
        ))),
    }
}

/// [`resolve`] over the repository's snapshots; warns (through the repository's warning
/// handler) when a snapshot named by id does not match the filter.
pub(crate) fn find<S: HasKey>(
    repo: &Repository<S>,
    spec: &str,
    filter: &SnapshotFilter,
) -> Result<IdentifiedSnapshot> {
    let found = resolve(repo.snapshots()?, spec, filter)?;
    warn_unmatched(repo, spec, &found.0, &found.1, filter);
    Ok(found)
}

/// The snapshots a command works on: those `snapshots` names (ids, unique prefixes or
/// `latest`, which `filter` chooses among), or, when it names none, every snapshot
/// `filter` selects.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    pub snapshots: Vec<String>,
    pub filter: SnapshotFilter,
}

impl Selection {
    /// [`find_all`] of this selection.
    pub(crate) fn find_all<S: HasKey>(
        &self,
        repo: &Repository<S>,
    ) -> Result<Vec<IdentifiedSnapshot>> {
        find_all(repo, &self.snapshots, &self.filter)
    }
}

/// The snapshots `specs` name (each once, in the order given), or with no specs every
/// snapshot the filter selects (oldest first): what `find` and `stats` look at.
pub(crate) fn find_all<S: HasKey>(
    repo: &Repository<S>,
    specs: &[String],
    filter: &SnapshotFilter,
) -> Result<Vec<IdentifiedSnapshot>> {
    let all = repo.snapshots()?;
    if specs.is_empty() {
        return Ok(filter.select(all));
    }
    let mut out: Vec<IdentifiedSnapshot> = Vec::new();
    for spec in specs {
        let found = resolve(all.clone(), spec, filter)?;
        warn_unmatched(repo, spec, &found.0, &found.1, filter);
        if !out.iter().any(|(id, _)| *id == found.0) {
            out.push(found);
        }
    }
    Ok(out)
}

/// Warn when snapshot `id`, which `spec` named, does not match the filter (an id is taken
/// as given: the filters choose only `latest`).
pub(crate) fn warn_unmatched<S: HasKey>(
    repo: &Repository<S>,
    spec: &str,
    id: &str,
    s: &Snapshot,
    f: &SnapshotFilter,
) {
    if spec != LATEST && !f.matches(s) {
        repo.warn(&format!(
            "snapshot {} does not match {f}: a snapshot named by its id is taken as given \
             (the filters choose only `latest`)",
            &id[..8.min(id.len())]
        ));
    }
}

/// Time, host, paths and tags (in any order) the same: the same snapshot brought from
/// elsewhere (`copy`'s source, `import`'s restic repository) a second time.
pub(crate) fn same_labels(a: &Snapshot, b: &Snapshot) -> bool {
    let sorted = |t: &[String]| {
        let mut t = t.to_vec();
        t.sort();
        t
    };
    a.time_ns == b.time_ns
        && a.host == b.host
        && a.paths == b.paths
        && sorted(&a.tags) == sorted(&b.tags)
}

/// A `--path` as `backup` records paths: absolute (a relative one is taken from the
/// current directory), `.` and `..` resolved lexically, no trailing `/`.
pub fn snapshot_path(p: &Path) -> Result<String> {
    let abs = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()
            .ctx("reading the current directory")?
            .join(p)
    };
    Ok(normalize(&abs).to_string_lossy().into_owned())
}

/// Comma-separated tag list, blanks trimmed; `""` is the empty list (untagged).
pub(crate) fn split_tags(list: &str) -> Vec<String> {
    list.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(String::from)
        .collect()
}

/// `tags` include every tag of `list`; the empty list matches untagged snapshots only.
pub(crate) fn has_tags(tags: &[String], list: &[String]) -> bool {
    if list.is_empty() {
        return tags.is_empty();
    }
    list.iter().all(|t| tags.contains(t))
}

/// What separates groups of snapshots (`--group-by`): any of host, paths and tags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GroupBy {
    pub(crate) host: bool,
    pub(crate) paths: bool,
    pub(crate) tags: bool,
}

impl Default for GroupBy {
    /// restic's default for `forget`: `host,paths`.
    fn default() -> Self {
        GroupBy {
            host: true,
            paths: true,
            tags: false,
        }
    }
}

impl GroupBy {
    /// No grouping at all: every snapshot is in one group.
    pub const NONE: GroupBy = GroupBy {
        host: false,
        paths: false,
        tags: false,
    };

    /// Parse `host,paths,tags` (any subset, comma-separated, `path`/`tag`/`hosts` also
    /// accepted as restic does); `''` disables grouping.
    pub fn parse(s: &str) -> Result<GroupBy> {
        GroupBy::parse_fields(s)
            .map_err(|why| Error::usage(format!("invalid --group-by {s:?}: {why}")))
    }

    /// [`GroupBy::parse`], saying only what is wrong (for clap, which names the flag).
    pub fn parse_fields(s: &str) -> std::result::Result<GroupBy, String> {
        let mut g = GroupBy::NONE;
        for part in s.split(',').map(str::trim) {
            match part {
                "host" | "hosts" => g.host = true,
                "path" | "paths" => g.paths = true,
                "tag" | "tags" => g.tags = true,
                "" => {}
                other => {
                    return Err(format!(
                        "unknown criterion {other:?} \
                         (use host, paths and/or tags, comma-separated, or '' for no grouping)"
                    ));
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

/// The group a snapshot belongs to: its host, sorted paths and sorted tags, as far as
/// the [`GroupBy`] asks (`None`: not grouped by it), as restic. Groups sort by it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct GroupKey {
    /// The writer that signed the group's snapshots (hex id; `None`: the owner). Set by
    /// retention always, whatever `--group-by` says: a writer's snapshots crowd out only
    /// its own (DESIGN.md §17).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) writer: Option<String>,
    pub host: Option<String>,
    pub paths: Option<Vec<String>>,
    pub tags: Option<Vec<String>>,
}

impl GroupKey {
    pub(crate) fn new(host: &str, paths: &[String], tags: &[String], by: GroupBy) -> GroupKey {
        let sorted = |v: &[String]| {
            let mut v = v.to_vec();
            v.sort();
            v
        };
        GroupKey {
            writer: None,
            host: by.host.then(|| host.to_string()),
            paths: by.paths.then(|| sorted(paths)),
            tags: by.tags.then(|| sorted(tags)),
        }
    }

    /// The same key, for the snapshots `writer` signed (`None`: the owner's).
    pub(crate) fn of_writer(
        mut self,
        writer: Option<&crate::crypto::writer::WriterId>,
    ) -> GroupKey {
        self.writer = writer.map(hex::encode);
        self
    }

    /// Grouped by nothing (`--group-by ''`), the owner's.
    pub fn is_empty(&self) -> bool {
        self.writer.is_none() && self.host.is_none() && self.paths.is_none() && self.tags.is_none()
    }
}

impl fmt::Display for GroupKey {
    /// `host alpha, paths [/home], tags [db]` (empty when grouped by nothing).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(w) = &self.writer {
            parts.push(format!("writer {}", &w[..8.min(w.len())]));
        }
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

/// `snapshots` (oldest first) in groups by `by`, in the order of their keys, each oldest
/// first; with `latest`, only the newest `n` of each group.
pub fn group(
    snapshots: Vec<IdentifiedSnapshot>,
    by: GroupBy,
    latest: Option<usize>,
) -> Vec<(GroupKey, Vec<IdentifiedSnapshot>)> {
    let mut groups: std::collections::BTreeMap<GroupKey, Vec<IdentifiedSnapshot>> =
        std::collections::BTreeMap::new();
    for s in snapshots {
        let key = GroupKey::new(&s.1.host, &s.1.paths, &s.1.tags, by);
        groups.entry(key).or_default().push(s);
    }
    let mut out: Vec<(GroupKey, Vec<IdentifiedSnapshot>)> = groups.into_iter().collect();
    for (_, list) in &mut out {
        list.sort_by(|a, b| (a.1.time_ns, &a.0).cmp(&(b.1.time_ns, &b.0)));
        if let Some(n) = latest {
            let drop = list.len().saturating_sub(n);
            list.drain(..drop);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::snapshot::SnapshotSummary;

    fn snap(id: &str, t: i64, host: &str, paths: &[&str], tags: &[&str]) -> IdentifiedSnapshot {
        let owned = |v: &[&str]| v.iter().map(|s| s.to_string()).collect();
        (
            id.to_string(),
            Snapshot {
                time_ns: t,
                tree: Default::default(),
                paths: owned(paths),
                host: host.into(),
                user: "u".into(),
                tags: owned(tags),
                parent: None,
                writer: None,
                program: "tangle".into(),
                summary: SnapshotSummary::default(),
            },
        )
    }

    fn table() -> Vec<IdentifiedSnapshot> {
        vec![
            snap("a1", 1, "alpha", &["/home"], &[]),
            snap("b1", 2, "beta", &["/srv"], &["db"]),
            snap("a2", 3, "alpha", &["/home", "/etc"], &["daily", "db"]),
            snap("b2", 4, "beta", &["/srv"], &["daily"]),
        ]
    }

    fn filter(hosts: &[&str], tags: &[&str], paths: &[&str]) -> SnapshotFilter {
        let owned = |v: &[&str]| v.iter().map(|s| s.to_string()).collect();
        SnapshotFilter {
            hosts: owned(hosts),
            tags: owned(tags),
            paths: owned(paths),
        }
    }

    fn latest(f: &SnapshotFilter) -> Result<String> {
        resolve(table(), LATEST, f).map(|(id, _)| id)
    }

    #[test]
    fn latest_is_the_newest_the_filters_select() {
        assert_eq!(latest(&SnapshotFilter::default()).unwrap(), "b2");
        assert_eq!(latest(&filter(&["alpha"], &[], &[])).unwrap(), "a2");
        assert_eq!(latest(&filter(&["alpha", "beta"], &[], &[])).unwrap(), "b2");
        // A comma list needs all its tags; several lists are alternatives.
        assert_eq!(latest(&filter(&[], &["db"], &[])).unwrap(), "a2");
        assert_eq!(latest(&filter(&[], &["db,daily"], &[])).unwrap(), "a2");
        assert_eq!(latest(&filter(&[], &["db,x", "daily"], &[])).unwrap(), "b2");
        assert_eq!(latest(&filter(&[], &[""], &[])).unwrap(), "a1");
        // Paths: the snapshot must have every one given.
        assert_eq!(latest(&filter(&[], &[], &["/home"])).unwrap(), "a2");
        assert_eq!(latest(&filter(&[], &[], &["/etc", "/home"])).unwrap(), "a2");
        assert_eq!(latest(&filter(&["beta"], &[], &["/srv"])).unwrap(), "b2");
        let e = latest(&filter(&["gamma"], &["db"], &[])).unwrap_err();
        assert_eq!(e.kind(), crate::error::Kind::NotFound);
        assert_eq!(e.message(), "no snapshot matches --host gamma --tag db");
        let e = resolve(vec![], LATEST, &SnapshotFilter::default()).unwrap_err();
        assert_eq!(e.message(), "the repository has no snapshots yet");
    }

    #[test]
    fn an_id_ignores_the_filters() {
        let beta = filter(&["beta"], &[], &[]);
        assert_eq!(resolve(table(), "A1", &beta).unwrap().0, "a1");
        assert!(resolve(table(), "a", &beta).is_err());
        assert!(resolve(table(), "c", &beta).is_err());
    }

    #[test]
    fn groups_and_the_latest_of_each() {
        let ids = |g: Vec<(GroupKey, Vec<IdentifiedSnapshot>)>| -> Vec<(String, Vec<String>)> {
            g.into_iter()
                .map(|(k, v)| (k.to_string(), v.into_iter().map(|(id, _)| id).collect()))
                .collect()
        };
        let by_host = GroupBy::parse("host").unwrap();
        assert_eq!(
            ids(group(table(), by_host, Some(1))),
            [
                ("host alpha".to_string(), vec!["a2".to_string()]),
                ("host beta".to_string(), vec!["b2".to_string()]),
            ]
        );
        assert_eq!(
            ids(group(table(), GroupBy::NONE, Some(2))),
            [(String::new(), vec!["a2".to_string(), "b2".to_string()])]
        );
        let g = group(table(), GroupBy::parse("paths,tags").unwrap(), None);
        assert_eq!(g.len(), 4);
        assert_eq!(g[0].0.to_string(), "paths [/etc, /home], tags [daily, db]");
        assert!(GroupBy::parse("host,nope").is_err());
        assert_eq!(snapshot_path(Path::new("/a/./b/../c/")).unwrap(), "/a/c");
        assert_eq!(GroupBy::parse("").unwrap(), GroupBy::NONE);
    }
}
