//! `tangle snapshots`

use clap::Args;
use tangle::Result;
use tangle::ops::snapshots;
use tangle::util::escape;

use super::open::Purpose;
use super::{Global, line};
use tangle::repo::{Repository, Unlocked};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tangle -r /mnt/usb/tangle snapshots\n  tangle -r s3://bucket/tangle snapshots --json"
)]
pub struct SnapshotsArgs {}

pub fn run(g: &Global, _a: &SnapshotsArgs) -> Result<u8> {
    let repo: Repository<Unlocked> = g.open(Purpose::Reading)?;
    let list = snapshots::list(&repo)?;
    if g.json {
        return g.print_json(&list).map(|_| 0);
    }
    line(format_args!(
        "{:<9} {:<25} {:<16} {:<12} Paths",
        "ID", "Time", "Host", "Tags"
    ))?;
    for s in &list {
        line(format_args!(
            "{:<9} {:<25} {:<16} {:<12} {}",
            s.short_id,
            s.time,
            escape(&s.host),
            escape(&s.tags.join(",")),
            escape(&s.paths.join(", "))
        ))?;
    }
    line(format_args!("{} snapshots", list.len()))?;
    Ok(0)
}
