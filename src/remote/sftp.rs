//! `sftp://[user@]host[:port]/path`: a directory on an SSH server, over SFTP.
//!
//! Like restic, tangle runs the system `ssh` binary and speaks SFTP over its standard
//! input and output, so the user's OpenSSH setup applies unchanged: `~/.ssh/config`
//! (`Host` aliases, `Port`, `User`, `IdentityFile`, `ProxyJump`, ...), the ssh agent and
//! strict host-key checking against `known_hosts`. The command is
//!
//! ```text
//! ssh [-p PORT] [-l USER] -o BatchMode=yes -s -- HOST sftp
//! ```
//!
//! `BatchMode` makes ssh fail instead of prompting (an unknown host key or a key that
//! needs a passphrase not in the agent is an error whose text, captured from ssh's
//! standard error, ends up in tangle's message). The environment variable
//! `TANGLE_SSH_COMMAND` replaces `ssh` by a command line run through `sh -c` (as git's
//! `GIT_SSH_COMMAND`), e.g. `TANGLE_SSH_COMMAND="ssh -F ~/.ssh/backup_config"`; options
//! given there take precedence over tangle's.
//!
//! Paths: `sftp://h/srv/backup` is the absolute `/srv/backup`; `sftp://h/~/backup` is
//! `backup` in the login (home) directory.
//!
//! Writes go to `DIR/.tmp-RANDOM` (parent directories are created as needed), are
//! fsynced when the server offers `fsync@openssh.com`, and are renamed into place with
//! `posix-rename@openssh.com` (atomic replace); without it the old object is removed
//! first, which leaves a short window without the object. `put_new` links the temp
//! file with `hardlink@openssh.com` (or renames it with plain SFTP rename, which never
//! replaces), so an existing object is never overwritten. Listings skip `.tmp-` names.
//!
//! One ssh process per remote carries all requests, pipelined: up to
//! [`MAX_OPERATIONS`] operations at once, each with up to [`PIPELINE`] reads or writes in
//! flight. A lost connection is re-established and the operation retried with
//! exponential backoff and jitter ([`super::retry`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use futures::{StreamExt, TryStreamExt};
use russh_sftp::client::RawSftpSession;
use russh_sftp::client::error::Error as SftpError;
use russh_sftp::protocol::{FileAttributes, OpenFlags, Packet, StatusCode};
use tokio::io::AsyncReadExt;
use tokio::process::{Child, Command};
use tokio::sync::Semaphore;

use super::local::TEMP_PREFIX;
use super::retry::{self, Policy, Verdict};
use super::{ObjectInfo, Remote};
use crate::error::{Error, Result};

/// Operations (put, get, list, ...) of one remote in flight at once. Each holds at most
/// [`LIST_PARALLEL`] open handles. Keep `MAX_OPERATIONS * LIST_PARALLEL` below 128:
/// OpenSSH's handles are 4-byte big-endian slot numbers (reused, so never above the
/// number open at once) and russh-sftp keeps handles as UTF-8 strings, which carries
/// bytes below 0x80 unchanged but would mangle larger ones.
pub const MAX_OPERATIONS: usize = 16;
/// Reads or writes of one file in flight at once.
pub const PIPELINE: usize = 16;
/// Directories read at once by one listing.
const LIST_PARALLEL: usize = 4;
const _: () = assert!(MAX_OPERATIONS * LIST_PARALLEL < 128);
/// Bytes per read or write request (OpenSSH accepts up to 255 KiB).
const CHUNK: usize = 128 * 1024;
/// How long ssh may take to connect and authenticate, and one request to be answered.
const CONNECT_TIMEOUT_SECS: u64 = 60;
const REQUEST_TIMEOUT_SECS: u64 = 60;
/// Bytes of ssh's standard error kept for messages.
const STDERR_KEEP: usize = 16 * 1024;

const POSIX_RENAME: &str = "posix-rename@openssh.com";
const HARDLINK: &str = "hardlink@openssh.com";
const FSYNC: &str = "fsync@openssh.com";
const LIMITS: &str = "limits@openssh.com";

/// Where the repository lives: parsed from the URL.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Target {
    user: Option<String>,
    host: String,
    port: Option<u16>,
    /// Absolute (`/srv/backup`, `/`) or relative to the login directory (`backup`, `.`).
    root: String,
}

