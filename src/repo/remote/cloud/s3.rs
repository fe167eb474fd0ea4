//! `s3://bucket/prefix`: S3 and S3-compatible stores.
//!
//! Configuration comes from the usual environment variables (`AWS_ENDPOINT` or
//! `AWS_ENDPOINT_URL`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`,
//! `AWS_DEFAULT_REGION` / `AWS_REGION`, `AWS_ALLOW_HTTP`,
//! `AWS_VIRTUAL_HOSTED_STYLE_REQUEST`, and every other `AWS_*` key `object_store`
//! knows). When no access key is in the environment, static credentials, region and
//! `endpoint_url` are read from the profile `AWS_PROFILE` (default `default`) of
//! `~/.aws/credentials` and `~/.aws/config` (or `AWS_SHARED_CREDENTIALS_FILE` /
//! `AWS_CONFIG_FILE`).

use std::sync::Arc;

use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use object_store::{BackoffConfig, ClientConfigKey, RetryConfig};

use super::errors::error_text;
use super::{
    CloudRemote, Provider, is_truthy, parse_url, profile, retry_config, settings_from_env,
};
use crate::error::Result;
use crate::remote::RemoteError;

impl CloudRemote {
    /// Open `s3://bucket/prefix` configured from the environment, with some `AWS_*`
    /// settings overridden (as if they were set in the environment: a profile's
    /// `[remote."URL"]` table, tests).
    pub fn open_s3(url: &str, overrides: &[(&str, &str)]) -> Result<CloudRemote> {
        let (bucket, prefix) = parse_url(url, Provider::S3)?;
        let env = settings_from_env("AWS_", overrides);
        let get = |k: &str| {
            env.iter()
                .find(|(ek, _)| ek == k)
                .map(|(_, v)| v.clone())
                .filter(|v| !v.is_empty())
        };

        let mut builder = AmazonS3Builder::new()
            .with_config(
                AmazonS3ConfigKey::Client(ClientConfigKey::Timeout),
                "120 seconds",
            )
            .with_config(
                AmazonS3ConfigKey::Client(ClientConfigKey::ConnectTimeout),
                "10 seconds",
            )
            .with_retry(retry_config());
        // Profile first, so that the environment wins where both say something.
        if get("AWS_ACCESS_KEY_ID").is_none() {
            let settings = profile::profile_settings(&get).map_err(|e| RemoteError::Config {
                url: url.to_string(),
                what: e.to_string(),
                source: Some(e.into()),
            })?;
            for (k, v) in settings {
                builder = builder.with_config(k, v);
            }
        }
        for (k, v) in &env {
            if let Ok(key) = k.to_ascii_lowercase().parse::<AmazonS3ConfigKey>() {
                builder = builder.with_config(key, v.clone());
            }
        }
        builder = builder.with_bucket_name(&bucket);
        let value = |k: AmazonS3ConfigKey| builder.get_config_value(&k).filter(|v| !v.is_empty());
        // `AWS_ENDPOINT_URL_S3` wins over `AWS_ENDPOINT`, as in object_store.
        let endpoint = (value(AmazonS3ConfigKey::S3Endpoint))
            .or_else(|| value(AmazonS3ConfigKey::Endpoint))
            .unwrap_or_else(|| {
                let region = value(AmazonS3ConfigKey::Region);
                format!(
                    "AWS S3 (region {})",
                    region.as_deref().unwrap_or("us-east-1")
                )
            });
        let truthy = |k| value(k).is_some_and(|v| is_truthy(&v));
        let plain_http = endpoint.starts_with("http://")
            && !truthy(AmazonS3ConfigKey::Client(ClientConfigKey::AllowHttp));
        let config_error = |e: object_store::Error| RemoteError::Config {
            url: url.to_string(),
            what: format!("invalid S3 configuration: {}", error_text(&e)),
            source: Some(e.into()),
        };
        let metadata_endpoint = uses_instance_metadata(&value, &truthy).then(|| {
            value(AmazonS3ConfigKey::MetadataEndpoint)
                .unwrap_or_else(|| DEFAULT_METADATA_ENDPOINT.to_string())
        });
        if metadata_endpoint.is_some() {
            // No credentials are configured, so object_store asks the EC2 instance
            // metadata service for an instance role's, with the retries of every request:
            // off EC2 that is nine attempts with growing pauses, tens of seconds of waiting
            // for an address that never answers (twice when opening a repository). The
            // same provider with two quick retries instead; on EC2 the service answers at
            // once.
            let quick = builder
                .clone()
                .with_retry(RetryConfig {
                    backoff: BackoffConfig::default(),
                    max_retries: 2,
                    retry_timeout: std::time::Duration::from_secs(10),
                })
                .build()
                .map_err(config_error)?;
            builder = builder.with_credentials(quick.credentials().clone());
        }
        let store = builder.build().map_err(config_error)?;
        let at = (bucket, prefix);
        Ok(CloudRemote {
            plain_http,
            metadata_endpoint,
            ..CloudRemote::new(url, Provider::S3, at, endpoint, Arc::new(store))
        })
    }
}

/// Where object_store asks for an EC2 instance role's credentials by default.
const DEFAULT_METADATA_ENDPOINT: &str = "http://169.254.169.254";

/// Whether object_store will take its credentials from the EC2 instance metadata
/// service: no access key, no web identity, no container credentials, and requests are
/// signed (the order of `AmazonS3Builder::build`).
fn uses_instance_metadata(
    value: &dyn Fn(AmazonS3ConfigKey) -> Option<String>,
    truthy: &dyn Fn(AmazonS3ConfigKey) -> bool,
) -> bool {
    use AmazonS3ConfigKey as K;
    let set = |k| value(k).is_some();
    !(set(K::AccessKeyId)
        || set(K::SecretAccessKey)
        || (set(K::WebIdentityTokenFile) && set(K::RoleArn))
        || set(K::ContainerCredentialsRelativeUri)
        || (set(K::ContainerCredentialsFullUri) && set(K::ContainerAuthorizationTokenFile))
        || truthy(K::SkipSignature))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instance_metadata_only_without_other_credentials() {
        use AmazonS3ConfigKey as K;
        let uses = |set: &[(K, &str)]| {
            let value = |k: K| {
                (set.iter())
                    .find(|(s, _)| *s == k)
                    .map(|(_, v)| v.to_string())
            };
            uses_instance_metadata(&value, &|k| value(k).is_some_and(|v| is_truthy(&v)))
        };
        assert!(uses(&[]));
        assert!(uses(&[
            (K::Region, "eu-west-1"),
            (K::SkipSignature, "false")
        ]));
        assert!(!uses(&[(K::AccessKeyId, "a"), (K::SecretAccessKey, "s")]));
        assert!(!uses(&[(K::SkipSignature, "TRUE")]));
        assert!(!uses(&[
            (K::WebIdentityTokenFile, "/t"),
            (K::RoleArn, "arn")
        ]));
        // A token file alone is not a web identity: object_store goes on to the others.
        assert!(uses(&[(K::WebIdentityTokenFile, "/t")]));
        assert!(!uses(&[(K::ContainerCredentialsRelativeUri, "/v2/creds")]));
    }
}
