//! `tangle import restic --from-repo RESTIC_REPO [SNAPSHOT...]`: a restic repository's
//! history into the repository of `-r` (or the profile). The restic repository is named
//! and unlocked as restic names it: `--from-repo` or `RESTIC_REPOSITORY`, and the
//! password from `--from-password-file`, `--from-password-command`, restic's variables
//! or the terminal. (`-r` is tangle's own repository, as in every command.)

use std::path::PathBuf;
#[cfg(feature = "restic-import")]
use std::sync::Arc;

use clap::{Args, Subcommand};
#[cfg(feature = "restic-import")]
use tangle::ops::import_restic::{self, ImportOptions, ImportReport};
use tangle::{Error, Result};

use super::Global;
use super::snapshot_filter::{SnapshotSelection, help};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tangle -r /mnt/tangle import restic --from-repo /mnt/restic --from-password-file restic.pw\n  tangle import restic --from-repo /mnt/restic --dry-run"
)]
pub struct ImportArgs {
    #[command(subcommand)]
    pub from: ImportFrom,
}

#[derive(Subcommand)]
pub enum ImportFrom {
    /// Import the snapshots of a restic repository (in a local directory)
    Restic(ResticArgs),
}

/// What `--help` shows after the options.
const EXAMPLES: &str = "Examples:\n  tangle -r /mnt/tangle import restic --from-repo /mnt/restic --from-password-file restic.pw\n  RESTIC_REPOSITORY=/srv/restic RESTIC_PASSWORD_FILE=~/.restic-pw tangle import restic\n  tangle import restic --from-repo /mnt/restic --host laptop --dry-run";
/// The help of the SNAPSHOT arguments.
const SNAPSHOTS: &str = "restic snapshots to import (ids, unique prefixes or `latest`); none: every snapshot the filters select (all of them without filters)";

#[derive(Args)]
#[command(after_help = EXAMPLES, mut_arg("snapshots", help(SNAPSHOTS)))]
pub struct ResticArgs {
    /// The restic repository: a local directory (or `local:DIR`)
    #[arg(long, env = "RESTIC_REPOSITORY", value_name = "RESTIC_REPO")]
    pub from_repo: Option<String>,
    /// Read the restic repository's password from this file (first line);
    /// RESTIC_PASSWORD may hold the password itself
    #[arg(long, env = "RESTIC_PASSWORD_FILE", value_name = "FILE")]
    pub from_password_file: Option<PathBuf>,
    /// Run this shell command and use its output as the restic repository's password
    #[arg(long, env = "RESTIC_PASSWORD_COMMAND", value_name = "COMMAND")]
    pub from_password_command: Option<String>,
    /// Say which snapshots would be imported and which are here already; write nothing
    #[arg(short = 'n', long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub selection: SnapshotSelection,
}

pub fn run(g: &Global, a: &ImportArgs) -> Result<u8> {
    match &a.from {
        ImportFrom::Restic(r) => restic(g, r),
    }
}

#[cfg(not(feature = "restic-import"))]
fn restic(_: &Global, _: &ResticArgs) -> Result<u8> {
    Err(Error::usage(
        "this tangle was built without `import restic` (the cargo feature restic-import)",
    ))
}

#[cfg(feature = "restic-import")]
fn restic(g: &Global, a: &ResticArgs) -> Result<u8> {
    use tangle::ops::Progress;
    use tangle::repo::{Indexed, LockKind, Public, Repository, Unlocked};

    use super::open::{Opened, Purpose};
    use super::settings::Origin;
    use super::{password, progress::Bar, warn};

    let filter = a.selection.filter.filter()?;
    let Some(location) = a.from_repo.clone() else {
        return Err(Error::usage(
            "no restic repository: give --from-repo RESTIC_REPO (or RESTIC_REPOSITORY)",
        ));
    };
    let opts = ImportOptions {
        snapshots: a.selection.snapshots.clone(),
        filter,
        dry_run: a.dry_run,
    };
    import_restic::local_directory(&location)?;
    let dst: Repository<Public> = g.open(Purpose::Writing)?;
    let flag = |id: &str| g.given.origin(id) == Some(Origin::Flag);
    let source = password::other_repository(
        g,
        password::RESTIC_REPOSITORY,
        (a.from_password_file.clone(), flag("from_password_file")),
        (
            a.from_password_command.clone(),
            flag("from_password_command"),
        ),
    );
    let pw = password::read(&source, false)?;
    let pw = std::str::from_utf8(pw.as_bytes()).map_err(|_| {
        Error::usage("the restic repository's password is not UTF-8, which restic cannot have made")
    })?;
    let src = import_restic::open(&location, pw)?;
    let dst = Repository::<Unlocked>::from_public(g, dst)?;
    // As a backup: the shared lock (other backups go on; delete, prune, tag and rewrite
    // wait), then the committed index loaded under it.
    let _lock = match a.dry_run {
        true => None,
        false => Some(dst.lock(LockKind::Shared, "import")?),
    };
    let dst: Repository<Indexed> = tangle::ops::backup::prepare(dst)?;
    let progress = Arc::new(Progress::default());
    let bar = Bar::start(
        g.show_progress() && !a.dry_run,
        progress.clone(),
        "importing",
    );
    let result = import_restic::run(src, &dst, &opts, &progress);
    bar.finish();
    let r = result?;
    for d in &r.degraded_remotes {
        warn(format_args!(
            "remote not written, the imported data has reduced redundancy there until \
             `tangle repair` runs: {d}"
        ));
    }
    print(g, &r)?;
    Ok(0)
}

#[cfg(feature = "restic-import")]
fn print(g: &Global, r: &ImportReport) -> Result<()> {
    use tangle::util::{human_bytes, short_id};

    use super::line;

    if g.json {
        return g.print_json(r);
    }
    for c in &r.imported {
        line(super::render::brought(
            if r.dry_run {
                "would import"
            } else {
                "imported"
            },
            &c.restic_id,
            c.id.as_deref(),
            &c.time,
            &c.host,
            &c.paths,
            &c.tags,
        ))?;
    }
    for s in &r.skipped {
        line(format_args!(
            "skipped {}: imported before as {}",
            short_id(&s.restic_id),
            short_id(&s.existing_id)
        ))?;
    }
    match r.dry_run {
        true => g.say(format_args!(
            "would import {} snapshots from restic ({} imported before)",
            r.imported.len(),
            r.skipped.len()
        )),
        false => g.say(format_args!(
            "imported {} snapshots from restic ({} imported before): {} read, {} new in {} \
             blobs ({} stored)",
            r.imported.len(),
            r.skipped.len(),
            human_bytes(r.bytes_read),
            human_bytes(r.bytes_added),
            r.blobs_added,
            human_bytes(r.bytes_stored)
        )),
    }
    Ok(())
}
