//! The SFTP primitives tangle builds its operations from, over russh-sftp's raw session:
//! the protocol extensions it relies on, pipelined reads and writes of whole files and
//! ranges, `mkdir -p`, atomic renames and directory listings.
//!
//! russh-sftp's high-level client waits for each answer before sending the next request;
//! the raw session lets many requests be in flight, which is what makes a link with
//! latency fast: up to [`PIPELINE`] reads or writes of one file at once.

use std::sync::atomic::{AtomicBool, Ordering};

use bytes::Bytes;
use futures::{StreamExt, TryStreamExt};
use russh_sftp::client::RawSftpSession;
use russh_sftp::client::error::Error as SftpError;
use russh_sftp::protocol::{FileAttributes, OpenFlags, Packet, StatusCode};
use tokio::io::{AsyncRead, AsyncWrite};

use super::url::{join, parent};
use crate::remote::local::TEMP_PREFIX;
use crate::remote::{RemoteError, recycled};

/// Reads or writes of one file in flight at once.
pub(crate) const PIPELINE: usize = 16;
/// Bytes per read or write request (OpenSSH accepts up to 255 KiB).
const CHUNK: usize = 128 * 1024;

const POSIX_RENAME: &str = "posix-rename@openssh.com";
const HARDLINK: &str = "hardlink@openssh.com";
const FSYNC: &str = "fsync@openssh.com";
const LIMITS: &str = "limits@openssh.com";

/// The outcome of one attempt of an operation.
pub(super) enum OpError {
    /// A protocol-level failure, classified by [`SftpRemote::classify`](super::SftpRemote).
    Sftp(SftpError),
    /// A final answer (e.g. a short object), not retried.
    Done(RemoteError),
}

impl From<SftpError> for OpError {
    fn from(e: SftpError) -> Self {
        OpError::Sftp(e)
    }
}

pub(super) type OpResult<T> = std::result::Result<T, OpError>;

pub(super) fn status_is(e: &SftpError, code: StatusCode) -> bool {
    matches!(e, SftpError::Status(s) if s.status_code == code)
}

pub(super) fn op_status_is(e: &OpError, code: StatusCode) -> bool {
    matches!(e, OpError::Sftp(s) if status_is(s, code))
}

/// An initialised SFTP session and what the server offers.
pub(super) struct Session {
    pub(crate) sftp: RawSftpSession,
    /// The remote's URL, for messages.
    url: String,
    /// `posix-rename@openssh.com` is offered and has not been caught lying.
    posix_rename: AtomicBool,
    /// `hardlink@openssh.com` is offered and has not been caught lying.
    hardlink: AtomicBool,
    fsync: bool,
    /// Bytes per read or write request: [`CHUNK`] or less if the server says so.
    chunk: usize,
}

