//! Files the tests of both binaries write: deterministic data, files with their parent
//! directories, FIFOs.

use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Deterministic pseudo-random bytes (xorshift64*), so that tests are reproducible.
pub fn pseudo_random(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        out.extend_from_slice(&x.wrapping_mul(0x2545_F491_4F6C_DD1D).to_le_bytes());
    }
    out.truncate(len);
    out
}

pub fn write_file(path: &Path, data: &[u8]) {
    if let Some(p) = path.parent() {
        fs::create_dir_all(p).unwrap();
    }
    fs::write(path, data).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}

/// Create a FIFO (mode 0644 before the umask).
pub fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_bytes())
        .unwrap_or_else(|_| panic!("NUL byte in {}", path.display()));
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call; std has no
    // mkfifo and a subprocess would make the tree depend on coreutils.
    let rc = unsafe { libc::mkfifo(c.as_ptr(), 0o644) };
    assert_eq!(
        rc,
        0,
        "mkfifo {}: {}",
        path.display(),
        std::io::Error::last_os_error()
    );
}
