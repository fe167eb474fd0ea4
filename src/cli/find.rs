//! `tangle find PATTERN... [--snapshot ID]... [--ignore-case] [--path P]`

use std::path::PathBuf;

use clap::Args;
use tangle::Result;
use tangle::ops::find::{self, FindOptions};
use tangle::ops::select::Selection;
use tangle::util::escape;

use super::open::Purpose;
use super::snapshot_filter::HostTagArgs;
use super::{Global, line};
use tangle::repo::{Indexed, Repository};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tangle find '*.jpg'\n  tangle find --ignore-case --snapshot latest 'report*' --path /home/me/docs\n  tangle find --host laptop --tag daily '*.jpg'"
)]
pub struct FindArgs {
    /// Glob patterns: without `/` matched against the file name, with `/` against the
    /// whole absolute path (like --exclude)
    #[arg(required = true, value_name = "PATTERN")]
    pub patterns: Vec<String>,
    /// Search only this snapshot (id, prefix or `latest`); repeatable. Default: every
    /// snapshot, newest first
    #[arg(short, long = "snapshot", value_name = "ID")]
    pub snapshots: Vec<String>,
    /// Match regardless of case
    #[arg(short = 'i', long)]
    pub ignore_case: bool,
    /// Search only at or below this path (as backed up)
    #[arg(long, value_name = "PATH")]
    pub path: Option<PathBuf>,
    #[command(flatten)]
    pub filter: HostTagArgs,
}

pub fn run(g: &Global, a: &FindArgs) -> Result<u8> {
    let repo: Repository<Indexed> = g.open(Purpose::Reading)?;
    let report = find::find(
        &repo,
        &FindOptions {
            patterns: a.patterns.clone(),
            selection: Selection {
                snapshots: a.snapshots.clone(),
                filter: a.filter.filter(),
            },
            ignore_case: a.ignore_case,
            path: a.path.clone(),
        },
    )?;
    if g.json {
        return g.print_json(&report).map(|_| 0);
    }
    for s in &report.snapshots {
        line(format_args!(
            "snapshot {} of {} ({}, {}):",
            s.snapshot.short_id,
            s.snapshot.time,
            escape(&s.snapshot.host),
            escape(&s.snapshot.paths.join(", "))
        ))?;
        for e in &s.matches {
            line(format_args!(
                "  {:<8} {:>12} {}  {}",
                e.kind,
                e.size,
                e.mtime,
                escape(&e.raw_path)
            ))?;
        }
    }
    g.say(format_args!(
        "{} matches in {} of {} snapshots",
        report.matches,
        report.snapshots.len(),
        report.snapshots_searched
    ));
    Ok(0)
}