pub struct SftpRemote {
    url: String,
    target: Target,
    /// `TANGLE_SSH_COMMAND` (or an explicit override) at open time.
    ssh_command: Option<String>,
    conn: tokio::sync::Mutex<Slot>,
    operations: Semaphore,
    /// Once a connection worked, failures to reconnect are worth retrying.
    ever_connected: AtomicBool,
}

#[derive(Default)]
struct Slot {
    conn: Option<Arc<Conn>>,
    generation: u64,
}

/// One ssh process and the SFTP session over it.
struct Conn {
    sftp: RawSftpSession,
    generation: u64,
    child: std::sync::Mutex<Child>,
    stderr: Arc<std::sync::Mutex<Vec<u8>>>,
    posix_rename: bool,
    hardlink: bool,
    fsync: bool,
    chunk: usize,
}

impl Conn {
    fn alive(&self) -> bool {
        let mut child = self.child.lock().unwrap_or_else(|p| p.into_inner());
        matches!(child.try_wait(), Ok(None))
    }

    fn stderr_text(&self) -> String {
        stderr_text(&self.stderr)
    }
}

/// The outcome of one attempt of an operation.
enum OpError {
    /// A protocol-level failure, classified by [`SftpRemote::classify`].
    Sftp(SftpError),
    /// A final answer (e.g. `Corrupt`), not retried.
    Done(Error),
}

impl From<SftpError> for OpError {
    fn from(e: SftpError) -> Self {
        OpError::Sftp(e)
    }
}

type OpResult<T> = std::result::Result<T, OpError>;

fn status_is(e: &SftpError, code: StatusCode) -> bool {
    matches!(e, SftpError::Status(s) if s.status_code == code)
}

fn op_status_is(e: &OpError, code: StatusCode) -> bool {
    matches!(e, OpError::Sftp(s) if status_is(s, code))
}

impl SftpRemote {
    /// Open `sftp://[user@]host[:port]/path`; nothing is connected until first use.
    pub fn open(url: &str) -> Result<SftpRemote> {
        let cmd = std::env::var("TANGLE_SSH_COMMAND")
            .ok()
            .filter(|c| !c.trim().is_empty());
        Self::open_with_ssh_command(url, cmd)
    }

    /// Like [`open`](Self::open) with an explicit ssh command line instead of
    /// `TANGLE_SSH_COMMAND` (`None`: plain `ssh`).
    pub fn open_with_ssh_command(url: &str, ssh_command: Option<String>) -> Result<SftpRemote> {
        Ok(SftpRemote {
            url: url.to_string(),
            target: parse_url(url)?,
            ssh_command,
            conn: tokio::sync::Mutex::new(Slot::default()),
            operations: Semaphore::new(MAX_OPERATIONS),
            ever_connected: AtomicBool::new(false),
        })
    }

    /// The remote path of object `path`.
    fn full(&self, path: &str) -> Result<String> {
        super::check_path(&self.url, path)?;
        Ok(join(&self.target.root, path))
    }

