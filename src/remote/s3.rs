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

use super::retry::Policy;
use super::{ObjectInfo, Remote};
use crate::error::{Error, Kind, Result};

/// Objects larger than this are uploaded in parts by `put`.
pub const MULTIPART_THRESHOLD: usize = 16 * 1024 * 1024;
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
    endpoint: String,
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
            for (k, v) in
                profile_settings(&get).map_err(|e| Error::usage(format!("remote {url}: {e}")))?
            {
                builder = builder.with_config(k, v);
            }
        }
        for (k, v) in &env {
            if let Ok(key) = k.to_ascii_lowercase().parse::<AmazonS3ConfigKey>() {
                builder = builder.with_config(key, v.clone());
            }
        }
        builder = builder.with_bucket_name(&bucket);
        let endpoint = builder
            .get_config_value(&AmazonS3ConfigKey::Endpoint)
            .unwrap_or_else(|| "the AWS S3 endpoint".to_string());
        let store = builder.build().map_err(|e| {
            Error::usage(format!(
                "remote {url}: invalid S3 configuration: {}",
                error_text(&e)
            ))
        })?;
        Ok(S3Remote {
            url: url.to_string(),
            bucket,
            prefix,
            endpoint,
            store: Arc::new(store),
            requests: Semaphore::new(MAX_REQUESTS),
            bucket_ok: AtomicBool::new(false),
        })
    }

    fn key(&self, path: &str) -> Result<ObjPath> {
        super::check_path(&self.url, path)?;
        let full = if self.prefix.is_empty() {
            path.to_string()
        } else {
            format!("{}/{path}", self.prefix)
        };
        ObjPath::parse(&full).map_err(|e| {
            Error::fatal(format!(
                "remote {}: invalid object path {path:?}: {e}",
                self.url
            ))
        })
    }

    /// Translate an `object_store` error into ours, naming the remote and classifying it.
    fn err(&self, path: &str, e: object_store::Error) -> Error {
        let text = error_text(&e);
        let code = s3_code(&text);
        let what = if path.is_empty() {
            String::new()
        } else {
            format!("{path}: ")
        };
        if code.as_deref() == Some("NoSuchBucket") {
            return self.no_bucket();
        }
        let denied = matches!(
            e,
            object_store::Error::PermissionDenied { .. }
                | object_store::Error::Unauthenticated { .. }
        ) || matches!(
            code.as_deref(),
            Some(
                "AccessDenied"
                    | "SignatureDoesNotMatch"
                    | "InvalidAccessKeyId"
                    | "InvalidToken"
                    | "ExpiredToken"
                    | "AllAccessDisabled"
            )
        ) || text.contains("403 Forbidden")
            || text.contains("401 Unauthorized");
        if denied {
            let hint = match code.as_deref() {
                Some("InvalidAccessKeyId") => "check AWS_ACCESS_KEY_ID",
                Some("SignatureDoesNotMatch") => "check AWS_SECRET_ACCESS_KEY",
                Some("ExpiredToken" | "InvalidToken") => "check AWS_SESSION_TOKEN",
                _ => "check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and the bucket policy",
            };
            let detail = code.map(|c| format!(": {c}")).unwrap_or_default();
            return Error::fatal(format!(
                "remote {}: {what}access denied ({hint}){detail}",
                self.url
            ));
        }
        if matches!(e, object_store::Error::NotFound { .. }) || code.as_deref() == Some("NoSuchKey")
        {
            return Error::not_found(format!("remote {}: {what}not found", self.url));
        }
        if is_connect_error(&text) {
            return Error::fatal(format!(
                "remote {}: cannot reach {} (check AWS_ENDPOINT and the network): {}",
                self.url,
                self.endpoint,
                short(&text)
            ));
        }
        Error::fatal(format!("remote {}: {what}{}", self.url, short(&text)))
    }

    /// Like [`err`](Self::err), but a "not found" from a bucket not yet seen to exist is
    /// checked: a missing bucket must not look like a missing object.
    async fn check(&self, path: &str, e: object_store::Error) -> Error {
        let err = self.err(path, e);
        if err.kind() == Kind::NotFound && !self.bucket_ok.load(Ordering::Relaxed) {
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

    async fn bucket_exists(&self) -> Result<bool> {
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
            Some(Err(e)) => {
                let err = self.err("", e);
                if err.message() == self.no_bucket().message() {
                    Ok(false)
                } else {
                    Err(err)
                }
            }
        }
    }

    fn no_bucket(&self) -> Error {
        Error::fatal(format!(
            "remote {}: bucket {} does not exist (tangle does not create S3 buckets; create it first)",
            self.url, self.bucket
        ))
    }

    async fn permit(&self) -> Result<tokio::sync::SemaphorePermit<'_>> {
        self.requests
            .acquire()
            .await
            .map_err(|_| Error::fatal(format!("remote {}: closed", self.url)))
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

/// Split `s3://bucket/some/prefix` into the bucket and the prefix.
fn parse_url(url: &str) -> Result<(String, String)> {
    let rest = url
        .strip_prefix("s3://")
        .ok_or_else(|| Error::usage(format!("remote {url}: not an s3:// URL")))?;
    let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
    if bucket.is_empty() {
        return Err(Error::usage(format!(
            "remote {url}: the URL names no bucket (use s3://BUCKET/PREFIX)"
        )));
    }
    if bucket.contains(['?', '#', '@', ':']) || prefix.contains(['?', '#']) {
        return Err(Error::usage(format!(
            "remote {url}: use s3://BUCKET/PREFIX (endpoint and credentials come from AWS_* variables)"
        )));
    }
    let prefix = prefix.trim_matches('/');
    if prefix
        .split('/')
        .any(|c| c == "." || c == ".." || (c.is_empty() && !prefix.is_empty()))
    {
        return Err(Error::usage(format!(
            "remote {url}: the prefix must not contain empty, . or .. components"
        )));
    }
    Ok((bucket.to_string(), prefix.to_string()))
}

/// Settings from the shared AWS profile files, as `object_store` config keys.
fn profile_settings(
    get: &dyn Fn(&str) -> Option<String>,
) -> std::result::Result<Vec<(AmazonS3ConfigKey, String)>, String> {
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
    let config = file("AWS_CONFIG_FILE", "config")
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|t| ini_section(&t, &[format!("profile {name}"), name.clone()]));
    if creds.is_none() && config.is_none() {
        return match explicit {
            Some(p) => Err(format!(
                "AWS_PROFILE={p}: no such profile in ~/.aws/credentials or ~/.aws/config"
            )),
            None => Ok(Vec::new()),
        };
    }
    let mut out = Vec::new();
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
        if current == Some(true) {
            if let Some((k, v)) = line.split_once('=') {
                out.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
            }
        }
    }
    found.then_some(out)
}

