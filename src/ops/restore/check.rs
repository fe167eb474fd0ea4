//! `restore --verify`: each file read back once written and compared with the snapshot,
//! blob by blob.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;

use crate::content::Node;
use crate::crypto::ContentKeys;
use crate::error::{Error, Result, ResultExt};
use crate::repo::{Indexed, Repository};

/// Read `path` back and check that its bytes are `node`'s blobs, in order. A writer's
/// blobs are named with its id key (DESIGN.md §17), the owner's with the master key's.
pub(super) fn verify_file(repo: &Repository<Indexed>, path: &Path, node: &Node) -> Result<()> {
    let key = repo.key();
    let file = File::open(path).ctx(format_args!("verifying {}", path.display()))?;
    let mut offset = 0u64;
    for id in &node.content {
        let (_, loc) = repo
            .index()
            .get(id)
            .ok_or_else(|| Error::corrupt("blob missing from index"))?;
        // The index is authentic but says nothing that was checked against this file:
        // never allocate past its end.
        if offset + u64::from(loc.raw_len) > node.size {
            return Err(Error::corrupt(format!(
                "{}: the index says its blobs hold more than its {} bytes",
                path.display(),
                node.size
            )));
        }
        let mut buf = vec![0u8; loc.raw_len as usize];
        file.read_exact_at(&mut buf, offset)
            .ctx(format_args!("verifying {}", path.display()))?;
        let named = match repo.index().keys_of(&loc) {
            Some(writer) => ContentKeys::blob_id(writer, &buf),
            None => key.blob_id(&buf),
        };
        if named != *id {
            return Err(Error::corrupt(format!(
                "{}: restored content differs at offset {offset}",
                path.display()
            )));
        }
        offset += buf.len() as u64;
    }
    Ok(())
}
