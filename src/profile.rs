//! Profiles (`-P NAME`): a TOML file with defaults for the global options and settings
//! per remote, so cron jobs need no long command lines and S3/SFTP remotes of one
//! repository can use different endpoints, credentials or ssh commands.
//!
//! ```toml
//! # ~/.config/tangle/NAME.toml
//! repo = "/mnt/disk1/backup"
//! password_file = "/root/.config/tangle/password"
//! # password_command = "pass show backup"
//! # cache_dir = "/var/cache/tangle"
//!
//! [remote."s3://bucket/backup"]
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
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;

use crate::error::{Error, Result};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    pub repo: Option<String>,
    pub password_file: Option<PathBuf>,
    pub password_command: Option<String>,
    pub cache_dir: Option<PathBuf>,
    #[serde(default)]
    pub remote: BTreeMap<String, BTreeMap<String, toml::Value>>,
}

pub use crate::remote::RemoteSettings;

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

impl Profile {
    pub fn load(name: &str) -> Result<Profile> {
        let path = path_for(name)
            .ok_or_else(|| Error::usage("cannot find the profile directory (no HOME)"))?;
        let text = std::fs::read_to_string(&path).map_err(|e| {
            Error::usage(format!(
                "profile {name}: cannot read {}: {e}",
                path.display()
            ))
        })?;
        let profile: Profile = toml::from_str(&text)
            .map_err(|e| Error::usage(format!("profile {}: {e}", path.display())))?;
        profile.remote_settings()?;
        Ok(profile)
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
                let aws = match key.as_str() {
                    "ssh_command" => {
                        s.ssh_command = Some(text);
                        continue;
                    }
                    "timeout" => {
                        let secs: f64 = text.trim().trim_end_matches('s').parse().map_err(|_| {
                            Error::usage(format!(
                                "profile: remote {url}: timeout = {text:?} is not a number of seconds"
                            ))
                        })?;
                        if !(0.1..=86400.0).contains(&secs) {
                            return Err(Error::usage(format!(
                                "profile: remote {url}: timeout must be between 0.1 and 86400 seconds"
                            )));
                        }
                        s.timeout = Some(std::time::Duration::from_secs_f64(secs));
                        continue;
                    }
                    "upload_queue" => {
                        s.upload_queue = Some(parse_upload_queue(&text).map_err(|e| {
                            Error::usage(format!("profile: remote {url}: upload_queue: {e}"))
                        })?);
                        continue;
                    }
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
                s.aws.push((aws.to_string(), text));
            }
            out.insert(url.clone(), s);
        }
        Ok(out)
    }
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
        let p: Profile = toml::from_str(
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
        assert_eq!(p.repo.as_deref(), Some("/a"));
        let s = p.remote_settings().unwrap();
        assert!(
            s["s3://b/p"]
                .aws
                .contains(&("AWS_ENDPOINT".into(), "http://x".into()))
        );
        assert!(
            s["s3://b/p"]
                .aws
                .contains(&("AWS_ALLOW_HTTP".into(), "true".into()))
        );
        assert_eq!(s["sftp://h/p"].ssh_command.as_deref(), Some("ssh -F c"));
        assert_eq!(s["sftp://h/p"].upload_queue, Some(8));
        assert_eq!(s["s3://b/p"].upload_queue, None);
        let zero: Profile = toml::from_str("[remote.\"s3://b\"]\nupload_queue = 0").unwrap();
        assert!(zero.remote_settings().is_err());
        let bad: Profile = toml::from_str("[remote.\"s3://b\"]\nwat = 1").unwrap();
        assert!(bad.remote_settings().is_err());
        assert!(toml::from_str::<Profile>("nonsense = 1").is_err());
    }
}
