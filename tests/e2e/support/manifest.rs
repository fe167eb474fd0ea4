//! Sorted, printable descriptions of trees (kind, mode, owner, mtime with nanoseconds,
//! size, content hash, symlink target, hard-link group), so that a failed comparison
//! shows a per-entry diff.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::OsString;
use std::fs;
use std::hash::{DefaultHasher, Hasher};
use std::io::Read;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    File,
    Dir,
    Symlink,
    Fifo,
    Socket,
    CharDev,
    BlockDev,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Path relative to the manifest root, raw bytes ("." for the root itself).
    pub path: Vec<u8>,
    pub kind: Kind,
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
    pub mtime: i64,
    pub mtime_nsec: i64,
    /// Regular files only.
    pub size: Option<u64>,
    /// Regular files only: 64-bit hash of the contents.
    pub content: Option<u64>,
    /// Symlinks only.
    pub link_target: Option<Vec<u8>>,
    /// For non-directories sharing an inode with other entries of the tree: the
    /// smallest path of that group.
    pub hardlink_group: Option<Vec<u8>>,
}

pub fn esc(bytes: &[u8]) -> String {
    bytes
        .iter()
        .flat_map(|&b| std::ascii::escape_default(b))
        .map(char::from)
        .collect()
}

impl Entry {
    pub fn render(&self) -> String {
        let mut s = format!(
            "{} {:?} mode={:04o} owner={}:{} mtime={}.{:09}",
            esc(&self.path),
            self.kind,
            self.mode,
            self.uid,
            self.gid,
            self.mtime,
            self.mtime_nsec
        );
        if let Some(n) = self.size {
            s += &format!(" size={n}");
        }
        if let Some(h) = self.content {
            s += &format!(" content={h:016x}");
        }
        if let Some(t) = &self.link_target {
            s += &format!(" -> {}", esc(t));
        }
        if let Some(g) = &self.hardlink_group {
            s += &format!(" hardlink-group={}", esc(g));
        }
        s
    }
}

pub fn hash_file(path: &Path) -> u64 {
    let mut f = fs::File::open(path).unwrap_or_else(|e| panic!("open {}: {e}", path.display()));
    let mut h = DefaultHasher::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut n_total = 0u64;
    loop {
        let n = f.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        h.write(&buf[..n]);
        n_total += n as u64;
    }
    h.write_u64(n_total);
    h.finish()
}

/// Sorted description of every entry under `root` (root included as ".").
/// Symlinks are never followed; FIFOs are never opened.
pub fn manifest(root: &Path) -> Vec<Entry> {
    let mut raw_entries: Vec<(Vec<u8>, fs::Metadata, PathBuf)> = Vec::new();
    fn walk(base: &Path, rel: &Path, out: &mut Vec<(Vec<u8>, fs::Metadata, PathBuf)>) {
        let full = if rel.as_os_str().is_empty() {
            base.to_path_buf()
        } else {
            base.join(rel)
        };
        let m =
            fs::symlink_metadata(&full).unwrap_or_else(|e| panic!("lstat {}: {e}", full.display()));
        let name = if rel.as_os_str().is_empty() {
            b".".to_vec()
        } else {
            rel.as_os_str().as_bytes().to_vec()
        };
        let is_dir = m.is_dir();
        out.push((name, m, full.clone()));
        if is_dir {
            let mut children: Vec<OsString> = fs::read_dir(&full)
                .unwrap_or_else(|e| panic!("readdir {}: {e}", full.display()))
                .map(|e| e.unwrap().file_name())
                .collect();
            children.sort();
            for c in children {
                walk(base, &rel.join(c), out);
            }
        }
    }
    walk(root, Path::new(""), &mut raw_entries);

    let mut groups: HashMap<(u64, u64), Vec<Vec<u8>>> = HashMap::new();
    for (name, m, _) in &raw_entries {
        if !m.is_dir() && m.nlink() > 1 {
            groups
                .entry((m.dev(), m.ino()))
                .or_default()
                .push(name.clone());
        }
    }

    let mut entries: Vec<Entry> = raw_entries
        .into_iter()
        .map(|(name, m, full)| {
            let ft = m.file_type();
            let kind = if ft.is_file() {
                Kind::File
            } else if ft.is_dir() {
                Kind::Dir
            } else if ft.is_symlink() {
                Kind::Symlink
            } else if ft.is_fifo() {
                Kind::Fifo
            } else if ft.is_socket() {
                Kind::Socket
            } else if ft.is_char_device() {
                Kind::CharDev
            } else {
                Kind::BlockDev
            };
            let hardlink_group = groups
                .get(&(m.dev(), m.ino()))
                .filter(|g| g.len() > 1 && kind != Kind::Dir)
                .map(|g| g.iter().min().unwrap().clone());
            Entry {
                kind,
                mode: m.mode() & 0o7777,
                uid: m.uid(),
                gid: m.gid(),
                mtime: m.mtime(),
                mtime_nsec: m.mtime_nsec(),
                size: (kind == Kind::File).then_some(m.len()),
                content: (kind == Kind::File).then(|| hash_file(&full)),
                link_target: (kind == Kind::Symlink)
                    .then(|| fs::read_link(&full).unwrap().into_os_string().into_vec()),
                hardlink_group,
                path: name,
            }
        })
        .collect();
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    entries
}

/// Compare two manifests; on mismatch panic with a per-entry diff
/// (`-` expected / `+` actual), at most 80 entries shown.
pub fn assert_manifests_eq(expected: &[Entry], actual: &[Entry], what: &str) {
    if let Some(d) = manifest_diff(expected, actual) {
        panic!("{what}: {d}");
    }
}

/// `None` if equal, else a readable per-entry diff (at most 80 entries).
pub fn manifest_diff(expected: &[Entry], actual: &[Entry]) -> Option<String> {
    if expected == actual {
        return None;
    }
    let e: BTreeMap<&[u8], String> = expected.iter().map(|x| (&x.path[..], x.render())).collect();
    let a: BTreeMap<&[u8], String> = actual.iter().map(|x| (&x.path[..], x.render())).collect();
    let keys: BTreeSet<&[u8]> = e.keys().chain(a.keys()).copied().collect();
    let mut diff = Vec::new();
    let mut n = 0;
    for k in keys {
        let (x, y) = (e.get(k), a.get(k));
        if x == y {
            continue;
        }
        n += 1;
        if diff.len() < 160 {
            match x {
                Some(x) => diff.push(format!("- {x}")),
                None => diff.push(format!("- (missing) {}", esc(k))),
            }
            match y {
                Some(y) => diff.push(format!("+ {y}")),
                None => diff.push(format!("+ (missing) {}", esc(k))),
            }
        }
    }
    Some(format!(
        "trees differ in {n} entries ({} expected, {} actual entries)\n\
         (- expected / + actual)\n{}",
        expected.len(),
        actual.len(),
        diff.join("\n")
    ))
}

/// Compare the tree at `actual_root` with `expected` (a manifest of the source).
pub fn assert_tree_matches(expected: &[Entry], actual_root: &Path, what: &str) {
    assert!(
        fs::symlink_metadata(actual_root).is_ok(),
        "{what}: restored root {} does not exist",
        actual_root.display()
    );
    let actual = manifest(actual_root);
    assert_manifests_eq(expected, &actual, what);
}
