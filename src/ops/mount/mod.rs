//! `tangle mount`: snapshots as a read-only FUSE file system, laid out as restic lays
//! out its mount (`snapshots/<time>/`, `hosts/<host>/<time>`, `tags/<tag>/<time>`,
//! `ids/<id>`, each with `latest`), or one snapshot's tree at the mount point.
//!
//! File contents come through the same checked read path as `restore`: every blob is
//! checked against its id, and a blob a remote serves wrong or not at all is read
//! around (rebuilt from parity and pointers); what was read around is remembered for
//! `repair` when the mount ends. Trees are loaded when a directory is first looked at.
//!
//! [`Mount::new`] mounts (the file system is visible when it returns); [`Mount::serve`]
//! answers the kernel until the file system is unmounted: by `umount`, or by
//! [`unmount_for_signal`], which the binary calls on Ctrl-C or SIGTERM.

mod fs;
mod layout;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::error::{Error, Result};
use crate::ops::select::{self, SnapshotFilter};
use crate::repo::{Indexed, Repository};

/// What the mount shows.
#[derive(Clone, Debug)]
pub enum Showing {
    /// Every snapshot the filter selects, laid out as restic does.
    All(SnapshotFilter),
    /// One snapshot's tree (an id, a prefix or `latest` within the filter) at the root.
    One(String, SnapshotFilter),
}

/// A mounted file system, not yet answering.
pub struct Mount {
    session: fuser::Session<fs::SnapshotFs>,
    repo: Arc<Repository<Indexed>>,
    mountpoint: PathBuf,
    /// How many snapshots it shows.
    pub snapshots: usize,
}

/// Where the mount being served is, for [`unmount_for_signal`].
static SERVING: Mutex<Option<PathBuf>> = Mutex::new(None);

impl Mount {
    /// Mount `showing` at `mountpoint` (an existing directory), read-only; `allow_other`
    /// lets other users in (FUSE's `allow_other`: for root, or where `/etc/fuse.conf`
    /// has `user_allow_other`).
    pub fn new(
        repo: Arc<Repository<Indexed>>,
        showing: &Showing,
        mountpoint: &Path,
        allow_other: bool,
    ) -> Result<Mount> {
        match std::fs::metadata(mountpoint) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(Error::usage(format!(
                    "mount point {} is not a directory",
                    mountpoint.display()
                )));
            }
            Err(e) => {
                return Err(Error::usage(format!(
                    "mount point {}: {e} (create the directory first)",
                    mountpoint.display()
                )));
            }
        }
        let (root, snapshots) = match showing {
            Showing::All(filter) => {
                let all = filter.select(repo.snapshots()?);
                let n = all.len();
                (layout::Root::Snapshots(all), n)
            }
            Showing::One(spec, filter) => {
                let (_, snap) = select::find(&*repo, spec, filter)?;
                (layout::Root::Tree(Box::new(snap)), 1)
            }
        };
        // Before mounting: afterwards, looking at the mount point waits for `serve`.
        let absolute = (mountpoint.canonicalize()).unwrap_or_else(|_| mountpoint.to_path_buf());
        let fs = fs::SnapshotFs::new(repo.clone(), root);
        let mut config = fuser::Config::default();
        config.mount_options = vec![
            fuser::MountOption::RO,
            fuser::MountOption::FSName("tangle".into()),
            fuser::MountOption::Subtype("tangle".into()),
            fuser::MountOption::NoDev,
            fuser::MountOption::NoSuid,
        ];
        if allow_other {
            config.acl = fuser::SessionACL::All;
        }
        let session = fuser::Session::new(fs, mountpoint, &config).map_err(|e| {
            Error::fatal(format!(
                "cannot mount at {}: {e} (FUSE needs /dev/fuse and the right to mount: \
                 root, or fusermount3 from the fuse3 package)",
                mountpoint.display()
            ))
        })?;
        Ok(Mount {
            session,
            repo,
            mountpoint: absolute,
            snapshots,
        })
    }

    /// Answer the kernel until the file system is unmounted; then remember what was
    /// read around for `repair` ([`Repository::remember_damage_read_around`]).
    pub fn serve(self) -> Result<()> {
        if let Ok(mut serving) = SERVING.lock() {
            *serving = Some(self.mountpoint.clone());
        }
        let result = self.session.spawn().and_then(|s| s.join());
        if let Ok(mut serving) = SERVING.lock() {
            *serving = None;
        }
        self.repo.remember_damage_read_around();
        result.map_err(|e| Error::fatal(format!("serving the mount: {e}")))
    }
}

/// Unmount the file system being served, if any, as `umount -l` does (files still open
/// in it keep it until they are closed); [`Mount::serve`] then returns. Whether there
/// was one.
pub fn unmount_for_signal() -> bool {
    let Ok(serving) = SERVING.lock() else {
        return false;
    };
    match serving.as_ref() {
        Some(mountpoint) => {
            let _ = rustix::mount::unmount(mountpoint, rustix::mount::UnmountFlags::DETACH);
            true
        }
        None => false,
    }
}
