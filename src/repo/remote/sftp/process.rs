//! The ssh child process that carries the SFTP session: how it is started (the system
//! `ssh`, or the user's `TANGLE_SSH_COMMAND`), what its standard error says when it
//! fails, and the one shared connection that is re-established when it dies.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use russh_sftp::client::error::Error as SftpError;
use tokio::io::AsyncReadExt;
use tokio::process::{Child, Command};

use super::session::Session;
use super::{REQUEST_TIMEOUT_SECS, SftpRemote};
use crate::remote::{RemoteError, RemoteResult};

/// How long ssh may take to connect and authenticate.
const CONNECT_TIMEOUT_SECS: u64 = 60;
/// Bytes of ssh's standard error kept for messages.
const STDERR_KEEP: usize = 16 * 1024;

/// The connection of a remote, if any, and how many were made (to tell them apart).
#[derive(Default)]
pub(super) struct Slot {
    conn: Option<Arc<Conn>>,
    generation: u64,
}

/// One ssh process and the SFTP session over it.
pub(super) struct Conn {
    pub session: Session,
    pub generation: u64,
    child: std::sync::Mutex<Child>,
    stderr: Arc<std::sync::Mutex<Vec<u8>>>,
}

impl Conn {
    fn alive(&self) -> bool {
        let mut child = self.child.lock().unwrap_or_else(|p| p.into_inner());
        matches!(child.try_wait(), Ok(None))
    }

    /// What ssh said on its standard error (the last [`STDERR_KEEP`] bytes), one line.
    pub fn stderr_text(&self) -> String {
        stderr_text(&self.stderr)
    }
}

impl SftpRemote {
    /// `ssh [-p PORT] [-l USER] -o BatchMode=yes -s -- HOST sftp`, or the same arguments
    /// after the user's command line run through `sh -c`.
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
    async fn connect(&self, generation: u64) -> RemoteResult<Conn> {
        let unreachable = |what: String, source: Option<std::io::Error>| RemoteError::Unreachable {
            url: self.url.clone(),
            what,
            source: source.map(Into::into),
        };
        let mut child = self
            .command()
            .spawn()
            .map_err(|e| unreachable(format!("cannot run {}: {e}", self.ssh_name()), Some(e)))?;
        let (Some(stdin), Some(stdout), Some(mut stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(unreachable(
                format!("cannot talk to {}", self.ssh_name()),
                None,
            ));
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
        let io = tokio::io::join(stdout, stdin);
        let session =
            match Session::start(&self.url, io, CONNECT_TIMEOUT_SECS, REQUEST_TIMEOUT_SECS).await {
                Ok(s) => s,
                Err(e) => {
                    let still_running = matches!(child.try_wait(), Ok(None));
                    let status =
                        match tokio::time::timeout(Duration::from_secs(5), child.wait()).await {
                            Ok(Ok(s)) => Some(s),
                            _ => {
                                let _ = child.start_kill();
                                None
                            }
                        };
                    let _ = tokio::time::timeout(Duration::from_secs(2), err_task).await;
                    return Err(self.connect_error(
                        e,
                        status,
                        still_running,
                        &stderr_text(&err_buf),
                    ));
                }
            };
        Ok(Conn {
            session,
            generation,
            child: std::sync::Mutex::new(child),
            stderr: err_buf,
        })
    }

    /// Why the session did not start, in the user's terms: ssh's own words plus a hint.
    fn connect_error(
        &self,
        e: SftpError,
        status: Option<std::process::ExitStatus>,
        still_running: bool,
        stderr: &str,
    ) -> RemoteError {
        let mut msg = String::new();
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
        RemoteError::Unreachable {
            url: self.url.clone(),
            what: msg,
            source: Some(e.into()),
        }
    }

    /// The current connection, connecting if there is none or it died.
    pub(super) async fn conn(&self) -> RemoteResult<Arc<Conn>> {
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
    pub(super) async fn invalidate(&self, generation: u64) {
        let mut slot = self.conn.lock().await;
        if slot
            .conn
            .as_ref()
            .is_some_and(|c| c.generation == generation)
        {
            slot.conn = None;
        }
    }
}

/// ssh's standard error as one line, without its routine warnings.
fn stderr_text(buf: &std::sync::Mutex<Vec<u8>>) -> String {
    let b = buf.lock().unwrap_or_else(|p| p.into_inner());
    String::from_utf8_lossy(&b)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Warning: Permanently added"))
        .collect::<Vec<_>>()
        .join("; ")
}
