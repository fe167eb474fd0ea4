//! `tangle import restic --from-repo RESTIC_REPO [SNAPSHOT...]`: a restic repository's
//! history into the repository of `-r` (or the profile). The restic repository is named
//! and unlocked as restic names it: `--from-repo` or `RESTIC_REPOSITORY`, and the
//! password from `--from-password-file`, `--from-password-command`, restic's variables
//! or the terminal. (`-r` is tangle's own repository, as in every command.)

use std::path::PathBuf;

use clap::{Args, Subcommand};
#[cfg(feature = "restic-import")]
use tangle::ops::import_restic::{self, ImportOptions, ImportReport};
use tangle::{Error, Result};

use super::Global;
#[cfg(feature = "restic-import")]
use super::bring;
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
    use tangle::repo::{Public, Repository, Unlocked};

    use super::open::{Opened, Purpose};
    use super::password;
    use super::settings::Origin;

    let selection = a.selection.selection()?;
    let Some(location) = a.from_repo.clone() else {
        return Err(Error::usage(
            "no restic repository: give --from-repo RESTIC_REPO (or RESTIC_REPOSITORY)",
        ));
    };
    let opts = ImportOptions {
        selection,
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
    let r = bring::into(g, dst, a.dry_run, &WORDS, |dst, progress| {
        import_restic::run(src, dst, &opts, progress)
    })?;
    bring::warn_degraded(&r.stored, &WORDS);
    print(g, &r)?;
    Ok(0)
}

/// How `import` words its report.
#[cfg(feature = "restic-import")]
const WORDS: bring::Words = bring::Words {
    verb: "import",
    done: "imported",
    doing: "importing",
    source: " from restic",
    read_from: "",
};

#[cfg(feature = "restic-import")]
fn print(g: &Global, r: &ImportReport) -> Result<()> {
    use tangle::util::short_id;

    if g.json {
        return g.print_json(r);
    }
    for c in &r.imported {
        super::line(bring::line(&WORDS, r.dry_run, &c.restic_id, &c.snapshot))?;
    }
    for s in &r.skipped {
        super::line(format_args!(
            "skipped {}: imported before as {}",
            short_id(&s.restic_id),
            short_id(&s.existing_id)
        ))?;
    }
    let skipped = format!("{} imported before", r.skipped.len());
    bring::summary(g, &WORDS, r.dry_run, r.imported.len(), &skipped, &r.stored);
    Ok(())
}
