//! `tangle remote list | add URL | replace OLD NEW | rebalance`

use clap::{Args, Subcommand};
use serde::Serialize;
use tangle::Result;
use tangle::ops::rebalance::{self, RebalanceOptions, RebalanceReport};
use tangle::ops::remote;
use tangle::ops::repair::{self, RepairOptions, RepairReport};
use tangle::repo::{Indexed, LockKind, Repository, State, Unlocked};
use tangle::util::{escape, human_bytes};

use super::open::{MaybeUnlocked, Purpose, with_repo};
use super::progress::with_bar;
use super::{Global, line, warn};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tangle remote list\n  tangle remote add /mnt/usb2/tangle\n  tangle remote replace /mnt/usb/tangle /mnt/usb-new/tangle"
)]
pub struct RemoteArgs {
    #[command(subcommand)]
    pub action: RemoteAction,
}

#[derive(Subcommand)]
pub enum RemoteAction {
    /// Show the remotes, whether they answer, and what they hold
    List,
    /// Add a remote: copy the metadata there and move a share of the existing shards
    /// onto it (`rebalance`), so old data gets the same spread as new data
    Add {
        /// URL of the new remote
        url: String,
        /// Only change the config (new extents use the remote; run `repair` and
        /// `remote rebalance` later)
        #[arg(long)]
        no_rebalance: bool,
    },
    /// Replace a dead or retired remote by a new empty one; then run `repair` to fill it
    Replace {
        /// The remote to replace (its URL or index)
        old: String,
        /// The new location
        new: String,
    },
    /// Move shards of existing extents so every remote holds the share a new extent
    /// would give it (needs the password and every remote reachable)
    Rebalance {
        /// Print what would move without moving anything
        #[arg(short = 'n', long)]
        dry_run: bool,
    },
}

/// What `remote add` did, for `--json`.
#[derive(Serialize)]
struct AddReport {
    #[serde(flatten)]
    change: remote::ChangeReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    repair: Option<RepairReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rebalance: Option<RebalanceReport>,
}

pub fn run(g: &Global, a: &RemoteArgs) -> Result<u8> {
    match &a.action {
        RemoteAction::List => {
            let repo: MaybeUnlocked = g.open(Purpose::Writing)?;
            let list = with_repo!(&repo, |repo| remote::list(repo))?;
            if g.json {
                return g.print_json(&list).map(|_| 0);
            }
            for r in &list {
                match &r.error {
                    None if !r.holds_repository => line(format_args!(
                        "{}  {}  MISSING: holds no repository ({} objects; an unmounted disk or a wiped remote? `tangle repair` copies it back)",
                        r.index,
                        escape(&r.url),
                        r.objects
                    ))?,
                    None => line(format_args!(
                        "{}  {}  {} objects, {}",
                        r.index,
                        escape(&r.url),
                        r.objects,
                        human_bytes(r.bytes)
                    ))?,
                    Some(e) => line(format_args!(
                        "{}  {}  UNREACHABLE: {}",
                        r.index,
                        escape(&r.url),
                        escape(&e.to_string())
                    ))?,
                }
            }
            Ok(0)
        }
        RemoteAction::Add { url, no_rebalance } => {
            // Alone, until the shards have moved: a delete or another remote change in
            // between would work from a config or certificates this one replaces. The
            // lock lives on the remotes the config had (everyone still reads those).
            let locked: Repository<Unlocked> = g.open(Purpose::Writing)?;
            let _lock = locked.lock(LockKind::Exclusive, "remote add")?;
            let change = remote::add(&locked, url)?;
            for n in &change.not_updated {
                warn(format_args!("config not updated on {n}"));
            }
            let mut report = AddReport {
                change,
                repair: None,
                rebalance: None,
            };
            if !no_rebalance {
                // Reopen: the repository now spans the new remote.
                let repo: Repository<Indexed> = g.open(Purpose::Writing)?;
                report.repair = Some(repair::run(
                    &repo,
                    &RepairOptions {
                        dry_run: false,
                        read_data: false,
                    },
                )?);
                report.rebalance = Some(rebalance_with_bar(g, &repo, false)?);
            }
            if g.json {
                return g.print_json(&report).map(|_| 0);
            }
            say_remotes(g, &report.change);
            match &report.rebalance {
                Some(r) => say_rebalance(g, r),
                None => g.say("run `tangle repair` to copy the metadata there, then `tangle remote rebalance`"),
            }
            Ok(0)
        }
        RemoteAction::Replace { old, new } => {
            let repo: Repository<Unlocked> = g.open(Purpose::Writing)?;
            let _lock = repo.lock(LockKind::Exclusive, "remote replace")?;
            let r = remote::replace(&repo, old, new)?;
            for n in &r.not_updated {
                warn(format_args!("config not updated on {n}"));
            }
            if g.json {
                return g.print_json(&r).map(|_| 0);
            }
            say_remotes(g, &r);
            g.say("run `tangle repair` to copy metadata and rebuild shards onto the new remote");
            Ok(0)
        }
        RemoteAction::Rebalance { dry_run } => {
            let repo: Repository<Unlocked> = g.open(Purpose::Writing)?;
            // It re-signs certificates, as a delete does: alone.
            let _lock = if *dry_run {
                None
            } else {
                Some(repo.lock(LockKind::Exclusive, "remote rebalance")?)
            };
            let r = rebalance_with_bar(g, &repo, *dry_run)?;
            if g.json {
                return g.print_json(&r).map(|_| 0);
            }
            say_rebalance(g, &r);
            Ok(0)
        }
    }
}

fn say_remotes(g: &Global, r: &remote::ChangeReport) {
    g.say(format_args!(
        "config revision {}: remotes are now",
        r.revision
    ));
    for (i, u) in r.remotes.iter().enumerate() {
        g.say(format_args!("  {i}  {u}"));
    }
}

fn say_rebalance(g: &Global, r: &RebalanceReport) {
    for s in &r.skipped {
        warn(format_args!("{s}"));
    }
    g.say(format_args!(
        "{} {} shards ({}) of {} extents",
        if r.dry_run { "would move" } else { "moved" },
        r.shards_moved,
        human_bytes(r.bytes_moved),
        r.extents_moved
    ));
    for share in &r.remotes {
        g.say(format_args!(
            "  {}  {} -> {} shards ({} -> {})",
            share.url,
            share.shards_before,
            share.shards_after,
            human_bytes(share.bytes_before),
            human_bytes(share.bytes_after)
        ));
    }
}

/// Rebalance, drawing a progress bar on a terminal.
fn rebalance_with_bar<S: State>(
    g: &Global,
    repo: &Repository<S>,
    dry_run: bool,
) -> Result<rebalance::RebalanceReport> {
    let opts = RebalanceOptions { dry_run };
    with_bar(
        !dry_run && g.show_progress(),
        "rebalancing",
        "extents",
        |progress| rebalance::run_with_progress(repo, &opts, progress),
    )
}
