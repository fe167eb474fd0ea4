//! `tangle ls SNAPSHOT [PATH]`

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use tangle::ops::ls;
use tangle::{Error, Result};

use super::Global;

#[derive(Args)]
pub struct LsArgs {
    /// Snapshot id (prefix) or `latest`
    pub snapshot: String,
    /// Only list this path (as backed up) and what is below it
    pub path: Option<PathBuf>,
    /// Show type, mode, size and time
    #[arg(short, long)]
    pub long: bool,
}

pub fn run(g: &Global, a: &LsArgs) -> Result<u8> {
    let repo = g.open_unlocked()?;
    let mut out = std::io::stdout().lock();
    let mut entries = Vec::new();
    let mut failed = None;
    ls::walk(&repo, &a.snapshot, a.path.as_deref(), &mut |e| {
        if g.json {
            entries.push(e);
            return;
        }
        let r = if a.long {
            writeln!(
                out,
                "{:<8} {:>6o} {:>12} {}  {}",
                e.kind, e.mode, e.size, e.mtime, e.path
            )
        } else {
            out.write_all(&e.raw_path)
                .and_then(|_| out.write_all(b"\n"))
        };
        if let Err(err) = r {
            failed.get_or_insert(err);
        }
    })?;
    if let Some(e) = failed {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(Error::fatal(format!("writing output: {e}")));
        }
    }
    if g.json {
        g.print_json(&entries)?;
    }
    Ok(0)
}
