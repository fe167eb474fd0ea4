//! Applying a profile (`-P NAME`) to the command line, and `tangle profile show`.
//!
//! Every setting is taken from the first of: a flag, an environment variable
//! (`TANGLE_*`), the profile, the default. Which flags and variables were given is
//! read from clap's matches ([`Given`]); the command modules then fill what was not
//! given from their profile table (`BackupArgs::with_profile`, ...), key by key.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, FromArgMatches, Subcommand};
use serde::Serialize;
use serde_json::{Value, json};
use tangle::profile::{Profile, is_secret, world_readable};
use tangle::repo::{OpenOptions, Repository};
use tangle::{Error, Kind, Result};

use super::{Global, backup, delete, line, verify, warn};

/// Where a setting came from, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    Flag,
    Env,
    Profile,
    Default,
}

impl Origin {
    fn name(self) -> &'static str {
        match self {
            Origin::Flag => "flag",
            Origin::Env => "env",
            Origin::Profile => "profile",
            Origin::Default => "default",
        }
    }
}

/// The arguments given on the command line or through the environment, by clap id
/// (the field name: `password_file`, `keep_daily`), for the command and its globals.
#[derive(Clone, Default, Debug)]
pub struct Given(BTreeMap<String, Origin>);

impl Given {
    /// From the matches of the whole command line (subcommands included).
    pub fn from_matches(m: &ArgMatches) -> Given {
        let mut given = Given::default();
        given.collect(m);
        given
    }

    fn collect(&mut self, m: &ArgMatches) {
        for id in m.ids() {
            let origin = match m.value_source(id.as_str()) {
                Some(ValueSource::CommandLine) => Origin::Flag,
                Some(ValueSource::EnvVariable) => Origin::Env,
                _ => continue,
            };
            self.0.insert(id.as_str().to_string(), origin);
        }
        if let Some((_, sub)) = m.subcommand() {
            self.collect(sub);
        }
    }

    /// Whether the argument with this id was given (flag or environment).
    pub fn has(&self, id: &str) -> bool {
        self.0.contains_key(id)
    }

    pub fn origin(&self, id: &str) -> Option<Origin> {
        self.0.get(id).copied()
    }
}

/// A command's arguments as if given with no flags (clap's defaults and the
/// environment), for `tangle run` and `profile show`.
pub fn defaults<T: Args + FromArgMatches>(name: &'static str) -> Result<(T, Given)> {
    let m = T::augment_args(clap::Command::new(name))
        .try_get_matches_from([name])
        .map_err(|e| Error::usage(e.to_string()))?;
    let args = T::from_arg_matches(&m).map_err(|e| Error::usage(e.to_string()))?;
    Ok((args, Given::from_matches(&m)))
}

/// Load `-P NAME` and fill the global settings the flags and the environment left
/// open; warn about secrets anyone may read.
/// The profile used when a command names no repository (no `-r`, `TANGLE_REPO` or
/// `-P`): `default`, if its file exists — as rustic loads `rustic.toml`. The quick start
/// writes it.
pub const DEFAULT_PROFILE: &str = "default";

/// Name the [`DEFAULT_PROFILE`] when nothing else names the repository and its file
/// exists. A `-r` always wins: the default profile's password and settings belong to its
/// own repository, not to another one named on the command line.
pub fn default_when_unnamed(g: &mut Global) {
    if g.profile.is_some() || g.repo.is_some() {
        return;
    }
    if tangle::profile::path_for(DEFAULT_PROFILE).is_some_and(|p| p.is_file()) {
        g.profile = Some(DEFAULT_PROFILE.to_string());
    }
}

