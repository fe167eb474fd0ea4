//! `tangle dump SNAPSHOT FILE`

use std::path::PathBuf;

use clap::Args;
use tangle::Result;
use tangle::ops::dump;

use super::open::Purpose;
use super::snapshot_filter::SnapshotFilterArgs;
use super::{Global, Stdout};
use tangle::repo::{Indexed, Repository};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tangle dump latest /home/me/notes.txt > notes.txt\n  tangle dump latest --host laptop /home/me/notes.txt > notes.txt"
)]
pub struct DumpArgs {
    /// Snapshot id (prefix) or `latest`
    pub snapshot: String,
    /// Absolute path of the file, as backed up
    pub file: PathBuf,
    #[command(flatten)]
    pub filter: SnapshotFilterArgs,
}

pub fn run(g: &Global, a: &DumpArgs) -> Result<u8> {
    let filter = a.filter.filter()?;
    let repo: Repository<Indexed> = g.open(Purpose::Reading)?;
    // Large writes straight to the pipe; `Stdout` notices a reader that went away.
    let mut out = std::io::BufWriter::with_capacity(1 << 20, Stdout);
    let result = dump::dump(&repo, &a.snapshot, &filter, &a.file, &mut out);
    super::restore::warn_read_around(g, &repo.damage_read_around());
    result?;
    Ok(0)
}
