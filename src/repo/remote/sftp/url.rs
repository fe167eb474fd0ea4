//! `sftp://[user@]host[:port]/path` URLs, and the path arithmetic on the server side.

use crate::remote::{RemoteError, RemoteResult};

/// Where the repository lives: parsed from the URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Target {
    pub(crate) user: Option<String>,
    pub(crate) host: String,
    pub(crate) port: Option<u16>,
    /// Absolute (`/srv/backup`, `/`) or relative to the login directory (`backup`, `.`).
    pub(crate) root: String,
}

/// `dir/name` (without doubling a trailing slash of `dir`).
pub(super) fn join(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

/// The parent directory of a path: `/a/b` → `/a`, `/a` → `/`, `a/b` → `a`, `a` → None.
pub(super) fn parent(path: &str) -> Option<&str> {
    match path.rsplit_once('/') {
        Some(("", _)) if path.len() > 1 => Some("/"),
        Some(("", _)) => None,
        Some((p, _)) => Some(p),
        None => None,
    }
}

/// Parse `sftp://[user@]host[:port]/path` (`/~/path`: relative to the login directory).
pub(super) fn parse_url(url: &str) -> RemoteResult<Target> {
    let bad = |why: &str| RemoteError::InvalidUrl {
        url: url.to_string(),
        reason: format!(
            "{why} (use sftp://[USER@]HOST[:PORT]/ABSOLUTE/PATH or sftp://HOST/~/PATH)"
        ),
    };
    let rest = url
        .strip_prefix("sftp://")
        .ok_or_else(|| bad("not an sftp:// URL"))?;
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => return Err(bad("the URL has no path")),
    };
    let (user, hostport) = match authority.rsplit_once('@') {
        Some((u, h)) => (Some(u), h),
        None => (None, authority),
    };
    let (host, port) = if let Some(v6) = hostport.strip_prefix('[') {
        let (h, after) = v6
            .split_once(']')
            .ok_or_else(|| bad("unclosed [ in the host"))?;
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':').ok_or_else(|| bad("junk after ]"))?),
        };
        (h, port)
    } else {
        match hostport.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (hostport, None),
        }
    };
    let port = match port {
        None | Some("") => None,
        Some(p) => Some(
            p.parse::<u16>()
                .ok()
                .filter(|p| *p != 0)
                .ok_or_else(|| bad("the port is not a number from 1 to 65535"))?,
        ),
    };
    if host.is_empty() {
        return Err(bad("the URL names no host"));
    }
    let unsafe_arg = |s: &str| s.starts_with('-') || s.chars().any(|c| c.is_whitespace());
    if unsafe_arg(host) || user.is_some_and(|u| u.is_empty() || unsafe_arg(u)) {
        return Err(bad("invalid user or host name"));
    }
    if path.contains(['\0', '\n', '?', '#']) {
        return Err(bad("invalid characters in the path"));
    }
    let root = if path == "/~" || path.starts_with("/~/") {
        let rel = path[2..].trim_matches('/');
        if rel.is_empty() {
            ".".to_string()
        } else {
            rel.to_string()
        }
    } else {
        let p = path.trim_end_matches('/');
        if p.is_empty() {
            "/".to_string()
        } else {
            p.to_string()
        }
    };
    Ok(Target {
        user: user.map(str::to_string),
        host: host.to_string(),
        port,
        root,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(user: Option<&str>, host: &str, port: Option<u16>, root: &str) -> Target {
        Target {
            user: user.map(str::to_string),
            host: host.to_string(),
            port,
            root: root.to_string(),
        }
    }

    #[test]
    fn urls() {
        assert_eq!(
            parse_url("sftp://u@h:2222/srv/backup/").unwrap(),
            t(Some("u"), "h", Some(2222), "/srv/backup")
        );
        assert_eq!(parse_url("sftp://h/~/b").unwrap(), t(None, "h", None, "b"));
        assert_eq!(parse_url("sftp://h/~").unwrap(), t(None, "h", None, "."));
        assert_eq!(parse_url("sftp://h/~/").unwrap(), t(None, "h", None, "."));
        assert_eq!(parse_url("sftp://h/").unwrap(), t(None, "h", None, "/"));
        assert_eq!(
            parse_url("sftp://me@[::1]:22/x").unwrap(),
            t(Some("me"), "::1", Some(22), "/x")
        );
        assert_eq!(
            parse_url("sftp://alias/~user/x").unwrap(),
            t(None, "alias", None, "/~user/x")
        );
        for bad in [
            "sftp://h",
            "sftp:///x",
            "sftp://-oProxyCommand=x/y",
            "sftp://-l@h/y",
            "sftp://h:0/x",
            "sftp://h:99999/x",
            "sftp://h:p/x",
            "sftp://@h/x",
        ] {
            assert!(parse_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn paths() {
        assert_eq!(parent("/a/b"), Some("/a"));
        assert_eq!(parent("/a"), Some("/"));
        assert_eq!(parent("/"), None);
        assert_eq!(parent("a/b"), Some("a"));
        assert_eq!(parent("a"), None);
        assert_eq!(join("/", "x"), "/x");
        assert_eq!(join("/a", "x"), "/a/x");
        assert_eq!(join(".", "x"), "./x");
    }
}