pub fn apply(g: &mut Global) -> Result<()> {
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
        if !super::password::given(g) {
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
        g.remote_settings = p.remote_settings()?;
        g.loaded = Some(std::sync::Arc::new(p));
    }
    g.password_command_timeout = password_command_timeout(g.loaded.as_deref())?;
    if let Some(f) = &g.password_file {
        if world_readable(f) {
            warn(format_args!(
                "password file {} can be read by every user: chmod 600 {}",
                f.display(),
                f.display()
            ));
        }
    }
    // Checked once for every command, not only those that open a repository: a pin
    // that pins nothing must not pass unnoticed (`profile show` would print it).
    if let Some(owner) = &g.owner {
        tangle::repo::OwnerPin::parse(owner)?;
    }
    Ok(())
}

/// The environment variable that sets how long the password command may run.
pub const PASSWORD_COMMAND_TIMEOUT_ENV: &str = "TANGLE_PASSWORD_COMMAND_TIMEOUT";

/// `TANGLE_PASSWORD_COMMAND_TIMEOUT` (unless empty), else the profile's
/// `password-command-timeout`, else none (the default).
fn password_command_timeout(p: Option<&Profile>) -> Result<Option<std::time::Duration>> {
    if let Some(v) = std::env::var_os(PASSWORD_COMMAND_TIMEOUT_ENV).filter(|v| !v.is_empty()) {
        let text = v.to_str().ok_or_else(|| {
            Error::usage(format!(
                "{PASSWORD_COMMAND_TIMEOUT_ENV}: not a number of seconds"
            ))
        })?;
        return (tangle::profile::parse_seconds(text))
            .map(Some)
            .map_err(|e| e.context(PASSWORD_COMMAND_TIMEOUT_ENV));
    }
    let Some(p) = p else { return Ok(None) };
    (p.repository.password_command_timeout.as_deref())
        .map(tangle::profile::parse_seconds)
        .transpose()
        .map_err(|e| {
            e.context(format_args!(
                "profile {}: [repository] password-command-timeout",
                p.path.display()
            ))
        })
}

