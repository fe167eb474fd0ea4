//! `tangle dump`: one file's contents, or a directory as a tar or zip archive, to a writer
//! (stdout). With a high-latency remote
//! (S3, SFTP) the file's shard reads are planned first, so a prefetcher fetches the
//! next shards from all remotes at once while the file is written (see
//! [`crate::repo::PlannedReads`]).

use std::io::Write;

mod archive;
mod zipfile;

/// The archive format of a directory dump (`--archive`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Archive {
    /// GNU tar, what `restic dump` writes by default.
    #[default]
    Tar,
    /// Zip, streamed (it can go to a pipe), as `restic dump --archive zip`.
    Zip,
}

use super::locate::{Located, locate};
use super::select::{self, SnapshotFilter};
use crate::content::{BlobKind, Node, NodeKind, Snapshot, Tree};
use crate::error::{Error, Result, ResultExt};
use crate::repo::{ForgetReadPlan, Indexed};
use crate::repo::{PlannedReads, ReadMode, Repository};

/// Write the file at `path` (as backed up) of snapshot `spec` (`latest`: the newest that
/// `filter` selects) to `out`, a directory as an `archive`; the shards read around are remembered for `repair` however
/// it ends ([`Repository::remember_damage_read_around`]: choosing the snapshot reads
/// none).
pub fn dump(
    repo: &Repository<Indexed>,
    spec: &str,
    filter: &SnapshotFilter,
    path: &std::path::Path,
    archive: Archive,
    out: &mut dyn Write,
) -> Result<u64> {
    let (_, snap) = select::find(repo, spec, filter)?;
    let result = dump_path(repo, &snap, path, archive, out);
    repo.remember_damage_read_around();
    result
}

/// Write what `path` names in `snap`: a file's contents, a directory as an archive.
fn dump_path(
    repo: &Repository<Indexed>,
    snap: &Snapshot,
    path: &std::path::Path,
    archive: Archive,
    out: &mut dyn Write,
) -> Result<u64> {
    let tree = match locate(repo, snap, path)? {
        Located::Node(n) if n.kind == NodeKind::File => return write_file(repo, &n, path, out),
        Located::Node(n) if n.kind == NodeKind::Dir => match n.subtree {
            Some(id) => repo
                .load_tree(&id)
                .map_err(|e| e.into_data_lost().context(format!("{}", path.display())))?,
            None => Tree::default(),
        },
        Located::Root(tree) => tree,
        Located::Node(_) => {
            return Err(Error::fatal(format!(
                "{} is neither a file nor a directory in the snapshot",
                path.display()
            )));
        }
    };
    archive::with_entries(repo, &tree, path, |entries| match archive {
        Archive::Tar => archive::write_tar(repo, entries, path, out),
        Archive::Zip => zipfile::write_zip(repo, entries, path, out),
    })
}

/// Ends the read plan of a high-latency remote and runs its prefetcher around `write`;
/// `plan` lists the data blobs in the order `write` reads them.
pub(super) fn with_read_plan<'b, T>(
    repo: &Repository<Indexed>,
    plan: impl Iterator<Item = &'b crate::content::BlobId>,
    write: impl FnOnce() -> Result<T>,
) -> Result<T> {
    let planned = repo.remotes().iter().any(|r| r.high_latency());
    if planned {
        let mut reads = PlannedReads::new();
        for id in plan {
            repo.plan_blob_read(&mut reads, id);
        }
        repo.follow_read_plan(reads);
    }
    std::thread::scope(|s| {
        // Ends the plan however the writing ends, which stops the prefetcher.
        let _finished = ForgetReadPlan(repo);
        if planned {
            s.spawn(|| repo.prefetch_planned());
        }
        write()
    })
}

fn write_file(
    repo: &Repository<Indexed>,
    node: &Node,
    path: &std::path::Path,
    out: &mut dyn Write,
) -> Result<u64> {
    with_read_plan(repo, node.content.iter(), || {
        let mut written = 0u64;
        for id in &node.content {
            written += repo
                .read_blob_then(id, BlobKind::Data, ReadMode::Shard, |data| {
                    out.write_all(data).map(|()| data.len() as u64)
                })
                // Not served by any remote, not rebuilt by any codeword: exit 21, as
                // restore and verify do for the same loss.
                .map_err(|e| e.into_data_lost().context(format!("{}", path.display())))?
                .ctx("writing output")?;
        }
        out.flush().ctx("writing output")?;
        Ok(written)
    })
}
