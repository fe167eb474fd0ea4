//! `tangle writer add LABEL | list | revoke LABEL` (issue 35): writer keys for backup
//! hosts that may add history but neither read nor delete it.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use tangle::ops::writer;
use tangle::repo::{LockKind, Public, Repository, Unlocked};
use tangle::util::escape;
use tangle::{Error, Result};

use super::open::Purpose;
use super::{Global, line, warn};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tangle writer add db-host --out db-host.writer-key\n  tangle writer list\n  tangle writer revoke db-host"
)]
pub struct WriterArgs {
    #[command(subcommand)]
    pub action: WriterAction,
}

#[derive(Subcommand)]
pub enum WriterAction {
    /// Make a writer key for one backup host: it may add snapshots, never read or delete
    Add {
        /// A name for the host (letters, digits, . _ @ -), unique in the repository
        label: String,
        /// Write the key here (created, mode 0600; never overwritten); default
        /// LABEL.writer-key in the current directory
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// List the writers (needs no password)
    List,
    /// Revoke a writer: its later heads are refused; what it wrote before stays
    Revoke {
        /// The writer's label, or a unique prefix of its id
        writer: String,
    },
}

pub fn run(g: &Global, a: &WriterArgs) -> Result<u8> {
    match &a.action {
        WriterAction::Add { label, out } => add(g, label, out.as_deref()),
        WriterAction::List => list(g),
        WriterAction::Revoke { writer: spec } => {
            let repo: Repository<Unlocked> = g.open(Purpose::Writing)?;
            let _lock = repo.lock(LockKind::Exclusive, "writer revoke")?;
            let r = writer::revoke(&repo, spec)?;
            if g.json {
                return g.print_json(&r).map(|_| 0);
            }
            not_written(&r.not_written);
            g.say(format_args!(
                "revoked writer {} ({}); {}",
                escape(&r.label),
                &r.id[..8],
                match r.revoked_after_head {
                    Some(seq) => format!("its heads after {seq} are refused"),
                    None => "it had written no head".to_string(),
                }
            ));
            Ok(0)
        }
    }
}

fn add(g: &Global, label: &str, out: Option<&Path>) -> Result<u8> {
    let path = out.map_or_else(
        || PathBuf::from(format!("{label}.writer-key")),
        Path::to_path_buf,
    );
    // Refused before anything is written: the key exists only in this file.
    let mut file = create_private(&path)?;
    let result = g
        .open(Purpose::Writing)
        .and_then(|repo: Repository<Unlocked>| {
            let _lock = repo.lock(LockKind::Shared, "writer add")?;
            writer::add(&repo, label)
        });
    let (key, r) = match result {
        Ok(done) => done,
        Err(e) => {
            let _ = std::fs::remove_file(&path);
            return Err(e);
        }
    };
    let written = key.to_file_text().and_then(|text| {
        (file
            .write_all(text.as_bytes())
            .and_then(|_| file.sync_all()))
        .map_err(|e| Error::fatal(format!("writing the writer key to {}: {e}", path.display())))
    });
    if let Err(e) = written {
        // The grant is on the remotes, its key lost: say how to undo it.
        return Err(e.context(format!(
            "writer {label} was added but its key could not be saved: `tangle writer revoke {label}`"
        )));
    }
    if g.json {
        return g.print_json(&r).map(|_| 0);
    }
    not_written(&r.not_written);
    if r.config_upgraded {
        warn(
            "the repository is now format version 2 (writer keys): tangle binaries from before writer keys no longer open it",
        );
    }
    g.say(format_args!(
        "added writer {} ({}); its key is in {} (give it to that host only)",
        escape(&r.label),
        &r.id[..8],
        path.display()
    ));
    Ok(0)
}

fn list(g: &Global) -> Result<u8> {
    let repo: Repository<Public> = g.open(Purpose::Reading)?;
    let writers = writer::list(&repo)?;
    if g.json {
        return g.print_json(&writers).map(|_| 0);
    }
    line(format_args!(
        "{:<8}  {:<20}  {:<25}  Status",
        "ID", "Label", "Created"
    ))?;
    for w in &writers {
        line(format_args!(
            "{:<8}  {:<20}  {:<25}  {}",
            &w.id[..8],
            escape(&w.label),
            w.created,
            match (&w.revoked, w.revoked_after_head) {
                (None, _) => "active".to_string(),
                (Some(t), Some(seq)) => format!("revoked {t} (after head {seq})"),
                (Some(t), None) => format!("revoked {t}"),
            }
        ))?;
    }
    Ok(0)
}

fn not_written(failed: &[String]) {
    for n in failed {
        warn(format_args!(
            "the writer record is not on {n} yet: `tangle repair` copies it there"
        ));
    }
}

/// A new file readable by its owner only; an existing one is never overwritten.
fn create_private(path: &Path) -> Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => Error::usage(format!(
                "{} exists already: a writer key is never overwritten (give --out)",
                path.display()
            )),
            _ => Error::fatal(format!("cannot create {}: {e}", path.display())),
        })
}
