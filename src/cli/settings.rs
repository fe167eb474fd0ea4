//! One definition per setting, and the precedence: flag > environment > profile > default.
//!
//! A command's settings are the fields of its clap `Args` struct, declared through
//! [`settings!`]: the field's doc comment is its `--help`, its `#[arg]` its flag (and
//! environment variable), and the same field is the profile key of the command's table
//! (`[backup]`, ...), kebab-case with the snake_case spelling also accepted, and the row
//! of `profile show`. A profile value is read by handing it to the flag's own parser (as
//! `--upload-queue=4`), so the command line and the profile accept the same things.
//!
//! Resolving is done once per command ([`resolve`]): what the command line or the
//! environment gave ([`Given`], read from clap's matches) stays, the profile fills what
//! they left open, key by key, the default the rest. The result, [`Resolved`], holds the
//! settings and where each came from; commands build the library's options from it, and
//! `profile show` prints it.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, FromArgMatches};
use serde::Serialize;
use serde_json::Value;
use tangle::{Error, Result};

use super::profile_file::{CommandTable, Profile};

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
    pub fn name(self) -> &'static str {
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

    /// Settings that are one (`verify --read-data` and `--read-data-subset`: how much
    /// to read): when one of `ids` is given, all of them count as given.
    pub fn joined(&self, ids: &[&str]) -> Given {
        let mut out = self.clone();
        if let Some(origin) = ids.iter().find_map(|id| self.origin(id)) {
            for id in ids {
                out.0.entry(id.to_string()).or_insert(origin);
            }
        }
        out
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

/// A command's settings struct, declared with [`settings!`].
pub trait Settings: Args + FromArgMatches + Clone + 'static {
    /// The profile's table: `backup` for `[backup]`.
    const SECTION: &'static str;
    /// The fields, in the order of the struct (and of `profile show`).
    fn fields() -> Vec<Field<Self>>;
}

/// One field of a settings struct: its profile key, how a profile value is checked, how
/// it is copied and shown. Made by [`settings!`] from the field; the options after `=>`
/// in the field's declaration are the methods of [`Spec`].
pub struct Field<S> {
    /// The clap id (the field's name).
    pub id: &'static str,
    /// The profile key (kebab-case).
    pub key: String,
    aliases: Vec<String>,
    cli_only: bool,
    checks: Vec<Check>,
    take: Take<S>,
    show: Box<dyn Fn(&S) -> Value>,
}

type Check = Box<dyn Fn(&str) -> std::result::Result<(), String>>;
/// Copies the field from the second value into the first.
type Take<S> = Box<dyn Fn(&mut S, &S)>;

/// The typed form of a [`Field`], with the options a declaration can give.
pub struct Spec<S, T> {
    id: &'static str,
    key: Option<&'static str>,
    aliases: Vec<&'static str>,
    cli_only: bool,
    checks: Vec<Check>,
    get: fn(&S) -> &T,
    get_mut: fn(&mut S) -> &mut T,
    show: fn(&T) -> Value,
}

fn to_json<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

impl<S: 'static, T: Clone + Serialize + 'static> Spec<S, T> {
    pub fn new(id: &'static str, get: fn(&S) -> &T, get_mut: fn(&mut S) -> &mut T) -> Self {
        Spec {
            id,
            key: None,
            aliases: Vec::new(),
            cli_only: false,
            checks: Vec::new(),
            get,
            get_mut,
            show: to_json::<T>,
        }
    }

    /// The profile key, when it is not the field's name in kebab-case.
    pub fn key(mut self, key: &'static str) -> Self {
        self.key = Some(key);
        self
    }

    /// Another name the profile may use for the key (besides its snake_case spelling).
    pub fn alias(mut self, alias: &'static str) -> Self {
        self.aliases.push(alias);
        self
    }

    /// A flag only: not in the profile, not shown (`--dry-run`, the PATHs of a command).
    pub fn cli_only(mut self) -> Self {
        self.cli_only = true;
        self
    }

    /// A check of each profile value beyond the flag's parser (for a flag that takes any
    /// text and is checked when the command runs, such as `--group-by`).
    pub fn check<R: 'static, E: std::fmt::Display + 'static>(
        mut self,
        f: fn(&str) -> std::result::Result<R, E>,
    ) -> Self {
        self.checks.push(Box::new(move |t: &str| {
            f(t).map(|_| ()).map_err(|e| e.to_string())
        }));
        self
    }

    /// How `profile show` prints the value (default: as JSON).
    pub fn show(mut self, f: fn(&T) -> Value) -> Self {
        self.show = f;
        self
    }
}

