//! `tangle dump SNAPSHOT PATH`: a file's bytes, or a directory as a tar or zip archive.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use tangle::error::ResultExt;
use tangle::ops::dump::{self, Archive};
use tangle::{Error, Result};

use super::open::Purpose;
use super::snapshot_filter::SnapshotFilterArgs;
use super::{Global, Stdout};
use tangle::repo::{Indexed, Repository};

#[derive(Args)]
#[command(
    after_help = "A file is written as it is; a directory (`/`: the whole snapshot) as a tar \
(or, with `--archive zip`, zip) archive of its contents, paths relative to it.\n\nExamples:\n  tangle dump latest /home/me/notes.txt > notes.txt\n  tangle dump latest --host laptop /home/me/notes.txt > notes.txt\n  tangle dump latest /home/me/photos > photos.tar\n  tangle dump latest /home/me/photos --archive zip > photos.zip\n  tangle dump latest / --target everything.tar"
)]
pub struct DumpArgs {
    /// Snapshot id (prefix) or `latest`
    pub snapshot: String,
    /// Absolute path of the file or directory, as backed up (`/`: the whole snapshot)
    #[arg(value_name = "PATH")]
    pub file: PathBuf,
    /// Archive format of a directory dump: `tar` or `zip`
    #[arg(long, value_name = "FORMAT", default_value = "tar", value_parser = parse_archive)]
    pub archive: Archive,
    /// Write to this file instead of standard output
    #[arg(short = 't', long, value_name = "FILE")]
    pub target: Option<PathBuf>,
    #[command(flatten)]
    pub filter: SnapshotFilterArgs,
}

/// `--archive`: `tar` or `zip`, as restic's.
fn parse_archive(s: &str) -> std::result::Result<Archive, String> {
    match s {
        "tar" => Ok(Archive::Tar),
        "zip" => Ok(Archive::Zip),
        _ => Err("unknown archive format; the formats are tar and zip".into()),
    }
}

pub fn run(g: &Global, a: &DumpArgs) -> Result<u8> {
    let filter = a.filter.filter()?;
    let repo: Repository<Indexed> = g.open(Purpose::Reading)?;
    let result = match &a.target {
        None => {
            // Large writes straight to the pipe; `Stdout` notices a reader that went away.
            let mut out = std::io::BufWriter::with_capacity(1 << 20, Stdout);
            dump::dump(&repo, &a.snapshot, &filter, &a.file, a.archive, &mut out)
        }
        Some(target) => to_file(&repo, a, &filter, target),
    };
    super::render::warn_read_around(g, &repo.damage_read_around());
    result?;
    Ok(0)
}

/// `--target FILE`: written whole, or removed, so a failed dump leaves no file that
/// looks complete.
fn to_file(
    repo: &Repository<Indexed>,
    a: &DumpArgs,
    filter: &tangle::ops::select::SnapshotFilter,
    target: &std::path::Path,
) -> Result<u64> {
    let file = std::fs::File::create(target)
        .map_err(|e| Error::fatal(format!("cannot create {}: {e}", target.display())))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    let result =
        dump::dump(repo, &a.snapshot, filter, &a.file, a.archive, &mut out).and_then(|n| {
            out.flush().ctx("writing output")?;
            out.get_ref().sync_all().ctx("writing output")?;
            Ok(n)
        });
    if result.is_err() {
        drop(out);
        let _ = std::fs::remove_file(target);
    }
    result
}
