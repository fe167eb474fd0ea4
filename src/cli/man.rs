//! `tangle man DIR` (hidden): write the man pages, `tangle.1` and `tangle-SUB.1` for every
//! subcommand (`tangle-remote-add.1` for nested ones), into DIR. The pages in `docs/man/`
//! are made this way, and a test keeps them from falling behind the command line.

use std::path::PathBuf;

use clap::{Args, CommandFactory};
use tangle::{Error, Result};

#[derive(Args)]
pub struct ManArgs {
    /// The directory to write the pages into (it must exist)
    pub dir: PathBuf,
}

pub fn run(a: &ManArgs) -> Result<u8> {
    clap_mangen::generate_to(super::Cli::command(), &a.dir).map_err(|e| {
        Error::fatal(format!(
            "cannot write man pages into {}: {e}",
            a.dir.display()
        ))
    })?;
    Ok(0)
}
