//! `tangle restore SNAPSHOT[:PATH] --target DIR`

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use tangle::ops::Progress;
use tangle::ops::restore::{self, RestoreOptions};
use tangle::util::human_bytes;
use tangle::{Error, Result};

use super::{Global, progress::Bar, warn};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tangle restore latest --target /tmp/restore\n  tangle restore 1a2b3c4d --target /tmp/restore --include /home/me/docs"
)]
pub struct RestoreArgs {
    /// Snapshot id (prefix) or `latest`, optionally with `:PATH` to restore only that path
    #[arg(value_name = "SNAPSHOT[:PATH]")]
    pub snapshot: String,
    /// Directory to restore into; paths are recreated below it as they were backed up
    #[arg(short, long, value_name = "DIR")]
    pub target: PathBuf,
    /// Restore only paths matching GLOB (repeatable)
    #[arg(short = 'i', long = "include", value_name = "GLOB")]
    pub includes: Vec<String>,
    /// Skip paths matching GLOB (repeatable)
    #[arg(short = 'e', long = "exclude", value_name = "GLOB")]
    pub excludes: Vec<String>,
    /// Read the restored files back and check them against the snapshot
    #[arg(long)]
    pub verify: bool,
}

pub fn run(g: &Global, a: &RestoreArgs) -> Result<u8> {
    let repo = g.open_for_reading()?;
    let opts = RestoreOptions {
        spec: a.snapshot.clone(),
        target: a.target.clone(),
        includes: a.includes.clone(),
        excludes: a.excludes.clone(),
        verify: a.verify,
    };
    let progress = Arc::new(Progress::default());
    let bar = Bar::start(g.show_progress(), progress.clone(), "restoring");
    let result = restore::run(&repo, &opts, &progress);
    bar.finish();
    let r = result?;
    for e in &r.errors {
        warn(format_args!("{e}"));
    }
    if g.json {
        g.print_json(&r)?;
    } else {
        g.say(format_args!(
            "restored snapshot {} to {}: {} files, {} dirs, {} others, {} in {:.1}s",
            &r.snapshot_id[..8],
            a.target.display(),
            r.files,
            r.dirs,
            r.others,
            human_bytes(r.bytes),
            r.duration_secs
        ));
        if let Some(n) = r.verified {
            g.say(format_args!("verified {n} files"));
        }
    }
    if r.errors.is_empty() {
        Ok(0)
    } else {
        Err(Error::fatal(format!(
            "{} errors while restoring (see warnings above)",
            r.errors.len()
        )))
    }
}
