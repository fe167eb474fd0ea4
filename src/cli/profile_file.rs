//! Profiles (`-P NAME`): a TOML file with everything a cron job needs — the repository's
//! remotes and password, per-remote settings, and one table per command (rustic's style,
//! kebab-case keys) — so that `tangle -P NAME run` needs no other argument.
//!
//! ```toml
//! # ~/.config/tangle/NAME.toml
//! [repository]
//! remotes = ["/mnt/usb/tangle", "s3://bucket/tangle"]  # opened through the first reachable
//! password-file = "/root/.config/tangle/password"     # or password-command = "pass show x"
//! # password-command-timeout = 60                    # seconds before the command is killed
//! # owner = "63ac7238604ea1f8fa7c70d4d1c6f36f"        # pins the owner key
//! # cache-dir = "/var/cache/tangle"
//!
//! [remote."s3://bucket/tangle"]
//! endpoint = "https://s3.example.net"        # or any AWS_* name: AWS_ENDPOINT = "..."
//! region = "eu-west-1"
//! access_key_id = "AKIA..."
//! secret_access_key = "..."
//! # allow_http = true, virtual_hosted_style = true, profile = "aws-profile-name"
//!
//! [remote."sftp://backup@nas/srv/backup"]
//! ssh_command = "ssh -F /root/.ssh/backup_config"
//! upload_queue = 8    # extents this remote may fall behind by (default: backup's --upload-queue)
//! timeout = 30        # seconds of silence per operation (per 4 MiB moved) before the remote
//!                     # counts as stalled for the rest of the command (default 120)
//!
//! [backup]            # every `backup` flag; `sources` when no PATH is given
//! sources = ["/home/me"]
//! exclude = ["*.tmp"]
//! run-before = ["pg_dumpall > /var/backups/all.sql"]  # hooks: see `super::hooks`
//! [delete]            # every `delete` policy flag and max-unused
//! keep-daily = 7
//! [verify]            # read-data, read-data-subset (2%, 1/7 or 500M), seed
//! read-data-subset = "2%"
//! ```
//!
//! The top-level keys of the first profile format (`repo`, `password_file`,
//! `password_command`, `cache_dir`, also kebab-case) are still accepted.
//!
//! This file reads the document: `[repository]` and the `[remote."URL"]` tables here;
//! the command tables are kept as written and read by the command's settings struct
//! (`BackupArgs`, ... through [`super::settings`]), whose flags' parsers check every
//! value, so that the command line and the profile accept the same things. `cli::run`
//! checks them when the profile is loaded.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer};

use tangle::{Error, Result};

/// A command's table (`[backup]`, ...), as written: its keys are read by the command's
/// settings struct ([`super::settings::Settings`]).
pub type CommandTable = toml::Table;

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Profile {
    /// The file it was read from (not a key).
    #[serde(skip)]
    pub path: PathBuf,
    #[serde(default)]
    pub repository: RepositorySection,
    /// Per-remote settings, keyed by URL (see [`Profile::remote_settings`]).
    #[serde(default)]
    pub remote: BTreeMap<String, BTreeMap<String, toml::Value>>,
    pub backup: Option<CommandTable>,
    /// `[backup]`'s hook keys, taken out of the table at load (see [`super::hooks`]).
    #[serde(skip)]
    pub hooks: super::hooks::Hooks,
    pub delete: Option<CommandTable>,
    pub verify: Option<CommandTable>,
    // The first format's top-level keys, folded into `repository` at load.
    #[serde(default)]
    repo: Option<String>,
    #[serde(default, alias = "password_file")]
    password_file: Option<String>,
    #[serde(default, alias = "password_command")]
    password_command: Option<String>,
    #[serde(default, alias = "cache_dir")]
    cache_dir: Option<String>,
}