impl Session {
    /// Speak SFTP over `io` (an ssh child's standard output and input): version
    /// handshake, extensions, limits. `init_timeout` bounds the handshake (ssh may still be
    /// connecting and authenticating), `request_timeout` every later request.
    pub(crate) async fn start<S>(
        url: &str,
        io: S,
        init_timeout: u64,
        request_timeout: u64,
    ) -> Result<Session, SftpError>
    where
        S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        let cfg = russh_sftp::client::Config {
            request_timeout_secs: init_timeout,
            ..Default::default()
        };
        let sftp = RawSftpSession::new_with_config(io, cfg);
        let version = sftp.init().await?;
        sftp.set_timeout(request_timeout);
        let has = |name: &str| version.extensions.contains_key(name);
        let mut chunk = CHUNK;
        if has(LIMITS)
            && let Ok(l) = sftp.limits().await
        {
            for lim in [l.max_read_len, l.max_write_len] {
                if lim > 0 {
                    chunk = chunk.min(lim as usize);
                }
            }
            if l.max_packet_len > 1024 {
                chunk = chunk.min(l.max_packet_len as usize - 1024);
            }
        }
        Ok(Session {
            posix_rename: AtomicBool::new(has(POSIX_RENAME)),
            hardlink: AtomicBool::new(has(HARDLINK)),
            fsync: has(FSYNC),
            sftp,
            url: url.to_string(),
            chunk: chunk.max(4096),
        })
    }

    /// Write `data` to a new temp file next to `full`, creating directories as needed;
    /// returns the temp file's path.
    pub(crate) async fn write_temp(&self, full: &str, data: &Bytes) -> OpResult<String> {
        let dir = parent(full).unwrap_or(".");
        let tmp = join(dir, &format!("{TEMP_PREFIX}{}", self.random_hex(full)?));
        let result = match self.write_file(&tmp, data).await {
            Err(e) if op_status_is(&e, StatusCode::NoSuchFile) => {
                self.mkdirs(dir).await?;
                self.write_file(&tmp, data).await
            }
            r => r,
        };
        if let Err(OpError::Sftp(SftpError::Status(_))) = &result {
            // The server refused (e.g. disk full): do not leave the partial file behind.
            // (After a lost connection it stays, named .tmp-*, for prune to clean.)
            let _ = self.sftp.remove(tmp.as_str()).await;
        }
        result.map(|()| tmp)
    }

    fn random_hex(&self, full: &str) -> OpResult<String> {
        crate::crypto::random_bytes::<8>()
            .map(hex::encode)
            .map_err(|e| {
                OpError::Done(RemoteError::backend(
                    &self.url,
                    full,
                    "no randomness for a temp name",
                    e,
                ))
            })
    }

    /// Write `data` to `full`, which must not exist, with an exclusive create and nothing
    /// else: no temp file, rename, remove or setstat, which create-only accounts refuse
    /// (`sftp-server -P remove,rename,…`). Creates directories as needed; `false` if
    /// `full` existed. A write cut short leaves a partial file that cannot be removed.
    /// Looks first, as `put_new` does: `rclone serve sftp` ignores the exclusive flag and
    /// replaces the file (there the window between look and write remains).
    pub(crate) async fn write_exclusive(&self, full: &str, data: &Bytes) -> OpResult<bool> {
        if self.sftp.lstat(full).await.is_ok() {
            return Ok(false);
        }
        let create = OpenFlags::WRITE | OpenFlags::CREATE | OpenFlags::EXCLUDE;
        let result = match self.write_file_with(full, data, create).await {
            Err(e) if op_status_is(&e, StatusCode::NoSuchFile) => {
                self.mkdirs(parent(full).unwrap_or(".")).await?;
                self.write_file_with(full, data, create).await
            }
            r => r,
        };
        match result {
            Ok(()) => Ok(true),
            // OpenSSH answers a generic failure for EEXIST: look.
            Err(e @ OpError::Sftp(SftpError::Status(_))) => match self.sftp.lstat(full).await {
                Ok(_) => Ok(false),
                Err(_) => Err(e),
            },
            Err(e) => Err(e),
        }
    }

    /// Write a whole file: open, pipelined writes, fsync, close.
    async fn write_file(&self, path: &str, data: &Bytes) -> OpResult<()> {
        let flags = OpenFlags::WRITE | OpenFlags::CREATE | OpenFlags::TRUNCATE;
        self.write_file_with(path, data, flags).await
    }

    /// [`write_file`](Self::write_file) opening with `flags`.
    async fn write_file_with(&self, path: &str, data: &Bytes, flags: OpenFlags) -> OpResult<()> {
        let handle = self
            .sftp
            .open(path, flags, FileAttributes::empty())
            .await?
            .handle;
        let result = async {
            let step = self.chunk;
            futures::stream::iter((0..data.len()).step_by(step).map(|off| {
                let end = (off + step).min(data.len());
                self.sftp
                    .write(handle.as_str(), off as u64, data[off..end].to_vec())
            }))
            .buffer_unordered(PIPELINE)
            .try_for_each(|_| futures::future::ready(Ok(())))
            .await?;
            if self.fsync {
                self.sftp.fsync(handle.as_str()).await?;
            }
            Ok::<(), SftpError>(())
        }
        .await;
        let closed = self.sftp.close(handle.as_str()).await;
        result?;
        closed?;
        Ok(())
    }

    /// Open `full` for reading: its handle.
    pub(crate) async fn open_read(&self, full: &str) -> OpResult<String> {
        Ok((self.sftp)
            .open(full, OpenFlags::READ, FileAttributes::empty())
            .await?
            .handle)
    }

    /// Read `len` bytes at `offset` of an open file, pipelined. `Ok(None)` if the file
    /// ends before.
    pub(crate) async fn read_range(
        &self,
        handle: &str,
        offset: u64,
        len: u64,
    ) -> OpResult<Option<Vec<u8>>> {
        let step = self.chunk as u64;
        let mut pieces = futures::stream::iter((0..len).step_by(self.chunk).map(|rel| {
            let n = step.min(len - rel);
            self.read_exact(handle, offset + rel, n)
        }))
        .buffered(PIPELINE);
        // Grow as data arrives: `len` comes from the caller and may exceed the file.
        let mut out = Vec::new();
        while let Some(piece) = pieces.next().await {
            match piece? {
                // A read of one piece is that piece, not a copy of it.
                Some(p) if out.is_empty() && p.len() as u64 == len => return Ok(Some(p)),
                Some(p) => {
                    if out.capacity() == 0 {
                        out = recycled::buffer(len);
                    }
                    out.extend_from_slice(&p)
                }
                // Dropping the stream abandons the reads still in flight.
                None => return Ok(None),
            }
        }
        Ok(Some(out))
    }

    /// Read exactly `n` bytes at `offset` (a server may answer with fewer); `None` at EOF.
    async fn read_exact(&self, handle: &str, offset: u64, n: u64) -> OpResult<Option<Vec<u8>>> {
        let mut buf = Vec::new();
        while (buf.len() as u64) < n {
            let want = (n - buf.len() as u64) as u32;
            match self
                .sftp
                .read(handle, offset + buf.len() as u64, want)
                .await
            {
                Ok(d) if d.data.is_empty() => return Ok(None),
                // The usual case, a whole answer: keep it rather than copy it.
                Ok(mut d) if buf.is_empty() && d.data.len() >= want as usize => {
                    d.data.truncate(want as usize);
                    return Ok(Some(d.data));
                }
                Ok(d) => {
                    if buf.is_empty() {
                        buf.reserve_exact(n as usize);
                    }
                    buf.extend_from_slice(&d.data[..d.data.len().min(want as usize)])
                }
                Err(e) if status_is(&e, StatusCode::Eof) => return Ok(None),
                Err(e) => return Err(e.into()),
            }
        }
        Ok(Some(buf))
    }

    /// Bytes from `offset` to the end of the file, one request at a time (the end of a
    /// file whose size was not known up front).
    /// Everything from `offset` to the end, or `None` as soon as more than `limit` bytes
    /// came (an object that does not end is not read to the end).
    pub(crate) async fn tail(
        &self,
        handle: &str,
        mut offset: u64,
        limit: u64,
    ) -> OpResult<Option<Vec<u8>>> {
        let mut out = Vec::new();
        loop {
            if out.len() as u64 > limit {
                return Ok(None);
            }
            match self.sftp.read(handle, offset, self.chunk as u32).await {
                Ok(d) if d.data.is_empty() => return Ok(Some(out)),
                Ok(d) => {
                    offset += d.data.len() as u64;
                    out.extend_from_slice(&d.data);
                }
                Err(e) if status_is(&e, StatusCode::Eof) => return Ok(Some(out)),
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// `mkdir -p`.
    pub(crate) async fn mkdirs(&self, dir: &str) -> OpResult<()> {
        let mut pending = vec![dir.to_string()];
        while let Some(d) = pending.last().cloned() {
            if pending.len() > 256 {
                return Err(OpError::Done(RemoteError::Backend {
                    url: self.url.clone(),
                    path: dir.to_string(),
                    what: "cannot create the directory: too deep".to_string(),
                    source: None,
                }));
            }
            match self.sftp.mkdir(d.as_str(), FileAttributes::empty()).await {
                Ok(_) => {
                    pending.pop();
                }
                Err(e) if status_is(&e, StatusCode::NoSuchFile) => match parent(&d) {
                    Some(p) if p != d => pending.push(p.to_string()),
                    _ => return Err(e.into()),
                },
                Err(e) => match self.sftp.stat(d.as_str()).await {
                    // Already there (OpenSSH answers a generic failure for EEXIST).
                    Ok(a) if a.attrs.is_dir() => {
                        pending.pop();
                    }
                    _ => return Err(e.into()),
                },
            }
        }
        Ok(())
    }

    /// Move the temp file `tmp` to `full`, replacing what is there, and confirm that it
    /// landed: `tmp` is gone and `full` exists (its size is not compared: a concurrent
    /// writer of the same object may have replaced it again meanwhile). A server whose
    /// `posix-rename@openssh.com` answers OK without renaming is caught here and not asked
    /// again; the write then falls back to plain SFTP rename. On error `tmp` may remain.
    pub(crate) async fn replace(&self, tmp: &str, full: &str) -> OpResult<()> {
        if self.posix_rename.load(Ordering::Relaxed) {
            match self.posix_rename(tmp, full).await {
                Ok(()) if self.moved(tmp, full).await? => return Ok(()),
                // Answered OK but did nothing, or refused: try the portable way.
                Ok(()) | Err(SftpError::Status(_)) => {
                    self.posix_rename.store(false, Ordering::Relaxed)
                }
                Err(e) => return Err(e.into()),
            }
        }
        if let Err(e) = self.sftp.rename(tmp, full).await {
            // Plain SFTP rename never replaces: remove the old object first.
            if !matches!(e, SftpError::Status(_)) || self.sftp.remove(full).await.is_err() {
                return Err(e.into());
            }
            self.sftp.rename(tmp, full).await?;
        }
        if self.moved(tmp, full).await? {
            Ok(())
        } else {
            Err(self.not_landed(full, "rename"))
        }
    }

    /// Move the temp file `tmp` (`len` bytes) to `full` only if nothing is there: `true`
    /// when it landed, `false` when `full` already existed. Tries `hardlink@openssh.com`
    /// (atomic create-only) and confirms that the link exists with `len` bytes; a server
    /// whose extension answers OK without linking is caught and not asked again, and the
    /// write falls back to plain SFTP rename after a fresh existence check. `tmp` is
    /// removed in every case but a lost connection.
    pub(crate) async fn create_new(&self, tmp: &str, full: &str, len: u64) -> OpResult<bool> {
        let result = self.link_or_rename(tmp, full, len).await;
        let _ = self.sftp.remove(tmp).await;
        result
    }

    async fn link_or_rename(&self, tmp: &str, full: &str, len: u64) -> OpResult<bool> {
        if self.hardlink.load(Ordering::Relaxed) {
            match self.sftp.hardlink(tmp, full).await {
                Ok(_) => match self.size_of(full).await? {
                    Some(size) if size == len => return Ok(true),
                    // Another writer's object got there first.
                    Some(_) => return Ok(false),
                    // The server said OK and linked nothing.
                    None => self.hardlink.store(false, Ordering::Relaxed),
                },
                Err(e @ SftpError::Status(_)) => {
                    return match self.size_of(full).await? {
                        Some(_) => Ok(false),
                        None => Err(e.into()),
                    };
                }
                Err(e) => return Err(e.into()),
            }
        }
        // Plain SFTP rename fails if the target exists (some servers replace it instead,
        // hence the check first; the window between check and rename remains).
        if self.size_of(full).await?.is_some() {
            return Ok(false);
        }
        if let Err(e) = self.sftp.rename(tmp, full).await {
            return match (&e, self.size_of(full).await?) {
                (SftpError::Status(_), Some(_)) => Ok(false),
                _ => Err(e.into()),
            };
        }
        if self.moved(tmp, full).await? && self.size_of(full).await? == Some(len) {
            Ok(true)
        } else {
            Err(self.not_landed(full, "rename"))
        }
    }

    /// Whether a move of `tmp` to `full` took effect: `tmp` gone, `full` there.
    async fn moved(&self, tmp: &str, full: &str) -> OpResult<bool> {
        Ok(self.size_of(tmp).await?.is_none() && self.size_of(full).await?.is_some())
    }

    /// The size of the file at `path`, `None` if there is none.
    async fn size_of(&self, path: &str) -> OpResult<Option<u64>> {
        match self.sftp.lstat(path).await {
            Ok(a) => Ok(Some(a.attrs.size.unwrap_or(0))),
            Err(e) if status_is(&e, StatusCode::NoSuchFile) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    fn not_landed(&self, full: &str, how: &str) -> OpError {
        OpError::Done(RemoteError::Backend {
            url: self.url.clone(),
            path: full.to_string(),
            what: format!(
                "the server answered OK to the {how} of a new object into place, but the \
                 object did not land there: the server lost the write"
            ),
            source: None,
        })
    }

    /// `posix-rename@openssh.com`: rename replacing the target atomically.
    pub(crate) async fn posix_rename(&self, from: &str, to: &str) -> Result<(), SftpError> {
        let mut data = Vec::with_capacity(8 + from.len() + to.len());
        for s in [from, to] {
            data.extend_from_slice(&(s.len() as u32).to_be_bytes());
            data.extend_from_slice(s.as_bytes());
        }
        match self.sftp.extended(POSIX_RENAME, data).await? {
            Packet::Status(s) if s.status_code == StatusCode::Ok => Ok(()),
            Packet::Status(s) => Err(SftpError::Status(s)),
            _ => Err(SftpError::UnexpectedPacket),
        }
    }

    /// Read a whole directory: `(name, attributes)` of every entry but `.` and `..`.
    pub(crate) async fn read_dir(&self, dir: &str) -> OpResult<Vec<(String, FileAttributes)>> {
        let handle = self.sftp.opendir(dir).await?.handle;
        let mut out = Vec::new();
        let result = loop {
            match self.sftp.readdir(handle.as_str()).await {
                Ok(name) => {
                    for f in name.files {
                        if f.filename != "." && f.filename != ".." {
                            out.push((f.filename, f.attrs));
                        }
                    }
                }
                Err(e) if status_is(&e, StatusCode::Eof) => break Ok(()),
                Err(e) => break Err(e),
            }
        };
        let _ = self.sftp.close(handle.as_str()).await;
        result?;
        Ok(out)
    }
}
