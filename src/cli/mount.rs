//! `tangle mount [SNAPSHOT] MOUNTPOINT`: snapshots as a read-only FUSE file system until
//! Ctrl-C, SIGTERM or `umount`.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use tangle::ops::mount::{Mount, Showing};
use tangle::{Error, Result};

use super::Global;
use super::open::Purpose;
use super::snapshot_filter::SnapshotFilterArgs;
use tangle::repo::{Indexed, Repository};

#[derive(Args)]
#[command(
    after_help = "With only MOUNTPOINT, every snapshot (that the filters select) is shown as restic \
shows them: snapshots/TIME/, hosts/HOST/TIME, tags/TAG/TIME and ids/ID, each with `latest`. With \
SNAPSHOT (an id, a prefix or `latest`), that snapshot's tree is the mount's root. File contents \
are checked and read around damaged or missing shards as `restore` reads them. Ctrl-C, SIGTERM \
or `umount MOUNTPOINT` ends it.\n\nExamples:\n  tangle mount /mnt/tangle\n  tangle mount \
--host laptop /mnt/tangle\n  tangle mount latest /mnt/latest"
)]
pub struct MountArgs {
    /// [SNAPSHOT] MOUNTPOINT: the directory to mount at (it must exist), after an
    /// optional snapshot id, prefix or `latest` to show alone
    #[arg(value_name = "[SNAPSHOT] MOUNTPOINT", num_args = 1..=2, required = true)]
    pub args: Vec<String>,
    /// Let other users than the one mounting in (FUSE's allow_other: root, or with
    /// `user_allow_other` in /etc/fuse.conf)
    #[arg(long)]
    pub allow_other: bool,
    #[command(flatten)]
    pub filter: SnapshotFilterArgs,
}

pub fn run(g: &Global, a: &MountArgs) -> Result<u8> {
    let filter = a.filter.filter()?;
    let (showing, mountpoint) = match a.args.as_slice() {
        [mountpoint] => (Showing::All(filter), mountpoint),
        [snapshot, mountpoint] => (Showing::One(snapshot.clone(), filter), mountpoint),
        _ => return Err(Error::usage("give MOUNTPOINT, or SNAPSHOT and MOUNTPOINT")),
    };
    let mountpoint = PathBuf::from(mountpoint);
    let repo: Arc<Repository<Indexed>> = Arc::new(g.open(Purpose::Reading)?);
    let mount = Mount::new(repo.clone(), &showing, &mountpoint, a.allow_other)?;
    if !g.quiet {
        let what = match &showing {
            Showing::All(_) => format!("{} snapshot(s)", mount.snapshots),
            Showing::One(spec, _) => format!("snapshot {spec}"),
        };
        eprintln!(
            "tangle: mounted {what} at {} (read-only); Ctrl-C or `umount {}` ends it",
            mountpoint.display(),
            mountpoint.display()
        );
    }
    let result = mount.serve();
    super::render::warn_read_around(g, &repo.damage_read_around());
    result?;
    if !g.quiet {
        eprintln!("tangle: unmounted {}", mountpoint.display());
    }
    Ok(0)
}
