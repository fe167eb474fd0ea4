//! `tangle delete SNAPSHOT...` or `tangle delete --keep-* ...` (restic's forget + prune),
//! or `tangle -P NAME delete [--policy]` with the profile's `[delete]` policy.

use clap::Args;
use serde_json::{Value, json};
use tangle::ops::delete::policy::{self, Filter, GroupBy, Policy, SnapshotRef};
use tangle::ops::delete::{self, DeleteOptions, DeleteReport, repack};
use tangle::repo::{LockKind, Repository, Unlocked};
use tangle::util::human_bytes;
use tangle::{Error, Result};

use super::open::Purpose;
use super::progress::with_bar;
use super::settings::{self, Given, Resolved, settings};
use super::{Global, line};

/// The flags that make up a retention policy (the profile's `[delete]` fills the rest
/// of them when it is used).
const POLICY_FLAGS: [&str; 8] = [
    "keep_last",
    "keep_hourly",
    "keep_daily",
    "keep_weekly",
    "keep_monthly",
    "keep_yearly",
    "keep_within",
    "keep_tag",
];

settings! {
    section "delete";
    #[derive(Args, Clone)]
    #[command(
        after_help = "Examples:\n  tangle delete 1a2b3c4d\n  tangle delete --keep-daily 7 --keep-weekly 4 --keep-monthly 12 --dry-run"
    )]
    pub struct DeleteArgs {
        /// Snapshots to delete (ids or unique id prefixes, or `latest`)
        #[arg(value_name = "SNAPSHOT", conflicts_with_all = ["keep_last", "keep_hourly", "keep_daily", "keep_weekly", "keep_monthly", "keep_yearly", "keep_within", "keep_tag", "policy"])]
        pub snapshots: Vec<String> => cli_only(),
        /// Use the profile's [delete] policy (flags given here win key by key); the default
        /// when neither snapshots nor --keep-* options are given and the profile has one
        #[arg(long)]
        pub policy: bool => cli_only(),
        /// Keep the last N snapshots (per group)
        #[arg(long, value_name = "N", value_parser = policy::parse_count)]
        pub keep_last: Option<u32> => show(count),
        /// Keep the last snapshot of each of the last N hours with snapshots
        #[arg(long, value_name = "N", value_parser = policy::parse_count)]
        pub keep_hourly: Option<u32> => show(count),
        /// Keep the last snapshot of each of the last N days with snapshots
        #[arg(long, value_name = "N", value_parser = policy::parse_count)]
        pub keep_daily: Option<u32> => show(count),
        /// Keep the last snapshot of each of the last N ISO weeks with snapshots
        #[arg(long, value_name = "N", value_parser = policy::parse_count)]
        pub keep_weekly: Option<u32> => show(count),
        /// Keep the last snapshot of each of the last N months with snapshots
        #[arg(long, value_name = "N", value_parser = policy::parse_count)]
        pub keep_monthly: Option<u32> => show(count),
        /// Keep the last snapshot of each of the last N years with snapshots
        #[arg(long, value_name = "N", value_parser = policy::parse_count)]
        pub keep_yearly: Option<u32> => show(count),
        /// Keep snapshots newer than DURATION before the newest one (e.g. 1y5m7d2h)
        #[arg(long, value_name = "DURATION", value_parser = policy::parse_within)]
        pub keep_within: Option<policy::Within>,
        /// Keep snapshots with these tags (comma-separated: all of them; repeat: any list)
        #[arg(long, value_name = "TAGS")]
        pub keep_tag: Vec<String>,
        /// Group snapshots by these fields before applying the policy
        #[arg(long, value_name = "host,paths,tags", default_value = "host,paths")]
        pub group_by: String => check(GroupBy::parse),
        /// Only consider snapshots of this host (repeat for several)
        #[arg(long, value_name = "HOST")]
        pub host: Vec<String>,
        /// Only consider snapshots with these tags (comma-separated: all of them)
        #[arg(long, value_name = "TAGS")]
        pub tag: Vec<String>,
        /// Say what would be removed and freed; change nothing
        #[arg(short = 'n', long)]
        pub dry_run: bool => cli_only(),
        /// Unused space to tolerate in partly used extents before repacking them: a share
        /// of the live data (5%), a size (100M) or `unlimited`
        #[arg(long, value_name = "LIMIT", default_value = "5%", value_parser = max_unused)]
        pub max_unused: String,
        /// Delete even with remotes unreachable (the next repair removes from them what the
        /// deletion names)
        #[arg(long)]
        pub allow_degraded: bool,
    }
}

/// `--max-unused`, checked and kept as given (`profile show` prints it so).
fn max_unused(text: &str) -> std::result::Result<String, String> {
    repack::MaxUnused::parse(text).map(|_| text.to_string())
}

/// A `--keep-*` count as `profile show` prints it.
fn count(v: &Option<u32>) -> Value {
    match v {
        Some(policy::UNLIMITED) => json!("unlimited"),
        v => json!(v),
    }
}

/// The arguments with the profile's `[delete]` filled in where `given` lacks a key: all
/// of it with `--policy` (or with neither snapshots nor `--keep-*`), else only
/// `max-unused`.
fn resolve(g: &Global, a: &DeleteArgs, given: &Given) -> Result<Resolved<DeleteArgs>> {
    let table = (g.loaded.as_deref()).is_some_and(|p| p.command_table("delete").is_some());
    if a.policy && !table {
        return Err(Error::usage(
            "--policy takes the [delete] table of a profile: give -P NAME with one",
        ));
    }
    let by_profile = table
        && (a.policy || (a.snapshots.is_empty() && POLICY_FLAGS.iter().all(|f| !given.has(f))));
    let mut r = settings::resolve(g.loaded.as_deref(), a, given, |id| {
        by_profile || id == "max_unused"
    })?;
    r.args.policy |= by_profile;
    Ok(r)
}

