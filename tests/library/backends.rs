//! Fresh remotes of every backend for the conformance suite: which backends are
//! configured (from the environment written by `scripts/test-servers.sh`), a fresh remote
//! per test, and the data and ssh settings the cases use.

use std::path::{Path, PathBuf};

use bytes::Bytes;
use tangle::remote::DynRemote;
use tempfile::TempDir;

use crate::shared::servers::{
    AZURE_VARS, MOTO_VARS, RCLONE_VARS, S3_VARS, SFTP_VARS, rclone_local_dir, require, unique, var,
};

/// These tests change remotes directly (the `testing` feature grants it).
const W: tangle::remote::WriteAccess = tangle::remote::WriteAccess::for_tests();

/// A backend, and for S3 and SFTP which server implementation answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Local,
    Memory,
    /// s3s-fs.
    S3,
    /// OpenSSH (sshd, or its `sftp-server` run directly).
    Sftp,
    /// moto, the AWS mock.
    S3Moto,
    /// `rclone serve sftp` (github.com/pkg/sftp).
    SftpRclone,
    /// Azure Blob Storage: Azurite, Microsoft's emulator.
    Azure,
}

impl Backend {
    /// An object store (S3 or Azure): no directories, buckets that exist before `create`.
    pub fn is_object_store(self) -> bool {
        matches!(self, Backend::S3 | Backend::S3Moto | Backend::Azure)
    }

    pub fn is_sftp(self) -> bool {
        matches!(self, Backend::Sftp | Backend::SftpRclone)
    }
}

/// The settings that point an `s3://` URL at moto instead of the default endpoint.
pub fn moto_settings() -> tangle::remote::RemoteSettings {
    tangle::remote::RemoteSettings {
        env: vec![(
            "AWS_ENDPOINT".to_string(),
            var("TANGLE_TEST_MOTO_ENDPOINT").unwrap_or_default(),
        )],
        ..Default::default()
    }
}

/// A fresh, empty remote of one backend.
pub struct Fixture {
    pub backend: Backend,
    pub url: String,
    pub remote: DynRemote,
    /// The remote's root as a local directory, where the test can reach it (local
    /// remotes, and SFTP to a server on this machine): used to plant stray files.
    pub local_dir: Option<PathBuf>,
    _tmp: Option<TempDir>,
}

/// The URL of a fresh remote for `test` on `backend`, `None` if the backend is not
/// configured here (outside CI).
pub fn fresh_url(backend: Backend, test: &str) -> Option<(String, Option<TempDir>)> {
    let name = unique(test);
    Some(match backend {
        Backend::Local => {
            let tmp = tempfile::tempdir().expect("temp dir");
            let root = tmp.path().join("remote");
            (root.to_string_lossy().into_owned(), Some(tmp))
        }
        Backend::Memory => (format!("memory://{name}"), None),
        Backend::S3 => {
            if !require("S3", S3_VARS) {
                return None;
            }
            let bucket = var("TANGLE_TEST_S3_BUCKET")?;
            (format!("s3://{bucket}/conformance/{name}"), None)
        }
        Backend::Sftp => {
            if !require("SFTP", SFTP_VARS) {
                return None;
            }
            let base = var("TANGLE_TEST_SFTP_URL")?;
            (format!("{}/{name}", base.trim_end_matches('/')), None)
        }
        Backend::S3Moto => {
            if !require("moto S3", MOTO_VARS) {
                return None;
            }
            let bucket = var("TANGLE_TEST_MOTO_BUCKET")?;
            (format!("s3://{bucket}/conformance/{name}"), None)
        }
        Backend::SftpRclone => {
            if !require("rclone SFTP", RCLONE_VARS) {
                return None;
            }
            let base = var("TANGLE_TEST_RCLONE_SFTP_URL")?;
            (format!("{}/{name}", base.trim_end_matches('/')), None)
        }
        Backend::Azure => {
            if !require("Azure (Azurite)", AZURE_VARS) {
                return None;
            }
            let container = var("TANGLE_TEST_AZURE_CONTAINER")?;
            (format!("az://{container}/conformance/{name}"), None)
        }
    })
}

/// Open a fresh remote through `tangle::remote::open` (so the URL dispatch is tested
/// too); `create` it unless `create` is false.
pub async fn fixture(backend: Backend, test: &str, create: bool) -> Option<Fixture> {
    let (url, tmp) = fresh_url(backend, test)?;
    let settings = match backend {
        Backend::S3Moto => moto_settings(),
        _ => Default::default(),
    };
    let remote =
        tangle::remote::open_with(&url, &settings).unwrap_or_else(|e| panic!("opening {url}: {e}"));
    if create {
        remote
            .create(W)
            .await
            .unwrap_or_else(|e| panic!("creating {url}: {e}"));
    }
    let local_dir = match backend {
        Backend::Local => Some(PathBuf::from(&url)),
        Backend::Sftp => sftp_local_dir(&url),
        Backend::SftpRclone => rclone_local_dir(&url),
        _ => None,
    };
    Some(Fixture {
        backend,
        url,
        remote,
        local_dir,
        _tmp: tmp,
    })
}

/// The directory of `sftp://user@127.0.0.1:port/dir` on this machine, if the server
/// is local.
fn sftp_local_dir(url: &str) -> Option<PathBuf> {
    let rest = url.strip_prefix("sftp://")?;
    let (authority, path) = rest.split_at(rest.find('/')?);
    let host = authority.rsplit('@').next()?;
    let host = host.rsplit_once(':').map(|(h, _)| h).unwrap_or(host);
    if (host == "127.0.0.1" || host == "localhost") && !path.starts_with("/~") {
        Some(PathBuf::from(path))
    } else {
        None
    }
}

/// `len` deterministic pseudo-random bytes (xorshift), different for each `seed`.
pub fn pattern(len: usize, seed: u64) -> Bytes {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut v = Vec::with_capacity(len + 8);
    while v.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.extend_from_slice(&x.to_le_bytes());
    }
    v.truncate(len);
    Bytes::from(v)
}

/// Write an ssh_config for negative tests: the test servers' client key, the given
/// known_hosts file, strict checking.
pub fn write_ssh_config(dir: &Path, key: &str, known_hosts: &Path) -> PathBuf {
    let cfg = dir.join("ssh_config");
    std::fs::write(
        &cfg,
        format!(
            "Host *\n  IdentityFile {key}\n  IdentitiesOnly yes\n  UserKnownHostsFile {}\n  \
             GlobalKnownHostsFile /dev/null\n  StrictHostKeyChecking yes\n  BatchMode yes\n  \
             ConnectTimeout 10\n",
            known_hosts.display()
        ),
    )
    .expect("writing ssh_config");
    cfg
}
