//! A profile's backup hooks (rustic's and resticprofile's): commands run with `sh -c`
//! around `backup -P NAME` and `run`'s backup step.
//!
//! ```toml
//! [backup]                       # or in [backup.hooks], as rustic writes them
//! run-before = ["systemctl stop app", "pg_dumpall > /var/backups/all.sql"]
//! run-after = "curl -fsS https://hc-ping.com/UUID"
//! run-failed = "mail -s 'backup failed' me < /dev/null"
//! run-finally = ["systemctl start app"]
//! ```
//!
//! * `run-before`, in order; the first that fails (exit other than 0, killed, not
//!   started) ends the list and the backup does not happen: exit 1, then `run-failed`
//!   and `run-finally` run.
//! * `run-after` when the backup made its snapshot (exit 0 or 3), `run-failed` when it
//!   failed, `run-finally` always, last.
//! * Each list stops at its first failing command. A failing `run-after`, `run-failed`
//!   or `run-finally` command is a warning, and makes an exit of 0 or 3 into 1 (a more
//!   severe code stays: [`super::run::most_severe`]).
//! * The environment: `TANGLE_PROFILE` (the profile's name as given to `-P`),
//!   `TANGLE_HOOK` (`before`, `after`, `failed`, `finally`), `TANGLE_EXIT_CODE` (the
//!   backup's, for all but `before`), `TANGLE_SNAPSHOT_ID` (when a snapshot was written),
//!   `TANGLE_ERROR` (in `failed`: the error, as tangle prints it).
//! * A hook's stdout and stderr go to tangle's stderr (stdout stays for `--json`), its
//!   stdin is /dev/null (a `backup --stdin` stream is not theirs to read).

use std::io::Write;
use std::os::fd::AsFd;
use std::process::{Command, Stdio};

use serde_json::json;
use tangle::{Error, Result};

use super::Global;
use super::profile_file::CommandTable;
use super::settings::{Origin, Row};

/// The hook keys, in the order they run and `profile show` lists them.
pub const KEYS: [&str; 4] = ["run-before", "run-after", "run-failed", "run-finally"];

/// A profile's `[backup]` hooks: the commands of each key.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Hooks {
    pub before: Vec<String>,
    pub after: Vec<String>,
    pub failed: Vec<String>,
    pub finally: Vec<String>,
}

impl Hooks {
    /// Take the hook keys out of a `[backup]` table (kebab-case or snake_case, or in a
    /// `hooks` sub-table), leaving the rest to the backup's settings.
    pub fn take(table: &mut CommandTable) -> Result<Hooks> {
        let mut hooks = Hooks::default();
        let sub = match table.remove("hooks") {
            None => None,
            Some(toml::Value::Table(t)) => Some(t),
            Some(other) => {
                return Err(Error::usage(format!(
                    "[backup] hooks: {other} is not a table (give [backup.hooks] with \
                     run-before, run-after, run-failed, run-finally)"
                )));
            }
        };
        for key in KEYS {
            let snake = key.replace('-', "_");
            let mut found = Vec::new();
            for k in [key, snake.as_str()] {
                if let Some(v) = table.remove(k) {
                    found.push(("[backup]", v));
                }
                if let Some(v) = sub.as_ref().and_then(|t| t.get(k)) {
                    found.push(("[backup.hooks]", v.clone()));
                }
            }
            if found.len() > 1 {
                return Err(Error::usage(format!(
                    "[backup] {key}: given twice: keep one"
                )));
            }
            let Some((place, value)) = found.pop() else {
                continue;
            };
            let commands =
                commands(&value).map_err(|why| Error::usage(format!("{place} {key}: {why}")))?;
            *hooks.list_mut(key) = commands;
        }
        if let Some(t) = &sub {
            let known = |k: &str| KEYS.iter().any(|h| *h == k || h.replace('-', "_") == k);
            if let Some(k) = t.keys().find(|k| !known(k)) {
                return Err(Error::usage(format!(
                    "[backup.hooks]: unknown key `{k}`, expected one of {}",
                    KEYS.join(", ")
                )));
            }
        }
        Ok(hooks)
    }

    fn list_mut(&mut self, key: &str) -> &mut Vec<String> {
        match key {
            "run-before" => &mut self.before,
            "run-after" => &mut self.after,
            "run-failed" => &mut self.failed,
            _ => &mut self.finally,
        }
    }

    fn list(&self, key: &str) -> &[String] {
        match key {
            "run-before" => &self.before,
            "run-after" => &self.after,
            "run-failed" => &self.failed,
            _ => &self.finally,
        }
    }

    /// The rows of `profile show`.
    pub fn rows(&self) -> Vec<Row> {
        (KEYS.iter())
            .map(|k| {
                let list = self.list(k);
                Row {
                    key: k.to_string(),
                    value: json!(list),
                    origin: if list.is_empty() {
                        Origin::Default
                    } else {
                        Origin::Profile
                    },
                }
            })
            .collect()
    }
}