    fn command(&self) -> Command {
        let mut args: Vec<String> = Vec::new();
        if let Some(p) = self.target.port {
            args.extend(["-p".into(), p.to_string()]);
        }
        if let Some(u) = &self.target.user {
            args.extend(["-l".into(), u.clone()]);
        }
        args.extend([
            "-o".into(),
            "BatchMode=yes".into(),
            "-s".into(),
            "--".into(),
            self.target.host.clone(),
            "sftp".into(),
        ]);
        let mut cmd = match &self.ssh_command {
            Some(line) => {
                let mut c = Command::new("sh");
                c.arg("-c")
                    .arg(format!("{line} \"$@\""))
                    .arg("tangle-ssh")
                    .args(&args);
                c
            }
            None => {
                let mut c = Command::new("ssh");
                c.args(&args);
                c
            }
        };
        cmd.stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true);
        // Keep ssh out of the terminal's process group: Ctrl-C interrupts tangle, which
        // then shuts down in order, instead of killing the connection under it.
        #[cfg(unix)]
        cmd.process_group(0);
        cmd
    }

    fn ssh_name(&self) -> &str {
        self.ssh_command.as_deref().unwrap_or("ssh")
    }

    /// Start ssh and the SFTP session.
    async fn connect(&self, generation: u64) -> Result<Conn> {
        let mut child = self.command().spawn().map_err(|e| {
            Error::fatal(format!(
                "remote {}: cannot run {}: {e}",
                self.url,
                self.ssh_name()
            ))
        })?;
        let (Some(stdin), Some(stdout), Some(mut stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(Error::fatal(format!(
                "remote {}: cannot talk to {}",
                self.url,
                self.ssh_name()
            )));
        };
        let err_buf = Arc::new(std::sync::Mutex::new(Vec::new()));
        let err_task = {
            let buf = err_buf.clone();
            tokio::spawn(async move {
                let mut chunk = [0u8; 4096];
                while let Ok(n) = stderr.read(&mut chunk).await {
                    if n == 0 {
                        break;
                    }
                    let mut b = buf.lock().unwrap_or_else(|p| p.into_inner());
                    b.extend_from_slice(&chunk[..n]);
                    if b.len() > STDERR_KEEP {
                        let cut = b.len() - STDERR_KEEP;
                        b.drain(..cut);
                    }
                }
            })
        };
        let cfg = russh_sftp::client::Config {
            request_timeout_secs: CONNECT_TIMEOUT_SECS,
            ..Default::default()
        };
        let sftp = RawSftpSession::new_with_config(tokio::io::join(stdout, stdin), cfg);
        let version = match sftp.init().await {
            Ok(v) => v,
            Err(e) => {
                drop(sftp);
                let still_running = matches!(child.try_wait(), Ok(None));
                let status = match tokio::time::timeout(Duration::from_secs(5), child.wait()).await
                {
                    Ok(Ok(s)) => Some(s),
                    _ => {
                        let _ = child.start_kill();
                        None
                    }
                };
                let _ = tokio::time::timeout(Duration::from_secs(2), err_task).await;
                return Err(self.connect_error(&e, status, still_running, &stderr_text(&err_buf)));
            }
        };
        sftp.set_timeout(REQUEST_TIMEOUT_SECS);
        let has = |name: &str| version.extensions.contains_key(name);
        let mut chunk = CHUNK;
        if has(LIMITS) {
            if let Ok(l) = sftp.limits().await {
                for lim in [l.max_read_len, l.max_write_len] {
                    if lim > 0 {
                        chunk = chunk.min(lim as usize);
                    }
                }
                if l.max_packet_len > 1024 {
                    chunk = chunk.min(l.max_packet_len as usize - 1024);
                }
            }
        }
        Ok(Conn {
            posix_rename: has(POSIX_RENAME),
            hardlink: has(HARDLINK),
            fsync: has(FSYNC),
            sftp,
            generation,
            child: std::sync::Mutex::new(child),
            stderr: err_buf,
            chunk: chunk.max(4096),
        })
    }

    fn connect_error(
        &self,
        e: &SftpError,
        status: Option<std::process::ExitStatus>,
        still_running: bool,
        stderr: &str,
    ) -> Error {
        let mut msg = format!("remote {}: ", self.url);
        if !stderr.is_empty() {
            msg.push_str(stderr);
        } else if let Some(s) = status.filter(|s| !s.success()) {
            msg.push_str(&format!("{} exited with {s}", self.ssh_name()));
        } else {
            msg.push_str(&format!("the SFTP session did not start: {e}"));
        }
        let hint = if stderr.contains("Host key verification failed")
            || stderr.contains("REMOTE HOST IDENTIFICATION HAS CHANGED")
        {
            " (the server's host key is not in known_hosts or does not match it: check it \
             and add it, e.g. by connecting once with ssh)"
        } else if stderr.contains("Permission denied") {
            " (authentication failed: check the user name, the key and the ssh agent; \
             tangle runs ssh with BatchMode=yes, so it cannot ask for passwords)"
        } else if stderr.contains("subsystem request failed") {
            " (the server does not offer SFTP)"
        } else if still_running && stderr.is_empty() {
            " (the server did not answer as an SFTP server: does the login shell print text?)"
        } else {
            ""
        };
        msg.push_str(hint);
        Error::fatal(msg)
    }

    /// The current connection, connecting if there is none or it died.
    async fn conn(&self) -> Result<Arc<Conn>> {
        let mut slot = self.conn.lock().await;
        if let Some(c) = &slot.conn {
            if c.alive() {
                return Ok(c.clone());
            }
        }
        slot.conn = None;
        slot.generation += 1;
        let c = Arc::new(self.connect(slot.generation).await?);
        slot.conn = Some(c.clone());
        self.ever_connected.store(true, Ordering::Relaxed);
        Ok(c)
    }

    /// Drop the connection `generation` (unless it was already replaced).
    async fn invalidate(&self, generation: u64) {
        let mut slot = self.conn.lock().await;
        if slot
            .conn
            .as_ref()
            .is_some_and(|c| c.generation == generation)
        {
            slot.conn = None;
        }
    }

    /// Run `op` on a connection, reconnecting and retrying on transport failures.
    async fn run<T, F, Fut>(&self, path: &str, op: F) -> Result<T>
    where
        F: Fn(Arc<Conn>) -> Fut,
        Fut: std::future::Future<Output = OpResult<T>>,
    {
        let _permit = self
            .operations
            .acquire()
            .await
            .map_err(|_| Error::fatal(format!("remote {}: closed", self.url)))?;
        let this = self;
        let op = &op;
        retry::run(Policy::sftp(), move |_| async move {
            let conn = match this.conn().await {
                Ok(c) => c,
                Err(e) if this.ever_connected.load(Ordering::Relaxed) => {
                    return Err(Verdict::Retry(e));
                }
                Err(e) => return Err(Verdict::Fail(e)),
            };
            match op(conn.clone()).await {
                Ok(v) => Ok(v),
                Err(OpError::Done(e)) => Err(Verdict::Fail(e)),
                Err(OpError::Sftp(e)) => {
                    let verdict = this.classify(path, &conn, e);
                    if let Verdict::Retry(_) = verdict {
                        this.invalidate(conn.generation).await;
                    }
                    Err(verdict)
                }
            }
        })
        .await
    }

    fn classify(&self, path: &str, conn: &Conn, e: SftpError) -> Verdict<Error> {
        let what = if path.is_empty() {
            String::new()
        } else {
            format!("{path}: ")
        };
        match &e {
            SftpError::Status(s) => match s.status_code {
                StatusCode::NoSuchFile => Verdict::Fail(Error::not_found(format!(
                    "remote {}: {what}not found",
                    self.url
                ))),
                StatusCode::PermissionDenied => Verdict::Fail(Error::fatal(format!(
                    "remote {}: {what}permission denied",
                    self.url
                ))),
                StatusCode::NoConnection | StatusCode::ConnectionLost => {
                    Verdict::Retry(self.lost(conn, &e))
                }
                _ => {
                    let detail = if s.error_message.is_empty() {
                        s.status_code.to_string()
                    } else {
                        s.error_message.clone()
                    };
                    Verdict::Fail(Error::fatal(format!("remote {}: {what}{detail}", self.url)))
                }
            },
            SftpError::Limited(m) => Verdict::Fail(Error::fatal(format!(
                "remote {}: {what}server limit: {m}",
                self.url
            ))),
            SftpError::IO(_)
            | SftpError::Timeout
            | SftpError::UnexpectedPacket
            | SftpError::UnexpectedBehavior(_) => Verdict::Retry(self.lost(conn, &e)),
        }
    }

    fn lost(&self, conn: &Conn, e: &SftpError) -> Error {
        let err = conn.stderr_text();
        let why = match e {
            SftpError::Timeout => format!("no answer within {REQUEST_TIMEOUT_SECS} s"),
            other => other.to_string(),
        };
        if err.is_empty() {
            Error::fatal(format!("remote {}: connection lost: {why}", self.url))
        } else {
            Error::fatal(format!(
                "remote {}: connection lost: {why}: {err}",
                self.url
            ))
        }
    }

    /// Write `data` to a new temp file next to `full`, creating directories as needed;
    /// returns the temp file's path.
    async fn write_temp(c: &Conn, full: &str, data: &Bytes) -> OpResult<String> {
        let dir = parent(full).unwrap_or(".");
        let tmp = join(dir, &format!("{TEMP_PREFIX}{}", random_hex()?));
        let result = match write_file(c, &tmp, data).await {
            Err(e) if op_status_is(&e, StatusCode::NoSuchFile) => {
                mkdirs(c, dir).await?;
                write_file(c, &tmp, data).await
            }
            r => r,
        };
        if let Err(OpError::Sftp(SftpError::Status(_))) = &result {
            // The server refused (e.g. disk full): do not leave the partial file behind.
            // (After a lost connection it stays, named .tmp-*, for prune to clean.)
            let _ = c.sftp.remove(tmp.as_str()).await;
        }
        result.map(|()| tmp)
    }
}

