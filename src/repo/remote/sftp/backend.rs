//! The [`Remote`] operations of an SFTP remote, each one attempt of [`SftpRemote::run`]
//! built from the [`session`](super::session) primitives (see the module docs of
//! [`super`] for the write protocol).

use std::sync::Arc;

use async_trait::async_trait;
use bytes::Bytes;
use russh_sftp::protocol::StatusCode;

use super::process::Conn;
use super::session::{OpError, OpResult, op_status_is, status_is};
use super::url::join;
use super::{LIST_PARALLEL, SftpRemote};
use crate::error::Result;
use crate::remote::local::TEMP_PREFIX;
use crate::remote::recycled;
use crate::remote::{ObjectInfo, Remote, RemoteError, WriteAccess};

/// Open `full` for reading, run `read` with its handle, and close the handle whatever
/// `read` returned, without waiting for the answer: a reader has what it came for, and
/// waiting was one round trip of five per shard a restore fetches. The server takes
/// requests in order, so the handle is closed before anything sent after it is opened.
async fn reading<T>(
    c: &Arc<Conn>,
    full: &str,
    read: impl AsyncFnOnce(&str) -> OpResult<T>,
) -> OpResult<T> {
    let handle = c.session.open_read(full).await?;
    let result = read(&handle).await;
    let conn = c.clone();
    tokio::spawn(async move {
        let _ = conn.session.sftp.close(handle.as_str()).await;
    });
    result
}

/// The whole object behind `handle`, refused if it is a directory or larger than `max`:
/// its size from `fstat`, then the body and a read past it side by side.
async fn read_whole(
    c: &Arc<Conn>,
    handle: &str,
    url: &str,
    path: &str,
    max: u64,
) -> OpResult<Bytes> {
    let attrs = c.session.sftp.fstat(handle).await?.attrs;
    if attrs.is_dir() {
        return Err(OpError::Done(RemoteError::NotAFile {
            url: url.to_string(),
            path: path.to_string(),
        }));
    }
    let size = attrs.size.unwrap_or(0);
    let too_large = |size| {
        OpError::Done(RemoteError::TooLarge {
            url: url.to_string(),
            path: path.to_string(),
            size,
            max,
        })
    };
    if size > max {
        return Err(too_large(size));
    }
    // The rest of the file (if the size was unknown or the file grew: usually one
    // request answered with EOF) is asked for beside the body, not after it: one round
    // trip less per object.
    let (data, rest) = tokio::join!(
        c.session.read_range(handle, 0, size),
        c.session.tail(handle, size, max - size)
    );
    let mut data = data?.ok_or_else(|| {
        OpError::Done(RemoteError::Shrank {
            url: url.to_string(),
            path: path.to_string(),
        })
    })?;
    let rest = rest?.ok_or_else(|| too_large(max.saturating_add(1)))?;
    if size + rest.len() as u64 > max {
        return Err(too_large(size + rest.len() as u64));
    }
    data.extend_from_slice(&rest);
    Ok(recycled::bytes(data))
}

#[async_trait]
impl Remote for SftpRemote {
    fn high_latency(&self) -> bool {
        true
    }

    fn url(&self) -> &str {
        &self.url
    }

    async fn put(&self, _: WriteAccess, path: &str, data: Bytes) -> Result<()> {
        let full = self.full(path)?;
        let (full, data) = (&full, &data);
        Ok(self
            .run(path, |c| async move {
                let tmp = c.session.write_temp(full, data).await?;
                let placed = c.session.replace(&tmp, full).await;
                if placed.is_err() {
                    let _ = c.session.sftp.remove(tmp.as_str()).await;
                }
                placed
            })
            .await?)
    }

    async fn put_new(&self, _: WriteAccess, path: &str, data: Bytes) -> Result<bool> {
        let full = self.full(path)?;
        let (full, data) = (&full, &data);
        Ok(self
            .run(path, |c| async move {
                if c.session.sftp.lstat(full.as_str()).await.is_ok() {
                    return Ok(false);
                }
                let tmp = c.session.write_temp(full, data).await?;
                c.session.create_new(&tmp, full, data.len() as u64).await
            })
            .await?)
    }

    async fn put_once(&self, _: WriteAccess, path: &str, data: Bytes) -> Result<bool> {
        let full = self.full(path)?;
        let (full, data) = (&full, &data);
        Ok(self
            .run(path, |c| async move {
                c.session.write_exclusive(full, data).await
            })
            .await?)
    }

    async fn get(&self, path: &str) -> Result<Bytes> {
        self.get_max(path, u64::MAX).await
    }

    async fn get_max(&self, path: &str, max: u64) -> Result<Bytes> {
        let full = self.full(path)?;
        let full = &full;
        Ok(self
            .run(path, |c| async move {
                reading(&c, full, async |handle| {
                    read_whole(&c, handle, &self.url, path, max).await
                })
                .await
            })
            .await?)
    }

    /// A shard: its `size` bytes are asked for at once, beside a read past them that
    /// must find the end, with no `fstat` before (one round trip of three). An object of
    /// another size, or one whose reads fail, is read again as
    /// [`get_max`](Self::get_max) reads it, so the caller sees what is there: a short one
    /// in full, a long one refused, a directory as no object.
    async fn get_sized(&self, path: &str, size: u64) -> Result<Bytes> {
        let full = self.full(path)?;
        let full = &full;
        Ok(self
            .run(path, |c| async move {
                reading(&c, full, async |handle| {
                    let (data, rest) = tokio::join!(
                        c.session.read_range(handle, 0, size),
                        c.session.tail(handle, size, 0)
                    );
                    // Anything but exactly `size` bytes (shorter, longer, a directory
                    // whose reads fail) is read again the careful way, to answer as it.
                    match (data, rest) {
                        (Ok(Some(data)), Ok(Some(rest))) if rest.is_empty() => {
                            Ok(recycled::bytes(data))
                        }
                        _ => read_whole(&c, handle, &self.url, path, size).await,
                    }
                })
                .await
            })
            .await?)
    }

