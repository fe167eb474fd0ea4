//! What to back up: the source paths (as a "virtual" tree from `/` down to each of them)
//! and the exclude patterns.

use std::collections::BTreeMap;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result, ResultExt};
pub use crate::pathmatch::PathMatcher as Excludes;

/// The directories between `/` and the source paths. Only the sources themselves are
/// walked in full; their ancestors contribute just their own metadata.
#[derive(Debug, Default)]
pub struct VirtualDir {
    pub children: BTreeMap<Vec<u8>, VirtualEntry>,
}

#[derive(Debug)]
pub enum VirtualEntry {
    /// A source path: back up everything below it.
    Source,
    /// An ancestor of one or more sources.
    Dir(VirtualDir),
}

pub struct Sources {
    pub paths: Vec<PathBuf>,
    /// `None` when `/` itself is a source.
    pub root: Option<VirtualDir>,
}

impl Sources {
    /// Make paths absolute, check they exist (before anything is written), dedup, and
    /// drop paths inside other paths.
    pub fn new(given: &[PathBuf]) -> Result<Sources> {
        if given.is_empty() {
            return Err(Error::usage("nothing to back up: give at least one path"));
        }
        let cwd = std::env::current_dir().ctx("reading the current directory")?;
        let mut paths = Vec::new();
        for p in given {
            let abs = normalize(&cwd.join(p));
            std::fs::symlink_metadata(&abs).map_err(|e| {
                Error::fatal(format!(
                    "source path {} cannot be backed up: {}",
                    p.display(),
                    e
                ))
            })?;
            paths.push(abs);
        }
        paths.sort();
        paths.dedup();
        let kept: Vec<PathBuf> = paths
            .iter()
            .filter(|p| !paths.iter().any(|q| q != *p && p.starts_with(q)))
            .cloned()
            .collect();
        let mut root = VirtualDir::default();
        let mut whole = false;
        for p in &kept {
            let comps: Vec<&[u8]> = p
                .components()
                .filter_map(|c| match c {
                    Component::Normal(n) => Some(n.as_bytes()),
                    _ => None,
                })
                .collect();
            if comps.is_empty() {
                whole = true;
                continue;
            }
            let mut dir = &mut root;
            for (i, c) in comps.iter().enumerate() {
                if i + 1 == comps.len() {
                    dir.children.insert(c.to_vec(), VirtualEntry::Source);
                    break;
                }
                let entry = dir
                    .children
                    .entry(c.to_vec())
                    .or_insert_with(|| VirtualEntry::Dir(VirtualDir::default()));
                dir = match entry {
                    VirtualEntry::Dir(d) => d,
                    VirtualEntry::Source => break,
                };
            }
        }
        Ok(Sources {
            paths: kept,
            root: if whole { None } else { Some(root) },
        })
    }

    pub fn display_paths(&self) -> Vec<String> {
        self.paths
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect()
    }
}

/// Lexically resolve `.` and `..` (like restic, without following symlinks).
pub(crate) fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for c in p.components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::ParentDir => {
                out.pop();
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_nest_and_require_existence() {
        let d = std::env::temp_dir();
        let s = Sources::new(&[d.clone(), d.join("."), d.join("nonexistent-but-inside")]);
        assert!(s.is_err(), "missing path is an error");
        let s = Sources::new(&[d.clone(), d.clone()]).unwrap();
        assert_eq!(s.paths.len(), 1);
    }
}
