//! Opening the repository for a command, in the state the command needs: the type it
//! asks for says so (`let repo: Repository<Indexed> = g.open(Purpose::Reading)?`), and
//! the password is asked for only where that state holds the key.

use tangle::repo::{Indexed, OpenOptions, Public, Repository, Unlocked};
use tangle::{Error, Kind, Result};

use super::global::DEFAULT_PROFILE;
use super::profile_file;
use super::{Global, password, warn};

/// Whether the command writes to the repository.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// It writes nothing (restore, ls, find, diff, stats, dump, snapshots, cat): what
    /// opening and finding a snapshot list, one prefix after another, is listed at once
    /// first.
    Reading,
    /// It writes: every listing is made when it is needed, after the command's own
    /// writes before it.
    Writing,
}

/// What a command can open the repository as (see [`Global::open`]).
pub trait Opened: Sized {
    /// Whether the password is asked for (verify and repair never prompt).
    const KEY: bool;
    /// Whether the blob index is loaded.
    const INDEX: bool;
    fn from_public(g: &Global, repo: Repository<Public>) -> Result<Self>;
}

/// The owner's public key only: signed objects, locks of others.
impl Opened for Repository<Public> {
    const KEY: bool = false;
    const INDEX: bool = false;
    fn from_public(_: &Global, repo: Repository<Public>) -> Result<Self> {
        Ok(repo)
    }
}

/// The master key: snapshots, signing (a backup loads the part of the index it needs).
impl Opened for Repository<Unlocked> {
    const KEY: bool = true;
    const INDEX: bool = false;
    fn from_public(g: &Global, repo: Repository<Public>) -> Result<Self> {
        let pw = password::read(g, false)?;
        repo.unlock(pw.as_bytes())
    }
}

/// The master key and the whole blob index: reading and writing blobs.
impl Opened for Repository<Indexed> {
    const KEY: bool = true;
    const INDEX: bool = true;
    fn from_public(g: &Global, repo: Repository<Public>) -> Result<Self> {
        let pw = password::read(g, false)?;
        repo.unlock_and_load_index(pw.as_bytes())
    }
}

/// For `repair` and `remote list`, which work with the public key and do more with the
/// password: unlocked (with the index) only if a password is given non-interactively.
// One per process: boxing the larger variant would save nothing worth the indirection.
#[allow(clippy::large_enum_variant)]
pub enum MaybeUnlocked {
    Public(Repository<Public>),
    Indexed(Repository<Indexed>),
}

impl Opened for MaybeUnlocked {
    const KEY: bool = false;
    const INDEX: bool = false;
    fn from_public(g: &Global, repo: Repository<Public>) -> Result<Self> {
        if !password::given(g) {
            return Ok(MaybeUnlocked::Public(repo));
        }
        Repository::<Indexed>::from_public(g, repo).map(MaybeUnlocked::Indexed)
    }
}

/// For `verify`: [`MaybeUnlocked`], except that key files that cannot be read are damage
/// for verify to report, returned beside the repository opened with the public key (a
/// wrong password is still an error, exit 12).
pub struct ForVerify {
    pub repo: MaybeUnlocked,
    pub unlock_error: Option<Error>,
}

impl Opened for ForVerify {
    const KEY: bool = false;
    const INDEX: bool = false;
    fn from_public(g: &Global, repo: Repository<Public>) -> Result<Self> {
        if !password::given(g) {
            let repo = MaybeUnlocked::Public(repo);
            return Ok(ForVerify {
                repo,
                unlock_error: None,
            });
        }
        let pw = password::read(g, false)?;
        match repo.try_unlock(pw.as_bytes()) {
            Ok(unlocked) => Ok(ForVerify {
                repo: MaybeUnlocked::Indexed(unlocked.load_index()?),
                unlock_error: None,
            }),
            Err((_, e)) if e.kind() == Kind::WrongPassword => Err(e),
            Err((repo, e)) => Ok(ForVerify {
                repo: MaybeUnlocked::Public(repo),
                unlock_error: Some(e),
            }),
        }
    }
}

/// Run `$body` with `$repo` bound to the repository inside a [`MaybeUnlocked`], whichever
/// state it is in (the body is generic over it).
macro_rules! with_repo {
    ($opened:expr, |$repo:ident| $body:expr) => {
        match $opened {
            $crate::cli::open::MaybeUnlocked::Public($repo) => $body,
            $crate::cli::open::MaybeUnlocked::Indexed($repo) => $body,
        }
    };
}
pub(crate) use with_repo;

impl Global {
    /// Open the repository named by `-r`/`TANGLE_REPO` (else the first of the profile's
    /// remotes that opens) in the state `T` says the command needs, asking for the
    /// password only if it needs the key.
    pub fn open<T: Opened>(&self, purpose: Purpose) -> Result<T> {
        let opts = OpenOptions {
            cache_dir: self.cache_dir.clone(),
            owner: self
                .owner
                .as_deref()
                .map(tangle::repo::OwnerPin::parse)
                .transpose()?,
            remote_settings: self.remote_settings.clone(),
        };
        let mut repo = self.open_first(&opts)?;
        for f in repo.foreign_configs() {
            warn(format_args!("not trusted: {f}"));
        }
        repo.set_warning_handler(|m| warn(m));
        repo.set_lock_wait(self.retry_lock.unwrap_or_default());
        if purpose == Purpose::Reading && T::KEY {
            repo.list_ahead_for_reading(T::INDEX);
        }
        T::from_public(self, repo)
    }

    /// Open through `-r` (or `TANGLE_REPO`), else through the first of the profile's
    /// remotes that opens: one that is missing or unreachable is passed over with a
    /// warning. What says the repository itself is wrong (trust, usage) stops at once.
    fn open_first(&self, opts: &OpenOptions) -> Result<Repository<Public>> {
        let urls: Vec<&str> = match &self.repo {
            Some(url) => vec![url.as_str()],
            None => self.remotes.iter().map(String::as_str).collect(),
        };
        if urls.is_empty() {
            return Err(Error::new(
                Kind::RepoNotFound,
                format!(
                    "no repository given: use -r/--repo, set TANGLE_REPO, give [repository] remotes in a profile (-P NAME), or write them into the default profile {}{}",
                    profile_file::path_for(DEFAULT_PROFILE).map_or_else(
                        || "~/.config/tangle/default.toml".into(),
                        |p| p.display().to_string()
                    ),
                    super::restic::variables_hint(super::restic::REPOSITORY_VARS)
                ),
            ));
        }
        let mut failed: Vec<(String, Error)> = Vec::new();
        for url in &urls {
            match Repository::open_with(url, opts) {
                Ok(repo) => {
                    for (u, e) in &failed {
                        warn(format_args!("cannot open the repository through {u}: {e}"));
                    }
                    return Ok(repo);
                }
                Err(e) if urls.len() > 1 && passable(e.kind()) => failed.push((url.to_string(), e)),
                Err(e) => return Err(e),
            }
        }
        let kind = failed.first().map_or(Kind::RepoNotFound, |(_, e)| e.kind());
        let why: Vec<String> = failed.iter().map(|(u, e)| format!("{u}: {e}")).collect();
        Err(Error::new(
            kind,
            format!(
                "none of the profile's remotes opens the repository: {}",
                why.join("; ")
            ),
        ))
    }
}

/// Errors that concern one remote (gone, unreachable, damaged), so the next may work.
fn passable(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::RepoNotFound | Kind::NotFound | Kind::Fatal | Kind::Corrupt
    )
}
