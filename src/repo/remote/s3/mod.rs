//! `s3://bucket/prefix`: an S3-compatible object store through `object_store`.
//!
//! Configuration comes from the usual environment variables (`AWS_ENDPOINT` or
//! `AWS_ENDPOINT_URL`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`,
//! `AWS_DEFAULT_REGION` / `AWS_REGION`, `AWS_ALLOW_HTTP`,
//! `AWS_VIRTUAL_HOSTED_STYLE_REQUEST`, and every other `AWS_*` key `object_store`
//! knows). When no access key is in the environment, static credentials, region and
//! `endpoint_url` are read from the profile `AWS_PROFILE` (default `default`) of
//! `~/.aws/credentials` and `~/.aws/config` (or `AWS_SHARED_CREDENTIALS_FILE` /
//! `AWS_CONFIG_FILE`). Nothing secret is ever stored in the repository config.
//!
//! Object stores write whole objects atomically, so `put` is a plain PUT (multipart above
//! [`MULTIPART_THRESHOLD`]) and `put_new` a create-only PUT (`If-None-Match: *`). Buckets
//! are never created by tangle. Transient failures (5xx, 429, timeouts, connection
//! errors) are retried by `object_store` with jittered exponential backoff.

use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use async_trait::async_trait;
use bytes::Bytes;
use futures::StreamExt;
use object_store::aws::{AmazonS3, AmazonS3Builder, AmazonS3ConfigKey};
use object_store::path::Path as ObjPath;
use object_store::{
    BackoffConfig, ClientConfigKey, ObjectStore, ObjectStoreExt, PutMode, PutOptions, PutPayload,
    RetryConfig, WriteMultipart,
};
use tokio::sync::Semaphore;

mod errors;
mod profile;

use super::recycled;
use super::retry::Policy;
use super::{ObjectInfo, Remote, RemoteError, RemoteResult, WriteAccess};
use crate::error::Result;
use errors::error_text;

/// Objects larger than this are uploaded in parts by `put`.
pub(crate) const MULTIPART_THRESHOLD: usize = 16 * 1024 * 1024;
/// Size of one part of a multipart upload.
const PART_SIZE: usize = 8 * 1024 * 1024;
/// Parts of one upload in flight at once.
const PART_CONCURRENCY: usize = 4;
/// Requests of one remote in flight at once.
const MAX_REQUESTS: usize = 32;

pub struct S3Remote {
    url: String,
    bucket: String,
    /// Key prefix without leading or trailing slash; empty for the bucket's root.
    prefix: String,
    /// The endpoint as messages name it (a URL, or AWS S3 and the region).
    endpoint: String,
    /// The endpoint is `http://` and `AWS_ALLOW_HTTP` is not set: every request fails.
    plain_http: bool,
    /// Where credentials come from when none are configured: the EC2 instance metadata
    /// service at this address (`None`: keys, a web identity or a container's).
    metadata_endpoint: Option<String>,
    store: Arc<AmazonS3>,
    requests: Semaphore,
    /// The bucket was seen to exist.
    bucket_ok: AtomicBool,
}

impl S3Remote {
    /// Open `s3://bucket/prefix` configured from the environment.
    pub fn open(url: &str) -> Result<S3Remote> {
        Self::open_with(url, &[])
    }

