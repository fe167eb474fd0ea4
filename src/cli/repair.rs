//! `tangle repair [--dry-run]`

use clap::Args;
use tangle::Result;
use tangle::ops::repair::{self, DataLost, RepairOptions};
use tangle::ops::verify::LostUnknown;
use tangle::util::escape;
use tangle::util::human_bytes;

use tangle::repo::{Repository, State};

use super::open::{MaybeUnlocked, Purpose, with_repo};
use super::progress::with_bar;
use super::{Global, line, warn};

#[derive(Args)]
#[command(after_help = "Examples:\n  tangle repair --dry-run\n  tangle verify || tangle repair")]
pub struct RepairArgs {
    /// Print the plan and the bytes it would move; change nothing
    #[arg(short = 'n', long)]
    pub dry_run: bool,
    /// First download and hash every shard, to also find corruption a listing cannot see
    #[arg(long)]
    pub read_data: bool,
}

/// Repair, drawing a progress bar on a terminal.
fn repair_with_bar<S: State>(
    g: &Global,
    a: &RepairArgs,
    repo: &Repository<S>,
) -> Result<repair::RepairReport> {
    // Without the password no lock can be signed: a marker, and writes only while no
    // exclusive lock is live (see `repo::lock`).
    let _marker = if a.dry_run {
        None
    } else {
        Some(repo.repair_marker()?)
    };
    let opts = RepairOptions {
        dry_run: a.dry_run,
        read_data: a.read_data,
    };
    let bar = !a.dry_run && g.show_progress();
    with_bar(bar, "rebuilding", "codewords", |progress| {
        repair::run_with_progress(repo, &opts, progress)
    })
}

pub fn run(g: &Global, a: &RepairArgs) -> Result<u8> {
    let repo: MaybeUnlocked = g.open(Purpose::Writing)?;
    let r = with_repo!(&repo, |repo| repair_with_bar(g, a, repo))?;
    if g.json {
        g.print_json(&r)?;
        return Ok(r.exit_code);
    }
    for act in &r.actions {
        if a.dry_run || g.verbose > 0 {
            line(format_args!(
                "{}{}: {} on {} ({})",
                if a.dry_run { "would " } else { "" },
                act.kind,
                act.path,
                act.remote,
                human_bytes(act.bytes)
            ))?;
        }
    }
    // Lost data is what repair could not do: shown as verify shows it, under `-q` too.
    let errors = Global {
        quiet: false,
        ..g.clone()
    };
    let verbose = g.verbose > 0 && !g.quiet;
    for d in &r.data_lost {
        errors.say(format_args!("LOST: {}", escape(&d.finding.message)));
        if let Some(lost) = &d.finding.lost {
            super::render::print_lost(&errors, lost, verbose);
        }
        errors.say(format_args!("    why: {}", d.why));
    }
    let no_password = |d: &DataLost| {
        (d.finding.lost.as_ref()).is_some_and(|l| l.paths_unknown == Some(LostUnknown::NoPassword))
    };
    if r.data_lost.iter().any(no_password) {
        errors.say(
            "naming the snapshots and files this data loss affects needs the password and a \
             readable key: give repair the password (TANGLE_PASSWORD, --password-file or the \
             profile's)",
        );
    }
    let explained: Vec<&str> = (r.data_lost.iter())
        .filter_map(|d| d.unrepaired.as_deref())
        .collect();
    for u in (r.unrepaired.iter())
        .filter(|u| !explained.contains(&u.as_str()))
        .chain(&r.pending)
    {
        warn(u);
    }
    if !r.data_lost.is_empty() {
        errors.say(format_args!(
            "{} lost for good: no remote holds enough of {} shards and no codeword rebuilds \
             {}; restore what is left: `tangle restore SNAPSHOT --target DIR` writes \
             everything it can and lists what it cannot",
            match r.data_lost.len() {
                1 => "the data of 1 extent is".to_string(),
                n => format!("the data of {n} extents is"),
            },
            if r.data_lost.len() == 1 {
                "its"
            } else {
                "their"
            },
            if r.data_lost.len() == 1 { "it" } else { "them" },
        ));
    }
    let moved: u64 = r.actions.iter().map(|x| x.bytes).sum();
    if r.actions.is_empty() && r.unrepaired.is_empty() && r.pending.is_empty() {
        g.say("nothing to repair");
    } else if r.actions.is_empty() {
        let mut left = vec![];
        if !r.unrepaired.is_empty() {
            left.push(format!(
                "{} cannot be repaired",
                counted(r.unrepaired.len(), "problem", "problems")
            ));
        }
        if !r.pending.is_empty() {
            left.push(format!(
                "{} for a remote",
                counted(r.pending.len(), "repair waits", "repairs wait")
            ));
        }
        g.say(format_args!(
            "nothing{} repaired: {} (see above)",
            if a.dry_run { " would be" } else { "" },
            left.join("; ")
        ));
    } else if a.dry_run {
        g.say(format_args!(
            "dry run: {} actions would write {} (nothing changed)",
            r.actions.len(),
            human_bytes(moved)
        ));
    } else {
        g.say(format_args!(
            "repaired: {} objects rewritten or removed ({} written, {} read)",
            r.actions.len(),
            human_bytes(r.bytes_written),
            human_bytes(r.bytes_read)
        ));
    }
    Ok(r.exit_code)
}

/// `n thing(s)`.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