/// An error and all its causes, each once.
fn error_text(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let t = s.to_string();
        if !text.contains(&t) {
            text.push_str(": ");
            text.push_str(&t);
        }
        source = s.source();
    }
    text
}

/// The S3 error code (`<Code>NoSuchBucket</Code>`) in a response body, if any.
fn s3_code(text: &str) -> Option<String> {
    let start = text.find("<Code>")? + "<Code>".len();
    let len = text[start..].find("</Code>")?;
    Some(text[start..start + len].to_string())
}

fn is_connect_error(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    [
        "connection refused",
        "error sending request",
        "dns error",
        "tcp connect error",
        "connection reset",
        "timed out",
        "no route to host",
    ]
    .iter()
    .any(|p| t.contains(p))
}

/// Keep error messages readable: one line, bounded length.
fn short(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 600 {
        let cut: String = one_line.chars().take(600).collect();
        format!("{cut}...")
    } else {
        one_line
    }
}

#[async_trait]
impl Remote for S3Remote {
    fn high_latency(&self) -> bool {
        true
    }

    fn url(&self) -> &str {
        &self.url
    }

    async fn put(&self, path: &str, data: Bytes) -> Result<()> {
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
            Err(e) => Err(self.check(path, e).await),
        }
    }

    async fn put_new(&self, path: &str, data: Bytes) -> Result<bool> {
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
            Err(e) => Err(self.check(path, e).await),
        }
    }

    async fn get(&self, path: &str) -> Result<Bytes> {
        let key = self.key(path)?;
        let _permit = self.permit().await?;
        let result = match self.store.get(&key).await {
            Ok(r) => r,
            Err(e) => return Err(self.check(path, e).await),
        };
        self.seen();
        result.bytes().await.map_err(|e| self.err(path, e))
    }

    async fn get_range(&self, path: &str, offset: u64, len: u64) -> Result<Bytes> {
        let key = self.key(path)?;
        let short_err = || {
            Error::corrupt(format!(
                "remote {}: {path}: object is shorter than expected",
                self.url
            ))
        };
        let end = offset.checked_add(len).ok_or_else(short_err)?;
        let _permit = self.permit().await?;
        if len == 0 {
            let meta = match self.store.head(&key).await {
                Ok(m) => m,
                Err(e) => return Err(self.check(path, e).await),
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
            Err(e @ object_store::Error::NotFound { .. }) => Err(self.check(path, e).await),
            Err(e) => {
                if self.is_short(&key, end).await {
                    Err(short_err())
                } else {
                    Err(self.check(path, e).await)
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
            Err(e) => Err(self.check(path, e).await),
        }
    }

    async fn delete(&self, path: &str) -> Result<()> {
        let key = self.key(path)?;
        let _permit = self.permit().await?;
        match self.store.delete(&key).await {
            Ok(()) => Ok(()),
            Err(e) => {
                let err = self.check(path, e).await;
                if err.kind() == Kind::NotFound {
                    Ok(())
                } else {
                    Err(err)
                }
            }
        }
    }

    async fn list(&self, prefix: &str) -> Result<Vec<ObjectInfo>> {
        let dir = prefix.trim_matches('/');
        let list_prefix = if dir.is_empty() {
            if self.prefix.is_empty() {
                None
            } else {
                Some(ObjPath::parse(&self.prefix).map_err(|e| {
                    Error::fatal(format!("remote {}: invalid prefix: {e}", self.url))
                })?)
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
                Err(e) => return Err(self.check(prefix, e).await),
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
        self.bucket_exists().await
    }

    async fn create(&self) -> Result<()> {
        // Prefixes need no creating; the bucket must exist already.
        if self.exists().await? {
            Ok(())
        } else {
            Err(self.no_bucket())
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
    fn codes() {
        assert_eq!(
            s3_code("... <Error><Code>NoSuchBucket</Code><Message>x</Message>").as_deref(),
            Some("NoSuchBucket")
        );
        assert_eq!(s3_code("nothing"), None);
    }
}