    /// Like [`open`](Self::open), with some `AWS_*` settings overridden (as if they were
    /// set in the environment): used by tests and by callers with explicit settings.
    pub fn open_with(url: &str, overrides: &[(&str, &str)]) -> Result<S3Remote> {
        let (bucket, prefix) = parse_url(url)?;
        let mut env: Vec<(String, String)> = std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
            .filter(|(k, _)| k.starts_with("AWS_"))
            .collect();
        for (k, v) in overrides {
            env.retain(|(ek, _)| ek != k);
            env.push((k.to_string(), v.to_string()));
        }
        let get = |k: &str| {
            env.iter()
                .find(|(ek, _)| ek == k)
                .map(|(_, v)| v.clone())
                .filter(|v| !v.is_empty())
        };

        let policy = Policy::s3();
        let mut builder = AmazonS3Builder::new()
            .with_config(
                AmazonS3ConfigKey::Client(ClientConfigKey::Timeout),
                "120 seconds",
            )
            .with_config(
                AmazonS3ConfigKey::Client(ClientConfigKey::ConnectTimeout),
                "10 seconds",
            )
            .with_retry(RetryConfig {
                backoff: BackoffConfig {
                    init_backoff: policy.base,
                    max_backoff: policy.max,
                    base: 2.0,
                },
                max_retries: policy.attempts.saturating_sub(1) as usize,
                retry_timeout: policy.deadline,
            });
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
        Ok(S3Remote {
            url: url.to_string(),
            bucket,
            prefix,
            endpoint,
            plain_http,
            metadata_endpoint,
            store: Arc::new(store),
            requests: Semaphore::new(MAX_REQUESTS),
            bucket_ok: AtomicBool::new(false),
        })
    }

    fn key(&self, path: &str) -> RemoteResult<ObjPath> {
        super::check_path(&self.url, path)?;
        let full = if self.prefix.is_empty() {
            path.to_string()
        } else {
            format!("{}/{path}", self.prefix)
        };
        ObjPath::parse(&full).map_err(|_| RemoteError::InvalidPath {
            url: self.url.clone(),
            path: path.to_string(),
        })
    }

    /// Like [`err`](Self::err), but a "not found" from a bucket not yet seen to exist is
    /// checked: a missing bucket must not look like a missing object.
    async fn check(&self, path: &str, e: object_store::Error) -> RemoteError {
        let err = self.err(path, e);
        if matches!(err, RemoteError::NotFound { .. }) && !self.bucket_ok.load(Ordering::Relaxed) {
            match self.bucket_exists().await {
                Ok(false) => return self.no_bucket(),
                Ok(true) => self.bucket_ok.store(true, Ordering::Relaxed),
                Err(_) => {}
            }
        }
        err
    }

    /// Remember that the bucket exists (a request on it succeeded).
    fn seen(&self) {
        self.bucket_ok.store(true, Ordering::Relaxed);
    }

    async fn bucket_exists(&self) -> RemoteResult<bool> {
        // Listing (rather than HEAD on the bucket) needs only the permission tangle
        // needs anyway, and answers NoSuchBucket for a missing bucket.
        let prefix = if self.prefix.is_empty() {
            None
        } else {
            ObjPath::parse(&self.prefix).ok()
        };
        let mut stream = self.store.list(prefix.as_ref());
        match stream.next().await {
            None | Some(Ok(_)) => {
                self.seen();
                Ok(true)
            }
            Some(Err(e)) => match self.err("", e) {
                RemoteError::NoBucket { .. } => Ok(false),
                err => Err(err),
            },
        }
    }

