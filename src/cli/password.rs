//! Where the password comes from, in order: `--password-file`, `--password-command`,
//! `TANGLE_PASSWORD`, a profile's `password`, then a prompt on the terminal (a profile's
//! file or command fills the first two only when neither flag nor environment gives one).
//!
//! A password is bytes, the same from every source: a file's first line, a command's
//! output and `TANGLE_PASSWORD` are taken as they are, UTF-8 or not (a repository made
//! with the bytes `ff fe` opens with exactly those). Only the terminal prompt reads
//! characters; what it cannot read as UTF-8 is refused rather than guessed at.

use std::io::{IsTerminal, Read};
use std::os::unix::ffi::OsStringExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal};

use tangle::{Error, Result};

use super::Global;

/// A password: its exact bytes.
pub struct Password(Vec<u8>);

impl Password {
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl From<Vec<u8>> for Password {
    fn from(bytes: Vec<u8>) -> Password {
        Password(bytes)
    }
}

/// Which repository a password opens, by the names its sources go by: the repository
/// of `-r` ([`REPOSITORY`]) or `copy`'s source ([`FROM_REPOSITORY`]).
#[derive(Clone, Copy)]
pub struct Names {
    /// The variable holding the password itself.
    pub env: &'static str,
    /// The sources to name when there is none.
    pub sources: &'static str,
    pub prompt: &'static str,
    /// The repository it opens, in "no password given for ...": empty for `-r`'s.
    pub whose: &'static str,
    /// Whether this is the repository of `-r` (the restic and writer-key hints apply).
    pub main: bool,
}

pub const REPOSITORY: Names = Names {
    env: "TANGLE_PASSWORD",
    sources: "--password-file, --password-command, TANGLE_PASSWORD or a profile",
    prompt: "enter password for repository: ",
    whose: "",
    main: true,
};

/// `copy --from-repo`'s: restic's `--from-password-file` and the like.
pub const FROM_REPOSITORY: Names = Names {
    env: "TANGLE_FROM_PASSWORD",
    sources: "--from-password-file, --from-password-command or TANGLE_FROM_PASSWORD",
    prompt: "enter password for the source repository (--from-repo): ",
    whose: " for the source repository",
    main: false,
};

/// `import restic --from-repo`'s: restic's own variables, as restic reads them.
#[cfg(feature = "restic-import")]
pub const RESTIC_REPOSITORY: Names = Names {
    env: "RESTIC_PASSWORD",
    sources: "--from-password-file, --from-password-command, RESTIC_PASSWORD_FILE, \
              RESTIC_PASSWORD_COMMAND or RESTIC_PASSWORD",
    prompt: "enter password for the restic repository: ",
    whose: " for the restic repository",
    main: false,
};

/// The settings that read another repository's password (`copy`'s source, `import`'s
/// restic repository): its names and its own file and command. A flag beats the
/// environment, whatever their kinds, as for the repository of `-r`; `file_flag` and
/// `command_flag` say which were given as flags.
pub fn other_repository(
    g: &Global,
    names: Names,
    file: (Option<std::path::PathBuf>, bool),
    command: (Option<String>, bool),
) -> Global {
    let mut s = g.clone();
    s.password = None;
    s.password_names = names;
    s.password_file = file.0;
    s.password_command = command.0;
    if file.1 || command.1 {
        if !file.1 {
            s.password_file = None;
        }
        if !command.1 {
            s.password_command = None;
        }
    }
    s
}

/// Whether a password source other than the terminal is configured.
pub fn given(g: &Global) -> bool {
    g.password_file.is_some()
        || g.password_command.is_some()
        || std::env::var_os(g.password_names.env).is_some()
        || g.password.is_some()
}

pub fn read(g: &Global, confirm: bool) -> Result<Password> {
    let pw = if let Some(f) = &g.password_file {
        from_file(f, "password file")?
    } else if let Some(cmd) = &g.password_command {
        let timeout = g.password_command_timeout.unwrap_or(COMMAND_TIMEOUT);
        command_output(run_command(cmd, timeout)?)
    } else if let Some(pw) = std::env::var_os(g.password_names.env) {
        pw.into_vec()
    } else if let Some(pw) = &g.password {
        pw.as_bytes().to_vec()
    } else if std::io::stdin().is_terminal() {
        let pw = prompt(g.password_names.prompt, "password")?;
        if confirm && prompt("enter password again: ", "password")? != pw {
            return Err(Error::usage("passwords do not match"));
        }
        pw
    } else if g.password_names.main && std::env::var_os("TANGLE_WRITER_KEY").is_some() {
        // A backup host with only its writer key: say why it is not enough.
        return Err(Error::usage(
            "no password given, and a writer key (TANGLE_WRITER_KEY) only adds backups: \
             reading snapshots, trees or files, and changing or deleting anything, needs the \
             owner's password",
        ));
    } else {
        let hint = match g.password_names.main {
            true => super::restic::variables_hint(super::restic::PASSWORD_VARS),
            false => String::new(),
        };
        return Err(Error::usage(format!(
            "no password given{}: use {} (no terminal to ask on){hint}",
            g.password_names.whose, g.password_names.sources,
        )));
    };
    if pw.is_empty() {
        return Err(Error::usage("empty password"));
    }
    Ok(Password(pw))
}

/// The most a password file or a password command's output may hold.
pub const SIZE_LIMIT: u64 = 64 * 1024;
const SIZE_LIMIT_TEXT: &str = "64 KiB";

/// How long a password command may run before it is killed, unless
/// `TANGLE_PASSWORD_COMMAND_TIMEOUT` or the profile's `password-command-timeout` says.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(60);

/// The first line of the file `f` (`what`: "password file", "new password file"), as
/// bytes. No more than [`SIZE_LIMIT`] is read (`/dev/zero` or a FIFO that never ends
/// included): a larger file is an error.
pub fn from_file(f: &Path, what: &str) -> Result<Vec<u8>> {
    let failed = |e: std::io::Error| Error::fatal(format!("reading {what} {}: {e}", f.display()));
    let mut text = Vec::new();
    std::fs::File::open(f)
        .and_then(|file| file.take(SIZE_LIMIT + 1).read_to_end(&mut text))
        .map_err(failed)?;
    if text.len() as u64 > SIZE_LIMIT {
        return Err(Error::fatal(format!(
            "{what} {} is larger than {SIZE_LIMIT_TEXT}, the most a password file may hold",
            f.display()
        )));
    }
    Ok(first_line(text))
}

/// Run `sh -c cmd` and return what it prints on stdout (its stderr is ours, its stdin
/// empty). The command is killed, with the processes it started, when it runs longer
/// than `timeout` or prints more than [`SIZE_LIMIT`]; tangle never waits for it beyond.
fn run_command(cmd: &str, timeout: Duration) -> Result<Vec<u8>> {
    let named = format!("password command `{cmd}`");
    let mut child = Command::new("sh")
        .args(["-c", cmd])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| Error::fatal(format!("running {named}: {e}")))?;
    let deadline = Instant::now() + timeout;
    let timed_out = || {
        Error::fatal(format!(
            "{named} did not finish within {}: killed it (TANGLE_PASSWORD_COMMAND_TIMEOUT or the profile's password-command-timeout allow more, in seconds)",
            seconds(timeout)
        ))
    };
    // Read on a thread, so that the wait for output can end at the deadline.
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = child.stdout.take().map(|stdout| {
        std::thread::Builder::new()
            .name("password-command".into())
            .spawn(move || {
                let mut out = Vec::new();
                let read = stdout.take(SIZE_LIMIT + 1).read_to_end(&mut out);
                let _ = tx.send(read.map(|_| out));
            })
    });
    if !matches!(reader, Some(Ok(_))) {
        kill_tree(&mut child);
        return Err(Error::fatal(format!("cannot read the output of {named}")));
    }
    let out = match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(Ok(out)) if out.len() as u64 > SIZE_LIMIT => {
            kill_tree(&mut child);
            return Err(Error::fatal(format!(
                "{named} printed more than {SIZE_LIMIT_TEXT}, the most a password may be: killed it"
            )));
        }
        Ok(Ok(out)) => out,
        Ok(Err(e)) => {
            kill_tree(&mut child);
            return Err(Error::fatal(format!("reading the output of {named}: {e}")));
        }
        Err(_) => {
            kill_tree(&mut child);
            return Err(timed_out());
        }
    };
    // The output ended; the command has the rest of the time to exit.
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Ok(None) => {
                kill_tree(&mut child);
                return Err(timed_out());
            }
            Err(e) => {
                kill_tree(&mut child);
                return Err(Error::fatal(format!("waiting for {named}: {e}")));
            }
        }
    };
    if !status.success() {
        return Err(Error::fatal(format!("{named} failed ({status})")));
    }
    Ok(out)
}

