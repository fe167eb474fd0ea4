//! A directory on a local (or mounted) file system. Writes go to a temp file in the
//! target directory, are fsynced and renamed into place, and the directory is fsynced,
//! so a crash leaves either the old state or the new object, never a torn one.

use std::io::Write;
use std::path::{Path, PathBuf};

use async_trait::async_trait;
use bytes::Bytes;

use super::recycled;
use super::{ObjectInfo, Remote, RemoteError, RemoteResult, WriteAccess};
use crate::error::Result;

pub(crate) const TEMP_PREFIX: &str = ".tmp-";

pub(crate) struct LocalRemote {
    root: PathBuf,
    url: String,
}

impl LocalRemote {
    pub(crate) fn new(root: impl Into<PathBuf>, url: &str) -> Self {
        LocalRemote {
            root: root.into(),
            url: url.to_string(),
        }
    }

    fn full(&self, path: &str) -> RemoteResult<PathBuf> {
        super::check_path(&self.url, path)?;
        Ok(self.root.join(path))
    }

    /// An I/O error on `path` (its kind decides NotFound or Fatal: see [`RemoteError::kind`]).
    fn err(&self, path: &str, e: std::io::Error) -> RemoteError {
        RemoteError::io(&self.url, path, e)
    }

    /// Create `dir` and its parents up to, but never including, the root: a root that has
    /// vanished (an unmounted disk, a deleted directory) makes the remote unreachable
    /// instead of being recreated empty, where the backup would then land unseen. Only
    /// `create` (init, `remote add`) makes the root. Race-free: each level is created
    /// with a plain mkdir, which fails if its parent is gone.
    fn make_dirs_below_root(&self, dir: &Path, path: &str) -> RemoteResult<()> {
        if dir.is_dir() {
            return Ok(());
        }
        let rel = dir.strip_prefix(&self.root).unwrap_or(Path::new(""));
        let mut at = self.root.clone();
        let mut components = rel.components().peekable();
        if components.peek().is_none() && !self.root.is_dir() {
            return Err(self.root_missing());
        }
        let mut first = true;
        for c in components {
            at.push(c);
            match std::fs::create_dir(&at) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) if first && e.kind() == std::io::ErrorKind::NotFound => {
                    return Err(self.root_missing());
                }
                Err(e) => return Err(self.err(path, e)),
            }
            first = false;
        }
        Ok(())
    }

    fn root_missing(&self) -> RemoteError {
        RemoteError::Unreachable {
            url: self.url.clone(),
            what: format!(
                "directory {} is missing (an unmounted disk?), and only `tangle repair` \
                 recreates it: mount the disk; if the remote was wiped, run `tangle repair`, \
                 which makes the directory and copies the repository back",
                self.root.display()
            ),
            source: None,
        }
    }

    fn write_atomic(&self, path: &str, data: &[u8], create_only: bool) -> RemoteResult<bool> {
        let full = self.full(path)?;
        let dir = full.parent().unwrap_or(&self.root).to_path_buf();
        self.make_dirs_below_root(&dir, path)?;
        let random = crate::crypto::random_bytes::<8>().map_err(|e| {
            RemoteError::backend(&self.url, path, "no randomness for a temp name", e)
        })?;
        let tmp = dir.join(format!("{TEMP_PREFIX}{}", hex::encode(random)));
        let result = (|| -> std::io::Result<bool> {
            let mut f = match std::fs::File::create(&tmp) {
                // The directory went since it was made: a delete of its last object
                // removed it (see `delete`). Make it again, once.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    self.make_dirs_below_root(&dir, path)
                        .map_err(std::io::Error::other)?;
                    std::fs::File::create(&tmp)?
                }
                f => f?,
            };
            f.write_all(data)?;
            f.sync_all()?;
            drop(f);
            // The last moment to notice that the process lost its lock while this write
            // was under way (it stalled: see `lease`), before the object appears.
            super::lease::check(path).map_err(std::io::Error::other)?;
            if create_only {
                // link(2) fails if the target exists: an atomic create-only rename.
                match std::fs::hard_link(&tmp, &full) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                        std::fs::remove_file(&tmp)?;
                        return Ok(false);
                    }
                    Err(e) => return Err(e),
                }
                std::fs::remove_file(&tmp)?;
            } else {
                std::fs::rename(&tmp, &full)?;
            }
            std::fs::File::open(&dir)?.sync_all()?;
            Ok(true)
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result.map_err(|e| self.err(path, e))
    }

    /// Every object below `prefix`, or with `temp` every temp file of an unfinished
    /// write below it instead (never both: a listing never shows temp files).
    fn list_sync(&self, prefix: &str, temp: bool) -> RemoteResult<Vec<ObjectInfo>> {
        let mut out = Vec::new();
        let start = if prefix.is_empty() {
            self.root.clone()
        } else {
            self.full(prefix.trim_end_matches('/'))?
        };
        let mut stack = vec![start];
        while let Some(dir) = stack.pop() {
            let rd = match std::fs::read_dir(&dir) {
                Ok(rd) => rd,
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                    ) =>
                {
                    continue;
                }
                Err(e) => return Err(self.err(prefix, e)),
            };
            for entry in rd {
                let entry = entry.map_err(|e| self.err(prefix, e))?;
                let name = entry.file_name();
                let name = name.to_string_lossy();
                let is_temp = name.starts_with(TEMP_PREFIX);
                let ft = entry.file_type().map_err(|e| self.err(prefix, e))?;
                if ft.is_dir() && !is_temp {
                    stack.push(entry.path());
                } else if ft.is_file() && is_temp == temp {
                    let size = entry.metadata().map_err(|e| self.err(prefix, e))?.len();
                    out.push(ObjectInfo {
                        path: rel(&self.root, &entry.path()),
                        size,
                    });
                }
            }
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(out)
    }
}

fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root)
        .unwrap_or(p)
        .to_string_lossy()
        .replace(std::path::MAIN_SEPARATOR, "/")
}

/// Run blocking file-system work off the async executor threads.
async fn blocking<T: Send + 'static>(
    url: &str,
    f: impl FnOnce() -> RemoteResult<T> + Send + 'static,
) -> Result<T> {
    let joined = tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| RemoteError::backend(url, "", "I/O task failed", e))?;
    Ok(joined?)
}

#[async_trait]
impl Remote for LocalRemote {
    fn url(&self) -> &str {
        &self.url
    }

    async fn put(&self, _: WriteAccess, path: &str, data: Bytes) -> Result<()> {
        let me = self.clone_handle();
        let path = path.to_string();
        blocking(&self.url, move || {
            me.write_atomic(&path, &data, false).map(|_| ())
        })
        .await
    }

    async fn put_new(&self, _: WriteAccess, path: &str, data: Bytes) -> Result<bool> {
        let me = self.clone_handle();
        let path = path.to_string();
        blocking(&self.url, move || me.write_atomic(&path, &data, true)).await
    }

    async fn get(&self, path: &str) -> Result<Bytes> {
        self.get_max(path, u64::MAX).await
    }

    async fn get_max(&self, path: &str, max: u64) -> Result<Bytes> {
        let full = self.full(path)?;
        let me = self.clone_handle();
        let path = path.to_string();
        blocking(&self.url, move || {
            let (f, size) = me.open_regular(&full, &path)?;
            if size > max {
                return Err(RemoteError::TooLarge {
                    url: me.url.clone(),
                    path,
                    size,
                    max,
                });
            }
            // Read what fstat promised, and no more: a file that grows meanwhile is cut
            // off at its size, one that shrinks is short.
            let mut buf = recycled::buffer(size);
            std::io::Read::read_to_end(&mut std::io::Read::take(&f, size), &mut buf)
                .map_err(|e| me.err(&path, e))?;
            if (buf.len() as u64) < size {
                return Err(RemoteError::short(&me.url, &path, ""));
            }
            Ok(recycled::bytes(buf))
        })
        .await
    }

