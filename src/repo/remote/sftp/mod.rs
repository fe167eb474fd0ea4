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
//! file with `hardlink@openssh.com` (or renames it with plain SFTP rename after checking
//! that the target is absent), so an existing object is never overwritten. A write is
//! confirmed before it is reported done: after a rename the temp file is gone and the
//! target exists, after a link the target has the written size. A server that answers OK
//! to an extension without doing it (`rclone serve sftp` does so for `hardlink`) is caught
//! by that check and not asked again on this connection. Listings skip `.tmp-` names.
//!
//! Without a server, `TANGLE_SSH_COMMAND` may also run OpenSSH's `sftp-server` on this
//! machine: the ssh arguments tangle appends are then ignored by an inner shell, e.g.
//! `TANGLE_SSH_COMMAND="sh -c 'exec /usr/lib/openssh/sftp-server' --"` with
//! `sftp://localhost/ABSOLUTE/PATH` (the conformance tests run so without sshd).
//!
//! Ciphers: OpenSSH's default order puts chacha20-poly1305 first, which costs ssh and
//! sshd about twice the CPU time of AES-GCM on processors with AES instructions (a
//! restore moves every byte through both). On such a processor, if the effective
//! configuration (`ssh -G` with the same arguments, so `~/.ssh/config`, `-F` and `-o`
//! in `TANGLE_SSH_COMMAND` count) still has OpenSSH's default cipher list, tangle passes
//! the same list with `aes128-gcm@openssh.com,aes256-gcm@openssh.com` moved to the front,
//! as Go's ssh client orders them: no cipher is added or removed, and a configured
//! `Ciphers` is left alone. Only for the system `ssh` or a `TANGLE_SSH_COMMAND` that runs
//! `ssh`; anything else is run exactly as given.
//!
//! One ssh process per remote carries all requests, pipelined: up to
//! [`MAX_OPERATIONS`] operations at once, each with up to [`PIPELINE`](session::PIPELINE) reads or writes in
//! flight. A lost connection is re-established and the operation retried with
//! exponential backoff and jitter ([`super::retry`]).
//!
//! Modules, as restic splits its backend: [`url`] parses the URL, [`process`] runs ssh
//! and reconnects, [`session`] holds the pipelined SFTP primitives, [`backend`] the
//! [`Remote`](super::Remote) implementation; this file ties them together with retries.

mod backend;
mod process;
mod session;
mod url;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use russh_sftp::client::error::Error as SftpError;
use russh_sftp::protocol::StatusCode;
use tokio::sync::Semaphore;

use super::retry::{self, Policy, Verdict};
use super::{RemoteError, RemoteResult};
use crate::error::Result;
use process::{Conn, Slot};
use session::{OpError, OpResult};
use url::Target;

/// Operations (put, get, list, ...) of one remote in flight at once. Each holds at most
/// [`LIST_PARALLEL`] open handles. Keep `MAX_OPERATIONS * LIST_PARALLEL` below 128:
/// OpenSSH's handles are 4-byte big-endian slot numbers (reused, so never above the
/// number open at once) and russh-sftp keeps handles as UTF-8 strings, which carries
/// bytes below 0x80 unchanged but would mangle larger ones.
pub(crate) const MAX_OPERATIONS: usize = 16;
/// Directories read at once by one listing.
const LIST_PARALLEL: usize = 4;
const _: () = assert!(MAX_OPERATIONS * LIST_PARALLEL < 128);
/// How long one request may wait for its answer before the connection counts as lost.
const REQUEST_TIMEOUT_SECS: u64 = 60;

pub struct SftpRemote {
    url: String,
    target: Target,
    /// `TANGLE_SSH_COMMAND` (or an explicit override) at open time.
    ssh_command: Option<String>,
    conn: tokio::sync::Mutex<Slot>,
    operations: Semaphore,
    /// Once a connection worked, failures to reconnect are worth retrying.
    ever_connected: AtomicBool,
    /// Whether ssh is told to prefer AES-GCM (decided once, before the first connection:
    /// [`process`]'s `prefer_aes_gcm`).
    aes_gcm_first: tokio::sync::OnceCell<bool>,
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
            target: url::parse_url(url)?,
            ssh_command,
            conn: tokio::sync::Mutex::new(Slot::default()),
            operations: Semaphore::new(MAX_OPERATIONS),
            ever_connected: AtomicBool::new(false),
            aes_gcm_first: tokio::sync::OnceCell::new(),
        })
    }

    /// The remote path of object `path`.
    fn full(&self, path: &str) -> RemoteResult<String> {
        super::check_path(&self.url, path)?;
        Ok(url::join(&self.target.root, path))
    }

    /// Run `op` on a connection, reconnecting and retrying on transport failures.
    async fn run<T, F, Fut>(&self, path: &str, op: F) -> RemoteResult<T>
    where
        F: Fn(Arc<Conn>) -> Fut,
        Fut: std::future::Future<Output = OpResult<T>>,
    {
        let _permit = self
            .operations
            .acquire()
            .await
            .map_err(|_| RemoteError::Closed {
                url: self.url.clone(),
            })?;
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

    /// What a failed request means: a final answer, or a lost connection worth retrying.
    fn classify(&self, path: &str, conn: &Conn, e: SftpError) -> Verdict<RemoteError> {
        let (url, path) = (self.url.clone(), path.to_string());
        match &e {
            SftpError::Status(s) => match s.status_code {
                StatusCode::NoSuchFile => Verdict::Fail(RemoteError::NotFound { url, path }),
                StatusCode::PermissionDenied => Verdict::Fail(RemoteError::Denied {
                    url,
                    path,
                    why: "permission denied".to_string(),
                }),
                StatusCode::NoConnection | StatusCode::ConnectionLost => {
                    Verdict::Retry(self.lost(conn, e))
                }
                _ => {
                    let what = if s.error_message.is_empty() {
                        s.status_code.to_string()
                    } else {
                        s.error_message.clone()
                    };
                    Verdict::Fail(RemoteError::Backend {
                        url,
                        path,
                        what,
                        source: Some(e.into()),
                    })
                }
            },
            SftpError::Limited(m) => Verdict::Fail(RemoteError::Backend {
                url,
                path,
                what: format!("server limit: {m}"),
                source: None,
            }),
            SftpError::IO(_)
            | SftpError::Timeout
            | SftpError::UnexpectedPacket
            | SftpError::UnexpectedBehavior(_) => Verdict::Retry(self.lost(conn, e)),
        }
    }

    /// A lost connection, with whatever ssh said about it.
    fn lost(&self, conn: &Conn, e: SftpError) -> RemoteError {
        let err = conn.stderr_text();
        let why = match &e {
            SftpError::Timeout => format!("no answer within {REQUEST_TIMEOUT_SECS} s"),
            other => other.to_string(),
        };
        let what = if err.is_empty() {
            format!("connection lost: {why}")
        } else {
            format!("connection lost: {why}: {err}")
        };
        RemoteError::Unreachable {
            url: self.url.clone(),
            what,
            source: Some(e.into()),
        }
    }
}
