//! File-system metadata: capturing a [`Node`] from `lstat` and the extended attributes,
//! and applying one on restore.

use std::ffi::{CString, OsStr};
use std::fs::File;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::Path;

use filetime::FileTime;

use super::ContentError;
use super::tree::{Xattr, XattrBudget};
use super::{Node, NodeKind};
use crate::error::{Error, Result, ResultExt};

/// Open a file to read it for a backup without changing its access time (`O_NOATIME`):
/// a backup is not a use of the file (mail readers tell new mail by it), and under
/// `relatime` each read of a file whose access time is a day old would write its inode
/// back. The kernel allows the flag only to the file's owner (or with CAP_FOWNER);
/// elsewhere it refuses with EPERM, and the file is opened as usual (as restic does).
pub(crate) fn open_to_read(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOATIME)
        .open(path)
    {
        Err(e) if e.raw_os_error() == Some(libc::EPERM) => File::open(path),
        other => other,
    }
}

/// Build a node from `lstat` data (contents/subtree are filled in by the caller).
pub(crate) fn node_from_metadata(name: &[u8], path: &Path, md: &std::fs::Metadata) -> Result<Node> {
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
            .ctx(format_args!("reading symlink {}", path.display()))?
            .as_os_str()
            .as_bytes()
            .to_vec();
    }
    Ok(n)
}

/// Read the extended attributes of `path` (POSIX ACLs included) into `node.xattrs`,
/// sorted by name. A symlink at `path` is not followed unless `follow` is set (the
/// directories above a source are recorded through symlinks). A file system without
/// extended attributes gives none. Attributes that cannot be read, or that do not fit the
/// per-node limits ([`XattrBudget`]), are left out and named in the error; the others are
/// kept.
pub(crate) fn read_xattrs(path: &Path, follow: bool, node: &mut Node) -> Result<()> {
    let listed = if follow {
        xattr::list_deref(path)
    } else {
        xattr::list(path)
    };
    let mut names: Vec<Vec<u8>> = match listed {
        Ok(names) => names.map(|n| n.into_vec()).collect(),
        Err(e) if e.raw_os_error() == Some(libc::ENOTSUP) => return Ok(()),
        Err(e) => return Err(Error::from(e).context("listing extended attributes")),
    };
    names.sort();
    let mut budget = XattrBudget::default();
    let mut left_out = Vec::new();
    for name in names {
        let n = OsStr::from_bytes(&name);
        let value = if follow {
            xattr::get_deref(path, n)
        } else {
            xattr::get(path, n)
        };
        let lossy = String::from_utf8_lossy(&name).into_owned();
        match value {
            Ok(Some(value)) if budget.admit(&name, value.len()) => {
                node.xattrs.push(Xattr { name, value })
            }
            Ok(Some(value)) => left_out.push(format!(
                "{lossy} ({} bytes): beyond the limits of one entry",
                value.len()
            )),
            // Removed since it was listed.
            Ok(None) => {}
            Err(e) => left_out.push(format!("{lossy}: {e}")),
        }
    }
    if left_out.is_empty() {
        Ok(())
    } else {
        Err(Error::fatal(format!(
            "extended attributes left out: {}",
            left_out.join("; ")
        )))
    }
}

/// Why the target did not take an extended attribute. Restore warns about these, once per
/// kind, and does not count them as errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum XattrRefusal {
    /// The file system does not support (this kind of) extended attributes.
    Unsupported,
    /// Not allowed: `security.*` and `trusted.*` need privileges, `user.*` exists only on
    /// files and directories.
    NotPermitted,
    /// The file system has no room for it (ext4 keeps all of a file's attributes in one
    /// block).
    TooLarge,
}

impl XattrRefusal {
    fn of(e: &std::io::Error) -> Option<XattrRefusal> {
        match e.raw_os_error()? {
            libc::ENOTSUP => Some(XattrRefusal::Unsupported),
            libc::EPERM | libc::EACCES => Some(XattrRefusal::NotPermitted),
            libc::E2BIG | libc::ERANGE | libc::ENOSPC => Some(XattrRefusal::TooLarge),
            _ => None,
        }
    }

    pub(crate) fn describe(self) -> &'static str {
        match self {
            XattrRefusal::Unsupported => "the target file system does not support them",
            XattrRefusal::NotPermitted => {
                "not permitted (security.* and trusted.* need root; user.* exists only on files and directories)"
            }
            XattrRefusal::TooLarge => "they do not fit on the target file system",
        }
    }
}

/// An extended attribute the target refused to set (or, for an ACL the node does not
/// have, to remove).
#[derive(Debug)]
pub(crate) struct Refused {
    pub(crate) name: Vec<u8>,
    pub(crate) why: XattrRefusal,
}

const ACL_ACCESS: &[u8] = b"system.posix_acl_access";
const ACL_DEFAULT: &[u8] = b"system.posix_acl_default";

