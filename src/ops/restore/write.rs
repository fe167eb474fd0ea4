//! Writing inside the target: directories made and files created without following
//! what is already there (a symlink might lead out of the target), and a file's contents
//! written from its blobs, read through the shard cache.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use super::sparse::write_sparse;
use crate::content::fsmeta::{self, Refused};
use crate::content::{BlobKind, Node};
use crate::error::{Error, Kind, Result, ResultExt};
use crate::ops::Progress;
use crate::repo::{Indexed, ReadMode, Repository};

/// Why a file was not restored: its data is lost, or anything else (the target).
pub(super) enum Failure {
    Lost(Error),
    Other(Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Other(e)
    }
}

/// Make `path` a directory: an existing directory is kept; anything else there (a file, a
/// symlink that might lead out of the target) is replaced, never followed. Returns
/// whether it was made (it holds nothing yet).
pub(super) fn make_dir(path: &Path) -> Result<bool> {
    match std::fs::symlink_metadata(path) {
        Ok(md) if md.is_dir() => Ok(false),
        Ok(_) => {
            std::fs::remove_file(path).ctx(format_args!("replacing {}", path.display()))?;
            std::fs::create_dir(path).ctx(format_args!("creating {}", path.display()))?;
            Ok(true)
        }
        Err(_) => {
            std::fs::create_dir(path).ctx(format_args!("creating {}", path.display()))?;
            Ok(true)
        }
    }
}

/// `target/rel`, made one component at a time with [`make_dir`] so that no symlink
/// already inside the target is followed; with whether it is new (`fresh`: it holds
/// nothing yet). `target_fresh`: the target itself was just made. With `dry`, nothing is
/// made: the directories are only looked at (with `lstat`, and not below one that would
/// be made).
pub(super) fn make_dirs_below(
    target: &Path,
    rel: &Path,
    target_fresh: bool,
    dry: bool,
) -> Result<(PathBuf, bool)> {
    let mut dir = target.to_path_buf();
    let mut fresh = target_fresh;
    for c in rel.components() {
        if let std::path::Component::Normal(name) = c {
            dir.push(name);
            fresh = if dry {
                fresh || !super::existing::is_real_dir(&dir)
            } else {
                make_dir(&dir)? || fresh
            };
        }
    }
    Ok((dir, fresh))
}

/// Create the file for `path`: a new path with `O_CREAT|O_EXCL|O_NOFOLLOW`, so nothing at
/// the path is ever opened for writing. If something is there (an earlier restore, a
/// hard link to a file elsewhere, a symlink), the file is created under a temporary name
/// in the same directory and renamed over it once complete; returns that name.
pub(super) fn create_file(path: &Path) -> Result<(File, Option<PathBuf>)> {
    use std::os::unix::fs::OpenOptionsExt;
    let create = |p: &Path| {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(p)
    };
    match create(path) {
        Ok(f) => return Ok((f, None)),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(Error::from(e).context(format!("creating {}", path.display()))),
    }
    let name = path.file_name().unwrap_or_default();
    for attempt in 0..16u32 {
        let tmp = path.with_file_name(temporary_name(
            name,
            &hex::encode(crate::crypto::random_bytes::<6>()?),
        ));
        match create(&tmp) {
            Ok(f) => return Ok((f, Some(tmp))),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 15 => {}
            Err(e) => return Err(Error::from(e).context(format!("creating {}", tmp.display()))),
        }
    }
    Err(Error::fatal(format!(
        "creating {}: no free temporary name",
        path.display()
    )))
}

/// The longest file name Linux file systems take (`NAME_MAX`).
const NAME_MAX: usize = 255;

/// `.tangle-restore-<hex>-<name>`, the name cut so that the whole fits in [`NAME_MAX`]
/// bytes (a name of 227 bytes or more would not fit whole); a cut never splits a UTF-8
/// character. Only the prefix marks a temporary file.
fn temporary_name(name: &std::ffi::OsStr, hex: &str) -> std::ffi::OsString {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let mut out = format!(".tangle-restore-{hex}-").into_bytes();
    let name = name.as_bytes();
    let mut keep = name.len().min(NAME_MAX.saturating_sub(out.len()));
    // Back off over continuation bytes (10xxxxxx) to the start of a character: at most
    // three, as a UTF-8 character has (a name that is not UTF-8 is cut anywhere).
    let floor = keep.saturating_sub(3);
    while keep > floor && keep < name.len() && name[keep] & 0xc0 == 0x80 {
        keep -= 1;
    }
    out.extend_from_slice(&name[..keep]);
    std::ffi::OsString::from_vec(out)
}