/// Open through `-r` (or `TANGLE_REPO`), else through the first of the profile's
/// remotes that opens: one that is missing or unreachable is passed over with a
/// warning. What says the repository itself is wrong (trust, usage) stops at once.
pub fn open_first(g: &Global, opts: &OpenOptions) -> Result<Repository> {
    let urls: Vec<&str> = match &g.repo {
        Some(url) => vec![url.as_str()],
        None => g.remotes.iter().map(String::as_str).collect(),
    };
    if urls.is_empty() {
        return Err(Error::new(
            Kind::RepoNotFound,
            format!(
                "no repository given: use -r/--repo, set TANGLE_REPO, give [repository] remotes in a profile (-P NAME), or write them into the default profile {}{}",
                tangle::profile::path_for(DEFAULT_PROFILE).map_or_else(
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

/// Errors that concern one remote (gone, unreachable, damaged), so the next may work.
fn passable(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::RepoNotFound | Kind::NotFound | Kind::Fatal | Kind::Corrupt
    )
}

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  tangle -P home profile show\n  tangle -P /etc/tangle/server.toml profile show --json"
)]
pub struct ProfileArgs {
    #[command(subcommand)]
    pub action: ProfileAction,
}

#[derive(Subcommand)]
pub enum ProfileAction {
    /// Print the effective settings (flags, environment, profile, defaults) and where
    /// each comes from; secrets are shown as ***
    Show,
}

pub fn run(g: &Global, a: &ProfileArgs) -> Result<u8> {
    match a.action {
        ProfileAction::Show => show(g),
    }
}

/// One effective setting.
struct Setting {
    key: String,
    value: Value,
    origin: Origin,
}

/// A table of settings: `repository`, `remote."URL"`, `backup`, `delete`, `verify`.
type Table = (String, Vec<Setting>);

fn show(g: &Global) -> Result<u8> {
    let tables = effective(g)?;
    let path = (g.loaded.as_ref()).map(|p| p.path.display().to_string());
    if g.json {
        let mut out = serde_json::Map::new();
        for (name, settings) in &tables {
            let mut t = serde_json::Map::new();
            for s in settings {
                t.insert(
                    s.key.clone(),
                    json!({ "value": s.value, "source": s.origin }),
                );
            }
            out.insert(name.clone(), Value::Object(t));
        }
        g.print_json(&json!({ "profile": path, "settings": out }))?;
        return Ok(0);
    }
    match &path {
        Some(p) => line(format_args!("# profile {p}"))?,
        None => line("# no profile (-P NAME)")?,
    }
    for (name, settings) in &tables {
        line(format_args!("\n[{name}]"))?;
        let width = settings.iter().map(|s| s.key.len()).max().unwrap_or(0);
        for s in settings {
            let value = match &s.value {
                Value::Null => "(not set)".to_string(),
                v => v.to_string(),
            };
            line(format_args!(
                "{:<width$} = {value:<30}  # {}",
                s.key,
                s.origin.name()
            ))?;
        }
    }
    Ok(0)
}

/// The effective settings, secrets masked.
fn effective(g: &Global) -> Result<Vec<Table>> {
    let p = g.loaded.as_deref();
    let origin = |id: &str, in_profile: bool| {
        g.given.origin(id).unwrap_or(if in_profile {
            Origin::Profile
        } else {
            Origin::Default
        })
    };
    let mut repo = Vec::new();
    let set = |key: &str, value: Value, origin: Origin| Setting {
        key: key.to_string(),
        value,
        origin,
    };
    let remotes: Vec<&str> = match &g.repo {
        Some(r) => vec![r.as_str()],
        None => g.remotes.iter().map(String::as_str).collect(),
    };
    repo.push(set(
        "remotes",
        json!(remotes),
        origin("repo", !g.remotes.is_empty()),
    ));
    let pr = p.map(|p| &p.repository);
    // A flag clears the environment's file or command at apply, so this is reached
    // only when no flag gave a password source.
    let password_env = std::env::var_os("TANGLE_PASSWORD").is_some();
    if let Some(f) = &g.password_file {
        let o = origin(
            "password_file",
            pr.is_some_and(|r| r.password_file.is_some()),
        );
        repo.push(set("password-file", json!(f), o));
    } else if let Some(c) = &g.password_command {
        let o = origin(
            "password_command",
            pr.is_some_and(|r| r.password_command.is_some()),
        );
        repo.push(set("password-command", json!(c), o));
    } else if password_env {
        repo.push(set("password", json!("***"), Origin::Env));
    } else if g.password.is_some() {
        repo.push(set("password", json!("***"), Origin::Profile));
    } else {
        repo.push(set("password", Value::Null, Origin::Default));
    }
    let timeout_origin =
        if std::env::var_os(PASSWORD_COMMAND_TIMEOUT_ENV).is_some_and(|v| !v.is_empty()) {
            Origin::Env
        } else if pr.is_some_and(|r| r.password_command_timeout.is_some()) {
            Origin::Profile
        } else {
            Origin::Default
        };
    let timeout = (g.password_command_timeout).unwrap_or(super::password::COMMAND_TIMEOUT);
    repo.push(set(
        "password-command-timeout",
        if timeout.subsec_nanos() == 0 {
            json!(timeout.as_secs())
        } else {
            json!(timeout.as_secs_f64())
        },
        timeout_origin,
    ));
    repo.push(set(
        "owner",
        json!(g.owner),
        origin("owner", pr.is_some_and(|r| r.owner.is_some())),
    ));
    repo.push(set(
        "cache-dir",
        json!(g.cache_dir),
        origin("cache_dir", pr.is_some_and(|r| r.cache_dir.is_some())),
    ));
    let mut tables = vec![("repository".to_string(), repo)];

    for (url, settings) in p.map(|p| &p.remote).into_iter().flatten() {
        let rows = (settings.iter())
            .map(|(k, v)| {
                let value = if is_secret(k) {
                    json!("***")
                } else {
                    serde_json::to_value(v).unwrap_or(Value::Null)
                };
                set(k, value, Origin::Profile)
            })
            .collect();
        tables.push((format!("remote.{url:?}"), rows));
    }

    // Command tables: what `tangle run` would use (no flags, the environment, the
    // profile, the defaults).
    if let Some(s) = p.and_then(|p| p.backup.as_ref()) {
        let (a, given) = defaults::<backup::BackupArgs>("backup")?;
        let a = a.with_profile(Some(s), &given)?;
        let o = |id: &str, set_here: bool| {
            given.origin(id).unwrap_or(if set_here {
                Origin::Profile
            } else {
                Origin::Default
            })
        };
        tables.push((
            "backup".into(),
            vec![
                set("sources", json!(a.paths), o("paths", !s.sources.is_empty())),
                set(
                    "exclude",
                    json!(a.excludes),
                    o("excludes", !s.exclude.is_empty()),
                ),
                set(
                    "exclude-file",
                    json!(a.exclude_files),
                    o("exclude_files", !s.exclude_file.is_empty()),
                ),
                set("tags", json!(a.tags), o("tags", !s.tags.is_empty())),
                set("host", json!(a.host), o("host", s.host.is_some())),
                set(
                    "allow-stale",
                    json!(a.allow_stale),
                    o("allow_stale", s.allow_stale.is_some()),
                ),
                set(
                    "upload-queue",
                    json!(a.upload_queue),
                    o("upload_queue", s.upload_queue.is_some()),
                ),
            ],
        ));
    }
    if let Some(s) = p.and_then(|p| p.delete.as_ref()) {
        let (a, given) = defaults::<delete::DeleteArgs>("delete")?;
        let a = a.with_profile(Some(s), &given)?;
        let o = |set_here: bool| {
            if set_here {
                Origin::Profile
            } else {
                Origin::Default
            }
        };
        let count = |v: Option<u32>| match v {
            Some(tangle::ops::delete::policy::UNLIMITED) => json!("unlimited"),
            v => json!(v),
        };
        tables.push((
            "delete".into(),
            vec![
                set("keep-last", count(a.keep_last), o(s.keep_last.is_some())),
                set(
                    "keep-hourly",
                    count(a.keep_hourly),
                    o(s.keep_hourly.is_some()),
                ),
                set("keep-daily", count(a.keep_daily), o(s.keep_daily.is_some())),
                set(
                    "keep-weekly",
                    count(a.keep_weekly),
                    o(s.keep_weekly.is_some()),
                ),
                set(
                    "keep-monthly",
                    count(a.keep_monthly),
                    o(s.keep_monthly.is_some()),
                ),
                set(
                    "keep-yearly",
                    count(a.keep_yearly),
                    o(s.keep_yearly.is_some()),
                ),
                set(
                    "keep-within",
                    json!(a.keep_within.map(|w| w.to_string())),
                    o(s.keep_within.is_some()),
                ),
                set("keep-tag", json!(a.keep_tag), o(!s.keep_tag.is_empty())),
                set("group-by", json!(a.group_by), o(s.group_by.is_some())),
                set("host", json!(a.host), o(!s.host.is_empty())),
                set("tag", json!(a.tag), o(!s.tag.is_empty())),
                set(
                    "max-unused",
                    json!(s.max_unused.as_deref().unwrap_or("5%")),
                    o(s.max_unused.is_some()),
                ),
                set(
                    "allow-degraded",
                    json!(a.allow_degraded),
                    o(s.allow_degraded.is_some()),
                ),
            ],
        ));
    }
    if let Some(s) = p.and_then(|p| p.verify.as_ref()) {
        let (a, given) = defaults::<verify::VerifyArgs>("verify")?;
        let a = a.with_profile(Some(s), &given);
        let o = |set_here: bool| {
            if set_here {
                Origin::Profile
            } else {
                Origin::Default
            }
        };
        tables.push((
            "verify".into(),
            vec![
                set("read-data", json!(a.read_data), o(s.read_data.is_some())),
                set(
                    "read-data-subset",
                    json!(a.read_data_subset),
                    o(s.read_data_subset.is_some()),
                ),
                set("seed", json!(a.seed), o(s.seed.is_some())),
            ],
        ));
    }
    Ok(tables)
}
