//! Rendering that several commands share: what lost data costs (`verify`, `repair`),
//! the storage split (`verify -v`, `stats`), the repair command to suggest (`verify`,
//! `restore`).

use std::collections::{BTreeMap, BTreeSet};

use tangle::ops::verify::{LostData, LostPathKind, LostUnknown};
use tangle::repo::RemoteReadAround;
use tangle::util::{escape, human_bytes, short_id};

use super::{Global, warn};

/// Paths and snapshots a `data-lost` finding names one by one without `-v`.
const LOST_SHOWN: usize = 10;

/// Under a `data-lost` finding, what it costs (when verify had the password): a summary
/// (files, bytes, snapshots), the snapshots that cannot be restored at all, then one line
/// per lost path (the same path lost alike in several snapshots is one line), at most
/// [`LOST_SHOWN`] of them without `-v`.
pub fn print_lost(out: &Global, lost: &LostData, verbose: bool) {
    if lost.paths_unknown == Some(LostUnknown::NotIndexed) {
        out.say("    what it held is unknown: no index segment names this extent (its segment is lost too)");
        return;
    }
    // Without the password: one line after all findings says so.
    let (Some(snapshots), Some(unrestorable), Some(paths)) =
        (&lost.snapshots, &lost.snapshots_unrestorable, &lost.paths)
    else {
        return;
    };
    if snapshots.is_empty() {
        out.say("    no snapshot refers to the lost data");
        return;
    }
    let is_root = |p: &[u8]| p == b"/";
    let files: BTreeSet<&[u8]> = (paths.iter())
        .filter(|p| p.kind == LostPathKind::File)
        .map(|p| p.raw_path.as_slice())
        .collect();
    let dirs: BTreeSet<&[u8]> = (paths.iter())
        .filter(|p| p.kind == LostPathKind::Dir && !is_root(&p.raw_path))
        .map(|p| p.raw_path.as_slice())
        .collect();
    let mut what = Vec::new();
    if !files.is_empty() {
        what.push(format!(
            "{} ({})",
            counted(files.len(), "file", "files"),
            human_bytes(lost.lost_bytes.unwrap_or(0))
        ));
    }
    if !dirs.is_empty() {
        what.push(format!(
            "{} with everything under them",
            counted(dirs.len(), "directory", "directories")
        ));
    }
    if what.is_empty() {
        what.push("everything".to_string());
    }
    out.say(format_args!(
        "    lost: {} in {}: {}",
        what.join(" and "),
        counted(snapshots.len(), "snapshot", "snapshots"),
        short_ids(snapshots.iter().map(String::as_str), verbose)
    ));
    if !unrestorable.is_empty() {
        out.say(format_args!(
            "    cannot be restored at all (the root directory listing is lost): {}",
            short_ids(unrestorable.iter().map(String::as_str), verbose)
        ));
    }
    // One line per path lost alike (kind, size, bytes lost), naming its snapshots.
    let mut lines: BTreeMap<Alike, Vec<&str>> = BTreeMap::new();
    for p in paths.iter().filter(|p| !is_root(&p.raw_path)) {
        (lines
            .entry((p.raw_path.as_slice(), p.kind, p.size, p.lost_bytes))
            .or_default())
        .push(&p.snapshot);
    }
    let shown = if verbose { lines.len() } else { LOST_SHOWN };
    for ((path, kind, size, lost_bytes), snaps) in lines.iter().take(shown) {
        let what = match kind {
            LostPathKind::File => format!(
                "{} of {} lost",
                human_bytes(lost_bytes.unwrap_or(0)),
                human_bytes(size.unwrap_or(0))
            ),
            LostPathKind::Dir => {
                "directory listing lost, nothing under it can be restored".to_string()
            }
        };
        out.say(format_args!(
            "    {}: {what} ({} {})",
            escape(path),
            if snaps.len() == 1 {
                "snapshot"
            } else {
                "snapshots"
            },
            short_ids(snaps.iter().copied(), verbose)
        ));
    }
    if lines.len() > shown {
        out.say(format_args!(
            "    and {} more (-v lists all)",
            counted(lines.len() - shown, "path", "paths")
        ));
    }
}

/// A lost path as the text shows it, one line for every snapshot that loses it alike:
/// (path, kind, size, bytes lost).
type Alike<'a> = (&'a [u8], LostPathKind, Option<u64>, Option<u64>);