/// Write one file (`created` by [`create_file`]) with its metadata; returns the extended
/// attributes the target refused.
pub(super) fn write_file(
    repo: &Repository<Indexed>,
    path: &Path,
    node: &Node,
    (file, tmp): (File, Option<PathBuf>),
    chown: bool,
    progress: &Progress,
) -> Result<Vec<Refused>, Failure> {
    let contents = write_contents(repo, &file, path, node, progress);
    let contents_failed = contents.is_err();
    let written =
        contents.and_then(|_| Ok(fsmeta::apply_metadata_to_file(&file, path, node, chown)?));
    drop(file);
    match (written, tmp) {
        (Ok(refused), None) => Ok(refused),
        (Ok(refused), Some(tmp)) => match std::fs::rename(&tmp, path) {
            Ok(()) => Ok(refused),
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                Err(Error::from(e)
                    .context(format!("replacing {}", path.display()))
                    .into())
            }
        },
        (Err(e), Some(tmp)) => {
            let _ = std::fs::remove_file(tmp);
            Err(e)
        }
        // Sized and partly written, it would look restored: a file whose contents could
        // not be restored is not left behind (one restored whose metadata was refused is).
        (Err(e), None) => {
            if contents_failed {
                let _ = std::fs::remove_file(path);
            }
            Err(e)
        }
    }
}

fn write_contents(
    repo: &Repository<Indexed>,
    file: &File,
    path: &Path,
    node: &Node,
    progress: &Progress,
) -> Result<(), Failure> {
    // Blobs read (or tried): after an error, the reads planned for the rest are skipped.
    let mut tried = 0;
    let written = write_blobs(repo, file, path, node, progress, &mut tried);
    if written.is_err() {
        repo.skip_planned_reads(&node.content[tried..]);
    }
    written
}

fn write_blobs(
    repo: &Repository<Indexed>,
    file: &File,
    path: &Path,
    node: &Node,
    progress: &Progress,
    tried: &mut usize,
) -> Result<(), Failure> {
    // Blocks never written (all-zero) stay holes: a write past the end leaves one, and
    // the length is set at the end only where the file ends in zeros (an `ftruncate`
    // per file cost 2% of a restore's CPU).
    let (mut offset, mut written_to) = (0u64, 0u64);
    for id in &node.content {
        *tried += 1;
        let (end, len) = repo
            .read_blob_then(id, BlobKind::Data, ReadMode::Shard, |data| {
                write_sparse(file, data, offset).map(|end| (end, data.len() as u64))
            })
            .map_err(|e| {
                // Not served by any remote, not rebuilt by any codeword: the data is lost
                // (exit 21), which a restore reports per file.
                let e = e.into_data_lost();
                match e.kind() {
                    Kind::DataLost => Failure::Lost(e),
                    _ => Failure::Other(e.context(format!("restoring {}", path.display()))),
                }
            })?
            .ctx(format_args!("writing {}", path.display()))?;
        written_to = written_to.max(end);
        offset += len;
        Progress::add(&progress.bytes_done, len);
    }
    if offset != node.size {
        return Err(Error::corrupt(format!(
            "{}: snapshot says {} bytes but its blobs hold {offset}",
            path.display(),
            node.size
        ))
        .into());
    }
    if written_to < node.size {
        file.set_len(node.size)
            .ctx(format_args!("sizing {}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    use super::*;

    #[test]
    fn temporary_names_fit_and_cut_between_characters() {
        let hex = "0123456789ab";
        let short = temporary_name(OsStr::new("a.txt"), hex);
        assert_eq!(short, ".tangle-restore-0123456789ab-a.txt");
        for len in [226, 227, 230, 255] {
            let name = "n".repeat(len);
            let t = temporary_name(OsStr::new(&name), hex);
            assert!(t.len() <= NAME_MAX, "{len}: {} bytes", t.len());
            assert!(t.as_bytes().starts_with(b".tangle-restore-0123456789ab-n"));
        }
        assert_eq!(temporary_name(OsStr::new(&"n".repeat(226)), hex).len(), 255);
        // 2-byte characters: the cut falls between two of them, never inside one.
        let name = format!("{}x", "é".repeat(127));
        let t = temporary_name(OsStr::new(&name), hex);
        assert!(t.to_str().is_some(), "a character was split: {t:?}");
        assert_eq!(t.len(), 29 + 226);
        let name = format!("x{}", "é".repeat(127));
        let t = temporary_name(OsStr::new(&name), hex);
        assert!(t.to_str().is_some(), "a character was split: {t:?}");
        assert_eq!(t.len(), 29 + 225);
        // Not UTF-8: cut anyway, within three bytes of the limit.
        let raw = [0x80u8; 255];
        let t = temporary_name(OsStr::from_bytes(&raw), hex);
        assert!(t.len() <= NAME_MAX && t.len() >= NAME_MAX - 3);
    }
}