/// `60 s`, `1.5 s`.
fn seconds(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// Kill `child` (SIGKILL) and every process below it, found through `/proc` before any
/// is killed (so that none is missed by being handed to init first): a shell's `sleep`
/// would otherwise keep running and keep the output pipe, and our stderr, open. Then
/// reap `child`. Without `/proc`, only `child` is killed.
fn kill_tree(child: &mut Child) {
    let mut tree = vec![child.id()];
    if let Ok(dir) = std::fs::read_dir("/proc") {
        // (pid, parent pid) of every process.
        let parents: Vec<(u32, u32)> = dir
            .flatten()
            .filter_map(|e| {
                let pid: u32 = e.file_name().to_str()?.parse().ok()?;
                let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
                // `pid (comm) state ppid ...`; comm may hold anything but ends at the
                // last `)`.
                let rest = &stat[stat.rfind(')')? + 1..];
                let ppid = rest.split_whitespace().nth(1)?.parse().ok()?;
                Some((pid, ppid))
            })
            .collect();
        let mut i = 0;
        while i < tree.len() {
            let parent = tree[i];
            tree.extend(
                (parents.iter())
                    .filter(|(pid, ppid)| *ppid == parent && !tree.contains(pid))
                    .map(|(pid, _)| *pid)
                    .collect::<Vec<_>>(),
            );
            i += 1;
        }
    }
    for pid in tree.iter().skip(1) {
        let pid = i32::try_from(*pid).ok().and_then(Pid::from_raw);
        if let Some(pid) = pid {
            let _ = rustix::process::kill_process(pid, Signal::KILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The first line: up to the first LF, without the CR of a CRLF ending (what
/// `str::lines` gives, for bytes; a CR not followed by LF stays).
fn first_line(mut text: Vec<u8>) -> Vec<u8> {
    if let Some(end) = text.iter().position(|&b| b == b'\n') {
        let end = if end > 0 && text[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        text.truncate(end);
    }
    text
}

/// A password command's output without its trailing CRs and LFs.
fn command_output(mut out: Vec<u8>) -> Vec<u8> {
    while out.last().is_some_and(|&b| b == b'\r' || b == b'\n') {
        out.pop();
    }
    out
}

/// Ask on the terminal; `what` names the password in errors ("password", "the new
/// password"). The prompt reads characters, and turns bytes that are not UTF-8
/// into U+FFFD, which would make different passwords one: such input is refused.
pub fn prompt(question: &str, what: &str) -> Result<Vec<u8>> {
    let pw = rpassword::prompt_password(question)
        .map_err(|e| Error::fatal(format!("reading {what}: {e}")))?;
    if pw.contains('\u{FFFD}') {
        return Err(Error::usage(
            "the password typed is not UTF-8 (or holds U+FFFD), which the prompt cannot read exactly: give it through --password-file, --password-command or TANGLE_PASSWORD",
        ));
    }
    Ok(pw.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_line_is_str_lines_for_bytes() {
        for text in [
            "",
            "\n",
            "abc",
            "abc\n",
            "abc\r\n",
            "abc\r",
            "abc\r\r\n",
            "a\rb\nc",
            "x\r\ny\n",
        ] {
            let want = text.lines().next().unwrap_or_default();
            assert_eq!(
                first_line(text.as_bytes().to_vec()),
                want.as_bytes(),
                "{text:?}"
            );
        }
        assert_eq!(first_line(vec![0xff, 0xfe, b'\r', b'\n', 1]), [0xff, 0xfe]);
    }

    #[test]
    fn command_output_loses_trailing_line_ends_only() {
        for out in ["", "pw", "pw\n", "pw\r\n\n\r", " pw \n", "p\nw\n"] {
            let want = out.trim_end_matches(['\r', '\n']);
            assert_eq!(command_output(out.as_bytes().to_vec()), want.as_bytes());
        }
        assert_eq!(command_output(vec![0x80, 0x0a]), [0x80]);
    }
}
