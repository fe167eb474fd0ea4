//! How much memory the loaded blob index takes per blob (issue 37): `n` synthetic blobs
//! (random ids, 1,000 to an extent) are loaded through the same path a repository's
//! index segments take, and the growth of the process's resident set is divided by `n`.
//! `benches/index_memory.rs` prints it.

use crate::content::index::{ExtentBlobs, IndexEntry, IndexSegment};
use crate::content::{BlobKind, Index};
use crate::extent::ExtentName;

/// Blobs per synthetic extent (16 MiB extents of 16 KiB chunks would hold 1,000).
const BLOBS_PER_EXTENT: usize = 1000;
/// Extents per synthetic segment (one backup run's worth).
const EXTENTS_PER_SEGMENT: usize = 64;

/// The resident set of this process, in bytes (`VmRSS` of `/proc/self/status`).
pub fn resident_bytes() -> u64 {
    status_bytes("VmRSS:")
}

/// The peak resident set of this process so far, in bytes (`VmHWM`).
pub fn peak_resident_bytes() -> u64 {
    status_bytes("VmHWM:")
}

fn status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    (status.lines())
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kib| kib * 1024)
}

/// What loading `n` synthetic blobs cost, per blob.
pub struct Loaded {
    /// Resident bytes the loaded index added.
    pub per_blob: f64,
    /// The growth of the peak resident set while it loaded.
    pub peak_per_blob: f64,
    /// The index, kept alive by the caller until it has measured.
    pub index: Index,
}

/// Load `n` synthetic blobs into an index whose ids' last bytes go to a file in
/// `tails_dir` (as a repository's go to its cache directory; `None`: memory).
pub fn load_synthetic(n: usize, tails_dir: Option<std::path::PathBuf>) -> Loaded {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        // splitmix64: fast, and ids as uniform as blob ids (keyed hashes) are.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let (before, peak_before) = (resident_bytes(), peak_resident_bytes());
    let mut index = Index::default();
    index.keep_id_tails_in(tails_dir);
    let mut made = 0;
    while made < n {
        let mut segment = IndexSegment::default();
        for _ in 0..EXTENTS_PER_SEGMENT {
            if made >= n {
                break;
            }
            let mut name = [0u8; 32];
            for c in name.chunks_mut(8) {
                c.copy_from_slice(&next().to_le_bytes());
            }
            let count = BLOBS_PER_EXTENT.min(n - made);
            let blobs = (0..count)
                .map(|i| {
                    let mut id = [0u8; 32];
                    for c in id.chunks_mut(8) {
                        c.copy_from_slice(&next().to_le_bytes());
                    }
                    IndexEntry {
                        id,
                        kind: BlobKind::Data,
                        offset: (i * 16_384) as u32,
                        length: 16_000,
                        raw_len: 16_384,
                    }
                })
                .collect();
            segment.extents.push(ExtentBlobs {
                extent: ExtentName(name),
                blobs,
            });
            made += count;
        }
        index.add_segment(&segment);
    }
    index.finish_loading();
    let per = |grown: u64| grown as f64 / n.max(1) as f64;
    Loaded {
        per_blob: per(resident_bytes().saturating_sub(before)),
        peak_per_blob: per(peak_resident_bytes().saturating_sub(peak_before)),
        index,
    }
}
