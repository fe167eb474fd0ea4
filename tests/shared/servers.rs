//! The S3 / SFTP test servers (and the second implementation of each) (`scripts/test-servers.sh`): whether they are configured
//! here, unique names on them, and a runtime like `tangle`'s for reaching remotes
//! through the library.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Variables the S3 tests need (besides optional AWS_ALLOW_HTTP / AWS_DEFAULT_REGION).
pub const S3_VARS: &[&str] = &[
    "TANGLE_TEST_S3_BUCKET",
    "AWS_ENDPOINT",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
];
/// Variables the SFTP tests need.
pub const SFTP_VARS: &[&str] = &[
    "TANGLE_TEST_SFTP_URL",
    "TANGLE_SSH_COMMAND",
    "TANGLE_TEST_SSH_KEY",
];

/// Variables the tests against moto (the second S3 implementation) need.
pub const MOTO_VARS: &[&str] = &["TANGLE_TEST_MOTO_ENDPOINT", "TANGLE_TEST_MOTO_BUCKET"];
/// Variables the tests against Azurite (Azure Blob Storage) need.
pub const AZURE_VARS: &[&str] = &[
    "AZURE_STORAGE_USE_EMULATOR",
    "AZURITE_BLOB_STORAGE_URL",
    "TANGLE_TEST_AZURE_CONTAINER",
];
/// Variables the tests against `rclone serve sftp` (the second SFTP implementation) need.
pub const RCLONE_VARS: &[&str] = &[
    "TANGLE_TEST_RCLONE_SFTP_URL",
    "TANGLE_TEST_RCLONE_DIR",
    "TANGLE_SSH_COMMAND",
];

pub fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// Whether we run in CI, where a test that cannot run must fail, not skip.
pub fn in_ci() -> bool {
    var("CI").is_some_and(|v| v != "false" && v != "0")
}

/// `true` if all `vars` are set. Otherwise: in CI, fail the test; elsewhere print a
/// note and return `false` so that the caller skips.
pub fn require(what: &str, vars: &[&str]) -> bool {
    let missing: Vec<&str> = vars.iter().copied().filter(|v| var(v).is_none()).collect();
    if missing.is_empty() {
        return true;
    }
    let msg = format!(
        "{what} tests need {} (start the servers with `scripts/test-servers.sh start` and \
         load their settings with `eval \"$(scripts/test-servers.sh env)\"`)",
        missing.join(", ")
    );
    if in_ci() {
        panic!("CI is set but the {what} test servers are not configured: {msg}");
    }
    // Once per kind of server, and past the test harness's output capture, so that
    // the skip is seen in a normal `cargo test` run.
    static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut said = SAID.lock().unwrap_or_else(|p| p.into_inner());
    if !said.iter().any(|w| w == what) {
        said.push(what.to_string());
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "note: skipping {what} tests: {msg}");
    }
    false
}

/// A name no other test (or earlier run) uses.
pub fn unique(name: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(
        "{name}-{}-{}-{nanos:08x}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// A multi-threaded runtime like the one `tangle` uses.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime")
}

/// OpenSSH's SFTP server program, which serves a local directory when run in place of
/// ssh (see [`sftp_server_command`]): SFTP without sshd. `None` (with a note, or a
/// failure in CI) where it is not installed.
pub fn sftp_server() -> Option<&'static str> {
    let found = [
        "/usr/lib/openssh/sftp-server",
        "/usr/lib/sftp-server",
        "/usr/libexec/openssh/sftp-server",
        "/usr/libexec/sftp-server",
    ]
    .into_iter()
    .find(|p| std::path::Path::new(p).is_file());
    if found.is_none() {
        let why = "no sftp-server binary (install openssh-sftp-server)";
        assert!(!in_ci(), "CI is set but there is {why}");
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "note: skipping sftp-server tests: {why}");
    }
    found
}

/// The "ssh command" that runs the `sftp-server` program `bin` here: the inner shell
/// takes the ssh arguments tangle appends as its own positional parameters and ignores
/// them.
pub fn sftp_server_command(bin: &str) -> String {
    format!("sh -c 'exec {bin}' --")
}

/// Where rclone keeps `sftp://…/NAME` of its served root: `TANGLE_TEST_RCLONE_DIR/NAME`.
pub fn rclone_local_dir(url: &str) -> Option<PathBuf> {
    let base = var("TANGLE_TEST_RCLONE_SFTP_URL")?;
    let rel = url.strip_prefix(base.trim_end_matches('/'))?;
    Some(PathBuf::from(var("TANGLE_TEST_RCLONE_DIR")?).join(rel.trim_start_matches('/')))
}
