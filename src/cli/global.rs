//! The global options: [`GlobalArgs`] as clap parses them, and [`Global`], what every
//! command runs with once the environment, the profile (`-P NAME`, or the default
//! profile) and the defaults are resolved into it ([`Global::resolve`]). Opening the
//! repository through it is in [`super::open`].

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use tangle::{Error, Result};

use super::profile_file::{self, Profile, world_readable};
use super::settings::{Given, Origin};
use super::{password, warn};

#[derive(Args, Clone)]
#[command(next_help_heading = "Global options")]
pub struct GlobalArgs {
    /// Repository: any one of its remotes (a path, file://, s3:// or sftp:// URL)
    #[arg(short = 'r', long = "repo", env = "TANGLE_REPO", global = true)]
    pub repo: Option<String>,
    /// Profile: the repository, password, per-remote settings and the settings of
    /// backup, delete and verify, from ~/.config/tangle/NAME.toml (without -P, -r and
    /// TANGLE_REPO: the profile `default`, if it exists)
    #[arg(short = 'P', long = "profile", value_name = "NAME", global = true)]
    pub profile: Option<String>,
    /// Read the password from this file (first line)
    #[arg(long, env = "TANGLE_PASSWORD_FILE", global = true, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
    /// Run this shell command and use its output as the password
    #[arg(
        long,
        env = "TANGLE_PASSWORD_COMMAND",
        global = true,
        value_name = "COMMAND"
    )]
    pub password_command: Option<String>,
    /// Machine-readable output on stdout (and fatal errors as JSON on stderr)
    #[arg(long, global = true)]
    pub json: bool,
    /// Print only errors
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// More detail (repeat for more)
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// Never draw progress bars
    #[arg(long, global = true, conflicts_with = "progress")]
    pub no_progress: bool,
    /// Show progress even when stderr is not a terminal; with --json, `backup` prints
    /// status lines (`"message_type": "status"`) on stdout while it runs
    #[arg(long, global = true)]
    pub progress: bool,
    /// Local cache directory (default: $XDG_CACHE_HOME/tangle or ~/.cache/tangle)
    #[arg(long, env = "TANGLE_CACHE_DIR", global = true, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Trust only this owner key (its fingerprint, as `init` prints it); for CI jobs
    /// without a cache. Else the owner the cache pinned at init or first open is trusted
    #[arg(long, env = "TANGLE_OWNER", global = true, value_name = "FINGERPRINT")]
    pub owner: Option<String>,
    /// Wait up to this long for a conflicting lock (another command writing) to go, e.g.
    /// `10m` or `1h`; without it a busy repository is an error at once (exit 11)
    #[arg(
        long,
        env = "TANGLE_RETRY_LOCK",
        global = true,
        value_name = "DURATION",
        value_parser = tangle::util::parse_duration
    )]
    pub retry_lock: Option<Duration>,
    /// Upload at most this many KiB/s, over all remotes together
    #[arg(long, env = "TANGLE_LIMIT_UPLOAD", global = true, value_name = "KIB_PER_S", value_parser = parse_limit)]
    pub limit_upload: Option<u64>,
    /// Download at most this many KiB/s, over all remotes together
    #[arg(long, env = "TANGLE_LIMIT_DOWNLOAD", global = true, value_name = "KIB_PER_S", value_parser = parse_limit)]
    pub limit_download: Option<u64>,
}

/// A bandwidth limit in KiB/s: a whole number of 1 or more.
fn parse_limit(s: &str) -> std::result::Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(0) => Err("0 would move nothing: give 1 or more KiB/s".to_string()),
        Ok(n) if n > u64::MAX / 1024 => Err("too large".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err("want a whole number of KiB/s, like 1024".to_string()),
    }
}