fn random_hex() -> OpResult<String> {
    crate::crypto::random_bytes::<8>()
        .map(hex::encode)
        .map_err(OpError::Done)
}

/// Write a whole file: open, pipelined writes, fsync, close.
async fn write_file(c: &Conn, path: &str, data: &Bytes) -> OpResult<()> {
    let handle = c
        .sftp
        .open(
            path,
            OpenFlags::WRITE | OpenFlags::CREATE | OpenFlags::TRUNCATE,
            FileAttributes::empty(),
        )
        .await?
        .handle;
    let result = async {
        let step = c.chunk;
        futures::stream::iter((0..data.len()).step_by(step).map(|off| {
            let end = (off + step).min(data.len());
            c.sftp
                .write(handle.as_str(), off as u64, data[off..end].to_vec())
        }))
        .buffer_unordered(PIPELINE)
        .try_for_each(|_| futures::future::ready(Ok(())))
        .await?;
        if c.fsync {
            c.sftp.fsync(handle.as_str()).await?;
        }
        Ok::<(), SftpError>(())
    }
    .await;
    let closed = c.sftp.close(handle.as_str()).await;
    result?;
    closed?;
    Ok(())
}

/// Read `len` bytes at `offset` of an open file, pipelined. `Ok(None)` if the file
/// ends before.
async fn read_range(c: &Conn, handle: &str, offset: u64, len: u64) -> OpResult<Option<Vec<u8>>> {
    let step = c.chunk as u64;
    let mut pieces = futures::stream::iter((0..len).step_by(c.chunk).map(|rel| {
        let n = step.min(len - rel);
        read_exact(c, handle, offset + rel, n)
    }))
    .buffered(PIPELINE);
    // Grow as data arrives: `len` comes from the caller and may exceed the file.
    let mut out = Vec::with_capacity(len.min(64 << 20) as usize);
    while let Some(piece) = pieces.next().await {
        match piece? {
            Some(p) => out.extend_from_slice(&p),
            // Dropping the stream abandons the reads still in flight.
            None => return Ok(None),
        }
    }
    Ok(Some(out))
}

