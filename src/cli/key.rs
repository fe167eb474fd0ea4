//! `tangle key list | add | remove ID | passwd`

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use tangle::crypto::KdfParams;
use tangle::ops::key::{self, RemoveOptions};
use tangle::repo::{LockKind, Public, Repository, Unlocked};
use tangle::util::escape;
use tangle::{Error, Result};

use super::open::Purpose;
use super::{Global, line, password, warn};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tangle key list\n  tangle key add --new-password-file ~/.config/tangle/second.pw\n  tangle key passwd"
)]
pub struct KeyArgs {
    #[command(subcommand)]
    pub action: KeyAction,
}

#[derive(Subcommand)]
pub enum KeyAction {
    /// List the keys (passwords) of the repository; `*` marks the one that opened it
    List,
    /// Add a password: a new key file wrapping the same master key
    Add {
        /// Read the new password from this file (first line); else ask twice on the
        /// terminal
        #[arg(long, value_name = "FILE")]
        new_password_file: Option<PathBuf>,
    },
    /// Remove a key (password); the last key is never removed
    Remove {
        /// The key's id or a unique prefix of it (see `tangle key list`)
        id: String,
        /// Also remove the key this command opened the repository with
        #[arg(long)]
        force: bool,
        /// Remove even with remotes unreachable (the next repair removes the key file
        /// from them; it never opens the repository meanwhile)
        #[arg(long)]
        allow_degraded: bool,
    },
    /// Change the password: add a new key, then remove the one in use
    Passwd {
        /// Read the new password from this file (first line); else ask twice on the
        /// terminal
        #[arg(long, value_name = "FILE")]
        new_password_file: Option<PathBuf>,
        /// Go on with remotes unreachable (as for `key remove`)
        #[arg(long)]
        allow_degraded: bool,
    },
}

pub fn run(g: &Global, a: &KeyArgs) -> Result<u8> {
    match &a.action {
        KeyAction::List => list(g),
        KeyAction::Add { new_password_file } => {
            let repo: Repository<Unlocked> = g.open(Purpose::Writing)?;
            let pw = new_password(new_password_file.as_deref())?;
            // Beside backups, not during a key change or a delete.
            let _lock = repo.lock(LockKind::Shared, "key add")?;
            let r = key::add(&repo, pw.as_bytes(), KdfParams::default())?;
            if g.json {
                return g.print_json(&r).map(|_| 0);
            }
            for w in &r.not_written {
                warn(format_args!(
                    "the new key is not on {w} yet: `tangle repair` copies it there"
                ));
            }
            g.say(format_args!("added key {}", r.short_id));
            Ok(0)
        }
        KeyAction::Remove {
            id,
            force,
            allow_degraded,
        } => {
            let repo: Repository<Unlocked> = g.open(Purpose::Writing)?;
            let _lock = repo.lock(LockKind::Exclusive, "key remove")?;
            let r = key::remove(
                &repo,
                &RemoveOptions {
                    id: id.clone(),
                    force: *force,
                    allow_degraded: *allow_degraded,
                },
            )?;
            if g.json {
                return g.print_json(&r).map(|_| 0);
            }
            say_removed(g, &r);
            Ok(0)
        }
        KeyAction::Passwd {
            new_password_file,
            allow_degraded,
        } => {
            let repo: Repository<Unlocked> = g.open(Purpose::Writing)?;
            let pw = new_password(new_password_file.as_deref())?;
            let _lock = repo.lock(LockKind::Exclusive, "key passwd")?;
            let r = key::passwd(&repo, pw.as_bytes(), KdfParams::default(), *allow_degraded)?;
            if g.json {
                return g.print_json(&r).map(|_| 0);
            }
            g.say(format_args!("added key {}", r.added.short_id));
            say_removed(g, &r.removed);
            g.say("password changed");
            Ok(0)
        }
    }
}

/// Needs no password; with one (given, or asked for on a terminal) the key in use is
/// marked.
fn list(g: &Global) -> Result<u8> {
    let repo: Repository<Public> = g.open(Purpose::Writing)?;
    let all = repo.remotes().len();
    let l = if password::given(g) || std::io::stdin().is_terminal() {
        let pw = password::read(g, false)?;
        key::list(&repo.unlock(pw.as_bytes())?)?
    } else {
        key::list(&repo)?
    };
    for u in &l.unreachable {
        warn(format_args!("cannot list {u}"));
    }
    for u in &l.unreadable {
        warn(format_args!(
            "key {u}: no authentic copy (run `tangle verify`)"
        ));
    }
    if g.json {
        for k in &l.removed {
            warn(format_args!(
                "key {} was removed, but its key file is still on {}: it opens nothing; \
                 `tangle repair` (or `tangle key remove {}`) takes it off",
                k.short_id,
                k.remotes.join(", "),
                k.short_id
            ));
        }
        return g.print_json(&l.keys).map(|_| 0);
    }
    line(format_args!(
        " {:<8}  {:<12}  {:<16}  Created",
        "ID", "User", "Host"
    ))?;
    line("-".repeat(63))?;
    for k in &l.keys {
        let mark = if k.current { '*' } else { ' ' };
        let created = k
            .created
            .replace('T', " ")
            .trim_end_matches('Z')
            .to_string();
        let only = if k.remotes.len() < all {
            format!("  (only on {})", escape(&k.remotes.join(", ")))
        } else {
            String::new()
        };
        line(format_args!(
            "{mark}{:<8}  {:<12}  {:<16}  {created}{only}",
            k.short_id,
            escape(&k.user),
            escape(&k.host)
        ))?;
    }
    // Removed keys whose file a remote still holds: never usable, listed to be cleaned up.
    for k in &l.removed {
        let created = k
            .created
            .replace('T', " ")
            .trim_end_matches('Z')
            .to_string();
        line(format_args!(
            "x{:<8}  {:<12}  {:<16}  {created}  (removed: opens nothing, but its key file is \
             still on {}; `tangle repair` takes it off)",
            k.short_id,
            k.user,
            k.host,
            k.remotes.join(", ")
        ))?;
    }
    Ok(0)
}

fn say_removed(g: &Global, r: &key::RemoveReport) {
    g.say(format_args!(
        "removed key {} from {} remotes",
        r.short_id,
        r.removed_from.len()
    ));
    for p in &r.pending {
        warn(format_args!(
            "the key file stays on {p} until `tangle repair` removes it (it opens nothing)"
        ));
    }
}

/// The new password: the first line of `file`, else asked twice on the terminal.
fn new_password(file: Option<&Path>) -> Result<password::Password> {
    let pw = if let Some(f) = file {
        password::from_file(f, "new password file")?
    } else if std::io::stdin().is_terminal() {
        let read = |question: &str| password::prompt(question, "the new password");
        let pw = read("enter new password: ")?;
        if read("enter new password again: ")? != pw {
            return Err(Error::usage("passwords do not match: no key was changed"));
        }
        pw
    } else {
        return Err(Error::usage(
            "no new password given: use --new-password-file (no terminal to ask on)",
        ));
    };
    if pw.is_empty() {
        return Err(Error::usage("empty new password"));
    }
    Ok(password::Password::from(pw))
}
