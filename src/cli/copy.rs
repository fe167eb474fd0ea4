//! `tangle copy --from-repo SRC [SNAPSHOT...]` (restic's `copy`): the destination is the
//! repository of `-r` (or the profile), the source is opened with its own `--from-*`
//! options, as restic's.

use std::path::PathBuf;

use clap::Args;
use tangle::ops::copy::{self, CopyOptions, CopyReport};
use tangle::repo::{Indexed, Public, Repository, Unlocked};
use tangle::util::short_id;
use tangle::{Error, Kind, Result};

use super::open::{Opened, Purpose};
use super::settings::Origin;
use super::snapshot_filter::{SnapshotSelection, help};
use super::{Global, bring, line, password};

/// What `--help` shows after the options.
const EXAMPLES: &str = "Examples:\n  tangle -r /mnt/new copy --from-repo /mnt/old --from-password-file old.pw\n  tangle -P offsite copy --from-repo s3://backups/tangle --host laptop latest\n  tangle -r /mnt/new copy --from-repo /mnt/old --dry-run";
/// The help of the SNAPSHOT arguments.
const SNAPSHOTS: &str = "Source snapshots to copy (ids, unique prefixes or `latest`); none: every snapshot the filters select in the source (all of them without filters)";

#[derive(Args)]
#[command(after_help = EXAMPLES, mut_arg("snapshots", help(SNAPSHOTS)))]
pub struct CopyArgs {
    /// The source repository: any one of its remotes (as -r names the destination)
    #[arg(long, env = "TANGLE_FROM_REPO", value_name = "REPO")]
    pub from_repo: Option<String>,
    /// Read the source's password from this file (first line); TANGLE_FROM_PASSWORD
    /// may hold the password itself
    #[arg(long, env = "TANGLE_FROM_PASSWORD_FILE", value_name = "FILE")]
    pub from_password_file: Option<PathBuf>,
    /// Run this shell command and use its output as the source's password
    #[arg(long, env = "TANGLE_FROM_PASSWORD_COMMAND", value_name = "COMMAND")]
    pub from_password_command: Option<String>,
    /// Trust only this owner key for the source (its fingerprint), as --owner does for
    /// the destination
    #[arg(long, env = "TANGLE_FROM_OWNER", value_name = "FINGERPRINT")]
    pub from_owner: Option<String>,
    /// Say which snapshots would be copied and which are there already; write nothing
    #[arg(short = 'n', long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub selection: SnapshotSelection,
}

pub fn run(g: &Global, a: &CopyArgs) -> Result<u8> {
    let selection = a.selection.selection()?;
    let source = source(g, a)?;
    let opts = CopyOptions {
        selection,
        dry_run: a.dry_run,
    };
    // Both opened with the public key first: the same repository twice is refused before
    // any password is asked for.
    let dst: Repository<Public> = g.open(Purpose::Writing)?;
    let src: Repository<Public> = source.open(Purpose::Reading).map_err(about_source)?;
    if src.config.id == dst.config.id {
        return Err(copy::same_repository());
    }
    let dst = Repository::<Unlocked>::from_public(g, dst)?;
    let src = Repository::<Indexed>::from_public(&source, src).map_err(about_source)?;
    let r = bring::into(g, dst, a.dry_run, &WORDS, |dst, progress| {
        copy::run(&src, dst, &opts, progress)
    })?;
    bring::warn_degraded(&r.stored, &WORDS);
    print(g, &r)?;
    Ok(0)
}

/// An error opening the source says so (a usage error names the source itself).
fn about_source(e: Error) -> Error {
    match e.kind() {
        Kind::Usage => e,
        _ => e.context("the source repository (--from-repo)"),
    }
}

/// The source's settings: `--from-repo` and its own password sources and owner pin; the
/// cache, per-remote settings and limits are the destination's.
fn source(g: &Global, a: &CopyArgs) -> Result<Global> {
    let Some(repo) = a.from_repo.clone() else {
        return Err(Error::usage(
            "no source repository: give --from-repo REPO (or TANGLE_FROM_REPO)",
        ));
    };
    let flag = |id: &str| g.given.origin(id) == Some(Origin::Flag);
    let mut s = password::other_repository(
        g,
        password::FROM_REPOSITORY,
        (a.from_password_file.clone(), flag("from_password_file")),
        (
            a.from_password_command.clone(),
            flag("from_password_command"),
        ),
    );
    s.repo = Some(repo);
    s.profile = None;
    s.loaded = None;
    s.remotes = Vec::new();
    if let Some(owner) = &a.from_owner {
        tangle::repo::OwnerPin::parse(owner).map_err(|_| {
            Error::usage(format!(
                "--from-owner {owner:?}: expected the source's owner key fingerprint (32 hex \
                 digits, as `tangle init` prints it)"
            ))
        })?;
    }
    s.owner = a.from_owner.clone();
    Ok(s)
}

/// How `copy` words its report.
const WORDS: bring::Words = bring::Words {
    verb: "copy",
    done: "copied",
    doing: "copying",
    source: "",
    read_from: " from the source",
};

fn print(g: &Global, r: &CopyReport) -> Result<()> {
    if g.json {
        return g.print_json(r);
    }
    for c in &r.copied {
        line(bring::line(&WORDS, r.dry_run, &c.source_id, &c.snapshot))?;
    }
    for s in &r.skipped {
        line(format_args!(
            "skipped {}: already in the destination as {}",
            short_id(&s.source_id),
            short_id(&s.existing_id)
        ))?;
    }
    let skipped = format!("{} already in the destination", r.skipped.len());
    bring::summary(g, &WORDS, r.dry_run, r.copied.len(), &skipped, &r.stored);
    Ok(())
}