    async fn get_range(&self, path: &str, offset: u64, len: u64) -> Result<Bytes> {
        let full = self.full(path)?;
        let me = self.clone_handle();
        let path = path.to_string();
        blocking(&self.url, move || {
            let (f, size) = me.open_regular(&full, &path)?;
            super::range_end(&me.url, &path, offset, len, size)?;
            let mut buf = vec![0u8; len as usize];
            std::os::unix::fs::FileExt::read_exact_at(&f, &mut buf, offset).map_err(|e| match e
                .kind()
            {
                std::io::ErrorKind::UnexpectedEof => RemoteError::short(&me.url, &path, ""),
                _ => me.err(&path, e),
            })?;
            Ok(Bytes::from(buf))
        })
        .await
    }

    async fn stat(&self, path: &str) -> Result<ObjectInfo> {
        let full = self.full(path)?;
        let md = std::fs::symlink_metadata(&full).map_err(|e| self.err(path, e))?;
        if !md.is_file() {
            return Err(RemoteError::NotAFile {
                url: self.url.clone(),
                path: path.to_string(),
            }
            .into());
        }
        Ok(ObjectInfo {
            path: path.to_string(),
            size: md.len(),
        })
    }

    async fn list(&self, prefix: &str) -> Result<Vec<ObjectInfo>> {
        let me = self.clone_handle();
        let prefix = prefix.to_string();
        blocking(&self.url, move || me.list_sync(&prefix, false)).await
    }

    async fn list_temp(&self) -> Result<Vec<ObjectInfo>> {
        let me = self.clone_handle();
        blocking(&self.url, move || me.list_sync("", true)).await
    }

    async fn delete(&self, _: WriteAccess, path: &str) -> Result<()> {
        let full = self.full(path)?;
        match std::fs::remove_file(&full) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(self.err(path, e).into()),
            _ => {
                // A per-object directory (`shards/<extent>/`, `heads/<writer>/`) left empty
                // would cost every later listing a directory: remove it (it fails, and
                // is left, while it holds anything). So are `locks/` and `repairs/`,
                // which hold something only while a command runs (a refused command
                // leaves the remote as it found it).
                if (path.matches('/').count() >= 2
                    || path.starts_with("locks/")
                    || path.starts_with("repairs/"))
                    && let Some(dir) = full.parent()
                {
                    let _ = std::fs::remove_dir(dir);
                }
                Ok(())
            }
        }
    }

    async fn exists(&self) -> Result<bool> {
        Ok(self.root.is_dir())
    }

    async fn create(&self, _: WriteAccess) -> Result<()> {
        std::fs::create_dir_all(&self.root).map_err(|e| self.err("", e).into())
    }
}

impl LocalRemote {
    /// Open an object for reading only if it is a regular file: never through a symlink
    /// (`O_NOFOLLOW`), never blocking on a FIFO (`O_NONBLOCK`), and checked on the open
    /// handle, so whoever controls the directory cannot point a reader at a device, a
    /// pipe or a file elsewhere. Returns the file and its size.
    fn open_regular(&self, full: &Path, path: &str) -> RemoteResult<(std::fs::File, u64)> {
        use std::os::unix::fs::OpenOptionsExt;
        let f = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(full)
            .map_err(|e| match e.raw_os_error() {
                Some(libc::ELOOP) => RemoteError::NotAFile {
                    url: self.url.clone(),
                    path: path.to_string(),
                },
                _ => self.err(path, e),
            })?;
        let md = f.metadata().map_err(|e| self.err(path, e))?;
        if !md.is_file() {
            return Err(RemoteError::NotAFile {
                url: self.url.clone(),
                path: path.to_string(),
            });
        }
        Ok((f, md.len()))
    }

    fn clone_handle(&self) -> LocalRemote {
        LocalRemote {
            root: self.root.clone(),
            url: self.url.clone(),
        }
    }
}