/// Where attributes are set: through an open file, or on a path without following a
/// symlink there (`lsetxattr`).
#[derive(Clone, Copy)]
enum XattrTarget<'a> {
    File(&'a File),
    Path(&'a Path),
}

impl XattrTarget<'_> {
    fn set(self, name: &[u8], value: &[u8]) -> std::io::Result<()> {
        let name = OsStr::from_bytes(name);
        match self {
            XattrTarget::File(f) => xattr::FileExt::set_xattr(f, name, value),
            XattrTarget::Path(p) => xattr::set(p, name, value),
        }
    }

    /// Whether the entry has attribute `name` (`false` where the file system has no
    /// extended attributes). Asking is a read; removing one that is not there still
    /// costs ext4 a journalled inode update.
    fn has(self, name: &[u8]) -> std::io::Result<bool> {
        let name = OsStr::from_bytes(name);
        let got = match self {
            XattrTarget::File(f) => xattr::FileExt::get_xattr(f, name),
            XattrTarget::Path(p) => xattr::get(p, name),
        };
        match got {
            Ok(value) => Ok(value.is_some()),
            Err(e) if e.raw_os_error() == Some(libc::ENOTSUP) => Ok(false),
            Err(e) => Err(e),
        }
    }

    fn remove(self, name: &[u8]) -> std::io::Result<()> {
        let name = OsStr::from_bytes(name);
        match self {
            XattrTarget::File(f) => xattr::FileExt::remove_xattr(f, name),
            XattrTarget::Path(p) => xattr::remove(p, name),
        }
    }
}

/// Set a node's extended attributes. A POSIX ACL the node does not have is removed (a new
/// entry inherits one from its directory's default ACL); other attributes already there
/// are kept. What the target refuses is returned; any other failure is an error (after
/// the remaining attributes were tried).
fn apply_xattrs(target: XattrTarget<'_>, path: &Path, node: &Node) -> Result<Vec<Refused>> {
    let mut refused = Vec::new();
    let mut error = None;
    let mut outcome = |name: &[u8], r: std::io::Result<()>| {
        let Err(e) = r else { return };
        match XattrRefusal::of(&e) {
            Some(why) => refused.push(Refused {
                name: name.to_vec(),
                why,
            }),
            None => {
                error.get_or_insert_with(|| {
                    Error::from(e).context(format!(
                        "extended attribute {} of {}",
                        String::from_utf8_lossy(name),
                        path.display()
                    ))
                });
            }
        }
    };
    for x in &node.xattrs {
        outcome(&x.name, target.set(&x.name, &x.value));
    }
    let acls: &[&[u8]] = match node.kind {
        NodeKind::File => &[ACL_ACCESS],
        NodeKind::Dir => &[ACL_ACCESS, ACL_DEFAULT],
        _ => &[],
    };
    for &acl in acls {
        if node.xattrs.iter().any(|x| x.name == acl) || matches!(target.has(acl), Ok(false)) {
            continue;
        }
        let r = match target.remove(acl) {
            // Nothing to remove, or no ACLs on this file system at all.
            Err(e) if matches!(e.raw_os_error(), Some(libc::ENODATA | libc::ENOTSUP)) => Ok(()),
            r => r,
        };
        outcome(acl, r);
    }
    match error {
        Some(e) => Err(e),
        None => Ok(refused),
    }
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
pub(crate) fn create_special(path: &Path, node: &Node) -> Result<()> {
    match node.kind {
        NodeKind::Symlink => std::os::unix::fs::symlink(OsStr::from_bytes(&node.target), path)
            .ctx(format_args!("creating symlink {}", path.display())),
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

/// Apply ownership (when `chown` is set, i.e. running as root), permissions, extended
/// attributes and times; returns the attributes the target refused. Order matters: chown
/// clears setuid bits and file capabilities (`security.capability`), so it comes before
/// chmod and the attributes; times come last. Extended attributes are set on the path
/// itself, never through a symlink there.
pub(crate) fn apply_metadata(path: &Path, node: &Node, chown: bool) -> Result<Vec<Refused>> {
    let is_link = node.kind == NodeKind::Symlink;
    if chown {
        std::os::unix::fs::lchown(path, Some(node.uid), Some(node.gid))
            .ctx(format_args!("chown {}", path.display()))?;
    }
    if !is_link {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(node.mode))
            .ctx(format_args!("chmod {}", path.display()))?;
    }
    let xattrs = apply_xattrs(XattrTarget::Path(path), path, node);
    let atime = FileTime::from_unix_time(node.atime, node.atime_nsec);
    let mtime = FileTime::from_unix_time(node.mtime, node.mtime_nsec);
    filetime::set_symlink_file_times(path, atime, mtime)
        .ctx(format_args!("setting times of {}", path.display()))?;
    xattrs
}

/// Apply ownership, permissions, extended attributes and times through an open file, so
/// nothing is set through a link that appeared at the file's path (and no path is looked
/// up again); returns the attributes the target refused.
pub(crate) fn apply_metadata_to_file(
    file: &File,
    path: &Path,
    node: &Node,
    chown: bool,
) -> Result<Vec<Refused>> {
    if chown {
        std::os::unix::fs::fchown(file, Some(node.uid), Some(node.gid))
            .ctx(format_args!("chown {}", path.display()))?;
    }
    file.set_permissions(std::fs::Permissions::from_mode(node.mode))
        .ctx(format_args!("chmod {}", path.display()))?;
    let xattrs = apply_xattrs(XattrTarget::File(file), path, node);
    let atime = FileTime::from_unix_time(node.atime, node.atime_nsec);
    let mtime = FileTime::from_unix_time(node.mtime, node.mtime_nsec);
    filetime::set_file_handle_times(file, Some(atime), Some(mtime))
        .ctx(format_args!("setting times of {}", path.display()))?;
    xattrs
}

/// Whether we run as root (and so restore ownership).
pub(crate) fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}
