//! `tangle rewrite`: restic's `rewrite`. A snapshot with entries matching the exclude
//! patterns (backup's `--exclude` semantics, `crate::pathmatch`) gets a new snapshot
//! without them: the trees on the way to what is left out are written anew, everything
//! else (data blobs, untouched trees) is the old snapshot's. The new trees go into new
//! extents of a fresh writer, committed by an index segment and a head before the new
//! snapshot is written (as a backup commits its run). With `forget` the old snapshot is
//! then deleted by a record (`ops::replace`); its data stays until `tangle delete`
//! finds it unused. A snapshot nothing matches is left alone.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use serde::Serialize;

use super::extent_writer::{Appender, RunHeads, StoredBlob};
use super::replace;
use super::select::Selection;
use crate::content::{BlobId, BlobKind, NodeKind, Snapshot, Tree, encode_blob};
use crate::error::{Error, Result};
use crate::pathmatch::PathMatcher;
use crate::repo::{Indexed, Repository};

/// `--exclude` and `--exclude-file`, compiled (the files read) before the repository
/// is opened; never empty.
pub struct Excludes(PathMatcher);

impl Excludes {
    /// The patterns given and those in `files` (one a line, `#` comments), as backup
    /// reads them; refused when there is none at all.
    pub fn new(patterns: &[String], files: &[PathBuf]) -> Result<Excludes> {
        let matcher = PathMatcher::new(patterns, files)?;
        if matcher.is_empty() {
            return Err(Error::usage(
                "nothing to leave out: give --exclude PATTERN or --exclude-file FILE (holding \
                 a pattern)",
            ));
        }
        Ok(Excludes(matcher))
    }
}

pub struct RewriteOptions {
    /// The snapshots to rewrite.
    pub selection: Selection,
    pub excludes: Excludes,
    /// Delete the old snapshots once their replacements are written.
    pub forget: bool,
    pub dry_run: bool,
}

/// One snapshot rewritten.
#[derive(Serialize, Debug, Clone)]
pub struct Rewritten {
    pub old_id: String,
    /// The new snapshot (`null` with `dry_run`).
    pub new_id: Option<String>,
    /// Entries left out (each excluded directory once, with what is below it).
    pub entries_removed: u64,
    /// Files left out, at any depth, and their size.
    pub files_removed: u64,
    pub bytes_removed: u64,
}

#[derive(Serialize, Debug, Default)]
pub struct RewriteReport {
    pub dry_run: bool,
    /// The old snapshots were deleted (`--forget`), or would be.
    pub forget: bool,
    /// Snapshots rewritten (or that would be), oldest first.
    pub rewritten: Vec<Rewritten>,
    /// Full ids of the chosen snapshots nothing matched (left as they are).
    pub unchanged: Vec<String>,
    /// New tree blobs stored, and the bytes of the extents they went into.
    pub(crate) trees_written: u64,
    pub(crate) bytes_written: u64,
}

/// Rewrite the snapshots. The caller holds the exclusive lock (not with `dry_run`).
pub fn run(repo: &Repository<Indexed>, opts: &RewriteOptions) -> Result<RewriteReport> {
    let matcher = &opts.excludes.0;
    let mut chosen = opts.selection.find_all(repo)?;
    chosen.sort_by(|a, b| a.1.time_ns.cmp(&b.1.time_ns).then(a.0.cmp(&b.0)));
    replace::refuse_writers(chosen.iter().map(|(id, s)| (id, s)), "rewrite")?;
    let mut report = RewriteReport {
        dry_run: opts.dry_run,
        forget: opts.forget,
        ..Default::default()
    };
    let (changes, store) = super::on_walker_thread("rewrite", || {
        rewrite_all(repo, matcher, chosen, opts, &mut report)
    })?;
    report.trees_written = store.trees;
    report.bytes_written = store.bytes;
    if opts.dry_run {
        return Ok(report);
    }
    let new_ids = replace::replace(repo, &changes, opts.forget)?;
    for (r, id) in report.rewritten.iter_mut().zip(new_ids) {
        r.new_id = Some(id);
    }
    Ok(report)
}

/// What the walks stored.
#[derive(Default)]
struct Stored {
    trees: u64,
    bytes: u64,
}