/// `[repository]`: where the repository is and how to open it.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RepositorySection {
    /// The repository's remotes; commands open through the first reachable one, `init`
    /// creates over all of them.
    #[serde(default, deserialize_with = "list")]
    pub remotes: Vec<String>,
    #[serde(default, alias = "password_file")]
    pub password_file: Option<String>,
    #[serde(default, alias = "password_command")]
    pub password_command: Option<String>,
    /// Seconds the password command may run before it is killed (default 60), whichever
    /// source gave the command.
    #[serde(default, deserialize_with = "text", alias = "password_command_timeout")]
    pub password_command_timeout: Option<String>,
    /// The password itself (warned about when the profile is world-readable).
    #[serde(default)]
    pub password: Option<String>,
    #[serde(default)]
    pub owner: Option<String>,
    #[serde(default, alias = "cache_dir")]
    pub cache_dir: Option<String>,
    /// KiB/s (`--limit-upload`, `--limit-download`).
    #[serde(default, deserialize_with = "text", alias = "limit_upload")]
    pub limit_upload: Option<String>,
    #[serde(default, deserialize_with = "text", alias = "limit_download")]
    pub limit_download: Option<String>,
}

/// A scalar as text: `keep-daily = 7` and `keep-daily = "7"` mean the same, as on the
/// command line.
fn text<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Scalar {
        S(String),
        I(i64),
        F(f64),
        B(bool),
    }
    Ok(Option::<Scalar>::deserialize(d)?.map(|s| match s {
        Scalar::S(s) => s,
        Scalar::I(i) => i.to_string(),
        Scalar::F(f) => f.to_string(),
        Scalar::B(b) => b.to_string(),
    }))
}

/// A list, or one string for a list of one (`tags = "home"`).
fn list<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(s) => vec![s],
        OneOrMany::Many(v) => v,
    })
}

pub use tangle::remote::RemoteSettings;

/// The most a profile file may hold (1 MiB).
pub const PROFILE_LIMIT: u64 = 1024 * 1024;

/// Where `-P NAME` is looked for: a path if NAME contains `/` or ends in `.toml`, else
/// `$XDG_CONFIG_HOME/tangle/NAME.toml` or `~/.config/tangle/NAME.toml`.
pub fn path_for(name: &str) -> Option<PathBuf> {
    if name.contains('/') || name.ends_with(".toml") {
        return Some(PathBuf::from(name));
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("tangle").join(format!("{name}.toml")))
}

/// Whether a setting holds a secret, to be shown as `***`: anything named like a
/// secret, password or token, except where the password comes from (a file, a command)
/// and how long its command may take.
pub fn is_secret(key: &str) -> bool {
    let k = key.to_ascii_lowercase().replace('_', "-");
    if k == "password-file"
        || k == "password-command"
        || k == "password-command-timeout"
        || k == "writer-key"
    {
        return false;
    }
    // Azure's `account_key` / `sas_key` and Google's `service_account_key` are secrets too.
    k.ends_with("-key")
        || ["secret", "password", "passphrase", "token", "credential"]
            .iter()
            .any(|w| k.contains(w))
}

/// Whether anyone on the machine may read the file (mode `o+r`).
pub fn world_readable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o004 != 0)
}

impl Profile {
    pub fn load(name: &str) -> Result<Profile> {
        use std::io::Read;
        let path = path_for(name)
            .ok_or_else(|| Error::usage("cannot find the profile directory (no HOME)"))?;
        let cannot_read = |e: &dyn std::fmt::Display| {
            Error::usage(format!(
                "profile {name}: cannot read {}: {e}",
                path.display()
            ))
        };
        // No more than the limit is read, whatever the file is (`/dev/zero`, a FIFO).
        let mut bytes = Vec::new();
        std::fs::File::open(&path)
            .and_then(|f| f.take(PROFILE_LIMIT + 1).read_to_end(&mut bytes))
            .map_err(|e| cannot_read(&e))?;
        if bytes.len() as u64 > PROFILE_LIMIT {
            return Err(Error::usage(format!(
                "profile {name}: {} is larger than 1 MiB, the most a profile may hold",
                path.display()
            )));
        }
        let text = String::from_utf8(bytes).map_err(|_| cannot_read(&"not UTF-8 text"))?;
        let mut profile = Profile::parse(&text)
            .map_err(|e| e.context(format_args!("profile {}", path.display())))?;
        profile.path = path;
        Ok(profile)
    }

    /// A command's table (`backup`, `delete`, `verify`), if the profile has it.
    pub fn command_table(&self, section: &str) -> Option<&CommandTable> {
        match section {
            "backup" => self.backup.as_ref(),
            "delete" => self.delete.as_ref(),
            "verify" => self.verify.as_ref(),
            _ => None,
        }
    }