impl<S: 'static, T: Clone + Serialize + 'static> From<Spec<S, T>> for Field<S> {
    fn from(s: Spec<S, T>) -> Field<S> {
        let (get, get_mut, show) = (s.get, s.get_mut, s.show);
        let key = s.key.map_or_else(|| s.id.replace('_', "-"), str::to_string);
        let mut aliases: Vec<String> = s.aliases.iter().map(|a| a.to_string()).collect();
        if key.contains('-') {
            aliases.push(key.replace('-', "_"));
        }
        Field {
            id: s.id,
            key,
            aliases,
            cli_only: s.cli_only,
            checks: s.checks,
            take: Box::new(move |to: &mut S, from: &S| *get_mut(to) = get(from).clone()),
            show: Box::new(move |from: &S| show(get(from))),
        }
    }
}

impl<S> Field<S> {
    fn named(&self, key: &str) -> bool {
        !self.cli_only && (self.key == key || self.aliases.iter().any(|a| a == key))
    }
}

/// Declare a command's settings: its clap `Args` struct, each field one setting (flag,
/// environment variable, profile key, `profile show` row). After a field's type, `=>`
/// and options of [`Spec`] may follow: `key("sources")`, `alias("tag")`,
/// `cli_only()`, `check(parser)`, `show(function)`.
///
/// ```ignore
/// settings! {
///     section "backup";
///     #[derive(Args, Clone)]
///     pub struct BackupArgs {
///         /// Back up even if the repository is older than this client last saw it
///         #[arg(long)]
///         pub allow_stale: bool,
///     }
/// }
/// ```
macro_rules! settings {
    (
        section $section:literal;
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                $fvis:vis $field:ident : $ty:ty $(=> $opt:ident $args:tt $(. $opts:ident $more:tt)*)?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $($(#[$fmeta])* $fvis $field: $ty,)*
        }

        impl $crate::cli::settings::Settings for $name {
            const SECTION: &'static str = $section;
            fn fields() -> Vec<$crate::cli::settings::Field<Self>> {
                vec![$(
                    $crate::cli::settings::Spec::<Self, $ty>::new(
                        stringify!($field),
                        |s| &s.$field,
                        |s| &mut s.$field,
                    )
                    $(.$opt $args $(.$opts $more)*)?
                    .into(),
                )*]
            }
        }
    };
}
pub(crate) use settings;

/// A command's settings after flags, environment, profile and defaults, and where each
/// came from.
#[derive(Clone)]
pub struct Resolved<T> {
    pub args: T,
    origins: Vec<(&'static str, Origin)>,
}

/// One row of `profile show`.
pub struct Row {
    pub key: String,
    pub value: Value,
    pub origin: Origin,
}

impl<T: Settings> Resolved<T> {
    /// The settings the profile may give, in order, each with its value and origin.
    pub fn rows(&self) -> Vec<Row> {
        let fields = T::fields();
        (fields.iter().filter(|f| !f.cli_only))
            .map(|f| Row {
                key: f.key.clone(),
                value: (f.show)(&self.args),
                origin: (self.origins.iter())
                    .find(|(id, _)| *id == f.id)
                    .map_or(Origin::Default, |(_, o)| *o),
            })
            .collect()
    }
}

/// `flags` (parsed with `given`) with what `given` lacks taken from the profile's table
/// for `T`, key by key, where `takes(id)` (a command may take only some keys, as
/// `delete` takes its policy only when no snapshots or `--keep-*` are given).
pub fn resolve<T: Settings>(
    profile: Option<&Profile>,
    flags: &T,
    given: &Given,
    takes: impl Fn(&str) -> bool,
) -> Result<Resolved<T>> {
    let mut args = flags.clone();
    let table = profile.and_then(|p| p.command_table(T::SECTION));
    let layer = table.map(from_profile::<T>).transpose()?;
    let mut origins = Vec::new();
    for f in T::fields().iter().filter(|f| !f.cli_only) {
        let origin = match (given.origin(f.id), &layer) {
            (Some(o), _) => o,
            (None, Some((values, present))) if present.contains(f.id) && takes(f.id) => {
                (f.take)(&mut args, values);
                Origin::Profile
            }
            _ => Origin::Default,
        };
        origins.push((f.id, origin));
    }
    Ok(Resolved { args, origins })
}

/// Check a profile's table for `T`: every key known, every value accepted by its flag.
pub fn check<T: Settings>(table: &CommandTable) -> Result<()> {
    from_profile::<T>(table).map(|_| ())
}

/// The profile's table as `T`'s values and the ids of the keys it sets. Each value goes
/// through its flag's parser: the table is turned into a command line (`--tag=a
/// --tag=b`, `--allow-stale`, `-- /home`) and parsed by clap, without the environment.
fn from_profile<T: Settings>(table: &CommandTable) -> Result<(T, BTreeSet<&'static str>)> {
    let section = T::SECTION;
    let fields = T::fields();
    let command = T::augment_args(clap::Command::new(section))
        .mut_args(|a| a.env(None).requires(clap::builder::Resettable::Reset));
    let mut present = BTreeSet::new();
    let mut options: Vec<OsString> = Vec::new();
    let mut positional: Vec<OsString> = Vec::new();
    for (key, value) in table {
        let Some(f) = fields.iter().find(|f| f.named(key)) else {
            let known: Vec<&str> = (fields.iter())
                .filter(|f| !f.cli_only)
                .map(|f| f.key.as_str())
                .collect();
            return Err(Error::usage(format!(
                "[{section}]: unknown key `{key}`, expected one of {}",
                known.join(", ")
            )));
        };
        // The parser's words may already name the key (`read-data-subset "4/3": ...`).
        let named = |why: String| {
            if why.starts_with(f.key.as_str()) {
                Error::usage(format!("[{section}] {why}"))
            } else {
                Error::usage(format!("[{section}] {}: {why}", f.key))
            }
        };
        if !present.insert(f.id) {
            return Err(named("given twice".into()));
        }
        let arg = (command.get_arguments())
            .find(|a| a.get_id() == f.id)
            .ok_or_else(|| named("no such flag".into()))?;
        let texts = if !arg.get_action().takes_values() {
            match value {
                toml::Value::Boolean(true) => vec![],
                toml::Value::Boolean(false) => continue,
                other => return Err(named(format!("{other} is not true or false"))),
            }
        } else if matches!(arg.get_action(), clap::ArgAction::Append) {
            list(value).map_err(named)?
        } else {
            vec![scalar(value).map_err(named)?]
        };
        for t in &texts {
            for c in &f.checks {
                c(t).map_err(named)?;
            }
        }
        if texts.is_empty() && arg.get_action().takes_values() {
            // An empty list sets nothing: the default (none) stays.
            present.remove(f.id);
            continue;
        }
        let argv: Vec<OsString> = match arg.get_long() {
            _ if arg.is_positional() => texts.iter().map(OsString::from).collect(),
            Some(long) if texts.is_empty() => vec![format!("--{long}").into()],
            Some(long) => (texts.iter())
                .map(|t| format!("--{long}={t}").into())
                .collect(),
            None => return Err(named("no long flag".into())),
        };
        // Each key alone first, so that an error names it.
        let mut one: Vec<OsString> = vec![section.into()];
        if arg.is_positional() {
            one.push("--".into());
        }
        one.extend(argv.iter().cloned());
        (command.clone().try_get_matches_from(one)).map_err(|e| named(clap_reason(&e)))?;
        if arg.is_positional() {
            positional.extend(argv);
        } else {
            options.extend(argv);
        }
    }
    // Then all of them: flags that exclude each other must not both be set.
    let mut all: Vec<OsString> = vec![section.into()];
    all.extend(options);
    if !positional.is_empty() {
        all.push("--".into());
        all.extend(positional);
    }
    let parse = |m: std::result::Result<ArgMatches, clap::Error>| {
        m.and_then(|m| T::from_arg_matches(&m)).map_err(|e| {
            let why = conflict(&e, &command, &fields).unwrap_or_else(|| clap_reason(&e));
            Error::usage(format!("[{section}]: {why}"))
        })
    };
    Ok((parse(command.clone().try_get_matches_from(all))?, present))
}

/// Two keys whose flags exclude each other, in the profile's words: `read-data and
/// read-data-subset exclude each other`.
fn conflict<S>(e: &clap::Error, command: &clap::Command, fields: &[Field<S>]) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    let key = |kind: ContextKind| {
        let ContextValue::String(flag) = e.get(kind)? else {
            return None;
        };
        let long = flag.split_whitespace().next()?.strip_prefix("--")?;
        let arg = (command.get_arguments()).find(|a| a.get_long() == Some(long))?;
        let f = fields.iter().find(|f| arg.get_id() == f.id)?;
        Some(f.key.clone())
    };
    let (a, b) = (key(ContextKind::InvalidArg)?, key(ContextKind::PriorArg)?);
    Some(format!("{a} and {b} exclude each other"))
}

/// Why clap refused a value: its parser's own words, else clap's first line.
fn clap_reason(e: &clap::Error) -> String {
    if let Some(source) = std::error::Error::source(e) {
        return source.to_string();
    }
    let rendered = e.render().to_string();
    let first = rendered.lines().next().unwrap_or_default();
    first.strip_prefix("error: ").unwrap_or(first).to_string()
}

/// A scalar as text: `keep-daily = 7` and `keep-daily = "7"` mean the same, as on the
/// command line.
fn scalar(v: &toml::Value) -> std::result::Result<String, String> {
    match v {
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Float(f) => Ok(f.to_string()),
        toml::Value::Boolean(b) => Ok(b.to_string()),
        other => Err(format!("{other} is not a single value")),
    }
}

/// A list of strings, or one string for a list of one (`tags = "home"`).
fn list(v: &toml::Value) -> std::result::Result<Vec<String>, String> {
    match v {
        toml::Value::String(s) => Ok(vec![s.clone()]),
        toml::Value::Array(items) => (items.iter())
            .map(|i| match i {
                toml::Value::String(s) => Ok(s.clone()),
                other => Err(format!("{other} is not a string")),
            })
            .collect(),
        other => Err(format!("{other} is not a string or a list of strings")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::backup::BackupArgs;
    use crate::cli::verify::VerifyArgs;

    /// Parsed as the command line `argv` would be, with what it gave.
    fn flags<T: Settings>(argv: &[&str]) -> (T, Given) {
        let m = T::augment_args(clap::Command::new(T::SECTION))
            .try_get_matches_from(argv)
            .unwrap();
        (T::from_arg_matches(&m).unwrap(), Given::from_matches(&m))
    }

    fn origin<T: Settings>(r: &Resolved<T>, key: &str) -> Origin {
        r.rows()
            .into_iter()
            .find(|row| row.key == key)
            .unwrap()
            .origin
    }

    #[test]
    fn flag_beats_profile_beats_default_key_by_key() {
        let p = Profile::parse(
            "[backup]\nsources = \"/home\"\nexclude_file = [\"/ex\"]\ntag = [\"p\"]\nallow-stale = true\nupload-queue = 4",
        )
        .unwrap();
        let (a, given) = flags::<BackupArgs>(&["backup", "--tag", "f", "/src"]);
        let r = resolve(Some(&p), &a, &given, |_| true).unwrap();
        assert_eq!(r.args.paths, [std::path::PathBuf::from("/src")]);
        assert_eq!(r.args.tags, ["f"]);
        assert_eq!(r.args.exclude_files, [std::path::PathBuf::from("/ex")]);
        assert!(r.args.allow_stale);
        assert_eq!(r.args.upload_queue, Some(4));
        assert!(r.args.excludes.is_empty());
        assert_eq!(origin(&r, "sources"), Origin::Flag);
        assert_eq!(origin(&r, "tags"), Origin::Flag);
        assert_eq!(origin(&r, "exclude-file"), Origin::Profile);
        assert_eq!(origin(&r, "exclude"), Origin::Default);
        // The rows: every profile key in order, no --dry-run.
        let keys: Vec<String> = r.rows().into_iter().map(|row| row.key).collect();
        let want = [
            "sources",
            "exclude",
            "exclude-file",
            "iexclude",
            "iexclude-file",
            "exclude-caches",
            "exclude-if-present",
            "exclude-larger-than",
            "one-file-system",
            "files-from",
            "files-from-verbatim",
            "files-from-raw",
            "tags",
            "host",
            "allow-stale",
            "upload-queue",
            "writer-key",
        ];
        assert_eq!(keys, want);
        // Without a profile: the flags and the defaults.
        let r = resolve(None, &a, &given, |_| true).unwrap();
        assert!(!r.args.allow_stale && r.args.upload_queue.is_none());
        // A key the command does not take stays at its default.
        let r = resolve(Some(&p), &a, &given, |id| id != "upload_queue").unwrap();
        assert_eq!(r.args.upload_queue, None);
        assert_eq!(origin(&r, "upload-queue"), Origin::Default);
    }

    #[test]
    fn joined_settings_are_given_together() {
        let p = Profile::parse("[verify]\nread-data-subset = \"2%\"\nseed = 9").unwrap();
        let (a, given) = flags::<VerifyArgs>(&["verify", "--read-data"]);
        let given = given.joined(&["read_data", "read_data_subset"]);
        let r = resolve(Some(&p), &a, &given, |_| true).unwrap();
        assert!(r.args.read_data);
        assert_eq!(r.args.read_data_subset, None);
        assert_eq!(r.args.seed, Some(9));
    }

    #[test]
    fn profile_values_go_through_the_flags_parsers() {
        let table = |text: &str| {
            Profile::parse(text)
                .unwrap()
                .command_table("backup")
                .cloned()
                .unwrap()
        };
        assert!(check::<BackupArgs>(&table("[backup]\nupload-queue = \"8\"")).is_ok());
        let e = check::<BackupArgs>(&table("[backup]\nupload-queue = 65")).unwrap_err();
        assert!(e.message().starts_with("[backup] upload-queue: "), "{e}");
        let e = check::<BackupArgs>(&table("[backup]\ndry-run = true")).unwrap_err();
        assert!(e.message().contains("unknown key `dry-run`"), "{e}");
        let e = check::<BackupArgs>(&table("[backup]\ntags = \"a\"\ntag = \"b\"")).unwrap_err();
        assert!(e.message().contains("given twice"), "{e}");
    }
}