/// The settings `tangle run` uses: no flags.
pub fn unflagged(g: &Global) -> Result<Resolved<DeleteArgs>> {
    let (a, given) = settings::defaults::<DeleteArgs>("delete")?;
    resolve(g, &a, &given)
}

impl DeleteArgs {
    fn policy(&self) -> Policy {
        Policy {
            keep_last: self.keep_last,
            keep_hourly: self.keep_hourly,
            keep_daily: self.keep_daily,
            keep_weekly: self.keep_weekly,
            keep_monthly: self.keep_monthly,
            keep_yearly: self.keep_yearly,
            keep_within: self.keep_within,
            keep_tags: self.keep_tag.clone(),
        }
    }
}

pub fn run(g: &Global, a: &DeleteArgs) -> Result<u8> {
    let a = resolve(g, a, &g.given)?.args;
    let r = execute(g, &a)?;
    print(g, &r)?;
    Ok(0)
}

/// Apply the policy (or delete the snapshots named) and return the report.
pub fn execute(g: &Global, a: &DeleteArgs) -> Result<DeleteReport> {
    let policy = a.policy();
    let group_by = GroupBy::parse(&a.group_by)?;
    let max_unused = repack::MaxUnused::parse(&a.max_unused).map_err(Error::usage)?;
    if a.snapshots.is_empty() {
        policy.check()?;
    }
    let repo: Repository<Unlocked> = g.open(Purpose::Writing)?;
    // Alone: no backup may dedup against or point into what is being removed.
    let _lock = if a.dry_run {
        None
    } else {
        Some(repo.lock(LockKind::Exclusive, "delete")?)
    };
    let mut remove = Vec::new();
    let mut decisions = Vec::new();
    if a.snapshots.is_empty() {
        let snaps: Vec<SnapshotRef> = (repo.snapshots()?.into_iter())
            .map(|(id, s)| {
                SnapshotRef::new(id, s.time_ns, s.host, s.paths, s.tags).signed_by(s.writer)
            })
            .collect();
        let filter = Filter {
            hosts: a.host.clone(),
            tags: a.tag.clone(),
        };
        decisions = policy::apply(
            &policy,
            group_by,
            &filter,
            &snaps,
            chrono::Utc::now(),
            &chrono::Local,
        )?;
        remove.extend(decisions.iter().filter(|d| !d.keep).map(|d| d.id.clone()));
    } else {
        for spec in &a.snapshots {
            let (id, _) = repo.find_snapshot(spec)?;
            if !remove.contains(&id) {
                remove.push(id);
            }
        }
    }
    let opts = DeleteOptions {
        remove,
        dry_run: a.dry_run,
        allow_degraded: a.allow_degraded,
        max_unused,
    };
    let bar = !a.dry_run && g.show_progress();
    let mut r = with_bar(bar, "repacking and re-encoding", "extents", |progress| {
        delete::run_with_progress(repo, &opts, progress)
    })?;
    r.decisions = decisions;
    Ok(r)
}

/// The report: JSON, or the decisions and the summary.
pub fn print(g: &Global, r: &DeleteReport) -> Result<()> {
    if g.json {
        return g.print_json(r);
    }
    let would = if r.dry_run { "would " } else { "" };
    for d in &r.decisions {
        let verdict = if d.keep {
            format!("keep   ({})", d.reasons.join(", "))
        } else {
            format!("{would}remove")
        };
        line(format_args!(
            "{}  {}  {verdict}",
            &d.id[..8],
            tangle::util::escape(&d.group)
        ))?;
    }
    if r.decisions.is_empty() {
        for id in &r.snapshots_removed {
            line(format_args!("{would}remove snapshot {}", &id[..8]))?;
        }
    }
    g.say(format_args!(
        "{would}remove {} snapshots ({} kept), {} extents; {would}re-encode {} extents",
        r.snapshots_removed.len(),
        r.snapshots_kept,
        r.extents_removed,
        r.extents_reencoded
    ));
    if r.extents_repacked > 0 {
        g.say(format_args!(
            "{would}repack {} partly used or small extents ({} live)",
            r.extents_repacked,
            human_bytes(r.bytes_repacked)
        ));
    }
    for f in &r.freed {
        g.say(format_args!(
            "{would}free {} on {}",
            human_bytes(f.bytes),
            f.remote
        ));
    }
    if r.dry_run {
        g.say(format_args!(
            "would free {} in all; would read about {}, write about {} to repack and re-encode \
             (of which re-encoding {} and {})",
            human_bytes(r.bytes_freed),
            human_bytes(r.bytes_read),
            human_bytes(r.bytes_written),
            human_bytes(r.reencode_bytes_read),
            human_bytes(r.reencode_bytes_written)
        ));
    } else {
        g.say(format_args!(
            "freed {} in all; read {}, wrote {} to repack and re-encode (of which re-encoding \
             {} and {})",
            human_bytes(r.bytes_freed),
            human_bytes(r.bytes_read),
            human_bytes(r.bytes_written),
            human_bytes(r.reencode_bytes_read),
            human_bytes(r.reencode_bytes_written)
        ));
    }
    Ok(())
}