/// The global settings after flags, environment, profile and defaults: what commands
/// read. Made once, by [`Global::resolve`].
#[derive(Clone)]
pub struct Global {
    /// `-r`/`TANGLE_REPO`: opened instead of the profile's remotes.
    pub repo: Option<String>,
    /// `-P`, or the default profile's name when it applies.
    pub profile: Option<String>,
    /// The profile's `[repository] remotes`: opened (first reachable) when no `-r`.
    pub remotes: Vec<String>,
    /// The password file: the flag, else the environment, else the profile's.
    pub password_file: Option<PathBuf>,
    /// The password command, likewise.
    pub password_command: Option<String>,
    /// The profile's `[repository] password`, if it keeps one.
    pub password: Option<String>,
    /// Which repository the password sources are for (their variable, the prompt).
    pub password_names: password::Names,
    /// How long the password command may run: `TANGLE_PASSWORD_COMMAND_TIMEOUT`, else
    /// the profile's `password-command-timeout` (else 60 s).
    pub password_command_timeout: Option<Duration>,
    pub json: bool,
    pub quiet: bool,
    pub verbose: u8,
    pub no_progress: bool,
    pub progress: bool,
    pub cache_dir: Option<PathBuf>,
    pub owner: Option<String>,
    pub retry_lock: Option<Duration>,
    /// `--limit-upload` / `--limit-download` (KiB/s), else the profile's.
    pub limit_upload: Option<u64>,
    pub limit_download: Option<u64>,
    /// Per-remote settings from the profile (passed to every remote opened).
    pub remote_settings: tangle::remote::SettingsByUrl,
    /// Which arguments the command line or the environment gave (they beat the profile).
    pub given: Given,
    /// The profile of `-P`, once loaded.
    pub loaded: Option<Arc<Profile>>,
}

/// The profile used when a command names no repository (no `-r`, `TANGLE_REPO` or
/// `-P`): `default`, if its file exists — as rustic loads `rustic.toml`. The quick start
/// writes it.
pub const DEFAULT_PROFILE: &str = "default";

/// The environment variable that sets how long the password command may run.
pub const PASSWORD_COMMAND_TIMEOUT_ENV: &str = "TANGLE_PASSWORD_COMMAND_TIMEOUT";

impl Global {
    /// Resolve the global options: the flags and environment in `a` (which of them were
    /// given: `given`), then the profile (loaded, its command tables checked by `check`),
    /// then the defaults. `default_profile`: whether this command reads the
    /// [`DEFAULT_PROFILE`] when nothing names the repository.
    pub fn resolve(
        a: GlobalArgs,
        given: Given,
        default_profile: bool,
        check: impl Fn(&Profile) -> Result<()>,
    ) -> Result<Global> {
        let mut g = Global {
            repo: a.repo,
            profile: a.profile,
            remotes: Vec::new(),
            password_file: a.password_file,
            password_command: a.password_command,
            password: None,
            password_names: password::REPOSITORY,
            password_command_timeout: None,
            json: a.json,
            quiet: a.quiet,
            verbose: a.verbose,
            no_progress: a.no_progress,
            progress: a.progress,
            cache_dir: a.cache_dir,
            owner: a.owner,
            retry_lock: a.retry_lock,
            limit_upload: a.limit_upload,
            limit_download: a.limit_download,
            remote_settings: Default::default(),
            given,
            loaded: None,
        };
        // A `-r` always wins: the default profile's password and settings belong to its
        // own repository, not to another one named on the command line.
        if default_profile
            && g.profile.is_none()
            && g.repo.is_none()
            && profile_file::path_for(DEFAULT_PROFILE).is_some_and(|p| p.is_file())
        {
            g.profile = Some(DEFAULT_PROFILE.to_string());
        }
        // A password source on the command line beats one in the environment, whatever
        // their kinds (`--password-command` over `TANGLE_PASSWORD_FILE`).
        let flag = |id: &str| g.given.origin(id) == Some(Origin::Flag);
        if flag("password_file") || flag("password_command") {
            if !flag("password_file") {
                g.password_file = None;
            }
            if !flag("password_command") {
                g.password_command = None;
            }
        }
        if let Some(name) = g.profile.clone() {
            let p = Profile::load(&name)?;
            check(&p).map_err(|e| e.context(format_args!("profile {}", p.path.display())))?;
            let secrets = p.secrets();
            if !secrets.is_empty() && world_readable(&p.path) {
                warn(format_args!(
                    "profile {} holds secrets ({}) and every user can read it: chmod 600 {}",
                    p.path.display(),
                    secrets.join(", "),
                    p.path.display()
                ));
            }
            let r = &p.repository;
            g.remotes = r.remotes.clone();
            if !password::given(&g) {
                g.password_file = r.password_file.as_ref().map(PathBuf::from);
                g.password_command = r.password_command.clone();
                g.password = r.password.clone();
            }
            if g.cache_dir.is_none() {
                g.cache_dir = r.cache_dir.as_ref().map(PathBuf::from);
            }
            if g.owner.is_none() {
                g.owner = r.owner.clone();
            }
            let limit = |key: &str, v: &Option<String>| -> Result<Option<u64>> {
                (v.as_deref().map(parse_limit).transpose()).map_err(|e| {
                    Error::usage(format!(
                        "profile {}: [repository] {key}: {e}",
                        p.path.display()
                    ))
                })
            };
            if g.limit_upload.is_none() {
                g.limit_upload = limit("limit-upload", &r.limit_upload)?;
            }
            if g.limit_download.is_none() {
                g.limit_download = limit("limit-download", &r.limit_download)?;
            }
            g.remote_settings = p.remote_settings()?;
            g.loaded = Some(Arc::new(p));
        }
        g.password_command_timeout = password_command_timeout(g.loaded.as_deref())?;
        if let Some(f) = &g.password_file
            && world_readable(f)
        {
            warn(format_args!(
                "password file {} can be read by every user: chmod 600 {}",
                f.display(),
                f.display()
            ));
        }
        // Checked once for every command, not only those that open a repository: a pin
        // that pins nothing must not pass unnoticed (`profile show` would print it).
        if let Some(owner) = &g.owner {
            tangle::repo::OwnerPin::parse(owner)?;
        }
        // For every remote this process opens, whichever command opens it.
        tangle::remote::set_bandwidth_limits(tangle::remote::BandwidthLimits {
            upload: g.limit_upload.map(|k| k * 1024),
            download: g.limit_download.map(|k| k * 1024),
        });
        Ok(g)
    }

