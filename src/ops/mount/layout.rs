//! The made-up directories of a mount, as restic lays them out:
//!
//! ```text
//! snapshots/2026-11-28T06:14:08+00:00/   a snapshot's tree (a second one in the same
//!                                        second gets "-1", then "-2", ...)
//! snapshots/latest -> 2026-11-28T06:14:08+00:00
//! hosts/HOST/TIME -> ../../snapshots/TIME, and hosts/HOST/latest
//! tags/TAG/TIME -> ../../snapshots/TIME, and tags/TAG/latest
//! ids/SHORT-ID -> ../snapshots/TIME
//! ```
//!
//! Times are local, as restic shows them. Host and tag names that cannot be one path
//! component (empty, `.`, `..`, or holding `/` or NUL) have those bytes written `%XX`.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use fuser::FileType;

use super::fs::{Table, What};
use crate::content::Snapshot;
use crate::repo::IdentifiedSnapshot;
use crate::util::short_id;

/// What the root of the mount is.
pub(super) enum Root {
    /// These snapshots (oldest first), laid out as above.
    Snapshots(Vec<IdentifiedSnapshot>),
    /// One snapshot's tree.
    Tree(Box<Snapshot>),
}

/// Fill the empty `table` (the root becomes inode 1).
pub(super) fn build(table: &mut Table, root: Root) {
    match root {
        Root::Tree(snap) => {
            table.add(
                0,
                OsStr::new(""),
                FileType::Directory,
                time(&snap),
                What::Tree(Some(snap.tree)),
            );
        }
        Root::Snapshots(all) => lay_out(table, &all),
    }
}

fn lay_out(table: &mut Table, all: &[IdentifiedSnapshot]) {
    let newest = all.last().map_or(UNIX_EPOCH, |(_, s)| time(s));
    let dir = |table: &mut Table, parent: u64, name: &str| {
        table.add(
            parent,
            OsStr::new(name),
            FileType::Directory,
            newest,
            What::Dir(Vec::new()),
        )
    };
    let root = dir(table, 0, "");
    let snapshots = dir(table, root, "snapshots");
    let hosts = dir(table, root, "hosts");
    let tags = dir(table, root, "tags");
    let ids = dir(table, root, "ids");

    // snapshots/: one directory per snapshot, named by its time.
    let names = dir_names(all);
    let mut entries = Vec::new();
    for ((_, snap), name) in all.iter().zip(&names) {
        let ino = table.add(
            snapshots,
            OsStr::new(name),
            FileType::Directory,
            time(snap),
            What::Tree(Some(snap.tree)),
        );
        entries.push((OsString::from(name), ino));
    }
    if let Some(last) = names.last() {
        let link = table.add(
            snapshots,
            OsStr::new("latest"),
            FileType::Symlink,
            newest,
            What::Link(last.clone().into_bytes()),
        );
        entries.push(("latest".into(), link));
    }
    table.set_entries(snapshots, entries);

    // hosts/HOST/ and tags/TAG/: links to the snapshots of each, oldest first.
    let mut by_host: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut by_tag: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, (_, snap)) in all.iter().enumerate() {
        by_host.entry(component(&snap.host)).or_default().push(i);
        for tag in &snap.tags {
            let list = by_tag.entry(component(tag)).or_default();
            if list.last() != Some(&i) {
                list.push(i);
            }
        }
    }
    for (parent, groups) in [(hosts, by_host), (tags, by_tag)] {
        let mut entries = Vec::new();
        for (group, members) in groups {
            let at = members.last().map_or(newest, |&i| time(&all[i].1));
            let group_dir = table.add(
                parent,
                OsStr::new(&group),
                FileType::Directory,
                at,
                What::Dir(Vec::new()),
            );
            let mut links = Vec::new();
            for &i in &members {
                let target = format!("../../snapshots/{}", names[i]);
                let ino = table.add(
                    group_dir,
                    OsStr::new(&names[i]),
                    FileType::Symlink,
                    time(&all[i].1),
                    What::Link(target.into_bytes()),
                );
                links.push((OsString::from(&names[i]), ino));
            }
            if let Some(&i) = members.last() {
                let ino = table.add(
                    group_dir,
                    OsStr::new("latest"),
                    FileType::Symlink,
                    at,
                    What::Link(names[i].clone().into_bytes()),
                );
                links.push(("latest".into(), ino));
            }
            table.set_entries(group_dir, links);
            entries.push((OsString::from(group), group_dir));
        }
        table.set_entries(parent, entries);
    }

    // ids/: the short id of each snapshot (the whole id where two share one).
    let mut entries = Vec::new();
    for ((id, snap), name) in all.iter().zip(&names) {
        let shared = all
            .iter()
            .filter(|(other, _)| short_id(other) == short_id(id))
            .count()
            > 1;
        let label = if shared {
            id.clone()
        } else {
            short_id(id).to_string()
        };
        let target = format!("../snapshots/{name}");
        let ino = table.add(
            ids,
            OsStr::new(&label),
            FileType::Symlink,
            time(snap),
            What::Link(target.into_bytes()),
        );
        entries.push((OsString::from(label), ino));
    }
    table.set_entries(ids, entries);

    table.set_entries(
        root,
        ["snapshots", "hosts", "tags", "ids"]
            .into_iter()
            .zip([snapshots, hosts, tags, ids])
            .map(|(n, ino)| (OsString::from(n), ino))
            .collect(),
    );
}

/// The directory name of each snapshot: its local time, with `-1`, `-2`, ... for the
/// second and later snapshots of the same second.
fn dir_names(all: &[IdentifiedSnapshot]) -> Vec<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    all.iter()
        .map(|(_, snap)| {
            let base = chrono::DateTime::from_timestamp_nanos(snap.time_ns)
                .with_timezone(&chrono::Local)
                .format("%Y-%m-%dT%H:%M:%S%:z")
                .to_string();
            let n = seen.entry(base.clone()).or_default();
            *n += 1;
            match *n {
                1 => base,
                k => format!("{base}-{}", k - 1),
            }
        })
        .collect()
}

/// `name` as one path component: `/`, NUL and `%` written `%XX`; an empty name, `.`
/// and `..` too.
fn component(name: &str) -> String {
    match name {
        "" => "%00".into(),
        "." => "%2E".into(),
        ".." => "%2E%2E".into(),
        _ => name
            .chars()
            .map(|c| match c {
                '/' | '\0' | '%' => format!("%{:02X}", c as u32),
                c => c.to_string(),
            })
            .collect(),
    }
}

fn time(snap: &Snapshot) -> SystemTime {
    let ns = snap.time_ns;
    if ns >= 0 {
        UNIX_EPOCH + Duration::from_nanos(ns as u64)
    } else {
        UNIX_EPOCH - Duration::from_nanos(ns.unsigned_abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_are_not_one_component_are_escaped() {
        let cases = [
            ("laptop", "laptop"),
            ("a/b", "a%2Fb"),
            ("50%", "50%25"),
            ("..", "%2E%2E"),
            ("", "%00"),
        ];
        for (name, escaped) in cases {
            assert_eq!(component(name), escaped, "{name:?}");
        }
    }
}
