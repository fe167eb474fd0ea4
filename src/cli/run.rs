//! `tangle -P NAME run`: what a cron job or a systemd timer runs, borgmatic-style — the
//! profile's backup, then delete by its `[delete]` policy, then verify as its `[verify]`
//! says. Each step is the subcommand's own code (`backup::execute`, ...), given no flags:
//! its settings come from the environment, the profile and the defaults.
//!
//! A backup that could not read some files (exit 3) still wrote its snapshot, so the
//! later steps run; a backup that failed stops the run (there is nothing new to keep or
//! check). A failed delete does not keep verify from running; a delete refused because a
//! remote is away (an unplugged disk) is deferred to the next night, which is not a
//! failure: verify then reports the remote (20). The exit code is the most severe of the
//! steps' codes, in the order of [`SEVERITY`].

use clap::Args;
use serde::Serialize;
use serde_json::Value;
use tangle::{Error, Result};

use tangle::ops::delete::RemotesAway;

use super::{Global, backup, delete, verify};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tangle -P home run\n  tangle -P /etc/tangle/server.toml run --quiet"
)]
pub struct RunArgs {}

/// Exit codes, most severe first: what the repository is (a trust violation, lost data),
/// then a step that could not do its work (wrong password, no repository, any other
/// failure), then damage `repair` can fix, a repository busy with another command (the
/// next run will do it), a backup that skipped unreadable files, success. An
/// interruption stops the run at once.
pub const SEVERITY: [u8; 10] = [130, 22, 21, 12, 10, 1, 20, 11, 3, 0];

/// The more severe of two exit codes; a code not in [`SEVERITY`] counts as 1.
pub fn most_severe(a: u8, b: u8) -> u8 {
    let rank = |c: u8| {
        SEVERITY
            .iter()
            .position(|&s| s == c)
            .or_else(|| SEVERITY.iter().position(|&s| s == 1))
            .unwrap_or(0)
    };
    if rank(b) < rank(a) { b } else { a }
}

/// One step in `--json`: its report, or the error that ended it, or why it waits for
/// another night.
#[derive(Serialize)]
struct Step {
    step: &'static str,
    exit_code: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    report: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// A delete that did nothing because a remote was away: not a failure (exit 0 for
    /// the step); verify reports the remote.
    #[serde(skip_serializing_if = "Option::is_none")]
    deferred: Option<String>,
}

#[derive(Serialize)]
struct RunReport {
    profile: String,
    steps: Vec<Step>,
    exit_code: u8,
}

pub fn run(g: &Global, _a: &RunArgs) -> Result<u8> {
    // `--json` prints one object: no status lines from the backup step inside it.
    let mut quiet_status = g.clone();
    quiet_status.progress &= !g.json;
    let g = &quiet_status;
    let Some(p) = g.loaded.clone() else {
        return Err(Error::usage(
            "run does what a profile says: give one with -P NAME",
        ));
    };
    if p.backup.is_none() && p.delete.is_none() && p.verify.is_none() {
        return Err(Error::usage(format!(
            "profile {} has no [backup], [delete] or [verify] table: nothing to run",
            p.path.display()
        )));
    }
    let mut steps = Vec::new();
    let mut code = 0;
    let mut record = |step: &'static str, outcome: Result<(Value, u8)>| -> bool {
        let s = match outcome {
            Ok((report, exit_code)) => Step {
                step,
                exit_code,
                report: Some(report),
                error: None,
                deferred: None,
            },
            Err(e) if step == "delete" && RemotesAway::of(&e).is_some() => {
                let away = RemotesAway::of(&e)
                    .map(|a| a.0.join(", "))
                    .unwrap_or_default();
                let why = format!(
                    "remote {away} is away: delete changed nothing and runs again on the next \
                     night with every remote present ([delete] allow-degraded = true deletes \
                     anyway)"
                );
                super::warn(format_args!("delete deferred: {why}"));
                Step {
                    step,
                    exit_code: 0,
                    report: None,
                    error: None,
                    deferred: Some(why),
                }
            }
            Err(e) => {
                let exit_code = u8::try_from(e.kind().exit_code()).unwrap_or(1);
                // Also with --json: the log shows it where it happened.
                super::error(&e);
                Step {
                    step,
                    exit_code,
                    report: None,
                    error: Some(e.to_string()),
                    deferred: None,
                }
            }
        };
        code = most_severe(code, s.exit_code);
        let go_on = s.exit_code != 130 && (step != "backup" || s.error.is_none());
        steps.push(s);
        go_on
    };

    let mut go_on = true;
    if p.backup.is_some() {
        heading(g, "backup");
        go_on = record("backup", backup_step(g));
    }
    if go_on && p.delete.is_some() {
        heading(g, "delete");
        go_on = record("delete", delete_step(g));
    }
    if go_on && p.verify.is_some() {
        heading(g, "verify");
        record("verify", verify_step(g));
    }
    if g.json {
        g.print_json(&RunReport {
            profile: p.path.display().to_string(),
            steps,
            exit_code: code,
        })?;
    } else {
        let summary: Vec<String> = (steps.iter())
            .map(|s| format!("{} {}", s.step, s.exit_code))
            .collect();
        g.say(format_args!("\nrun: {} (exit {code})", summary.join(", ")));
    }
    Ok(code)
}

fn heading(g: &Global, step: &str) {
    g.say(format_args!("== {step}"));
}

fn to_json<T: Serialize>(report: &T) -> Result<Value> {
    serde_json::to_value(report).map_err(|e| Error::fatal(format!("JSON output: {e}")))
}

/// The backup between the profile's hooks ([`super::hooks`]).
fn backup_step(g: &Global) -> Result<(Value, u8)> {
    let args = backup::unflagged(g)?.args;
    let (r, code) = super::hooks::around(
        g,
        || {
            let r = backup::execute(g, &args)?;
            if !g.json {
                backup::print(g, &r)?;
            }
            Ok(r)
        },
        backup::outcome,
    )?;
    Ok((to_json(&r)?, code))
}

fn delete_step(g: &Global) -> Result<(Value, u8)> {
    let r = delete::execute(g, &delete::unflagged(g)?.args)?;
    // Under -q the run prints nothing when all is well (cron mails only trouble), so
    // not even delete's list of decisions.
    if !g.json && !g.quiet {
        delete::print(g, &r)?;
    }
    Ok((to_json(&r)?, 0))
}

fn verify_step(g: &Global) -> Result<(Value, u8)> {
    let r = verify::execute(g, &verify::unflagged(g)?.args)?;
    if !g.json {
        verify::print(g, &r)?;
    }
    Ok((to_json(&r)?, r.exit_code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severity_order() {
        assert_eq!(most_severe(0, 3), 3);
        assert_eq!(most_severe(3, 20), 20);
        assert_eq!(most_severe(20, 1), 1);
        assert_eq!(most_severe(11, 20), 20);
        assert_eq!(most_severe(1, 22), 22);
        assert_eq!(most_severe(22, 21), 22);
        assert_eq!(most_severe(3, 99), 99);
        assert_eq!(most_severe(130, 22), 130);
    }
}
