//! `tangle ls SNAPSHOT [PATH]`

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::Args;
use tangle::ops::ls;
use tangle::util::escape;
use tangle::{Error, Result};

use super::open::Purpose;
use super::snapshot_filter::SnapshotFilterArgs;
use super::{Global, Stdout};
use tangle::repo::{Indexed, Repository};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tangle ls latest\n  tangle ls latest --host laptop\n  tangle ls -l 1a2b3c4d /home/me/docs"
)]
pub struct LsArgs {
    /// Snapshot id (prefix) or `latest`
    pub snapshot: String,
    /// Only list this path (as backed up) and what is below it
    pub path: Option<PathBuf>,
    /// Show type, mode, size and time
    #[arg(short, long)]
    pub long: bool,
    #[command(flatten)]
    pub filter: SnapshotFilterArgs,
}

pub fn run(g: &Global, a: &LsArgs) -> Result<u8> {
    let filter = a.filter.filter()?;
    let repo: Repository<Indexed> = g.open(Purpose::Reading)?;
    // Buffered: a large listing is written in blocks, not one system call per line.
    let mut out = std::io::BufWriter::new(Stdout);
    // Plain `ls` into a pipe or a file keeps each path's exact bytes for scripts; on a
    // terminal it escapes them, as `-l` always does (a name must not drive the terminal).
    let exact = !a.long && !std::io::stdout().is_terminal();
    let mut entries = Vec::new();
    let mut failed = None;
    ls::walk(&repo, &a.snapshot, &filter, a.path.as_deref(), &mut |e| {
        if g.json {
            entries.push(e);
            return;
        }
        // After a failed write (e.g. the reader went away) the walk still runs to its
        // end (it has no way to stop), but nothing more is formatted or written.
        if failed.is_some() {
            return;
        }
        let r = if a.long {
            // The extended-attribute mark takes the place of the space after the mode,
            // so lines without attributes look as before.
            writeln!(
                out,
                "{:<8} {:>6o}{}{:>12} {}  {}",
                e.kind,
                e.mode,
                e.xattr_mark(),
                e.size,
                e.mtime,
                escape(&e.raw_path)
            )
        } else if exact {
            out.write_all(&e.raw_path)
                .and_then(|_| out.write_all(b"\n"))
        } else {
            writeln!(out, "{}", escape(&e.raw_path))
        };
        if let Err(err) = r {
            failed = Some(err);
        }
    })?;
    if let Some(e) = failed.map_or_else(|| out.flush().err(), Some) {
        // `main` turns a closed pipe into a quiet exit 0.
        return Err(Error::fatal(format!("writing output: {e}")));
    }
    if g.json {
        g.print_json(&entries)?;
    }
    Ok(0)
}