    /// Parse and check a profile's text (the command tables are checked by
    /// `cli::check_profile_tables`).
    pub fn parse(text: &str) -> Result<Profile> {
        let mut p: Profile = toml::from_str(text).map_err(|e| Error::usage(e.to_string()))?;
        if let Some(table) = p.backup.as_mut() {
            p.hooks = super::hooks::Hooks::take(table)?;
        }
        p.fold_first_format()?;
        p.check()?;
        Ok(p)
    }

    /// Move the first format's top-level keys into `[repository]`.
    fn fold_first_format(&mut self) -> Result<()> {
        let r = &mut self.repository;
        let twice = |key: &str| {
            Error::usage(format!(
                "`{key}` is given both at the top and in [repository]: keep one"
            ))
        };
        if let Some(repo) = self.repo.take() {
            if !r.remotes.is_empty() {
                return Err(twice("repo"));
            }
            r.remotes.push(repo);
        }
        for (old, new, key) in [
            (
                &mut self.password_file,
                &mut r.password_file,
                "password-file",
            ),
            (
                &mut self.password_command,
                &mut r.password_command,
                "password-command",
            ),
            (&mut self.cache_dir, &mut r.cache_dir, "cache-dir"),
        ] {
            if let Some(v) = old.take() {
                if new.is_some() {
                    return Err(twice(key));
                }
                *new = Some(v);
            }
        }
        Ok(())
    }

    /// Every value through the parser its flag uses, so mistakes show at load.
    fn check(&self) -> Result<()> {
        let r = &self.repository;
        let sources = [
            r.password.is_some(),
            r.password_file.is_some(),
            r.password_command.is_some(),
        ];
        if sources.iter().filter(|s| **s).count() > 1 {
            return Err(Error::usage(
                "[repository]: give only one of password, password-file and password-command",
            ));
        }
        if let Some(o) = &r.owner {
            tangle::repo::OwnerPin::parse(o).map_err(|e| e.context("[repository] owner"))?;
        }
        if let Some(t) = &r.password_command_timeout {
            parse_seconds(t).map_err(|e| e.context("[repository] password-command-timeout"))?;
        }
        self.remote_settings()?;
        Ok(())
    }

    /// What in this profile should not be readable by everyone, if it is: the password,
    /// or secret remote settings (`secret_access_key`, ...). Names the keys.
    pub fn secrets(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.repository.password.is_some() {
            out.push("password".to_string());
        }
        for (url, table) in &self.remote {
            out.extend(
                (table.keys())
                    .filter(|k| is_secret(k))
                    .map(|k| format!("[remote.\"{url}\"] {k}")),
            );
        }
        out
    }

