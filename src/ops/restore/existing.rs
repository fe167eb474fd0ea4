//! What is already in the target: whether an entry there is replaced (`--overwrite`, as
//! restic 0.17 has it), and removing what the snapshot does not have (`--delete`).
//!
//! Nothing here follows a symlink: entries are looked at with `lstat`, a directory is
//! entered only when `lstat` says it is one, and a symlink is removed as a link.

use std::fs::{File, Metadata, OpenOptions};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;

use serde::Serialize;

use super::notes::Notes;
use super::plan::Filter;
use crate::content::{Node, NodeKind, Tree};
use crate::error::ResultExt;

/// What a restore does with an entry (not a directory) already at a restored path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Overwrite {
    /// Replace it (restic's default, and what tangle always did).
    #[default]
    Always,
    /// Replace a file unless it has the snapshot's size and modification time: such a
    /// file is taken as up to date, and only its metadata is set.
    IfChanged,
    /// Replace it only if the snapshot's modification time is later than its own.
    IfNewer,
    /// Keep it as it is.
    Never,
}

impl Overwrite {
    pub fn name(self) -> &'static str {
        match self {
            Overwrite::Always => "always",
            Overwrite::IfChanged => "if-changed",
            Overwrite::IfNewer => "if-newer",
            Overwrite::Never => "never",
        }
    }
}

/// What becomes of one entry (not a directory) of the snapshot at its restored path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decision {
    /// Nothing is there: it is made.
    New,
    /// Something is there and is replaced.
    Replace,
    /// Something is there and is kept as it is.
    Skip,
    /// A file with the snapshot's size and modification time (`if-changed`): its
    /// contents are kept, its metadata set.
    UpToDate,
}

/// The decision for `node` at a path where `existing` (its `lstat`) is, or nothing.
pub(super) fn decide(overwrite: Overwrite, node: &Node, existing: Option<&Metadata>) -> Decision {
    let Some(md) = existing else {
        return Decision::New;
    };
    match overwrite {
        Overwrite::Always => Decision::Replace,
        Overwrite::IfChanged if same_file(node, md) => Decision::UpToDate,
        Overwrite::IfChanged => Decision::Replace,
        Overwrite::IfNewer if newer(node, md) => Decision::Replace,
        Overwrite::IfNewer | Overwrite::Never => Decision::Skip,
    }
}

/// A regular file of the node's size and modification time, linked once (a file with
/// other links might be one outside the target: its metadata is not set through it).
fn same_file(node: &Node, md: &Metadata) -> bool {
    node.kind == NodeKind::File
        && md.file_type().is_file()
        && md.nlink() == 1
        && md.len() == node.size
        && md.mtime() == node.mtime
        && md.mtime_nsec() == i64::from(node.mtime_nsec)
}

/// Whether the node's modification time is later than the existing entry's.
fn newer(node: &Node, md: &Metadata) -> bool {
    (node.mtime, i64::from(node.mtime_nsec)) > (md.mtime(), md.mtime_nsec())
}

/// Open the file at `path` for its metadata only, if it is still the up-to-date file
/// [`decide`] saw (a regular file, not a link, of the node's size and time): read-only,
/// never following a symlink, never waiting on a FIFO put there since.
pub(super) fn open_up_to_date(path: &Path, node: &Node) -> Option<File> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    let md = file.metadata().ok()?;
    same_file(node, &md).then_some(file)
}

/// Whether `path` is a directory itself (not a symlink to one).
pub(super) fn is_real_dir(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|md| md.is_dir())
}

/// What `--delete` removed, or would remove with `--dry-run`.
#[derive(Default, Debug)]
pub(super) struct Removed {
    /// Files, symlinks and special files.
    pub(super) files: u64,
    pub(super) dirs: u64,
}

/// Removes what is in the target but not in the snapshot (`--delete`), as restic does:
/// in each directory the restore walks, the entries whose names the snapshot's directory
/// does not have, if the include and exclude patterns select them. A directory removed
/// is emptied first, keeping what an exclude pattern matches (and the directory with it).
pub(super) struct Remover<'a> {
    pub(super) filter: &'a Filter,
    pub(super) notes: &'a Notes,
    /// Count only (`--dry-run`).
    pub(super) dry: bool,
}

impl Remover<'_> {
    /// Remove the entries of the directory `dir` (`orig` in the snapshot, whose listing
    /// is `tree`) that `tree` does not name. `included`: `orig` or a directory above it
    /// matched an include pattern. `dir` must be a directory itself, not a symlink.
    pub(super) fn extras(
        &self,
        dir: &Path,
        orig: &Path,
        tree: &Tree,
        included: bool,
        out: &mut Removed,
    ) {
        let entries = match std::fs::read_dir(dir).ctx(format_args!("listing {}", dir.display())) {
            Ok(entries) => entries,
            Err(e) => return self.notes.error(e),
        };
        let mut extras = Vec::new();
        for entry in entries {
            match entry.ctx(format_args!("listing {}", dir.display())) {
                Ok(entry) => {
                    let name = entry.file_name();
                    if !tree.nodes.iter().any(|n| n.name == name.as_bytes()) {
                        extras.push(name);
                    }
                }
                Err(e) => self.notes.error(e),
            }
        }
        extras.sort();
        for name in extras {
            let orig = orig.join(&name);
            if self.filter.selects(&orig, name.as_bytes(), included) {
                self.remove(&dir.join(&name), &orig, out);
            }
        }
    }

    /// Remove `path` (`orig` as a snapshot path): a directory after what it holds, but
    /// for what an exclude pattern matches. Returns whether it is gone (or would be).
    pub(super) fn remove(&self, path: &Path, orig: &Path, out: &mut Removed) -> bool {
        let deleting = || format!("deleting {}", path.display());
        let listing = || format!("listing {}", path.display());
        let Some(md) = self.noted(std::fs::symlink_metadata(path).ctx(deleting())) else {
            return false;
        };
        if !md.is_dir() {
            let gone = self.unless_dry(|| std::fs::remove_file(path), deleting());
            out.files += gone as u64;
            return gone;
        }
        let Some(entries) = self.noted(std::fs::read_dir(path).ctx(listing())) else {
            return false;
        };
        let mut names = Vec::new();
        for entry in entries {
            let Some(entry) = self.noted(entry.ctx(listing())) else {
                return false;
            };
            names.push(entry.file_name());
        }
        names.sort();
        let mut emptied = true;
        for name in names {
            let orig = orig.join(&name);
            emptied &= if self.filter.excludes(&orig, name.as_bytes()) {
                false
            } else {
                self.remove(&path.join(&name), &orig, out)
            };
        }
        if !emptied {
            return false;
        }
        let gone = self.unless_dry(|| std::fs::remove_dir(path), deleting());
        out.dirs += gone as u64;
        gone
    }

    /// `remove` done, unless this is a dry run; false, with its error noted, if it failed.
    fn unless_dry(&self, remove: impl FnOnce() -> std::io::Result<()>, what: String) -> bool {
        self.dry || self.noted(remove().ctx(what)).is_some()
    }

    /// `r`'s value, or `None` with its error noted (the restore goes on, and reports it).
    fn noted<T>(&self, r: crate::error::Result<T>) -> Option<T> {
        r.map_err(|e| self.notes.error(e)).ok()
    }
}
