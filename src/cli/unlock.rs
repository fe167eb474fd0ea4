//! `tangle unlock [--remove-all]`

use clap::Args;
use tangle::Result;
use tangle::repo::{LockKind, Public, Repository, lock_times};
use tangle::util::escape;

use super::open::Purpose;
use super::{Global, line};

#[derive(Args)]
#[command(after_help = "Examples:\n  tangle unlock\n  tangle unlock --remove-all")]
pub struct UnlockArgs {
    /// Remove every lock and repair marker, not only stale locks (only when you know no
    /// backup, delete or repair runs, on any machine)
    #[arg(long)]
    pub remove_all: bool,
}

pub fn run(g: &Global, a: &UnlockArgs) -> Result<u8> {
    let repo: Repository<Public> = g.open(Purpose::Writing)?;
    let out = repo.remove_locks(a.remove_all)?;
    let times = lock_times();
    if g.json {
        let list = |locks: &mut dyn Iterator<Item = (&tangle::repo::LockInfo, Option<String>)>| {
            locks
                .map(|(l, why)| {
                    let mut v = serde_json::json!({
                        "path": l.path,
                        "holder": l.describe(),
                        "exclusive": l.kind == LockKind::Exclusive,
                    });
                    if let Some(why) = why {
                        v["why"] = why.into();
                    }
                    v
                })
                .collect::<Vec<_>>()
        };
        let removed = list(&mut out.removed.iter().map(|l| (l, None)));
        let kept = list(&mut (out.kept.iter()).map(|l| (&l.info, Some(l.state.describe(&times)))));
        g.print_json(&serde_json::json!({
            "removed": removed,
            "not_authentic": out.not_authentic,
            "kept": kept,
            "repair_markers_removed": out.repair_markers,
        }))?;
        return Ok(0);
    }
    for l in &out.removed {
        line(format_args!(
            "removed the lock of {}",
            escape(&l.describe())
        ))?;
    }
    for path in &out.not_authentic {
        line(format_args!(
            "removed {path}, which no remote serves authentic"
        ))?;
    }
    for path in &out.repair_markers {
        line(format_args!("removed the repair marker {path}"))?;
    }
    for l in &out.kept {
        line(format_args!(
            "kept the lock of {}: {}",
            escape(&l.info.describe()),
            l.state.describe(&times)
        ))?;
    }
    g.say(format_args!(
        "{} locks removed",
        out.removed.len() + out.not_authentic.len()
    ));
    if !out.kept.is_empty() {
        g.say(format_args!(
            "{} kept: a lock held on another machine counts as stale once this cache has \
             watched it unchanged for {} (run `tangle unlock` again then); if you know its \
             holder is gone, `tangle unlock --remove-all` removes it now",
            out.kept.len(),
            tangle::repo::human_duration(times.stale)
        ));
    }
    Ok(0)
}
