//! `tangle remote list | add URL | replace OLD NEW`

use clap::{Args, Subcommand};
use tangle::Result;
use tangle::ops::remote;
use tangle::util::human_bytes;

use super::{Global, warn};

#[derive(Args)]
pub struct RemoteArgs {
    #[command(subcommand)]
    pub action: RemoteAction,
}

#[derive(Subcommand)]
pub enum RemoteAction {
    /// Show the remotes, whether they answer, and what they hold
    List,
    /// Add a remote (new extents use it; run `repair` to copy the metadata there)
    Add {
        /// URL of the new remote
        url: String,
    },
    /// Replace a dead or retired remote by a new empty one; then run `repair` to fill it
    Replace {
        /// The remote to replace (its URL or index)
        old: String,
        /// The new location
        new: String,
    },
}

pub fn run(g: &Global, a: &RemoteArgs) -> Result<u8> {
    match &a.action {
        RemoteAction::List => {
            let repo = g.open_maybe_unlocked()?;
            let list = remote::list(&repo)?;
            if g.json {
                return g.print_json(&list).map(|_| 0);
            }
            for r in &list {
                match &r.error {
                    None => println!(
                        "{}  {}  {} objects, {}",
                        r.index,
                        r.url,
                        r.objects,
                        human_bytes(r.bytes)
                    ),
                    Some(e) => println!("{}  {}  UNREACHABLE: {e}", r.index, r.url),
                }
            }
            Ok(0)
        }
        RemoteAction::Add { url } => change(g, |repo| remote::add(repo, url)),
        RemoteAction::Replace { old, new } => change(g, |repo| remote::replace(repo, old, new)),
    }
}

fn change(
    g: &Global,
    f: impl FnOnce(&tangle::repo::Repository) -> Result<remote::ChangeReport>,
) -> Result<u8> {
    let repo = g.open_unlocked()?;
    let r = f(&repo)?;
    for n in &r.not_updated {
        warn(format_args!("config not updated on {n}"));
    }
    if g.json {
        return g.print_json(&r).map(|_| 0);
    }
    g.say(format_args!(
        "config revision {}: remotes are now",
        r.revision
    ));
    for (i, u) in r.remotes.iter().enumerate() {
        g.say(format_args!("  {i}  {u}"));
    }
    g.say("run `tangle repair` to copy metadata and rebuild shards onto the new remote");
    Ok(0)
}