    /// Per-remote settings keyed by URL.
    pub fn remote_settings(&self) -> Result<BTreeMap<String, RemoteSettings>> {
        let mut out = BTreeMap::new();
        for (url, table) in &self.remote {
            let mut s = RemoteSettings::default();
            for (key, value) in table {
                let text = match value {
                    toml::Value::String(v) => v.clone(),
                    toml::Value::Boolean(b) => b.to_string(),
                    toml::Value::Integer(i) => i.to_string(),
                    toml::Value::Float(f) => f.to_string(),
                    other => {
                        return Err(Error::usage(format!(
                            "profile: remote {url}: {key} = {other} is not a string"
                        )));
                    }
                };
                let azure = url.starts_with("az://");
                let gcs = url.starts_with("gs://");
                let var = match key.as_str() {
                    "ssh_command" => {
                        s.ssh_command = Some(text);
                        continue;
                    }
                    "timeout" => {
                        s.timeout = Some(parse_seconds(&text).map_err(|e| {
                            e.context(format_args!("profile: remote {url}: timeout"))
                        })?);
                        continue;
                    }
                    "upload_queue" => {
                        s.upload_queue = Some(parse_upload_queue(&text).map_err(|e| {
                            Error::usage(format!("profile: remote {url}: upload_queue: {e}"))
                        })?);
                        continue;
                    }
                    "endpoint" if azure => "AZURE_STORAGE_ENDPOINT",
                    "account_name" if azure => "AZURE_STORAGE_ACCOUNT_NAME",
                    "account_key" if azure => "AZURE_STORAGE_ACCOUNT_KEY",
                    "sas_key" if azure => "AZURE_STORAGE_SAS_KEY",
                    "use_emulator" if azure => "AZURE_STORAGE_USE_EMULATOR",
                    "allow_http" if azure => "AZURE_ALLOW_HTTP",
                    k if azure && k.starts_with("AZURE_") => k,
                    "service_account" if gcs => "GOOGLE_SERVICE_ACCOUNT",
                    "service_account_key" if gcs => "GOOGLE_SERVICE_ACCOUNT_KEY",
                    "base_url" if gcs => "GOOGLE_BASE_URL",
                    k if gcs && k.starts_with("GOOGLE_") => k,
                    "endpoint" => "AWS_ENDPOINT",
                    "region" => "AWS_DEFAULT_REGION",
                    "access_key_id" => "AWS_ACCESS_KEY_ID",
                    "secret_access_key" => "AWS_SECRET_ACCESS_KEY",
                    "session_token" => "AWS_SESSION_TOKEN",
                    "allow_http" => "AWS_ALLOW_HTTP",
                    "virtual_hosted_style" => "AWS_VIRTUAL_HOSTED_STYLE_REQUEST",
                    "profile" => "AWS_PROFILE",
                    k if k.starts_with("AWS_") => k,
                    other => {
                        return Err(Error::usage(format!(
                            "profile: remote {url}: unknown setting {other:?}"
                        )));
                    }
                };
                s.env.push((var.to_string(), text));
            }
            out.insert(url.clone(), s);
        }
        Ok(out)
    }
}

/// A time in seconds, `30`, `2.5` or `30s`, from 0.1 to 86400 (a remote's `timeout`, the
/// password command's).
pub fn parse_seconds(text: &str) -> Result<std::time::Duration> {
    let secs: f64 = (text.trim().trim_end_matches('s').trim().parse()).map_err(|_| {
        Error::usage(format!(
            "{text:?} is not a number of seconds (like 30 or 30s)"
        ))
    })?;
    if !(0.1..=86400.0).contains(&secs) {
        return Err(Error::usage(format!(
            "{text:?}: must be between 0.1 and 86400 seconds"
        )));
    }
    Ok(std::time::Duration::from_secs_f64(secs))
}

