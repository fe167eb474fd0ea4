//! `tangle profile show`: the effective settings and where each comes from.

use clap::Subcommand;
use serde_json::{Value, json};
use tangle::Result;

use super::global::PASSWORD_COMMAND_TIMEOUT_ENV;
use super::profile_file::{RepositorySection, is_secret};
use super::settings::{Origin, Row};
use super::{Global, line};

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

/// A table of settings: `repository`, `remote."URL"`, `backup`, `delete`, `verify`.
type Table = (String, Vec<Row>);

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
    let set = |key: &str, value: Value, origin: Origin| Row {
        key: key.to_string(),
        value,
        origin,
    };
    // A setting whose origin the flag or environment of the same name gives, else the
    // profile if `in_profile`, else the default.
    let given = |key: &str, value: Value, in_profile: bool| {
        set(key, value, origin(&key.replace('-', "_"), in_profile))
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
    // The profile's `[repository]` table (an empty one without a profile).
    let no_section = RepositorySection::default();
    let pr = p.map_or(&no_section, |p| &p.repository);
    // A flag clears the environment's file or command at apply, so this is reached
    // only when no flag gave a password source.
    let password_env = std::env::var_os("TANGLE_PASSWORD").is_some();
    if let Some(f) = &g.password_file {
        repo.push(given("password-file", json!(f), pr.password_file.is_some()));
    } else if let Some(c) = &g.password_command {
        repo.push(given(
            "password-command",
            json!(c),
            pr.password_command.is_some(),
        ));
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
        } else if pr.password_command_timeout.is_some() {
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
    for (key, value, in_profile) in [
        ("owner", json!(g.owner), pr.owner.is_some()),
        ("cache-dir", json!(g.cache_dir), pr.cache_dir.is_some()),
        (
            "limit-upload",
            json!(g.limit_upload),
            pr.limit_upload.is_some(),
        ),
        (
            "limit-download",
            json!(g.limit_download),
            pr.limit_download.is_some(),
        ),
    ] {
        repo.push(given(key, value, in_profile));
    }
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
    for (name, rows) in super::profile_tables(g)? {
        tables.push((name.to_string(), rows));
    }
    Ok(tables)
}
