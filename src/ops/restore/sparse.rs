//! Sparse writes: whole file-system blocks of zeros are not written, so that holes stay
//! holes.

use std::fs::File;
use std::os::unix::fs::FileExt;

/// Write `data` at `offset`, skipping whole file-system blocks of zeros so they stay holes
/// (ranges skipped below the file's end read back as zeros). Returns the end of the last
/// byte written (0 if none).
pub(super) fn write_sparse(file: &File, data: &[u8], offset: u64) -> std::io::Result<u64> {
    const BLOCK: u64 = 4096;
    // End (relative to `data`) of the file block that contains data[from].
    let block_end = |from: usize| (((offset + from as u64) / BLOCK + 1) * BLOCK - offset) as usize;
    let is_zero = |from: usize| {
        data[from..block_end(from).min(data.len())]
            .iter()
            .all(|&b| b == 0)
    };
    let (mut pos, mut end) = (0, 0);
    while pos < data.len() {
        let (start, zero) = (pos, is_zero(pos));
        while pos < data.len() && is_zero(pos) == zero {
            pos = block_end(pos).min(data.len());
        }
        if !zero {
            file.write_all_at(&data[start..pos], offset + start as u64)?;
            end = offset + pos as u64;
        }
    }
    Ok(end)
}
