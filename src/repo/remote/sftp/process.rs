//! The ssh child process that carries the SFTP session: how it is started (the system
//! `ssh`, or the user's `TANGLE_SSH_COMMAND`), what its standard error says when it
//! fails, and the one shared connection that is re-established when it dies.

#[cfg(target_os = "linux")]
use std::os::fd::AsFd;
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
/// How long `ssh -G` (which only prints the configuration) may take.
const PROBE_TIMEOUT_SECS: u64 = 5;
/// OpenSSH's default `Ciphers` (unchanged from 7.x through 9.x).
const OPENSSH_DEFAULT_CIPHERS: &str = "chacha20-poly1305@openssh.com,aes128-ctr,aes192-ctr,\
                                       aes256-ctr,aes128-gcm@openssh.com,aes256-gcm@openssh.com";
/// The same ciphers, AES-GCM first.
const AES_GCM_FIRST: &str = "aes128-gcm@openssh.com,aes256-gcm@openssh.com,\
                             chacha20-poly1305@openssh.com,aes128-ctr,aes192-ctr,aes256-ctr";
/// The size asked for the pipes to and from ssh (Linux's default limit for a user's
/// pipe), and of the buffer our end reads into.
const PIPE_BYTES: usize = 1 << 20;
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
    pub(crate) session: Session,
    pub(crate) generation: u64,
    child: std::sync::Mutex<Child>,
    stderr: Arc<std::sync::Mutex<Vec<u8>>>,
}

impl Conn {
    fn alive(&self) -> bool {
        let mut child = self.child.lock().unwrap_or_else(|p| p.into_inner());
        matches!(child.try_wait(), Ok(None))
    }

    /// What ssh said on its standard error (the last [`STDERR_KEEP`] bytes), one line.
    pub(crate) fn stderr_text(&self) -> String {
        stderr_text(&self.stderr)
    }
}

impl SftpRemote {
    /// `ssh [-p PORT] [-l USER] -o BatchMode=yes [-o Ciphers=...] -s -- HOST sftp`, or
    /// the same arguments after the user's command line run through `sh -c`. With
    /// `probe`, `-G` comes first: ssh prints its configuration for these arguments and
    /// exits without connecting.
    fn command(&self, probe: bool, aes_gcm_first: bool) -> Command {
        let mut args: Vec<String> = Vec::new();
        if probe {
            args.push("-G".into());
        }
        if let Some(p) = self.target.port {
            args.extend(["-p".into(), p.to_string()]);
        }
        if let Some(u) = &self.target.user {
            args.extend(["-l".into(), u.clone()]);
        }
        args.extend(["-o".into(), "BatchMode=yes".into()]);
        if aes_gcm_first {
            args.extend(["-o".into(), format!("Ciphers={AES_GCM_FIRST}")]);
        }
        args.extend([
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

    /// Whether to pass [`AES_GCM_FIRST`] (see the module docs of [`super`]): this
    /// processor has AES instructions, the command is ssh, and `ssh -G` reports
    /// OpenSSH's default cipher list. Anything unexpected (no answer within
    /// [`PROBE_TIMEOUT_SECS`], another list, no list) leaves ssh's choice alone.
    async fn prefer_aes_gcm(&self) -> bool {
        if !aes_instructions() {
            return false;
        }
        let program = self.ssh_name().split_whitespace().next();
        if !program.is_some_and(|w| w == "ssh" || w.ends_with("/ssh")) {
            return false;
        }
        let mut cmd = self.command(true, false);
        cmd.stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        let probe = tokio::time::timeout(Duration::from_secs(PROBE_TIMEOUT_SECS), cmd.output());
        let Ok(Ok(out)) = probe.await else {
            return false;
        };
        let ciphers = (String::from_utf8_lossy(&out.stdout).lines())
            .find_map(|l| l.strip_prefix("ciphers ").map(str::to_string));
        out.status.success() && ciphers.as_deref() == Some(OPENSSH_DEFAULT_CIPHERS)
    }

    /// Start ssh and the SFTP session.
    async fn connect(&self, generation: u64) -> RemoteResult<Conn> {
        let unreachable = |what: String, source: Option<std::io::Error>| RemoteError::Unreachable {
            url: self.url.clone(),
            what,
            source: source.map(Into::into),
        };
        let aes_gcm_first = *self
            .aes_gcm_first
            .get_or_init(|| self.prefer_aes_gcm())
            .await;
        let mut child = self
            .command(false, aes_gcm_first)
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
        // ssh writes what it receives into our pipe from a buffer of its own. Through the
        // default 64 KiB pipe it writes in small pieces and keeps moving the rest of its
        // buffer: measured, 0.95 CPU s of ssh per connection for a 540 MB SFTP restore;
        // through a pipe of PIPE_BYTES that we empty at once, 0.6 s, and the restore
        // takes 10% less time. Best effort: a system limit may refuse the size.
        #[cfg(target_os = "linux")]
        for fd in [stdout.as_fd(), stdin.as_fd()] {
            let _ = rustix::pipe::fcntl_setpipe_size(fd, PIPE_BYTES);
        }
        let stdout = tokio::io::BufReader::with_capacity(PIPE_BYTES, stdout);
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
        if let Some(c) = &slot.conn
            && c.alive()
        {
            return Ok(c.clone());
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

/// Whether this processor encrypts AES-GCM in hardware (AES and carry-less multiply).
fn aes_instructions() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("aes")
            && std::arch::is_x86_feature_detected!("pclmulqdq")
    }
    #[cfg(target_arch = "aarch64")]
    {
        std::arch::is_aarch64_feature_detected!("aes")
            && std::arch::is_aarch64_feature_detected!("pmull")
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        false
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cipher_lists_hold_the_same_ciphers() {
        assert_eq!(
            OPENSSH_DEFAULT_CIPHERS,
            "chacha20-poly1305@openssh.com,aes128-ctr,aes192-ctr,aes256-ctr,\
             aes128-gcm@openssh.com,aes256-gcm@openssh.com"
        );
        fn sorted(s: &str) -> Vec<&str> {
            let mut v: Vec<&str> = s.split(',').collect();
            v.sort();
            v
        }
        assert_eq!(sorted(OPENSSH_DEFAULT_CIPHERS), sorted(AES_GCM_FIRST));
        assert!(AES_GCM_FIRST.starts_with("aes128-gcm@openssh.com,"));
        assert!(!AES_GCM_FIRST.contains(' '));
    }
}
