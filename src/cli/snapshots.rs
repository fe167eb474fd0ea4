//! `tangle snapshots [SNAPSHOT...] [--host H] [--tag T] [--path P] [--latest N]
//! [--group-by F] [--compact]`

use clap::Args;
use tangle::Result;
use tangle::ops::select::{GroupBy, GroupKey};
use tangle::ops::snapshots::{self, SnapshotGroup};
use tangle::repo::{Repository, Unlocked};
use tangle::util::escape;

use super::open::Purpose;
use super::snapshot_filter::{SnapshotSelection, help};
use super::{Global, line};

/// What `--help` shows after the options.
const EXAMPLES: &str = "Examples:\n  tangle -r /mnt/usb/tangle snapshots\n  tangle -r s3://bucket/tangle snapshots --json\n  tangle snapshots --host laptop --tag daily\n  tangle snapshots --latest 1 --group-by host,paths --compact";
/// The help of the SNAPSHOT arguments.
const SNAPSHOTS: &str =
    "List only these snapshots (ids, prefixes or `latest`); default: all (that the filters select)";

#[derive(Args)]
#[command(after_help = EXAMPLES, mut_arg("snapshots", help(SNAPSHOTS)))]
pub struct SnapshotsArgs {
    /// Show only the N newest snapshots of each group (without --group-by: of all)
    #[arg(long, value_name = "N", value_parser = parse_latest)]
    pub latest: Option<usize>,
    /// Group the snapshots by these fields: host, paths and/or tags, comma-separated
    /// ('' for one group); each group is printed under a header, and --json prints
    /// [{"group_key", "snapshots"}]
    #[arg(long, value_name = "host,paths,tags", value_parser = GroupBy::parse_fields)]
    pub group_by: Option<GroupBy>,
    /// One line per snapshot without the paths column
    #[arg(short, long)]
    pub compact: bool,
    #[command(flatten)]
    pub selection: SnapshotSelection,
}

/// `--latest N`: a count of 1 or more.
fn parse_latest(s: &str) -> std::result::Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(0) => Err("0 would show nothing: give a count of 1 or more".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err("want a count of 1 or more, like 1 or 5".to_string()),
    }
}

pub fn run(g: &Global, a: &SnapshotsArgs) -> Result<u8> {
    let filter = a.selection.filter.filter()?;
    let repo: Repository<Unlocked> = g.open(Purpose::Reading)?;
    let by = a.group_by.unwrap_or(GroupBy::NONE);
    let groups = snapshots::groups(&repo, &a.selection.snapshots, &filter, by, a.latest)?;
    if g.json {
        return match a.group_by {
            Some(_) => g.print_json(&groups),
            // The array of snapshots it always was.
            None => g.print_json(&groups.iter().flat_map(|s| &s.snapshots).collect::<Vec<_>>()),
        }
        .map(|_| 0);
    }
    if groups.is_empty() {
        line("0 snapshots")?;
    }
    for (i, group) in groups.iter().enumerate() {
        if i > 0 {
            line("")?;
        }
        print_group(group, a.compact)?;
    }
    Ok(0)
}

/// A group as restic prints it: `snapshots for (host [a], paths [/x]):` (no header when
/// not grouped), the table, the count.
fn print_group(group: &SnapshotGroup, compact: bool) -> Result<()> {
    if !group.group_key.is_empty() {
        line(format_args!(
            "snapshots for ({}):",
            header(&group.group_key)
        ))?;
    }
    let head = format!("{:<9} {:<25} {:<16} {:<12}", "ID", "Time", "Host", "Tags");
    if compact {
        line(head.trim_end())?;
    } else {
        line(format_args!("{head} Paths"))?;
    }
    for s in &group.snapshots {
        let row = format!(
            "{:<9} {:<25} {:<16} {:<12}",
            s.short_id,
            s.time,
            match &s.writer_label {
                Some(label) => format!("{} [{}]", escape(&s.host), escape(label)),
                None => escape(&s.host).into_owned(),
            },
            escape(&s.tags.join(",")),
        );
        if compact {
            line(row.trim_end())?;
        } else {
            line(format_args!("{row} {}", escape(&s.paths.join(", "))))?;
        }
    }
    line(format_args!("{} snapshots", group.snapshots.len()))
}

/// `host [a], paths [/x, /y], tags [t]`: the fields grouped by.
fn header(key: &GroupKey) -> String {
    let list = |v: &[String]| {
        v.iter()
            .map(|x| escape(x).into_owned())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut parts = Vec::new();
    if let Some(h) = &key.host {
        parts.push(format!("host [{}]", escape(h)));
    }
    if let Some(p) = &key.paths {
        parts.push(format!("paths [{}]", list(p)));
    }
    if let Some(t) = &key.tags {
        parts.push(format!("tags [{}]", list(t)));
    }
    parts.join(", ")
}
