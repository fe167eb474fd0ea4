//! `backup --stdin` and `--stdin-from-command`: one stream backed up as one file, at the
//! path `--stdin-filename` names (`/stdin` by default; `db/dump.sql` is `/db/dump.sql`,
//! below directories that exist only in the snapshot), as restic records it. Unlike a
//! file of a tree, a stream that cannot be read fails the backup: there is nothing else
//! to save.

use std::ffi::OsString;
use std::process::{Child, Command, Stdio};

use bytes::Bytes;

use crate::content::chunker::chunk_reader;
use crate::content::{ChunkerParams, Node, NodeKind};
use crate::error::{Error, Result};

/// Where the stream comes from.
#[derive(Clone, Debug)]
pub enum StreamSource {
    /// This process's stdin.
    Stdin,
    /// What this command (program and arguments, run without a shell, its stdin empty,
    /// its stderr ours) writes on its stdout; it must exit 0.
    Command(Vec<OsString>),
}

/// A backup of one stream.
#[derive(Clone, Debug)]
pub struct StdinOptions {
    pub source: StreamSource,
    /// The file's path in the snapshot (`--stdin-filename`), relative or absolute.
    pub filename: String,
}

impl StdinOptions {
    /// The components of the file's path: its directories, then its name. A path with no
    /// name, `..`, or a NUL is refused.
    pub fn components(&self) -> Result<Vec<Vec<u8>>> {
        let name = &self.filename;
        if name.contains('\0') {
            return Err(Error::usage("--stdin-filename must not contain a NUL byte"));
        }
        let parts: Vec<Vec<u8>> = (name.split('/'))
            .filter(|c| !c.is_empty() && *c != ".")
            .map(|c| c.as_bytes().to_vec())
            .collect();
        if parts.iter().any(|c| c == b"..") {
            return Err(Error::usage(format!(
                "--stdin-filename {name:?}: `..` is not allowed (the path is the file's in the snapshot)"
            )));
        }
        if parts.is_empty() {
            return Err(Error::usage(format!(
                "--stdin-filename {name:?} names no file"
            )));
        }
        Ok(parts)
    }

    /// The path the snapshot records: `/` and the components.
    pub(crate) fn snapshot_path(&self) -> Result<String> {
        let parts = self.components()?;
        let parts: Vec<String> = (parts.iter())
            .map(|p| String::from_utf8_lossy(p).into_owned())
            .collect();
        Ok(format!("/{}", parts.join("/")))
    }

    /// How the source is named in messages.
    pub(crate) fn describe(&self) -> String {
        match &self.source {
            StreamSource::Stdin => "stdin".into(),
            StreamSource::Command(argv) => format!("the command `{}`", shell_words(argv)),
        }
    }
}

/// The command line as a shell would take it back: a word with anything but letters,
/// digits and `-_./=:,+@%` in single quotes.
fn shell_words(argv: &[OsString]) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    (argv.iter())
        .map(|a| {
            let a = a.to_string_lossy();
            if !a.is_empty() && a.chars().all(plain) {
                a.into_owned()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The node of a directory or file that exists only in the snapshot: owned by this
/// user, modified now, mode 755 or 644 (restic's).
pub(super) fn node(name: &[u8], kind: NodeKind) -> Node {
    let mut n = Node::empty(name.to_vec(), kind);
    let now = chrono::Utc::now();
    n.mode = if kind == NodeKind::Dir { 0o755 } else { 0o644 };
    n.uid = rustix::process::getuid().as_raw();
    n.gid = rustix::process::getgid().as_raw();
    n.mtime = now.timestamp();
    n.mtime_nsec = now.timestamp_subsec_nanos();
    (n.atime, n.atime_nsec) = (n.mtime, n.mtime_nsec);
    (n.ctime, n.ctime_nsec) = (n.mtime, n.mtime_nsec);
    n.links = 1;
    n
}

/// Read the whole stream, handing each chunk to `emit`; the bytes read. A command that
/// cannot be started, or exits other than 0, is an error (after its output was read).
pub(super) fn read(
    o: &StdinOptions,
    chunker: &ChunkerParams,
    emit: impl FnMut(Bytes) -> Result<()>,
) -> Result<u64> {
    match &o.source {
        StreamSource::Stdin => chunk_reader(std::io::stdin().lock(), chunker, emit)
            .map_err(|e| e.context("reading stdin")),
        StreamSource::Command(argv) => {
            let (program, args) = argv
                .split_first()
                .ok_or_else(|| Error::usage("--stdin-from-command: no command given"))?;
            let what = o.describe();
            let mut child = Command::new(program)
                .args(args)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
                .map_err(|e| Error::fatal(format!("cannot run {what}: {e}")))?;
            let read = match child.stdout.take() {
                Some(out) => chunk_reader(out, chunker, emit),
                None => Err(Error::fatal("internal: no pipe from the command")),
            };
            let read = match read {
                Ok(n) => n,
                Err(e) => {
                    stop(&mut child);
                    return Err(e.context(format_args!("reading the output of {what}")));
                }
            };
            let status = child
                .wait()
                .map_err(|e| Error::fatal(format!("waiting for {what}: {e}")))?;
            if !status.success() {
                let how = match status.code() {
                    Some(code) => format!("exited with {code}"),
                    None => format!("was killed ({status})"),
                };
                return Err(Error::fatal(format!(
                    "{what} {how}: the backup is abandoned, no snapshot was written"
                )));
            }
            Ok(read)
        }
    }
}

/// Stop a command whose output is no longer read (and reap it).
fn stop(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(filename: &str) -> StdinOptions {
        StdinOptions {
            source: StreamSource::Stdin,
            filename: filename.into(),
        }
    }

    #[test]
    fn snapshot_paths() {
        assert_eq!(named("stdin").snapshot_path().unwrap(), "/stdin");
        assert_eq!(
            named("/db//./dump.sql").snapshot_path().unwrap(),
            "/db/dump.sql"
        );
        for bad in ["", "/", "./", "a/../b", "x\0y"] {
            assert!(named(bad).components().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn commands_are_shown_as_a_shell_would_take_them() {
        let argv: Vec<OsString> = ["sh", "-c", "exit 3", "it's", ""]
            .iter()
            .map(OsString::from)
            .collect();
        assert_eq!(shell_words(&argv), r#"sh -c 'exit 3' 'it'\''s' ''"#);
    }
}