    async fn get_range(&self, path: &str, offset: u64, len: u64) -> Result<Bytes> {
        let full = self.full(path)?;
        let url = &self.url;
        let short = || RemoteError::short(url, path, "");
        if offset.checked_add(len).is_none() {
            return Err(short().into());
        }
        let full = &full;
        Ok(self
            .run(path, |c| async move {
                reading(&c, full, async |handle| {
                    if len == 0 {
                        let size = c.session.sftp.fstat(handle).await?.attrs.size;
                        return match size {
                            Some(s) if s < offset => Err(OpError::Done(short())),
                            _ => Ok(Bytes::new()),
                        };
                    }
                    match c.session.read_range(handle, offset, len).await? {
                        Some(d) => Ok(recycled::bytes(d)),
                        None => Err(OpError::Done(short())),
                    }
                })
                .await
            })
            .await?)
    }

    async fn stat(&self, path: &str) -> Result<ObjectInfo> {
        let full = self.full(path)?;
        let full = &full;
        let url = &self.url;
        Ok(self
            .run(path, |c| async move {
                let attrs = c.session.sftp.stat(full.as_str()).await?.attrs;
                if attrs.is_dir() {
                    return Err(OpError::Done(RemoteError::NotAFile {
                        url: url.clone(),
                        path: path.to_string(),
                    }));
                }
                Ok(ObjectInfo {
                    path: path.to_string(),
                    size: attrs.size.unwrap_or(0),
                })
            })
            .await?)
    }

    async fn list(&self, prefix: &str) -> Result<Vec<ObjectInfo>> {
        self.walk(prefix, false).await
    }

    async fn list_temp(&self) -> Result<Vec<ObjectInfo>> {
        self.walk("", true).await
    }

    async fn delete(&self, _: WriteAccess, path: &str) -> Result<()> {
        let full = self.full(path)?;
        let full = &full;
        Ok(self
            .run(path, |c| async move {
                match c.session.sftp.remove(full.as_str()).await {
                    Ok(_) => Ok(()),
                    Err(e) if status_is(&e, StatusCode::NoSuchFile) => Ok(()),
                    Err(e) => Err(e.into()),
                }
            })
            .await?)
    }

    async fn exists(&self) -> Result<bool> {
        let root = &self.target.root;
        let url = &self.url;
        Ok(self
            .run("", |c| async move {
                match c.session.sftp.stat(root.as_str()).await {
                    Ok(a) if a.attrs.is_dir() => Ok(true),
                    Ok(_) => Err(OpError::Done(RemoteError::Backend {
                        url: url.clone(),
                        path: String::new(),
                        what: format!("{root} is not a directory"),
                        source: None,
                    })),
                    Err(e) if status_is(&e, StatusCode::NoSuchFile) => Ok(false),
                    Err(e) => Err(e.into()),
                }
            })
            .await?)
    }

    async fn create(&self, _: WriteAccess) -> Result<()> {
        let root = &self.target.root;
        Ok(self
            .run("", |c| async move {
                if root != "." && root != "/" {
                    c.session.mkdirs(root).await?;
                }
                Ok(())
            })
            .await?)
    }
}

impl SftpRemote {
    /// Every object below `prefix`, or with `temp` every temp file of an unfinished write
    /// below it instead (a listing never shows temp files).
    async fn walk(&self, prefix: &str, temp: bool) -> Result<Vec<ObjectInfo>> {
        let dir = prefix.trim_matches('/');
        let start = if dir.is_empty() {
            self.target.root.clone()
        } else {
            self.full(dir)?
        };
        let (start, dir) = (&start, &dir);
        Ok(self
            .run(prefix, |c| async move {
                let mut out = Vec::new();
                let mut todo: Vec<(String, String)> = vec![(start.clone(), dir.to_string())];
                while !todo.is_empty() {
                    let batch: Vec<_> = todo.drain(..todo.len().min(LIST_PARALLEL)).collect();
                    let results =
                        futures::future::join_all(batch.iter().map(|(d, _)| c.session.read_dir(d)))
                            .await;
                    for ((d, rel), r) in batch.into_iter().zip(results) {
                        let entries = match r {
                            Ok(e) => e,
                            // A missing prefix lists as empty; a directory may vanish meanwhile.
                            Err(e) if op_status_is(&e, StatusCode::NoSuchFile) => continue,
                            Err(e) => return Err(e),
                        };
                        for (name, mut attrs) in entries {
                            if name.contains('/') {
                                continue;
                            }
                            let is_temp = name.starts_with(TEMP_PREFIX);
                            let full = join(&d, &name);
                            if attrs.permissions.is_none() {
                                match c.session.sftp.lstat(full.as_str()).await {
                                    Ok(a) => attrs = a.attrs,
                                    Err(_) => continue,
                                }
                            }
                            let rel_name = if rel.is_empty() {
                                name.clone()
                            } else {
                                format!("{rel}/{name}")
                            };
                            if attrs.is_dir() && !is_temp {
                                todo.push((full, rel_name));
                            } else if attrs.is_regular() && is_temp == temp {
                                out.push(ObjectInfo {
                                    path: rel_name,
                                    size: attrs.size.unwrap_or(0),
                                });
                            }
                        }
                    }
                }
                out.sort_by(|a, b| a.path.cmp(&b.path));
                Ok(out)
            })
            .await?)
    }
}