/// Read exactly `n` bytes at `offset` (a server may answer with fewer); `None` at EOF.
async fn read_exact(c: &Conn, handle: &str, offset: u64, n: u64) -> OpResult<Option<Vec<u8>>> {
    let mut buf = Vec::with_capacity(n as usize);
    while (buf.len() as u64) < n {
        let want = (n - buf.len() as u64) as u32;
        match c.sftp.read(handle, offset + buf.len() as u64, want).await {
            Ok(d) if d.data.is_empty() => return Ok(None),
            Ok(d) => buf.extend_from_slice(&d.data[..d.data.len().min(want as usize)]),
            Err(e) if status_is(&e, StatusCode::Eof) => return Ok(None),
            Err(e) => return Err(e.into()),
        }
    }
    Ok(Some(buf))
}

/// `mkdir -p`.
async fn mkdirs(c: &Conn, dir: &str) -> OpResult<()> {
    let mut pending = vec![dir.to_string()];
    while let Some(d) = pending.last().cloned() {
        if pending.len() > 256 {
            return Err(OpError::Done(Error::fatal(format!(
                "cannot create directory {dir}: too deep"
            ))));
        }
        match c.sftp.mkdir(d.as_str(), FileAttributes::empty()).await {
            Ok(_) => {
                pending.pop();
            }
            Err(e) if status_is(&e, StatusCode::NoSuchFile) => match parent(&d) {
                Some(p) if p != d => pending.push(p.to_string()),
                _ => return Err(e.into()),
            },
            Err(e) => match c.sftp.stat(d.as_str()).await {
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

/// `posix-rename@openssh.com`: rename replacing the target atomically.
async fn posix_rename(c: &Conn, from: &str, to: &str) -> std::result::Result<(), SftpError> {
    let mut data = Vec::with_capacity(8 + from.len() + to.len());
    for s in [from, to] {
        data.extend_from_slice(&(s.len() as u32).to_be_bytes());
        data.extend_from_slice(s.as_bytes());
    }
    match c.sftp.extended(POSIX_RENAME, data).await? {
        Packet::Status(s) if s.status_code == StatusCode::Ok => Ok(()),
        Packet::Status(s) => Err(SftpError::Status(s)),
        _ => Err(SftpError::UnexpectedPacket),
    }
}

/// Read a whole directory: `(name, attributes)` of every entry but `.` and `..`.
async fn read_dir(c: &Conn, dir: &str) -> OpResult<Vec<(String, FileAttributes)>> {
    let handle = c.sftp.opendir(dir).await?.handle;
    let mut out = Vec::new();
    let result = loop {
        match c.sftp.readdir(handle.as_str()).await {
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
    let _ = c.sftp.close(handle.as_str()).await;
    result?;
    Ok(out)
}

fn stderr_text(buf: &std::sync::Mutex<Vec<u8>>) -> String {
    let b = buf.lock().unwrap_or_else(|p| p.into_inner());
    String::from_utf8_lossy(&b)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Warning: Permanently added"))
        .collect::<Vec<_>>()
        .join("; ")
}

fn join(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

/// The parent directory of a path: `/a/b` → `/a`, `/a` → `/`, `a/b` → `a`, `a` → None.
fn parent(path: &str) -> Option<&str> {
    match path.rsplit_once('/') {
        Some(("", _)) if path.len() > 1 => Some("/"),
        Some(("", _)) => None,
        Some((p, _)) => Some(p),
        None => None,
    }
}

/// Parse `sftp://[user@]host[:port]/path` (`/~/path`: relative to the login directory).
fn parse_url(url: &str) -> Result<Target> {
    let bad = |why: &str| {
        Error::usage(format!(
            "remote {url}: {why} (use sftp://[USER@]HOST[:PORT]/ABSOLUTE/PATH or sftp://HOST/~/PATH)"
        ))
    };
    let rest = url
        .strip_prefix("sftp://")
        .ok_or_else(|| bad("not an sftp:// URL"))?;
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => return Err(bad("the URL has no path")),
    };
    let (user, hostport) = match authority.rsplit_once('@') {
        Some((u, h)) => (Some(u), h),
        None => (None, authority),
    };
    let (host, port) = if let Some(v6) = hostport.strip_prefix('[') {
        let (h, after) = v6
            .split_once(']')
            .ok_or_else(|| bad("unclosed [ in the host"))?;
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':').ok_or_else(|| bad("junk after ]"))?),
        };
        (h, port)
    } else {
        match hostport.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (hostport, None),
        }
    };
    let port = match port {
        None | Some("") => None,
        Some(p) => Some(
            p.parse::<u16>()
                .ok()
                .filter(|p| *p != 0)
                .ok_or_else(|| bad("the port is not a number from 1 to 65535"))?,
        ),
    };
    if host.is_empty() {
        return Err(bad("the URL names no host"));
    }
    let unsafe_arg = |s: &str| s.starts_with('-') || s.chars().any(|c| c.is_whitespace());
    if unsafe_arg(host) || user.is_some_and(|u| u.is_empty() || unsafe_arg(u)) {
        return Err(bad("invalid user or host name"));
    }
    if path.contains(['\0', '\n', '?', '#']) {
        return Err(bad("invalid characters in the path"));
    }
    let root = if path == "/~" || path.starts_with("/~/") {
        let rel = path[2..].trim_matches('/');
        if rel.is_empty() {
            ".".to_string()
        } else {
            rel.to_string()
        }
    } else {
        let p = path.trim_end_matches('/');
        if p.is_empty() {
            "/".to_string()
        } else {
            p.to_string()
        }
    };
    Ok(Target {
        user: user.map(str::to_string),
        host: host.to_string(),
        port,
        root,
    })
}

#[async_trait]
impl Remote for SftpRemote {
    fn high_latency(&self) -> bool {
        true
    }

    fn url(&self) -> &str {
        &self.url
    }

    async fn put(&self, path: &str, data: Bytes) -> Result<()> {
        let full = self.full(path)?;
        let (full, data) = (&full, &data);
        self.run(path, |c| async move {
            let tmp = Self::write_temp(&c, full, data).await?;
            let renamed = if c.posix_rename {
                posix_rename(&c, &tmp, full).await
            } else {
                match c.sftp.rename(tmp.as_str(), full.as_str()).await {
                    // Plain SFTP rename never replaces: remove the old object first.
                    Err(e) if matches!(e, SftpError::Status(_)) => {
                        match c.sftp.remove(full.as_str()).await {
                            Ok(_) => c.sftp.rename(tmp.as_str(), full.as_str()).await.map(|_| ()),
                            Err(_) => Err(e),
                        }
                    }
                    r => r.map(|_| ()),
                }
            };
            if renamed.is_err() {
                let _ = c.sftp.remove(tmp.as_str()).await;
            }
            Ok(renamed?)
        })
        .await
    }

    async fn put_new(&self, path: &str, data: Bytes) -> Result<bool> {
        let full = self.full(path)?;
        let (full, data) = (&full, &data);
        self.run(path, |c| async move {
            if c.sftp.lstat(full.as_str()).await.is_ok() {
                return Ok(false);
            }
            let tmp = Self::write_temp(&c, full, data).await?;
            let linked = if c.hardlink {
                let r = c.sftp.hardlink(tmp.as_str(), full.as_str()).await;
                let _ = c.sftp.remove(tmp.as_str()).await;
                r
            } else {
                // Plain SFTP rename fails if the target exists.
                let r = c.sftp.rename(tmp.as_str(), full.as_str()).await;
                if r.is_err() {
                    let _ = c.sftp.remove(tmp.as_str()).await;
                }
                r
            };
            match linked {
                Ok(_) => Ok(true),
                Err(e @ SftpError::Status(_)) => {
                    if c.sftp.lstat(full.as_str()).await.is_ok() {
                        Ok(false)
                    } else {
                        Err(e.into())
                    }
                }
                Err(e) => Err(e.into()),
            }
        })
        .await
    }

    async fn get(&self, path: &str) -> Result<Bytes> {
        let full = self.full(path)?;
        let full = &full;
        let url = &self.url;
        self.run(path, |c| async move {
            let handle = c
                .sftp
                .open(full.as_str(), OpenFlags::READ, FileAttributes::empty())
                .await?
                .handle;
            let result = async {
                let attrs = c.sftp.fstat(handle.as_str()).await?.attrs;
                if attrs.is_dir() {
                    return Err(OpError::Done(Error::not_found(format!(
                        "remote {url}: {path}: not a file"
                    ))));
                }
                let size = attrs.size.unwrap_or(0);
                let mut data = read_range(&c, &handle, 0, size).await?.ok_or_else(|| {
                    OpError::Done(Error::corrupt(format!(
                        "remote {url}: {path}: object shrank while being read"
                    )))
                })?;
                // Whatever follows (if the size was unknown or the file grew): usually
                // just one request answered with EOF.
                let rest = tail(&c, &handle, size).await?;
                data.extend_from_slice(&rest);
                Ok(Bytes::from(data))
            }
            .await;
            let _ = c.sftp.close(handle.as_str()).await;
            result
        })
        .await
    }

    async fn get_range(&self, path: &str, offset: u64, len: u64) -> Result<Bytes> {
        let full = self.full(path)?;
        let url = &self.url;
        let short = || {
            Error::corrupt(format!(
                "remote {url}: {path}: object is shorter than expected"
            ))
        };
        if offset.checked_add(len).is_none() {
            return Err(short());
        }
        let full = &full;
        self.run(path, |c| async move {
            let handle = c
                .sftp
                .open(full.as_str(), OpenFlags::READ, FileAttributes::empty())
                .await?
                .handle;
            let result = async {
                if len == 0 {
                    let size = c.sftp.fstat(handle.as_str()).await?.attrs.size;
                    return match size {
                        Some(s) if s < offset => Err(OpError::Done(short())),
                        _ => Ok(Bytes::new()),
                    };
                }
                match read_range(&c, &handle, offset, len).await? {
                    Some(d) => Ok(Bytes::from(d)),
                    None => Err(OpError::Done(short())),
                }
            }
            .await;
            let _ = c.sftp.close(handle.as_str()).await;
            result
        })
        .await
    }

    async fn stat(&self, path: &str) -> Result<ObjectInfo> {
        let full = self.full(path)?;
        let full = &full;
        let url = &self.url;
        self.run(path, |c| async move {
            let attrs = c.sftp.stat(full.as_str()).await?.attrs;
            if attrs.is_dir() {
                return Err(OpError::Done(Error::not_found(format!(
                    "remote {url}: {path}: not a file"
                ))));
            }
            Ok(ObjectInfo {
                path: path.to_string(),
                size: attrs.size.unwrap_or(0),
            })
        })
        .await
    }

    async fn list(&self, prefix: &str) -> Result<Vec<ObjectInfo>> {
        let dir = prefix.trim_matches('/');
        let start = if dir.is_empty() {
            self.target.root.clone()
        } else {
            self.full(dir)?
        };
        let (start, dir) = (&start, &dir);
        self.run(prefix, |c| async move {
            let mut out = Vec::new();
            let mut todo: Vec<(String, String)> = vec![(start.clone(), dir.to_string())];
            while !todo.is_empty() {
                let batch: Vec<_> = todo.drain(..todo.len().min(LIST_PARALLEL)).collect();
                let results =
                    futures::future::join_all(batch.iter().map(|(d, _)| read_dir(&c, d))).await;
                for ((d, rel), r) in batch.into_iter().zip(results) {
                    let entries = match r {
                        Ok(e) => e,
                        // A missing prefix lists as empty; a directory may vanish meanwhile.
                        Err(e) if op_status_is(&e, StatusCode::NoSuchFile) => continue,
                        Err(e) => return Err(e),
                    };
                    for (name, mut attrs) in entries {
                        if name.starts_with(TEMP_PREFIX) || name.contains('/') {
                            continue;
                        }
                        let full = join(&d, &name);
                        if attrs.permissions.is_none() {
                            match c.sftp.lstat(full.as_str()).await {
                                Ok(a) => attrs = a.attrs,
                                Err(_) => continue,
                            }
                        }
                        let rel_name = if rel.is_empty() {
                            name.clone()
                        } else {
                            format!("{rel}/{name}")
                        };
                        if attrs.is_dir() {
                            todo.push((full, rel_name));
                        } else if attrs.is_regular() {
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
        .await
    }

    async fn delete(&self, path: &str) -> Result<()> {
        let full = self.full(path)?;
        let full = &full;
        self.run(path, |c| async move {
            match c.sftp.remove(full.as_str()).await {
                Ok(_) => Ok(()),
                Err(e) if status_is(&e, StatusCode::NoSuchFile) => Ok(()),
                Err(e) => Err(e.into()),
            }
        })
        .await
    }

    async fn exists(&self) -> Result<bool> {
        let root = &self.target.root;
        let url = &self.url;
        self.run("", |c| async move {
            match c.sftp.stat(root.as_str()).await {
                Ok(a) if a.attrs.is_dir() => Ok(true),
                Ok(_) => Err(OpError::Done(Error::fatal(format!(
                    "remote {url}: {root} is not a directory"
                )))),
                Err(e) if status_is(&e, StatusCode::NoSuchFile) => Ok(false),
                Err(e) => Err(e.into()),
            }
        })
        .await
    }

    async fn create(&self) -> Result<()> {
        let root = &self.target.root;
        self.run("", |c| async move {
            if root != "." && root != "/" {
                mkdirs(&c, root).await?;
            }
            Ok(())
        })
        .await
    }
}

/// Bytes from `offset` to the end of the file, one request at a time (the end of a
/// file whose size was not known up front).
async fn tail(c: &Conn, handle: &str, mut offset: u64) -> OpResult<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        match c.sftp.read(handle, offset, c.chunk as u32).await {
            Ok(d) if d.data.is_empty() => return Ok(out),
            Ok(d) => {
                offset += d.data.len() as u64;
                out.extend_from_slice(&d.data);
            }
            Err(e) if status_is(&e, StatusCode::Eof) => return Ok(out),
            Err(e) => return Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(user: Option<&str>, host: &str, port: Option<u16>, root: &str) -> Target {
        Target {
            user: user.map(str::to_string),
            host: host.to_string(),
            port,
            root: root.to_string(),
        }
    }

    #[test]
    fn urls() {
        assert_eq!(
            parse_url("sftp://u@h:2222/srv/backup/").unwrap(),
            t(Some("u"), "h", Some(2222), "/srv/backup")
        );
        assert_eq!(parse_url("sftp://h/~/b").unwrap(), t(None, "h", None, "b"));
        assert_eq!(parse_url("sftp://h/~").unwrap(), t(None, "h", None, "."));
        assert_eq!(parse_url("sftp://h/~/").unwrap(), t(None, "h", None, "."));
        assert_eq!(parse_url("sftp://h/").unwrap(), t(None, "h", None, "/"));
        assert_eq!(
            parse_url("sftp://me@[::1]:22/x").unwrap(),
            t(Some("me"), "::1", Some(22), "/x")
        );
        assert_eq!(
            parse_url("sftp://alias/~user/x").unwrap(),
            t(None, "alias", None, "/~user/x")
        );
        for bad in [
            "sftp://h",
            "sftp:///x",
            "sftp://-oProxyCommand=x/y",
            "sftp://-l@h/y",
            "sftp://h:0/x",
            "sftp://h:99999/x",
            "sftp://h:p/x",
            "sftp://@h/x",
        ] {
            assert!(parse_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn paths() {
        assert_eq!(parent("/a/b"), Some("/a"));
        assert_eq!(parent("/a"), Some("/"));
        assert_eq!(parent("/"), None);
        assert_eq!(parent("a/b"), Some("a"));
        assert_eq!(parent("a"), None);
        assert_eq!(join("/", "x"), "/x");
        assert_eq!(join("/a", "x"), "/a/x");
        assert_eq!(join(".", "x"), "./x");
    }
}
