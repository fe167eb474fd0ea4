//! Translating `object_store` errors into [`RemoteError`]s: the error variant and the
//! HTTP layer's error kind where `object_store` exposes them as types, and S3's error
//! code (`<Code>NoSuchBucket</Code>` in the response body) where it does not: the body
//! of a failed request reaches us only inside the error's text (its status and body live
//! in a type private to `object_store`).

use object_store::client::{HttpError, HttpErrorKind};

use super::{CloudRemote, Provider};
use crate::remote::RemoteError;

/// The S3 error codes tangle tells apart (from the response body).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Code {
    NoSuchBucket,
    NoSuchKey,
    /// Credentials or permissions: which code says what to check.
    Denied(&'static str),
    Other(String),
}

impl Code {
    fn parse(code: &str) -> Code {
        match code {
            // S3's codes, then Azure's (its error bodies are XML with a <Code> too).
            "NoSuchBucket" | "ContainerNotFound" => Code::NoSuchBucket,
            "NoSuchKey" | "BlobNotFound" => Code::NoSuchKey,
            "AuthenticationFailed" => Code::Denied("AuthenticationFailed"),
            "AuthorizationFailure" => Code::Denied("AuthorizationFailure"),
            "AuthorizationPermissionMismatch" => Code::Denied("AuthorizationPermissionMismatch"),
            "InvalidAccessKeyId" => Code::Denied("InvalidAccessKeyId"),
            "SignatureDoesNotMatch" => Code::Denied("SignatureDoesNotMatch"),
            "ExpiredToken" => Code::Denied("ExpiredToken"),
            "InvalidToken" => Code::Denied("InvalidToken"),
            "AccessDenied" => Code::Denied("AccessDenied"),
            "AllAccessDisabled" => Code::Denied("AllAccessDisabled"),
            other => Code::Other(other.to_string()),
        }
    }
}

impl CloudRemote {
    /// Translate an `object_store` error on `path` into ours, naming the remote.
    pub(super) fn err(&self, path: &str, e: object_store::Error) -> RemoteError {
        let text = error_text(&e);
        let code = s3_code(&text).map(|c| Code::parse(&c));
        let (url, path_s) = (self.url.clone(), path.to_string());
        if let Some(what) = self.setting_missing(&text) {
            return RemoteError::Misconfigured {
                url,
                what,
                source: Some(e.into()),
            };
        }
        if code == Some(Code::NoSuchBucket) {
            return self.no_bucket();
        }
        let denied = matches!(
            e,
            object_store::Error::PermissionDenied { .. }
                | object_store::Error::Unauthenticated { .. }
        );
        if denied || matches!(code, Some(Code::Denied(_))) {
            let general = self.provider.denied_hint();
            let (hint, detail) = match &code {
                Some(Code::Denied(c)) => (
                    match *c {
                        "InvalidAccessKeyId" => "check AWS_ACCESS_KEY_ID",
                        "SignatureDoesNotMatch" => "check AWS_SECRET_ACCESS_KEY",
                        "ExpiredToken" | "InvalidToken" => "check AWS_SESSION_TOKEN",
                        _ => general,
                    },
                    format!(": {c}"),
                ),
                Some(Code::Other(c)) => (general, format!(": {c}")),
                _ => (general, String::new()),
            };
            return RemoteError::Denied {
                url,
                path: path_s,
                why: format!("access denied ({hint}){detail}"),
            };
        }
        if matches!(e, object_store::Error::NotFound { .. }) || code == Some(Code::NoSuchKey) {
            return RemoteError::NotFound { url, path: path_s };
        }
        if is_connect_error(&e) {
            return RemoteError::Unreachable {
                url,
                what: format!(
                    "cannot reach {} (check AWS_ENDPOINT and the network): {}",
                    self.endpoint,
                    short(&text)
                ),
                source: Some(e.into()),
            };
        }
        RemoteError::Backend {
            url,
            path: path_s,
            what: short(&text),
            source: Some(e.into()),
        }
    }

