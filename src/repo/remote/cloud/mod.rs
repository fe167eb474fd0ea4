//! Object stores through `object_store`: `s3://bucket/prefix` (S3 and every
//! S3-compatible store: MinIO, Backblaze B2, Cloudflare R2, Wasabi...), `az://container/prefix`
//! (Azure Blob Storage) and `gs://bucket/prefix` (Google Cloud Storage). One backend: only
//! how a store is configured differs (`s3.rs`, `azure.rs`, `gcs.rs`), each from its
//! provider's usual environment variables. Nothing secret is ever stored in the
//! repository config.
//!
//! Object stores write whole objects atomically, so `put` is a plain PUT (multipart above
//! [`MULTIPART_THRESHOLD`]) and `put_new` a create-only PUT (`If-None-Match: *` on S3 and
//! Azure, `ifGenerationMatch=0` on GCS). Buckets and containers are never created by
//! tangle. Transient failures (5xx, 429, timeouts, connection errors) are retried by
//! `object_store` with jittered exponential backoff.

use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use async_trait::async_trait;
use bytes::Bytes;
use futures::StreamExt;
use object_store::path::Path as ObjPath;
use object_store::{
    BackoffConfig, ObjectStore, ObjectStoreExt, PutMode, PutOptions, PutPayload, RetryConfig,
    WriteMultipart,
};
use tokio::sync::Semaphore;

mod azure;
mod errors;
mod gcs;
mod profile;
mod s3;

use super::recycled;
use super::retry::Policy;
use super::{ObjectInfo, Remote, RemoteError, RemoteResult, WriteAccess};
use crate::error::Result;

/// Objects larger than this are uploaded in parts by `put`.
pub(crate) const MULTIPART_THRESHOLD: usize = 16 * 1024 * 1024;
/// Size of one part of a multipart upload.
const PART_SIZE: usize = 8 * 1024 * 1024;
/// Parts of one upload in flight at once.
const PART_CONCURRENCY: usize = 4;
/// Requests of one remote in flight at once.
const MAX_REQUESTS: usize = 32;

/// Which kind of object store a [`CloudRemote`] talks to: how it is configured and how
/// messages name its parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Provider {
    S3,
    Azure,
    Gcs,
}

impl Provider {
    fn scheme(self) -> &'static str {
        match self {
            Provider::S3 => "s3",
            Provider::Azure => "az",
            Provider::Gcs => "gs",
        }
    }

    /// What the store calls the namespace objects live in.
    pub(crate) fn bucket_word(self) -> &'static str {
        match self {
            Provider::Azure => "container",
            Provider::S3 | Provider::Gcs => "bucket",
        }
    }

    /// Where the endpoint and credentials come from, for messages.
    pub(crate) fn settings(self) -> &'static str {
        match self {
            Provider::S3 => "AWS_* variables",
            Provider::Azure => "AZURE_* variables",
            Provider::Gcs => "GOOGLE_* variables",
        }
    }

    /// The setting that names the endpoint, for messages.
    pub(crate) fn endpoint_setting(self) -> &'static str {
        match self {
            Provider::S3 => "AWS_ENDPOINT",
            Provider::Azure => "AZURE_STORAGE_ENDPOINT",
            Provider::Gcs => "GOOGLE_BASE_URL",
        }
    }
}

/// The retries every store gets: the policy of `s3` remotes.
fn retry_config() -> RetryConfig {
    let policy = Policy::s3();
    RetryConfig {
        backoff: BackoffConfig {
            init_backoff: policy.base,
            max_backoff: policy.max,
            base: 2.0,
        },
        max_retries: policy.attempts.saturating_sub(1) as usize,
        retry_timeout: policy.deadline,
    }
}

/// A boolean setting as object_store reads it.
fn is_truthy(v: &str) -> bool {
    matches!(
        v.to_ascii_lowercase().as_str(),
        "1" | "true" | "on" | "yes" | "y"
    )
}

/// The HTTP client's limits for every store: a request may take 2 minutes, connecting 10
/// seconds.
fn client_options() -> object_store::ClientOptions {
    object_store::ClientOptions::new()
        .with_timeout(std::time::Duration::from_secs(120))
        .with_connect_timeout(std::time::Duration::from_secs(10))
}

