//! File-system and system helpers: modes and nanosecond mtimes (through `filetime`, no
//! subprocess), sizes, walking and copying trees, the host (deterministic data, files and
//! FIFOs are in `crate::shared::files`).

use std::ffi::OsString;
use std::fs;
use std::os::unix::ffi::OsStringExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

pub const MIB: u64 = 1024 * 1024;

/// True when the tests run as root (checked via the owner of a freshly created file).
pub fn is_root() -> bool {
    let f = tempfile::NamedTempFile::new().unwrap();
    f.as_file().metadata().unwrap().uid() == 0
}

pub fn system_hostname() -> String {
    if let Ok(h) = fs::read_to_string("/proc/sys/kernel/hostname") {
        return h.trim().to_string();
    }
    let o = std::process::Command::new("hostname").output().unwrap();
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// Loose RFC 3339 check: `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`.
pub fn is_rfc3339(s: &str) -> bool {
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| r.clone().all(|i| b.get(i).is_some_and(u8::is_ascii_digit));
    if b.len() < 20
        || !digits(0..4)
        || b[4] != b'-'
        || !digits(5..7)
        || b[7] != b'-'
        || !digits(8..10)
        || !(b[10] == b'T' || b[10] == b't')
        || !digits(11..13)
        || b[13] != b':'
        || !digits(14..16)
        || b[16] != b':'
        || !digits(17..19)
    {
        return false;
    }
    let mut i = 19;
    if b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    let rest = &s[i..];
    if rest == "Z" || rest == "z" {
        return true;
    }
    let r = rest.as_bytes();
    r.len() == 6
        && (r[0] == b'+' || r[0] == b'-')
        && r[1].is_ascii_digit()
        && r[2].is_ascii_digit()
        && r[3] == b':'
        && r[4].is_ascii_digit()
        && r[5].is_ascii_digit()
}

pub fn set_mode(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
        .unwrap_or_else(|e| panic!("chmod {:o} {}: {e}", mode, path.display()));
}

/// Set the mtime (and atime) of `path` itself (symlinks are not followed, FIFOs are
/// not opened), with nanosecond precision.
pub fn set_mtime(path: &Path, secs: i64, nanos: u32) {
    let t = filetime::FileTime::from_unix_time(secs, nanos);
    filetime::set_symlink_file_times(path, t, t)
        .unwrap_or_else(|e| panic!("setting the mtime of {}: {e}", path.display()));
    let m = fs::symlink_metadata(path).unwrap();
    assert_eq!(
        (m.mtime(), m.mtime_nsec()),
        (secs, nanos as i64),
        "could not set mtime of {}",
        path.display()
    );
}

/// Allocated bytes on disk (`st_blocks * 512`).
pub fn allocated(path: &Path) -> u64 {
    fs::symlink_metadata(path).unwrap().blocks() * 512
}

/// Build an OsString path component from raw bytes.
pub fn raw(bytes: &[u8]) -> OsString {
    OsString::from_vec(bytes.to_vec())
}

/// Apparent size of a tree (regular files only, symlinks not followed).
pub fn apparent_size(p: &Path) -> u64 {
    let m = match fs::symlink_metadata(p) {
        Ok(m) => m,
        Err(_) => return 0,
    };
    if m.is_dir() {
        fs::read_dir(p)
            .map(|rd| {
                rd.filter_map(Result::ok)
                    .map(|e| apparent_size(&e.path()))
                    .sum()
            })
            .unwrap_or(0)
    } else if m.is_file() {
        m.len()
    } else {
        0
    }
}

/// All regular files under `dir` (recursively).
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    fn walk(p: &Path, out: &mut Vec<PathBuf>) {
        let Ok(m) = fs::symlink_metadata(p) else {
            return;
        };
        if m.is_dir() {
            for e in fs::read_dir(p).unwrap() {
                walk(&e.unwrap().path(), out);
            }
        } else if m.is_file() {
            out.push(p.to_path_buf());
        }
    }
    walk(dir, &mut out);
    out.sort();
    out
}

/// Copy a tree as `cp -a` would for what remotes hold: directories, regular files and
/// symlinks, with their modes and mtimes. `to` must not exist.
pub fn copy_tree(from: &Path, to: &Path) {
    let m = fs::symlink_metadata(from).unwrap_or_else(|e| panic!("lstat {}: {e}", from.display()));
    let ft = m.file_type();
    if ft.is_dir() {
        fs::create_dir(to).unwrap_or_else(|e| panic!("mkdir {}: {e}", to.display()));
        for e in fs::read_dir(from).unwrap() {
            let name = e.unwrap().file_name();
            copy_tree(&from.join(&name), &to.join(&name));
        }
    } else if ft.is_symlink() {
        std::os::unix::fs::symlink(fs::read_link(from).unwrap(), to).unwrap();
    } else if ft.is_file() {
        fs::copy(from, to)
            .unwrap_or_else(|e| panic!("copy {} to {}: {e}", from.display(), to.display()));
    } else {
        panic!(
            "copy_tree: {} is not a file, dir or symlink",
            from.display()
        );
    }
    if !ft.is_symlink() {
        fs::set_permissions(to, m.permissions()).unwrap();
    }
    // Last, so that filling a directory does not change its mtime again.
    let t = filetime::FileTime::from_last_modification_time(&m);
    filetime::set_symlink_file_times(to, t, t).unwrap();
}
