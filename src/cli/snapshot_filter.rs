//! The snapshot filters `--host`, `--tag` and `--path` as restic has them, one
//! definition flattened into every command that takes a SNAPSHOT (`ls`, `restore`,
//! `dump`, `diff`, `cat snapshot`, `stats`) and into `snapshots`; `find`, whose `--path`
//! is where to search, takes `--host` and `--tag` only. They choose which snapshot
//! `latest` is (and which snapshots `snapshots`, `find` and `stats` look at when none is
//! named); an id is taken as given ([`tangle::ops::select`]).

use std::path::PathBuf;

use clap::Args;
use tangle::Result;
use tangle::ops::select::{self, Selection, SnapshotFilter};

/// `--host` and `--tag`.
#[derive(Args, Clone, Debug, Default)]
#[command(next_help_heading = "Snapshot filters")]
pub struct HostTagArgs {
    /// Only snapshots of this host (repeat: any of them); `latest` is the newest of
    /// these. A snapshot named by id is taken as given
    #[arg(short = 'H', long = "host", value_name = "HOST")]
    pub hosts: Vec<String>,
    /// Only snapshots with all these tags (comma-separated; repeat: any of the lists;
    /// '' matches snapshots without tags); `latest` is the newest of these
    #[arg(long = "tag", value_name = "TAG[,TAG]")]
    pub tags: Vec<String>,
}

impl HostTagArgs {
    pub fn filter(&self) -> SnapshotFilter {
        SnapshotFilter {
            hosts: self.hosts.clone(),
            tags: self.tags.clone(),
            paths: Vec::new(),
        }
    }
}

/// The snapshots a command works on: those named, or every snapshot the filters select.
/// Each command says in its own words what it does with them, in its `#[command]`
/// attribute: `mut_arg("snapshots", help("..."))`.
#[derive(Args, Clone, Debug, Default)]
pub struct SnapshotSelection {
    /// Snapshots (ids, unique prefixes or `latest`); none: every snapshot the filters
    /// select (all of them without filters)
    #[arg(value_name = "SNAPSHOT")]
    pub snapshots: Vec<String>,
    #[command(flatten)]
    pub filter: SnapshotFilterArgs,
}

impl SnapshotSelection {
    /// The library's selection (the filter's relative paths taken from here).
    pub fn selection(&self) -> Result<Selection> {
        Ok(Selection {
            snapshots: self.snapshots.clone(),
            filter: self.filter.filter()?,
        })
    }
}

/// An argument's help text replaced (for `mut_arg` in a `#[command]` attribute).
pub fn help(text: &'static str) -> impl FnOnce(clap::Arg) -> clap::Arg {
    move |arg| arg.help(text)
}

/// `--host`, `--tag` and `--path`.
#[derive(Args, Clone, Debug, Default)]
#[command(next_help_heading = "Snapshot filters")]
pub struct SnapshotFilterArgs {
    #[command(flatten)]
    pub host_tag: HostTagArgs,
    /// Only snapshots whose backed-up paths include PATH (repeat: all of them); `latest`
    /// is the newest of these
    #[arg(long = "path", value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

impl SnapshotFilterArgs {
    /// The filter; relative paths are taken from the current directory, as `backup`
    /// takes its sources.
    pub fn filter(&self) -> Result<SnapshotFilter> {
        Ok(SnapshotFilter {
            paths: (self.paths.iter())
                .map(|p| select::snapshot_path(p))
                .collect::<Result<_>>()?,
            ..self.host_tag.filter()
        })
    }
}
