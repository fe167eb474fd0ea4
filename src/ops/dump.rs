//! `tangle dump`: one file's contents to a writer (stdout).

use std::io::Write;

use super::snapshots::{Located, locate};
use crate::content::{BlobKind, NodeKind};
use crate::error::{Error, Result, ResultExt};
use crate::repo::{ReadMode, Repository};

pub fn dump(
    repo: &Repository,
    spec: &str,
    path: &std::path::Path,
    out: &mut dyn Write,
) -> Result<u64> {
    let (_, snap) = repo.find_snapshot(spec)?;
    let node = match locate(repo, &snap, path)? {
        Located::Node(n) if n.kind == NodeKind::File => n,
        _ => {
            return Err(Error::fatal(format!(
                "{} is not a file in the snapshot",
                path.display()
            )));
        }
    };
    let mut written = 0u64;
    for id in &node.content {
        let data = repo.read_blob_with(id, BlobKind::Data, ReadMode::Shard)?;
        out.write_all(&data).ctx("writing output")?;
        written += data.len() as u64;
    }
    out.flush().ctx("writing output")?;
    Ok(written)
}