    pub(super) fn no_bucket(&self) -> RemoteError {
        RemoteError::NoBucket {
            url: self.url.clone(),
            bucket: self.bucket.clone(),
            endpoint: self.endpoint.clone(),
            word: self.provider.bucket_word(),
            setting: self.provider.endpoint_setting(),
        }
    }

    /// What to set when a request failed because a setting is missing, not because of
    /// the server: a plain-http endpoint that is not allowed (every request fails before
    /// it is sent), or no credentials anywhere (the instance metadata service, tried
    /// last, gave none either: the error names its address).
    fn setting_missing(&self, text: &str) -> Option<String> {
        let table = format!("the profile's [remote.\"{}\"] table", self.url);
        if self.plain_http {
            return Some(format!(
                "the endpoint {} is plain http: set {}=true (or allow_http = true in \
                 {table}), or use https; see docs/REMOTES.md",
                self.endpoint,
                match self.provider {
                    Provider::Azure => "AZURE_ALLOW_HTTP",
                    Provider::S3 | Provider::Gcs => "AWS_ALLOW_HTTP",
                }
            ));
        }
        if self.provider == Provider::Gcs && text.contains("computeMetadata") {
            return Some(format!(
                "no Google Cloud credentials found: set GOOGLE_SERVICE_ACCOUNT (or \
                 GOOGLE_APPLICATION_CREDENTIALS) to a service account's JSON key file, or \
                 service_account in {table}; the instance metadata service had none either; \
                 see docs/REMOTES.md"
            ));
        }
        let metadata = self.metadata_endpoint.as_deref()?;
        text.contains(metadata).then(|| {
            format!(
                "no S3 credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or \
                 access_key_id and secret_access_key in {table}, or a profile of \
                 ~/.aws/credentials with AWS_PROFILE); the EC2 instance metadata service at \
                 {metadata} had none either; see docs/REMOTES.md"
            )
        })
    }
}

impl Provider {
    fn denied_hint(self) -> &'static str {
        match self {
            Provider::S3 => "check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and the bucket policy",
            Provider::Azure => {
                "check AZURE_STORAGE_ACCOUNT_NAME, the account key or SAS token, and the \
                 container's access policy"
            }
            Provider::Gcs => "check GOOGLE_SERVICE_ACCOUNT and the bucket's permissions",
        }
    }
}

/// An error and all its causes, each once.
pub(super) fn error_text(e: &dyn std::error::Error) -> String {
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

/// Whether the request never got an answer: the HTTP client's own error kind, found
/// in the chain of causes (after `object_store` gave up retrying).
fn is_connect_error(e: &object_store::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if let Some(h) = s.downcast_ref::<HttpError>() {
            return matches!(
                h.kind(),
                HttpErrorKind::Connect
                    | HttpErrorKind::Request
                    | HttpErrorKind::Timeout
                    | HttpErrorKind::Interrupted
            );
        }
        source = s.source();
    }
    false
}

/// Keep error messages readable: one line, bounded length.
pub(super) fn short(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 600 {
        let cut: String = one_line.chars().take(600).collect();
        format!("{cut}...")
    } else {
        one_line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes() {
        assert_eq!(
            s3_code("... <Error><Code>NoSuchBucket</Code><Message>x</Message>").as_deref(),
            Some("NoSuchBucket")
        );
        assert_eq!(s3_code("nothing"), None);
        assert_eq!(Code::parse("NoSuchBucket"), Code::NoSuchBucket);
        assert_eq!(
            Code::parse("SignatureDoesNotMatch"),
            Code::Denied("SignatureDoesNotMatch")
        );
    }

    #[test]
    fn connect_errors_are_found_by_kind() {
        let e = object_store::Error::Generic {
            store: "S3",
            source: Box::new(HttpError::new(
                HttpErrorKind::Connect,
                std::io::Error::other("refused"),
            )),
        };
        assert!(is_connect_error(&e));
        let e = object_store::Error::Generic {
            store: "S3",
            source: Box::new(std::io::Error::other("connection refused")),
        };
        assert!(!is_connect_error(&e));
    }
}