    pub fn show_progress(&self) -> bool {
        use std::io::IsTerminal;
        !self.no_progress
            && !self.quiet
            && !self.json
            && (self.progress || std::io::stderr().is_terminal())
    }

    /// A human status line, unless `--quiet` or `--json`. Never fails: a write error is
    /// remembered for `main` (a closed pipe ends the run quietly, see
    /// [`super::stdout_closed`]), so commands need not thread errors through every
    /// message.
    pub fn say(&self, msg: impl std::fmt::Display) {
        if !self.quiet && !self.json {
            let _ = super::line(msg);
        }
    }

    /// The `--json` report: one pretty-printed value and a newline.
    pub fn print_json<T: serde::Serialize>(&self, value: &T) -> Result<()> {
        let mut s = serde_json::to_string_pretty(value)
            .map_err(|e| Error::fatal(format!("JSON output: {e}")))?;
        s.push('\n');
        super::write_stdout(s.as_bytes())
    }
}

/// `TANGLE_PASSWORD_COMMAND_TIMEOUT` (unless empty), else the profile's
/// `password-command-timeout`, else none (the default).
fn password_command_timeout(p: Option<&Profile>) -> Result<Option<Duration>> {
    if let Some(v) = std::env::var_os(PASSWORD_COMMAND_TIMEOUT_ENV).filter(|v| !v.is_empty()) {
        let text = v.to_str().ok_or_else(|| {
            Error::usage(format!(
                "{PASSWORD_COMMAND_TIMEOUT_ENV}: not a number of seconds"
            ))
        })?;
        return (profile_file::parse_seconds(text))
            .map(Some)
            .map_err(|e| e.context(PASSWORD_COMMAND_TIMEOUT_ENV));
    }
    let Some(p) = p else { return Ok(None) };
    (p.repository.password_command_timeout.as_deref())
        .map(profile_file::parse_seconds)
        .transpose()
        .map_err(|e| {
            e.context(format_args!(
                "profile {}: [repository] password-command-timeout",
                p.path.display()
            ))
        })
}
