//! The state of remote directories ("nothing changed" checks, files rebuilt byte for
//! byte) and the damage tests do to them.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use super::fsutil::{copy_tree, files_under};
use crate::shared::files::pseudo_random;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirItem {
    Dir,
    File(Vec<u8>),
    Symlink(PathBuf),
    Other,
}

/// Every path under `root` with its kind and contents (empty map if absent).
pub fn dir_state(root: &Path) -> BTreeMap<PathBuf, DirItem> {
    let mut out = BTreeMap::new();
    fn walk(root: &Path, p: &Path, out: &mut BTreeMap<PathBuf, DirItem>) {
        let Ok(m) = fs::symlink_metadata(p) else {
            return;
        };
        let rel = p.strip_prefix(root).unwrap().to_path_buf();
        if m.is_dir() {
            out.insert(rel, DirItem::Dir);
            for e in fs::read_dir(p).unwrap() {
                walk(root, &e.unwrap().path(), out);
            }
        } else if m.is_file() {
            out.insert(rel, DirItem::File(fs::read(p).unwrap()));
        } else if m.file_type().is_symlink() {
            out.insert(rel, DirItem::Symlink(fs::read_link(p).unwrap()));
        } else {
            out.insert(rel, DirItem::Other);
        }
    }
    walk(root, root, &mut out);
    out
}

/// Names of the paths that differ between two states (for readable failures).
pub fn state_diff(
    before: &BTreeMap<PathBuf, DirItem>,
    after: &BTreeMap<PathBuf, DirItem>,
) -> Vec<String> {
    let keys: BTreeSet<&PathBuf> = before.keys().chain(after.keys()).collect();
    keys.into_iter()
        .filter(|k| before.get(*k) != after.get(*k))
        .map(|k| match (before.get(k), after.get(k)) {
            (None, Some(_)) => format!("added {}", k.display()),
            (Some(_), None) => format!("removed {}", k.display()),
            _ => format!("changed {}", k.display()),
        })
        .collect()
}

pub fn assert_remotes_unchanged(
    before: &[BTreeMap<PathBuf, DirItem>],
    after: &[BTreeMap<PathBuf, DirItem>],
    what: &str,
) {
    for (i, (b, a)) in before.iter().zip(after).enumerate() {
        let d = state_diff(b, a);
        assert!(
            d.is_empty(),
            "{what}: remote{i} was modified:\n{}",
            d.join("\n")
        );
    }
}

/// Only the regular files of a remote dir, with contents.
pub fn files_state(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    dir_state(dir)
        .into_iter()
        .filter_map(|(p, item)| match item {
            DirItem::File(b) => Some((p, b)),
            _ => None,
        })
        .collect()
}

/// The same files with the same bytes (the identity marker `remote-id` only present on
/// both sides), else a list of what was added / is missing / differs.
pub fn assert_files_equal(
    before: &BTreeMap<PathBuf, Vec<u8>>,
    after: &BTreeMap<PathBuf, Vec<u8>>,
    what: &str,
) {
    let keys: BTreeSet<&PathBuf> = before.keys().chain(after.keys()).collect();
    // A remote's identity marker is its own: a rebuilt remote gets a fresh one.
    let same = |k: &PathBuf| match (before.get(k), after.get(k)) {
        (Some(_), Some(_)) if k.as_os_str() == "remote-id" => true,
        (b, a) => b == a,
    };
    let diff: Vec<String> = keys
        .into_iter()
        .filter(|k| !same(k))
        .map(|k| match (before.get(k), after.get(k)) {
            (None, _) => format!("added {}", k.display()),
            (_, None) => format!("missing {}", k.display()),
            _ => format!("differs {}", k.display()),
        })
        .collect();
    assert!(
        diff.is_empty(),
        "{what}: {} files differ:\n{}",
        diff.len(),
        diff.join("\n")
    );
}

/// The object paths (`prefix/...`, '/'-separated) of a local remote under `prefix`,
/// sorted; hidden files (temporaries) left out.
pub fn object_paths(dir: &Path, prefix: &str) -> Vec<String> {
    let mut v: Vec<String> = files_under(&dir.join(prefix))
        .iter()
        .map(|p| p.strip_prefix(dir).unwrap().to_str().unwrap().to_string())
        .filter(|p| !p.rsplit('/').next().unwrap().starts_with('.'))
        .collect();
    v.sort();
    v
}

/// Flip a few bytes of a file (same size).
pub fn flip_bytes(p: &Path) {
    let mut d = fs::read(p).unwrap();
    assert!(!d.is_empty(), "{} is empty", p.display());
    for pos in [0, d.len() / 3, d.len() / 2, d.len() - 1] {
        d[pos] ^= 0xa5;
    }
    fs::write(p, d).unwrap();
}

/// Ways to damage one stored object.
#[derive(Clone, Copy, Debug)]
pub enum FileDamage {
    /// Replaced by as many (at least 64) pseudo-random bytes.
    Garbage,
    /// Cut to half its length.
    Truncated,
    Missing,
}

pub fn damage_file(damage: FileDamage, p: &Path) {
    match damage {
        FileDamage::Garbage => {
            let n = fs::metadata(p).unwrap().len().max(64) as usize;
            fs::write(p, pseudo_random(99, n)).unwrap();
        }
        FileDamage::Truncated => {
            let d = fs::read(p).unwrap();
            fs::write(p, &d[..d.len() / 2]).unwrap();
        }
        FileDamage::Missing => fs::remove_file(p).unwrap(),
    }
}

/// Replace directory `dir` by a copy of `with` (e.g. a remote by its older copy).
pub fn replace_dir(dir: &Path, with: &Path) {
    fs::remove_dir_all(dir).unwrap();
    copy_tree(with, dir);
}