/// Walk every chosen snapshot; store the new trees and commit them (not with
/// `dry_run`). Returns the new snapshots by the old ids.
fn rewrite_all(
    repo: &Repository<Indexed>,
    matcher: &PathMatcher,
    chosen: Vec<(String, Snapshot)>,
    opts: &RewriteOptions,
    report: &mut RewriteReport,
) -> Result<(Vec<(String, Snapshot)>, Stored)> {
    let progress = crate::ops::Progress::default();
    let appender = match opts.dry_run {
        true => None,
        false => Some(Appender::fresh_chain(repo, &progress, &HashSet::new())?),
    };
    let mut walk = Walk {
        repo,
        matcher,
        appender,
        stored: HashSet::new(),
        trees: 0,
        counts: Counts::default(),
    };
    let mut changes = Vec::new();
    for (id, s) in chosen {
        walk.counts = Counts::default();
        let root = walk.tree(&s.tree, &mut PathBuf::from("/"))?;
        if root == s.tree {
            report.unchanged.push(id);
            continue;
        }
        let c = walk.counts;
        report.rewritten.push(Rewritten {
            old_id: id.clone(),
            new_id: None,
            entries_removed: c.entries,
            files_removed: c.files,
            bytes_removed: c.bytes,
        });
        let mut summary = s.summary.clone();
        summary.files = summary.files.saturating_sub(c.files);
        summary.dirs = summary.dirs.saturating_sub(c.dirs);
        summary.bytes = summary.bytes.saturating_sub(c.bytes);
        changes.push((
            id,
            Snapshot {
                tree: root,
                summary,
                ..s
            },
        ));
    }
    let mut stored = Stored {
        trees: walk.trees,
        bytes: 0,
    };
    let Some(mut appender) = walk.appender else {
        return Ok((changes, stored));
    };
    appender.finish()?;
    stored.bytes = appender.bytes_stored;
    if appender.extents.is_empty() {
        return Ok((changes, stored));
    }
    // The index segment and a head commit the new trees before any snapshot uses them.
    let extents = std::mem::take(&mut appender.extents);
    RunHeads::new(appender.writer(), 0).commit_extents(repo, extents, appender.last, None)?;
    Ok((changes, stored))
}

/// What one snapshot's walk left out.
#[derive(Clone, Copy, Default)]
struct Counts {
    entries: u64,
    files: u64,
    dirs: u64,
    bytes: u64,
}

struct Walk<'a> {
    repo: &'a Repository<Indexed>,
    matcher: &'a PathMatcher,
    /// `None` with `dry_run`: nothing is stored.
    appender: Option<Appender<'a, Indexed>>,
    /// Trees stored by this run (two snapshots may share a new tree).
    stored: HashSet<BlobId>,
    trees: u64,
    counts: Counts,
}

impl Walk<'_> {
    /// Tree `id` (at absolute path `path`) without the excluded entries: `id` itself when
    /// nothing below it is excluded, else the new tree's id (stored unless known).
    fn tree(&mut self, id: &BlobId, path: &mut PathBuf) -> Result<BlobId> {
        let tree = self.repo.load_tree(id)?;
        let mut nodes = Vec::with_capacity(tree.nodes.len());
        let mut changed = false;
        for mut node in tree.nodes {
            path.push(OsStr::from_bytes(&node.name));
            if self.matcher.matches(path, &node.name) {
                self.counts.entries += 1;
                self.count_removed(&node)?;
                changed = true;
            } else {
                if let Some(sub) = node.subtree {
                    let new = self.tree(&sub, path)?;
                    changed |= new != sub;
                    node.subtree = Some(new);
                }
                nodes.push(node);
            }
            path.pop();
        }
        if !changed {
            return Ok(*id);
        }
        let bytes = Tree { nodes }.to_bytes()?;
        let new = self.repo.key().blob_id(&bytes);
        self.store(new, &bytes)?;
        Ok(new)
    }

    /// Count an excluded node and everything below it.
    fn count_removed(&mut self, node: &crate::content::Node) -> Result<()> {
        match node.kind {
            NodeKind::File => {
                self.counts.files += 1;
                self.counts.bytes += node.size;
            }
            NodeKind::Dir => {
                self.counts.dirs += 1;
                if let Some(sub) = node.subtree {
                    for child in self.repo.load_tree(&sub)?.nodes {
                        self.count_removed(&child)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Append a new tree blob to this run's extents, unless the index or this run has it.
    fn store(&mut self, id: BlobId, plain: &[u8]) -> Result<()> {
        if self.repo.index().contains(&id) || !self.stored.insert(id) {
            return Ok(());
        }
        self.trees += 1;
        let Some(appender) = self.appender.as_mut() else {
            return Ok(());
        };
        let raw_len = u32::try_from(plain.len())
            .map_err(|_| Error::fatal("a rewritten tree is larger than 4 GiB"))?;
        appender.append(StoredBlob {
            id,
            kind: BlobKind::Tree,
            raw_len,
            data: encode_blob(self.repo.key(), BlobKind::Tree, plain)?,
        })
    }
}