/// A hook key's value: a command, or a list of them (`[]`: none).
fn commands(v: &toml::Value) -> std::result::Result<Vec<String>, String> {
    let one = |v: &toml::Value| match v {
        toml::Value::String(s) if s.trim().is_empty() => {
            Err("an empty command (give none with [])".to_string())
        }
        toml::Value::String(s) => Ok(s.clone()),
        other => Err(format!("{other} is not a command (a string)")),
    };
    match v {
        toml::Value::Array(a) => a.iter().map(one).collect(),
        v => Ok(vec![one(v)?]),
    }
}

/// What the backup came to, for the hooks after it.
pub struct Outcome {
    pub exit_code: u8,
    pub snapshot_id: Option<String>,
}

/// Run `backup` between the profile's hooks; returns its value and the exit code (the
/// backup's, made 1 by a failing after, failed or finally hook). A failing `run-before`
/// is the error (exit 1), as is the backup's own.
pub fn around<T>(
    g: &Global,
    backup: impl FnOnce() -> Result<T>,
    outcome: impl Fn(&T) -> Outcome,
) -> Result<(T, u8)> {
    let hooks = (g.loaded.as_deref()).map_or_else(Hooks::default, |p| p.hooks.clone());
    let profile = g.profile.clone().unwrap_or_default();
    let env = |hook: &'static str| Env {
        profile: profile.clone(),
        hook,
        exit_code: None,
        snapshot_id: None,
        error: None,
    };
    let result = match run_list(&hooks.before, &env("before")) {
        Ok(()) => backup(),
        Err(why) => Err(Error::fatal(format!(
            "[backup] run-before: {why}: nothing was backed up"
        ))),
    };
    match result {
        Ok(value) => {
            let o = outcome(&value);
            let after = Env {
                exit_code: Some(o.exit_code),
                snapshot_id: o.snapshot_id,
                ..env("after")
            };
            let ok_after = report("run-after", run_list(&hooks.after, &after));
            let finally = Env {
                hook: "finally",
                ..after
            };
            let ok_finally = report("run-finally", run_list(&hooks.finally, &finally));
            let code = match ok_after && ok_finally {
                true => o.exit_code,
                false => super::run::most_severe(o.exit_code, 1),
            };
            Ok((value, code))
        }
        Err(e) => {
            let failed = Env {
                exit_code: Some(u8::try_from(e.kind().exit_code()).unwrap_or(1)),
                error: Some(e.to_string()),
                ..env("failed")
            };
            report("run-failed", run_list(&hooks.failed, &failed));
            let finally = Env {
                hook: "finally",
                error: None,
                ..failed
            };
            report("run-finally", run_list(&hooks.finally, &finally));
            Err(e)
        }
    }
}

/// A hook list's failure as a warning; whether it succeeded.
fn report(key: &str, r: std::result::Result<(), String>) -> bool {
    match r {
        Ok(()) => true,
        Err(why) => {
            super::warn(format_args!("[backup] {key}: {why}"));
            false
        }
    }
}

/// The environment a hook runs in.
struct Env {
    profile: String,
    hook: &'static str,
    exit_code: Option<u8>,
    snapshot_id: Option<String>,
    error: Option<String>,
}

/// Run each command in turn with `sh -c`, stopping at the first that fails: why it did.
fn run_list(commands: &[String], env: &Env) -> std::result::Result<(), String> {
    for c in commands {
        run_one(c, env).map_err(|why| format!("`{c}` {why}"))?;
    }
    Ok(())
}

fn run_one(command: &str, env: &Env) -> std::result::Result<(), String> {
    // Whatever tangle wrote before shows before what the hook writes.
    let _ = std::io::stderr().flush();
    let stdout = (std::io::stderr().as_fd().try_clone_to_owned())
        .map_err(|e| format!("could not be started: {e}"))?;
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .stdin(Stdio::null())
        .stdout(Stdio::from(stdout))
        .stderr(Stdio::inherit())
        .env("TANGLE_PROFILE", &env.profile)
        .env("TANGLE_HOOK", env.hook)
        .env_remove("TANGLE_EXIT_CODE")
        .env_remove("TANGLE_SNAPSHOT_ID")
        .env_remove("TANGLE_ERROR");
    if let Some(c) = env.exit_code {
        cmd.env("TANGLE_EXIT_CODE", c.to_string());
    }
    if let Some(id) = &env.snapshot_id {
        cmd.env("TANGLE_SNAPSHOT_ID", id);
    }
    if let Some(e) = &env.error {
        cmd.env("TANGLE_ERROR", e);
    }
    let status = cmd
        .status()
        .map_err(|e| format!("could not be started: {e}"))?;
    match (
        status.code(),
        std::os::unix::process::ExitStatusExt::signal(&status),
    ) {
        (Some(0), _) => Ok(()),
        (Some(c), _) => Err(format!("exited with {c}")),
        (None, Some(s)) => Err(format!("was killed by signal {s}")),
        (None, None) => Err(format!("ended with {status}")),
    }
}
