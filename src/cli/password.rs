//! Where the password comes from, in order: `--password-file`, `--password-command`,
//! `TANGLE_PASSWORD`, a profile's `password`, then a prompt on the terminal (a profile's
//! file or command fills the first two only when neither flag nor environment gives one).

use std::io::IsTerminal;

use tangle::{Error, Result};

use super::Global;

/// Whether a password source other than the terminal is configured.
pub fn given(g: &Global) -> bool {
    g.password_file.is_some()
        || g.password_command.is_some()
        || std::env::var_os("TANGLE_PASSWORD").is_some()
        || g.password.is_some()
}

pub fn read(g: &Global, confirm: bool) -> Result<String> {
    let pw = if let Some(f) = &g.password_file {
        let text = std::fs::read_to_string(f)
            .map_err(|e| Error::fatal(format!("reading password file {}: {e}", f.display())))?;
        text.lines().next().unwrap_or_default().to_string()
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
        String::from_utf8_lossy(&out.stdout)
            .trim_end_matches(['\r', '\n'])
            .to_string()
    } else if let Some(pw) = std::env::var_os("TANGLE_PASSWORD") {
        pw.to_string_lossy().into_owned()
    } else if let Some(pw) = &g.password {
        pw.clone()
    } else if std::io::stdin().is_terminal() {
        let pw = rpassword::prompt_password("enter password for repository: ")
            .map_err(|e| Error::fatal(format!("reading password: {e}")))?;
        if confirm {
            let again = rpassword::prompt_password("enter password again: ")
                .map_err(|e| Error::fatal(format!("reading password: {e}")))?;
            if again != pw {
                return Err(Error::usage("passwords do not match"));
            }
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
    Ok(pw)
}
