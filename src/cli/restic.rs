//! restic's habits that tangle names otherwise: its commands (without the table, clap
//! offers its nearest name: `prune` got `run` before tangle had a `prune`) and its
//! environment variables (`RESTIC_REPOSITORY` set, `TANGLE_REPO` not). One table each: a
//! command that lands in tangle leaves [`COMMANDS`] (a test fails while an entry names a
//! command), and docs/FROM-RESTIC.md lists the same.

use std::fmt::Write as _;

use clap::error::{ContextKind, ContextValue, ErrorKind};

/// restic's commands that are not tangle commands, and where to go instead.
const COMMANDS: &[(&str, &str)] = &[
    (
        "check",
        "restic's `check` is `tangle verify` (needs no password; --read-data and \
         --read-data-subset as in restic)",
    ),
    (
        "forget",
        "restic's `forget` is `tangle delete SNAPSHOT...` or `tangle delete --keep-...`, which \
         also reclaims the space, as `forget --prune` does",
    ),
    (
        "generate",
        "shell completions are `tangle completions SHELL`; the man pages are in docs/man/",
    ),
    (
        "recover",
        "tangle has no `recover`: `tangle verify` reports what is lost, `tangle repair` \
         rebuilds what can be rebuilt",
    ),
    (
        "list",
        "tangle has no `list`: `tangle snapshots`, `tangle key list` and `tangle cat` show the \
         repository's objects",
    ),
    ("migrate", "tangle has no `migrate`"),
    (
        "self-update",
        "tangle has no `self-update`: install a new version as you installed this one",
    ),
    (
        "cache",
        "tangle has no `cache` command: the cache is the directory of --cache-dir (default \
         ~/.cache/tangle)",
    ),
];

/// restic's environment variables and the names tangle reads instead.
const VARIABLES: &[(&str, &str)] = &[
    ("RESTIC_REPOSITORY", "TANGLE_REPO"),
    ("RESTIC_REPOSITORY_FILE", "TANGLE_REPO"),
    ("RESTIC_PASSWORD", "TANGLE_PASSWORD"),
    ("RESTIC_PASSWORD_FILE", "TANGLE_PASSWORD_FILE"),
    ("RESTIC_PASSWORD_COMMAND", "TANGLE_PASSWORD_COMMAND"),
];

/// Where a restic command name leads in tangle, if it is one of [`COMMANDS`].
fn tip_for(command: &str) -> Option<String> {
    let (_, tip) = COMMANDS.iter().find(|(c, _)| *c == command)?;
    Some(format!("{tip}; see docs/FROM-RESTIC.md"))
}

/// clap's error for an unknown top-level command, with the tip for restic's name in
/// place of clap's nearest command; other errors as they are.
pub fn unknown_command(e: clap::Error, cmd: &mut clap::Command) -> clap::Error {
    if e.kind() != ErrorKind::InvalidSubcommand {
        return e;
    }
    let Some(ContextValue::String(name)) = e.get(ContextKind::InvalidSubcommand) else {
        return e;
    };
    // Only at the top: `tangle key check` is not restic's `check`.
    let usage = match e.get(ContextKind::Usage) {
        Some(ContextValue::StyledStr(u)) if u.to_string() == cmd.render_usage().to_string() => {
            u.clone()
        }
        _ => return e,
    };
    let Some(tip) = tip_for(name) else {
        return e;
    };
    let mut err = clap::Error::new(ErrorKind::InvalidSubcommand).with_cmd(cmd);
    err.insert(
        ContextKind::InvalidSubcommand,
        ContextValue::String(name.clone()),
    );
    err.insert(
        ContextKind::Suggested,
        ContextValue::StyledStrs(vec![tip.into()]),
    );
    err.insert(ContextKind::Usage, ContextValue::StyledStr(usage));
    err
}

/// `, RESTIC_X is set, but tangle reads TANGLE_X (see docs/FROM-RESTIC.md)` for those
/// of `restic_vars` that are set, or nothing: for an error saying that tangle found no
/// repository or no password.
pub fn variables_hint(restic_vars: &[&str]) -> String {
    let mut hint = String::new();
    for (restic, tangle) in VARIABLES.iter().filter(|(r, _)| restic_vars.contains(r)) {
        if std::env::var_os(restic).is_some() {
            let _ = write!(hint, "; {restic} is set, but tangle reads {tangle}");
        }
    }
    if !hint.is_empty() {
        hint.push_str(" (see docs/FROM-RESTIC.md)");
    }
    hint
}

/// The variables of the repository and of the password.
pub const REPOSITORY_VARS: &[&str] = &["RESTIC_REPOSITORY", "RESTIC_REPOSITORY_FILE"];
pub const PASSWORD_VARS: &[&str] = &[
    "RESTIC_PASSWORD",
    "RESTIC_PASSWORD_FILE",
    "RESTIC_PASSWORD_COMMAND",
];

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    /// No entry names a tangle command (a command that lands leaves the table), and
    /// every `tangle WORD` a tip names is one.
    #[test]
    fn the_table_leads_to_commands_that_exist() {
        let cmd = super::super::Cli::command();
        let exists = |name: &str| cmd.get_subcommands().any(|c| c.get_name() == name);
        for (restic, tip) in COMMANDS {
            assert!(
                !exists(restic),
                "`tangle {restic}` exists now: remove it from the restic table"
            );
            for named in tip.split("`tangle ").skip(1) {
                let word = named.split([' ', '`']).next().unwrap_or_default();
                assert!(
                    word.starts_with('-') || exists(word),
                    "the tip for {restic} names `tangle {word}`, which does not exist"
                );
            }
        }
        for v in REPOSITORY_VARS.iter().chain(PASSWORD_VARS) {
            assert!(VARIABLES.iter().any(|(r, _)| r == v), "{v}");
        }
    }

    #[test]
    fn restic_names_get_their_tip_and_nothing_else_changes() {
        let mut cmd = super::super::Cli::command();
        let parse = |args: &[&str]| match super::super::Cli::command().try_get_matches_from(args) {
            Err(e) => e,
            Ok(_) => panic!("{args:?} parsed"),
        };
        let e = unknown_command(parse(&["tangle", "forget"]), &mut cmd);
        let text = e.render().to_string();
        assert!(text.contains("unrecognized subcommand 'forget'"), "{text}");
        assert!(text.contains("`tangle delete"), "{text}");
        assert!(!text.contains("similar subcommand"), "{text}");
        // Not at the top, or not restic's: clap's own message.
        for args in [&["tangle", "key", "check"][..], &["tangle", "snapshotz"]] {
            let before = parse(args).render().to_string();
            let after = unknown_command(parse(args), &mut cmd).render().to_string();
            assert_eq!(before, after, "{args:?}");
        }
    }
}