/// `(key, value)` pairs of the environment whose key starts with `prefix`, with
/// `overrides` in place of the environment's (a profile's `[remote."URL"]` table).
fn settings_from_env(prefix: &str, overrides: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .filter(|(k, _)| k.starts_with(prefix))
        .collect();
    for (k, v) in overrides {
        env.retain(|(ek, _)| ek != k);
        env.push((k.to_string(), v.to_string()));
    }
    // An empty variable counts as unset, as in the shells' `${VAR:-}`.
    env.retain(|(_, v)| !v.is_empty());
    env
}

/// A remote in an object store (S3, Azure Blob Storage, Google Cloud Storage).
pub struct CloudRemote {
    url: String,
    provider: Provider,
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
    store: Arc<dyn ObjectStore>,
    requests: Semaphore,
    /// The bucket was seen to exist.
    bucket_ok: AtomicBool,
}

impl CloudRemote {
    /// A remote on `store`, at `bucket`/`prefix` (from [`parse_url`]), whose endpoint
    /// messages name as `endpoint`; an https endpoint with its credentials configured.
    fn new(
        url: &str,
        provider: Provider,
        (bucket, prefix): (String, String),
        endpoint: String,
        store: Arc<dyn ObjectStore>,
    ) -> CloudRemote {
        CloudRemote {
            url: url.to_string(),
            provider,
            bucket,
            prefix,
            endpoint,
            plain_http: false,
            metadata_endpoint: None,
            store,
            requests: Semaphore::new(MAX_REQUESTS),
            bucket_ok: AtomicBool::new(false),
        }
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

/// Split `SCHEME://bucket/some/prefix` into the bucket and the prefix.
fn parse_url(url: &str, provider: Provider) -> RemoteResult<(String, String)> {
    let bad = |reason: &str| RemoteError::InvalidUrl {
        url: url.to_string(),
        reason: reason.to_string(),
    };
    let (scheme, word) = (provider.scheme(), provider.bucket_word());
    let upper = word.to_ascii_uppercase();
    let rest = (url.strip_prefix(scheme))
        .and_then(|r| r.strip_prefix("://"))
        .ok_or_else(|| bad(&format!("not an {scheme}:// URL")))?;
    let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
    if bucket.is_empty() {
        return Err(bad(&format!(
            "the URL names no {word} (use {scheme}://{upper}/PREFIX)"
        )));
    }
    if bucket.contains(['?', '#', '@', ':']) || prefix.contains(['?', '#']) {
        return Err(bad(&format!(
            "use {scheme}://{upper}/PREFIX (endpoint and credentials come from {})",
            provider.settings()
        )));
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
impl Remote for CloudRemote {
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
    fn urls_of_every_provider() {
        let ok = |u, provider, bucket: &str, prefix: &str| {
            let got = parse_url(u, provider).map_err(|e| e.to_string());
            assert_eq!(got, Ok((bucket.to_string(), prefix.to_string())), "{u}");
        };
        ok("s3://b/p/q/", Provider::S3, "b", "p/q");
        ok("s3://b", Provider::S3, "b", "");
        ok("s3://b/", Provider::S3, "b", "");
        ok("gs://b/p/q", Provider::Gcs, "b", "p/q");
        ok("az://c/p/", Provider::Azure, "c", "p");
        let bad = [
            ("s3:///p", Provider::S3),
            ("s3://b/p//q", Provider::S3),
            ("s3://b/../q", Provider::S3),
            ("s3://key:secret@b/q", Provider::S3),
            ("gs://", Provider::Gcs),
            ("gs://b/../q", Provider::Gcs),
            ("az:///p", Provider::Azure),
            ("s3://c/p", Provider::Azure),
        ];
        for (u, provider) in bad {
            assert!(parse_url(u, provider).is_err(), "{u}");
        }
        let e = parse_url("az://account@c/p", Provider::Azure).unwrap_err();
        assert!(e.to_string().contains("AZURE_* variables"), "{e}");
    }
}
