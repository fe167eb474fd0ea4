//! File-system metadata: capturing a [`Node`] from `lstat`, and applying one on restore.

use std::ffi::{CString, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::Path;

use filetime::FileTime;

use super::ContentError;
use super::{Node, NodeKind};
use crate::error::{Error, Result, ResultExt};

/// Build a node from `lstat` data (contents/subtree are filled in by the caller).
pub fn node_from_metadata(name: &[u8], path: &Path, md: &std::fs::Metadata) -> Result<Node> {
    let ft = md.file_type();
    let kind = if ft.is_file() {
        NodeKind::File
    } else if ft.is_dir() {
        NodeKind::Dir
    } else if ft.is_symlink() {
        NodeKind::Symlink
    } else if ft.is_char_device() {
        NodeKind::CharDevice
    } else if ft.is_block_device() {
        NodeKind::BlockDevice
    } else if ft.is_fifo() {
        NodeKind::Fifo
    } else {
        NodeKind::Socket
    };
    let mut n = Node::empty(name.to_vec(), kind);
    n.mode = md.mode() & 0o7777;
    n.uid = md.uid();
    n.gid = md.gid();
    n.mtime = md.mtime();
    n.mtime_nsec = md.mtime_nsec() as u32;
    n.atime = md.atime();
    n.atime_nsec = md.atime_nsec() as u32;
    n.ctime = md.ctime();
    n.ctime_nsec = md.ctime_nsec() as u32;
    n.inode = md.ino();
    n.device = md.dev();
    n.links = md.nlink();
    n.rdev = md.rdev();
    if kind == NodeKind::File {
        n.size = md.len();
    }
    if kind == NodeKind::Symlink {
        n.target = std::fs::read_link(path)
            .ctx(format!("reading symlink {}", path.display()))?
            .as_os_str()
            .as_bytes()
            .to_vec();
    }
    Ok(n)
}

fn cpath(path: &Path) -> Result<CString> {
    CString::new(path.as_os_str().as_bytes()).map_err(|_| {
        ContentError::PathHasNul {
            path: path.to_path_buf(),
        }
        .into()
    })
}

/// Create a non-regular, non-directory node (symlink, FIFO, device; sockets are skipped).
pub fn create_special(path: &Path, node: &Node) -> Result<()> {
    match node.kind {
        NodeKind::Symlink => std::os::unix::fs::symlink(OsStr::from_bytes(&node.target), path)
            .ctx(format!("creating symlink {}", path.display())),
        NodeKind::Fifo | NodeKind::CharDevice | NodeKind::BlockDevice => {
            let fmt = match node.kind {
                NodeKind::Fifo => libc::S_IFIFO,
                NodeKind::CharDevice => libc::S_IFCHR,
                _ => libc::S_IFBLK,
            };
            let c = cpath(path)?;
            // SAFETY: c is a valid NUL-terminated path.
            let rc = unsafe {
                libc::mknod(
                    c.as_ptr(),
                    fmt | (node.mode & 0o777) as libc::mode_t,
                    node.rdev as libc::dev_t,
                )
            };
            if rc != 0 {
                return Err(Error::from(std::io::Error::last_os_error())
                    .context(format!("creating {}", path.display())));
            }
            Ok(())
        }
        NodeKind::Socket => Ok(()),
        NodeKind::File | NodeKind::Dir => Err(ContentError::NotSpecial.into()),
    }
}

/// Apply ownership (when `chown` is set, i.e. running as root), permissions and times.
/// Order matters: chown clears setuid bits, so it comes before chmod; times come last.
pub fn apply_metadata(path: &Path, node: &Node, chown: bool) -> Result<()> {
    let is_link = node.kind == NodeKind::Symlink;
    if chown {
        std::os::unix::fs::lchown(path, Some(node.uid), Some(node.gid))
            .ctx(format!("chown {}", path.display()))?;
    }
    if !is_link {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(node.mode))
            .ctx(format!("chmod {}", path.display()))?;
    }
    let atime = FileTime::from_unix_time(node.atime, node.atime_nsec);
    let mtime = FileTime::from_unix_time(node.mtime, node.mtime_nsec);
    filetime::set_symlink_file_times(path, atime, mtime)
        .ctx(format!("setting times of {}", path.display()))
}

/// Apply ownership, permissions and times through an open file, so nothing is set
/// through a link that appeared at the file's path (and no path is looked up again).
pub fn apply_metadata_to_file(
    file: &std::fs::File,
    path: &Path,
    node: &Node,
    chown: bool,
) -> Result<()> {
    if chown {
        std::os::unix::fs::fchown(file, Some(node.uid), Some(node.gid))
            .ctx(format!("chown {}", path.display()))?;
    }
    file.set_permissions(std::fs::Permissions::from_mode(node.mode))
        .ctx(format!("chmod {}", path.display()))?;
    let atime = FileTime::from_unix_time(node.atime, node.atime_nsec);
    let mtime = FileTime::from_unix_time(node.mtime, node.mtime_nsec);
    filetime::set_file_handle_times(file, Some(atime), Some(mtime))
        .ctx(format!("setting times of {}", path.display()))
}

/// Whether we run as root (and so restore ownership).
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}
