//! `tangle unlock [--remove-all]`

use clap::Args;
use tangle::Result;

use super::{Global, line};

#[derive(Args)]
#[command(after_help = "Examples:\n  tangle unlock\n  tangle unlock --remove-all")]
pub struct UnlockArgs {
    /// Remove every lock, not only stale ones (only when no backup or delete runs)
    #[arg(long)]
    pub remove_all: bool,
}

pub fn run(g: &Global, a: &UnlockArgs) -> Result<u8> {
    let repo = g.open_locked()?;
    let (removed, not_authentic) = repo.remove_locks(a.remove_all)?;
    if g.json {
        let list: Vec<serde_json::Value> = removed
            .iter()
            .map(|l| {
                serde_json::json!({
                    "path": l.path,
                    "holder": l.describe(),
                    "exclusive": l.kind == tangle::repo::LockKind::Exclusive,
                })
            })
            .collect();
        g.print_json(&serde_json::json!({ "removed": list, "not_authentic": not_authentic }))?;
        return Ok(0);
    }
    for l in &removed {
        line(format_args!("removed the lock of {}", l.describe()))?;
    }
    for path in &not_authentic {
        line(format_args!(
            "removed {path}, which no remote serves authentic"
        ))?;
    }
    g.say(format_args!(
        "{} locks removed",
        removed.len() + not_authentic.len()
    ));
    Ok(0)
}
