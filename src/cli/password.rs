//! Where the password comes from, in order: `--password-file`, `--password-command`,
//! `TANGLE_PASSWORD`, a profile's `password`, then a prompt on the terminal (a profile's
//! file or command fills the first two only when neither flag nor environment gives one).
//!
//! A password is bytes, the same from every source: a file's first line, a command's
//! output and `TANGLE_PASSWORD` are taken as they are, UTF-8 or not (a repository made
//! with the bytes `ff fe` opens with exactly those). Only the terminal prompt reads
//! characters; what it cannot read as UTF-8 is refused rather than guessed at.

use std::io::IsTerminal;
use std::os::unix::ffi::OsStringExt;
use std::path::Path;

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

/// Whether a password source other than the terminal is configured.
pub fn given(g: &Global) -> bool {
    g.password_file.is_some()
        || g.password_command.is_some()
        || std::env::var_os("TANGLE_PASSWORD").is_some()
        || g.password.is_some()
}

pub fn read(g: &Global, confirm: bool) -> Result<Password> {
    let pw = if let Some(f) = &g.password_file {
        from_file(f, "password file")?
    } else if let Some(cmd) = &g.password_command {
        let out = std::process::Command::new("sh")
            .args(["-c", cmd])
            .stderr(std::process::Stdio::inherit())
            .output()
            .map_err(|e| Error::fatal(format!("running password command: {e}")))?;
        if !out.status.success() {
            return Err(Error::fatal(format!(
                "password command failed ({})",
                out.status
            )));
        }
        command_output(out.stdout)
    } else if let Some(pw) = std::env::var_os("TANGLE_PASSWORD") {
        pw.into_vec()
    } else if let Some(pw) = &g.password {
        pw.as_bytes().to_vec()
    } else if std::io::stdin().is_terminal() {
        let pw = prompt("enter password for repository: ", "password")?;
        if confirm && prompt("enter password again: ", "password")? != pw {
            return Err(Error::usage("passwords do not match"));
        }
        pw
    } else {
        return Err(Error::usage(
            "no password given: use --password-file, --password-command, TANGLE_PASSWORD or a profile (no terminal to ask on)",
        ));
    };
    if pw.is_empty() {
        return Err(Error::usage("empty password"));
    }
    Ok(Password(pw))
}

/// The first line of the file `f` (`what`: "password file", "new password file"), as
/// bytes.
pub fn from_file(f: &Path, what: &str) -> Result<Vec<u8>> {
    let text = std::fs::read(f)
        .map_err(|e| Error::fatal(format!("reading {what} {}: {e}", f.display())))?;
    Ok(first_line(text))
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