/// An upload queue length: a whole number of extents, 1 to 64.
pub fn parse_upload_queue(text: &str) -> Result<usize> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=64).contains(&n) => Ok(n),
        _ => Err(Error::usage(format!(
            "{text:?} is not a number of extents from 1 to 64"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_maps_settings() {
        let p = Profile::parse(
            r#"
            repo = "/a"
            [remote."s3://b/p"]
            endpoint = "http://x"
            allow_http = true
            AWS_DEFAULT_REGION = "r"
            [remote."sftp://h/p"]
            ssh_command = "ssh -F c"
            upload_queue = 8
            "#,
        )
        .unwrap();
        assert_eq!(p.repository.remotes, ["/a"]);
        let s = p.remote_settings().unwrap();
        assert!(
            s["s3://b/p"]
                .env
                .contains(&("AWS_ENDPOINT".into(), "http://x".into()))
        );
        assert!(
            s["s3://b/p"]
                .env
                .contains(&("AWS_ALLOW_HTTP".into(), "true".into()))
        );
        assert_eq!(s["sftp://h/p"].ssh_command.as_deref(), Some("ssh -F c"));
        assert_eq!(s["sftp://h/p"].upload_queue, Some(8));
        assert_eq!(s["s3://b/p"].upload_queue, None);
        let zero: Profile = toml::from_str("[remote.\"s3://b\"]\nupload_queue = 0").unwrap();
        assert!(zero.remote_settings().is_err());
        let bad: Profile = toml::from_str("[remote.\"s3://b\"]\nwat = 1").unwrap();
        assert!(bad.remote_settings().is_err());
        assert!(Profile::parse("nonsense = 1").is_err());
    }

    /// Parsed and checked as `cli::run` does: the command tables through their flags.
    fn checked(text: &str) -> Result<Profile> {
        let p = Profile::parse(text)?;
        crate::cli::check_profile_tables(&p)?;
        Ok(p)
    }

    #[test]
    fn tables_and_first_format() {
        let p = checked(
            r#"
            [repository]
            remotes = ["/a", "/b"]
            password-file = "/pw"
            [backup]
            sources = "/home"
            tags = ["t1", "t2"]
            upload-queue = 4
            [delete]
            keep-daily = 7
            keep_last = "unlimited"
            keep-within = "1y2d"
            max-unused = "10%"
            [verify]
            read-data-subset = "2%"
            "#,
        )
        .unwrap();
        assert_eq!(p.repository.remotes, ["/a", "/b"]);
        assert_eq!(p.repository.password_file.as_deref(), Some("/pw"));
        let b = p.backup.unwrap();
        assert_eq!(b["sources"].as_str(), Some("/home"));
        assert_eq!(b["upload-queue"].as_integer(), Some(4));
        assert!(p.delete.is_some() && p.verify.is_some());

        let old = Profile::parse("password-file = \"/x\"\ncache_dir = \"/c\"").unwrap();
        assert_eq!(old.repository.password_file.as_deref(), Some("/x"));
        assert_eq!(old.repository.cache_dir.as_deref(), Some("/c"));
        // The same setting twice, or two password sources, or a bad value: refused.
        for bad in [
            "repo = \"/a\"\n[repository]\nremotes = [\"/b\"]",
            "[repository]\npassword = \"x\"\npassword-file = \"/x\"",
            "[delete]\nkeep-daily = -1",
            "[delete]\nmax-unused = \"lots\"",
            "[delete]\ngroup-by = \"colour\"",
            "[delete]\nkeep-daily = 7\nkeep_daily = 7",
            "[delete]\ndry-run = true",
            "[verify]\nread-data = true\nread-data-subset = \"2%\"",
            "[verify]\nread-data-subset = \"0/3\"",
            "[verify]\nread-data-subset = \"500X\"",
            "[verify]\nread-data = 1",
            "[backup]\nupload-queue = 0",
            "[backup]\nwat = 1",
            "[backup]\ntags = [1]",
            "[backup]\nhost = [\"a\", \"b\"]",
            "[repository]\npassword-command-timeout = 0",
            "[repository]\npassword-command-timeout = \"soon\"",
            "[remote.\"/r\"]\ntimeout = 90000",
        ] {
            assert!(checked(bad).is_err(), "accepted: {bad}");
        }
    }

    #[test]
    fn verify_takes_every_form_of_read_data_subset() {
        for value in ["\"2%\"", "2", "\"1/7\"", "\"500M\""] {
            checked(&format!("[verify]\nread-data-subset = {value}"))
                .unwrap_or_else(|e| panic!("{value}: {e}"));
        }
    }

    #[test]
    fn seconds_parse_as_the_remote_timeout_did() {
        use std::time::Duration;
        for (text, want) in [("60", 60.0), ("90s", 90.0), (" 2.5 ", 2.5), ("0.1", 0.1)] {
            assert_eq!(parse_seconds(text).unwrap(), Duration::from_secs_f64(want));
        }
        for bad in ["", "s", "soon", "0", "-1", "86401", "2m", "NaN"] {
            let e = parse_seconds(bad).unwrap_err();
            assert_eq!(e.kind(), tangle::Kind::Usage, "{bad}");
        }
        let p = Profile::parse(
            "[repository]\npassword-command = \"pass x\"\npassword-command-timeout = 90",
        )
        .unwrap();
        assert_eq!(p.repository.password_command_timeout.as_deref(), Some("90"));
        let p = Profile::parse("[repository]\npassword_command_timeout = \"5s\"").unwrap();
        assert_eq!(p.repository.password_command_timeout.as_deref(), Some("5s"));
    }

    #[test]
    fn secrets_are_named() {
        for k in [
            "password",
            "secret_access_key",
            "AWS_SESSION_TOKEN",
            "api-token",
            "account_key",
            "sas_key",
            "service_account_key",
        ] {
            assert!(is_secret(k), "{k}");
        }
        for k in [
            "password-file",
            "password_command",
            "password-command-timeout",
            "endpoint",
            "access_key_id",
            "writer-key",
            "writer_key",
        ] {
            assert!(!is_secret(k), "{k}");
        }
    }
}