/// `n thing(s)`.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Snapshot ids, short, comma-separated: at most [`LOST_SHOWN`] without `-v`, then how
/// many more.
fn short_ids<'a>(ids: impl ExactSizeIterator<Item = &'a str>, verbose: bool) -> String {
    let n = ids.len();
    let shown = if verbose { n } else { LOST_SHOWN };
    let mut s = (ids.take(shown))
        .map(short_id)
        .collect::<Vec<_>>()
        .join(", ");
    if n > shown {
        s += &format!(" and {} more", n - shown);
    }
    s
}

/// File data against what the coding promises, and the trees apart (`verify -v`,
/// `stats`).
pub fn storage_split(st: &tangle::ops::verify::Storage) -> String {
    let mut s = format!(
        "file data {:.3}x, the coding alone {:.3}x (shards are padded to 64 bytes)",
        st.file_data.overhead, st.coding_overhead
    );
    if st.trees.extents > 0 {
        s += &format!(
            "; directories {} in {} extents at {:.2}x ({:.1}% of the shard bytes)",
            tangle::util::human_bytes(st.trees.extent_bytes),
            st.trees.extents,
            st.trees.overhead,
            st.trees.shard_bytes as f64 * 100.0 / st.shard_bytes.max(1) as f64
        );
    }
    s
}

/// The exact command that repairs what this verify found (the same repository).
/// The profile stays: it holds the remotes' settings (and, without `-r`, the remotes).
pub fn repair_command(g: &Global) -> String {
    let mut cmd = "tangle".to_string();
    if let Some(name) = &g.profile {
        cmd += &format!(" -P {}", shell_quote(name));
    }
    if let Some(url) = &g.repo {
        cmd += &format!(" -r {}", shell_quote(url));
    }
    cmd + " repair"
}

/// A word for `sh`: as is when it is plain, else in single quotes.
fn shell_quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-:@+=,".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// `OLD -> NEW` in short ids, or `OLD` alone when nothing replaced it (a dry run): the
/// first column of `tag`, `rewrite`, `copy` and `import`.
pub(super) fn replaced(old: &str, new: Option<&str>) -> String {
    match new {
        Some(new) => format!("{} -> {}", short_id(old), short_id(new)),
        None => short_id(old).to_string(),
    }
}

/// One snapshot brought from elsewhere (`copy`, `import`): `VERB OLD -> NEW  TIME  HOST
/// PATHS  [TAGS]`, escaped for the terminal.
pub(super) fn brought(verb: &str, old: &str, s: &tangle::ops::Brought) -> String {
    let tags = match s.tags.is_empty() {
        true => String::new(),
        false => format!("  [{}]", s.tags.join(",")),
    };
    format!(
        "{verb} {}  {}  {}  {}{}",
        replaced(old, s.id.as_deref()),
        s.time,
        tangle::util::escape(&s.host),
        (s.paths.iter().map(tangle::util::escape))
            .collect::<Vec<_>>()
            .join(" "),
        tangle::util::escape(&tags),
    )
}

/// One warning per remote whose shards a read went around (restore, dump): how many and
/// why, naming the remote (one serving corrupt shards may be lying), and the command that
/// rebuilds them, which the cache's suspect extents point at those extents.
pub(super) fn warn_read_around(g: &Global, damage: &[RemoteReadAround]) {
    for d in damage {
        let mut why = vec![];
        if d.missing > 0 {
            why.push(format!("{} missing", d.missing));
        }
        if d.corrupt > 0 {
            why.push(format!(
                "{} corrupt: it served bytes that do not match their certificates",
                d.corrupt
            ));
        }
        if d.unreadable > 0 {
            why.push(format!("{} not served", d.unreadable));
        }
        let n = d.missing + d.corrupt + d.unreadable;
        let repair = super::render::repair_command(g);
        warn(format_args!(
            "read around {n} damaged shard{} on remote {} ({}), nothing written; {}",
            if n == 1 { "" } else { "s" },
            d.remote,
            why.join("; "),
            if d.missing + d.corrupt > 0 {
                format!(
                    "run `{repair}` to rebuild {}",
                    if n == 1 { "it" } else { "them" }
                )
            } else {
                format!("`{repair}` rebuilds what is lost there once it answers again")
            }
        ));
    }
}