    async fn permit(&self) -> RemoteResult<tokio::sync::SemaphorePermit<'_>> {
        self.requests
            .acquire()
            .await
            .map_err(|_| RemoteError::Closed {
                url: self.url.clone(),
            })
    }

    async fn put_multipart(&self, key: &ObjPath, data: Bytes) -> object_store::Result<()> {
        let upload = self.store.put_multipart(key).await?;
        let mut writer = WriteMultipart::new_with_chunk_size(upload, PART_SIZE);
        let mut offset = 0;
        while offset < data.len() {
            if let Err(e) = writer.wait_for_capacity(PART_CONCURRENCY).await {
                let _ = writer.abort().await;
                return Err(e);
            }
            let end = (offset + PART_SIZE).min(data.len());
            writer.put(data.slice(offset..end));
            offset = end;
        }
        writer.finish().await?;
        Ok(())
    }

    /// Whether the object `path` is shorter than `end` (for classifying failed reads).
    async fn is_short(&self, key: &ObjPath, end: u64) -> bool {
        matches!(self.store.head(key).await, Ok(meta) if meta.size < end)
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

/// A boolean setting as object_store reads it.
fn is_truthy(v: &str) -> bool {
    matches!(
        v.to_ascii_lowercase().as_str(),
        "1" | "true" | "on" | "yes" | "y"
    )
}

/// Split `s3://bucket/some/prefix` into the bucket and the prefix.
fn parse_url(url: &str) -> RemoteResult<(String, String)> {
    let bad = |reason: &str| RemoteError::InvalidUrl {
        url: url.to_string(),
        reason: reason.to_string(),
    };
    let rest = url
        .strip_prefix("s3://")
        .ok_or_else(|| bad("not an s3:// URL"))?;
    let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
    if bucket.is_empty() {
        return Err(bad("the URL names no bucket (use s3://BUCKET/PREFIX)"));
    }
    if bucket.contains(['?', '#', '@', ':']) || prefix.contains(['?', '#']) {
        return Err(bad(
            "use s3://BUCKET/PREFIX (endpoint and credentials come from AWS_* variables)",
        ));
    }
    let prefix = prefix.trim_matches('/');
    if prefix
        .split('/')
        .any(|c| c == "." || c == ".." || (c.is_empty() && !prefix.is_empty()))
    {
        return Err(bad("the prefix must not contain empty, . or .. components"));
    }
    Ok((bucket.to_string(), prefix.to_string()))
}

#[async_trait]
impl Remote for S3Remote {
    fn high_latency(&self) -> bool {
        true
    }

    fn url(&self) -> &str {
        &self.url
    }

    async fn put(&self, _: WriteAccess, path: &str, data: Bytes) -> Result<()> {
        let key = self.key(path)?;
        let _permit = self.permit().await?;
        let result = if data.len() > MULTIPART_THRESHOLD {
            self.put_multipart(&key, data).await
        } else {
            self.store
                .put(&key, PutPayload::from(data))
                .await
                .map(|_| ())
        };
        match result {
            Ok(()) => {
                self.seen();
                Ok(())
            }
            Err(e) => Err(self.check(path, e).await.into()),
        }
    }

    async fn put_new(&self, _: WriteAccess, path: &str, data: Bytes) -> Result<bool> {
        let key = self.key(path)?;
        let _permit = self.permit().await?;
        let opts = PutOptions {
            mode: PutMode::Create,
            ..Default::default()
        };
        match self
            .store
            .put_opts(&key, PutPayload::from(data), opts)
            .await
        {
            Ok(_) => {
                self.seen();
                Ok(true)
            }
            Err(
                object_store::Error::AlreadyExists { .. }
                | object_store::Error::Precondition { .. },
            ) => Ok(false),
            Err(e) => Err(self.check(path, e).await.into()),
        }
    }

    async fn get(&self, path: &str) -> Result<Bytes> {
        self.get_max(path, u64::MAX).await
    }

    async fn get_max(&self, path: &str, max: u64) -> Result<Bytes> {
        let key = self.key(path)?;
        let _permit = self.permit().await?;
        let result = match self.store.get(&key).await {
            Ok(r) => r,
            Err(e) => return Err(self.check(path, e).await.into()),
        };
        self.seen();
        let too_large = |size| RemoteError::TooLarge {
            url: self.url.clone(),
            path: path.to_string(),
            size,
            max,
        };
        // The size is known from the response headers: refuse before reading the body.
        if result.meta.size > max {
            return Err(too_large(result.meta.size).into());
        }
        // Into a recycled buffer (object_store's `bytes()` would allocate a fresh one
        // for each shard), and no more than `max` even if the body runs past its size.
        let mut buf = recycled::buffer(result.meta.size);
        let mut body = result.into_stream();
        while let Some(chunk) = body.next().await {
            let chunk = chunk.map_err(|e| self.err(path, e))?;
            let size = buf.len() as u64 + chunk.len() as u64;
            if size > max {
                return Err(too_large(size).into());
            }
            buf.extend_from_slice(&chunk);
        }
        Ok(recycled::bytes(buf))
    }

    async fn get_range(&self, path: &str, offset: u64, len: u64) -> Result<Bytes> {
        let key = self.key(path)?;
        let short_err = || crate::Error::from(RemoteError::short(&self.url, path, ""));
        let end = offset.checked_add(len).ok_or_else(short_err)?;
        let _permit = self.permit().await?;
        if len == 0 {
            let meta = match self.store.head(&key).await {
                Ok(m) => m,
                Err(e) => return Err(self.check(path, e).await.into()),
            };
            return if meta.size < end {
                Err(short_err())
            } else {
                Ok(Bytes::new())
            };
        }
        let range: Range<u64> = offset..end;
        match self.store.get_range(&key, range).await {
            Ok(b) if b.len() as u64 == len => Ok(b),
            Ok(_) => Err(short_err()),
            Err(e @ object_store::Error::NotFound { .. }) => Err(self.check(path, e).await.into()),
            Err(e) => {
                if self.is_short(&key, end).await {
                    Err(short_err())
                } else {
                    Err(self.check(path, e).await.into())
                }
            }
        }
    }

    async fn stat(&self, path: &str) -> Result<ObjectInfo> {
        let key = self.key(path)?;
        let _permit = self.permit().await?;
        match self.store.head(&key).await {
            Ok(meta) => Ok(ObjectInfo {
                path: path.to_string(),
                size: meta.size,
            }),
            Err(e) => Err(self.check(path, e).await.into()),
        }
    }

    async fn delete(&self, _: WriteAccess, path: &str) -> Result<()> {
        let key = self.key(path)?;
        let _permit = self.permit().await?;
        match self.store.delete(&key).await {
            Ok(()) => Ok(()),
            Err(e) => match self.check(path, e).await {
                RemoteError::NotFound { .. } => Ok(()),
                err => Err(err.into()),
            },
        }
    }

    async fn list(&self, prefix: &str) -> Result<Vec<ObjectInfo>> {
        let dir = prefix.trim_matches('/');
        let list_prefix = if dir.is_empty() {
            if self.prefix.is_empty() {
                None
            } else {
                Some(
                    ObjPath::parse(&self.prefix)
                        .map_err(|e| RemoteError::backend(&self.url, "", "invalid prefix", e))?,
                )
            }
        } else {
            Some(self.key(dir)?)
        };
        let strip = if self.prefix.is_empty() {
            String::new()
        } else {
            format!("{}/", self.prefix)
        };
        let _permit = self.permit().await?;
        let mut stream = self.store.list(list_prefix.as_ref());
        let mut out = Vec::new();
        while let Some(item) = stream.next().await {
            let meta = match item {
                Ok(m) => m,
                Err(e) => return Err(self.check(prefix, e).await.into()),
            };
            let loc: &str = meta.location.as_ref();
            let Some(rel) = loc.strip_prefix(&strip) else {
                continue;
            };
            let name = rel.rsplit('/').next().unwrap_or(rel);
            if name.starts_with(super::local::TEMP_PREFIX) {
                continue;
            }
            out.push(ObjectInfo {
                path: rel.to_string(),
                size: meta.size,
            });
        }
        self.seen();
        out.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(out)
    }

    async fn exists(&self) -> Result<bool> {
        let _permit = self.permit().await?;
        Ok(self.bucket_exists().await?)
    }

    async fn create(&self, _: WriteAccess) -> Result<()> {
        // Prefixes need no creating; the bucket must exist already.
        if self.exists().await? {
            Ok(())
        } else {
            Err(self.no_bucket().into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(
            parse_url("s3://b/p/q/").unwrap(),
            ("b".to_string(), "p/q".to_string())
        );
        assert_eq!(
            parse_url("s3://b").unwrap(),
            ("b".to_string(), String::new())
        );
        assert_eq!(
            parse_url("s3://b/").unwrap(),
            ("b".to_string(), String::new())
        );
        assert!(parse_url("s3:///p").is_err());
        assert!(parse_url("s3://b/p//q").is_err());
        assert!(parse_url("s3://b/../q").is_err());
        assert!(parse_url("s3://key:secret@b/q").is_err());
    }

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
