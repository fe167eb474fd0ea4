//! restic's repository strings where tangle expects a remote URL. restic's
//! `sftp:[USER@]HOST:PATH` is read as `sftp://[USER@]HOST/PATH` (a relative PATH as
//! `sftp://[USER@]HOST/~/PATH`, in the login directory, as restic reads it). restic's
//! other backend prefixes (`s3:`, `b2:`, `azure:`, `gs:`, `rest:`, …) are refused, saying what to write
//! instead. So a local directory whose name starts with one of these prefixes is given
//! as `./NAME` or as an absolute path; any other relative path, with a colon or not,
//! stays a local path.

use super::RemoteError;

/// restic's backend prefixes with no tangle form, and what to write instead.
const OTHER_BACKENDS: &[(&str, &str)] = &[
    (
        "s3:",
        "restic's s3:ENDPOINT/BUCKET/PREFIX is s3://BUCKET/PREFIX here, with the endpoint in \
         AWS_ENDPOINT (or `endpoint` in a profile's [remote.\"URL\"] table)",
    ),
    (
        "b2:",
        "restic's b2:BUCKET:PREFIX is s3://BUCKET/PREFIX here, through B2's S3-compatible \
         endpoint in AWS_ENDPOINT",
    ),
    ("rest:", "tangle has no REST server backend"),
    (
        "azure:",
        "restic's azure:CONTAINER:/PREFIX is az://CONTAINER/PREFIX here, with the account in \
         AZURE_STORAGE_ACCOUNT_NAME and AZURE_STORAGE_ACCOUNT_KEY",
    ),
    (
        "gs:",
        "restic's gs:BUCKET:/PREFIX is gs://BUCKET/PREFIX here, with the credentials in \
         GOOGLE_APPLICATION_CREDENTIALS",
    ),
    ("swift:", "tangle has no Swift backend"),
    ("rclone:", "tangle has no rclone backend"),
];

const SFTP_FORMS: &str = "restic's form is sftp:[USER@]HOST:PATH; tangle's URL is \
                          sftp://[USER@]HOST[:PORT]/ABSOLUTE/PATH or sftp://HOST/~/PATH";

/// tangle's URL for a restic repository string: `None` when `url` is not one (a tangle
/// URL or a local path), an error when tangle has no form of it.
pub(crate) fn translate(url: &str) -> Option<Result<String, RemoteError>> {
    let refuse = |why: String| {
        Some(Err(RemoteError::InvalidUrl {
            url: url.to_string(),
            reason: format!("{why}; see docs/FROM-RESTIC.md"),
        }))
    };
    // `s3://…` and `sftp://…` are tangle's own; `s3:https://…` is restic's.
    let restic = |prefix: &str| url.strip_prefix(prefix).filter(|r| !r.starts_with("//"));
    if let Some(rest) = restic("sftp:") {
        let malformed = || {
            refuse(format!(
                "{SFTP_FORMS} (a local directory of that name: ./{url})"
            ))
        };
        let Some((authority, path)) = rest.split_once(':') else {
            return malformed();
        };
        let host = authority.rsplit('@').next().unwrap_or(authority);
        if host.is_empty() || host.contains(['[', ']', '/']) || path.is_empty() {
            return malformed();
        }
        let path = match path.strip_prefix('~') {
            Some(rel) if rel.is_empty() || rel.starts_with('/') => format!("/~{rel}"),
            _ if path.starts_with('/') => path.to_string(),
            _ => format!("/~/{path}"),
        };
        return Some(Ok(format!("sftp://{authority}{path}")));
    }
    let (_, why) = OTHER_BACKENDS.iter().find(|(p, _)| restic(p).is_some())?;
    refuse(why.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(url: &str) -> String {
        translate(url).expect("a restic form").expect("translated")
    }

    #[test]
    fn sftp_forms() {
        assert_eq!(ok("sftp:user@host:/srv/repo"), "sftp://user@host/srv/repo");
        assert_eq!(ok("sftp:host:/srv/repo/"), "sftp://host/srv/repo/");
        assert_eq!(ok("sftp:host:repo"), "sftp://host/~/repo");
        assert_eq!(ok("sftp:host:~/repo"), "sftp://host/~/repo");
        assert_eq!(ok("sftp:host:~"), "sftp://host/~");
        assert_eq!(ok("sftp:a@b@host:/r"), "sftp://a@b@host/r");
        for bad in [
            "sftp:host",
            "sftp::/x",
            "sftp:host:",
            "sftp:u@:/x",
            "sftp:[::1]:/x",
        ] {
            let e = translate(bad).expect("a restic form").unwrap_err();
            assert!(e.to_string().contains("sftp://"), "{bad}: {e}");
        }
    }

    #[test]
    fn other_backends_are_refused_and_paths_left_alone() {
        let e = translate("s3:s3.amazonaws.com/b/p").unwrap().unwrap_err();
        assert!(e.to_string().contains("s3://BUCKET/PREFIX"), "{e}");
        assert!(translate("rest:http://h:8000/").unwrap().is_err());
        assert!(translate("s3:https://minio:9000/b/p").unwrap().is_err());
        for local in [
            "dir",
            "a:b",
            "./sftp:host:/x",
            "/srv/sftp:x:y",
            "backup:2024/x",
        ] {
            assert!(translate(local).is_none(), "{local}");
        }
        for url in ["sftp://h/x", "s3://b/p", "file:///x"] {
            assert!(translate(url).is_none(), "{url}");
        }
    }
}
