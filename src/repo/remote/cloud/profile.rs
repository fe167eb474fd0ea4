//! The shared AWS configuration files (`~/.aws/credentials`, `~/.aws/config`): the
//! static credentials, region and endpoint of one profile, for when the environment
//! names no access key. Only the handful of keys tangle uses is read, so a small INI
//! reader is enough (the AWS SDK's config crates would pull in the whole SDK runtime).

use object_store::aws::AmazonS3ConfigKey;

/// A profile that was asked for by name (`AWS_PROFILE`) but is in neither file.
#[derive(Debug, thiserror::Error)]
#[error("AWS_PROFILE={0}: no such profile in ~/.aws/credentials or ~/.aws/config")]
pub(crate) struct NoSuchProfile(pub String);

/// Settings from the shared AWS profile files, as `object_store` config keys. `get`
/// reads a variable (the environment with the caller's overrides).
pub(crate) fn profile_settings(
    get: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<(AmazonS3ConfigKey, String)>, NoSuchProfile> {
    let explicit = get("AWS_PROFILE");
    let name = explicit.clone().unwrap_or_else(|| "default".to_string());
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let file = |var: &str, default: &str| {
        get(var)
            .map(std::path::PathBuf::from)
            .or_else(|| home.as_ref().map(|h| h.join(".aws").join(default)))
    };
    let creds = file("AWS_SHARED_CREDENTIALS_FILE", "credentials")
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|t| ini_section(&t, std::slice::from_ref(&name)));
    // In the config file a profile's section is `[profile NAME]` (`[default]` too).
    let config = file("AWS_CONFIG_FILE", "config")
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|t| ini_section(&t, &[format!("profile {name}"), name.clone()]));
    if creds.is_none() && config.is_none() {
        return match explicit {
            Some(p) => Err(NoSuchProfile(p)),
            None => Ok(Vec::new()),
        };
    }
    let mut out = Vec::new();
    // The credentials file wins over the config file for a key both set.
    let lookup = |k: &str| {
        creds
            .as_ref()
            .and_then(|s| s.iter().find(|(sk, _)| sk == k))
            .or_else(|| config.as_ref()?.iter().find(|(sk, _)| sk == k))
            .map(|(_, v)| v.clone())
    };
    for (file_key, key) in [
        ("aws_access_key_id", AmazonS3ConfigKey::AccessKeyId),
        ("aws_secret_access_key", AmazonS3ConfigKey::SecretAccessKey),
        ("aws_session_token", AmazonS3ConfigKey::Token),
        ("region", AmazonS3ConfigKey::Region),
        ("endpoint_url", AmazonS3ConfigKey::Endpoint),
    ] {
        if let Some(v) = lookup(file_key) {
            out.push((key, v));
        }
    }
    Ok(out)
}

/// The `key = value` pairs of the first section named one of `names` in an INI text.
fn ini_section(text: &str, names: &[String]) -> Option<Vec<(String, String)>> {
    let mut current: Option<bool> = None;
    let mut found = false;
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(sec) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let hit = !found && names.iter().any(|n| n == sec.trim());
            found |= hit;
            current = Some(hit);
            continue;
        }
        if current == Some(true)
            && let Some((k, v)) = line.split_once('=')
        {
            out.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    found.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ini() {
        let t = "[default]\naws_access_key_id = A\n[profile x]\nregion=eu-west-1\n# c\n[x]\nregion = no\n";
        assert_eq!(
            ini_section(t, &["default".into()]).unwrap(),
            vec![("aws_access_key_id".to_string(), "A".to_string())]
        );
        assert_eq!(
            ini_section(t, &["profile x".into(), "x".into()]).unwrap(),
            vec![("region".to_string(), "eu-west-1".to_string())]
        );
        assert!(ini_section(t, &["y".into()]).is_none());
    }

    #[test]
    fn named_profile_must_exist() {
        let dir = tempfile::tempdir().unwrap();
        let creds = dir.path().join("credentials");
        std::fs::write(&creds, "[p]\naws_access_key_id = K\nregion = r\n").unwrap();
        let missing = dir.path().join("none").to_string_lossy().into_owned();
        let creds = creds.to_string_lossy().into_owned();
        let env = |profile: &'static str| {
            let (creds, missing) = (creds.clone(), missing.clone());
            move |k: &str| match k {
                "AWS_PROFILE" => Some(profile.to_string()),
                "AWS_SHARED_CREDENTIALS_FILE" => Some(creds.clone()),
                "AWS_CONFIG_FILE" => Some(missing.clone()),
                _ => None,
            }
        };
        let got = profile_settings(&env("p")).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0], (AmazonS3ConfigKey::AccessKeyId, "K".to_string()));
        assert!(profile_settings(&env("q")).is_err());
    }
}
