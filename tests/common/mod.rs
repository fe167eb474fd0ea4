//! Shared helpers for the integration tests, used everywhere as `mod common;` (most
//! files then `use common::*;`). By concept:
//!
//! * [`command`]: the `tangle` binary in a clean environment; running it and checking
//!   its output (exit codes, no panic).
//! * [`repo`]: [`Repo`], a repository over three local remote directories inside one
//!   temp dir with an isolated HOME / cache; cheap init options for the library.
//! * [`report`]: parsing `--json` output (backup, verify, repair reports).
//! * [`fsutil`]: deterministic data, files, modes, nanosecond mtimes, FIFOs, copies.
//! * [`awkward`] and [`trees`]: the source trees, all generated (nothing is copied from
//!   the system, so the tests are hermetic).
//! * [`manifest`]: a sorted, printable description of a tree, compared with a
//!   per-entry diff.
//! * [`remote_dirs`]: the state of remote directories and the damage tests do to them.
//! * [`servers`]: the S3 / SFTP test servers (not re-exported: use `common::servers`).

// Each test binary compiles all of this and uses only a part of it; the unused rest
// is not an error.
#![allow(dead_code, unused_imports)]

// The tests drive test-only remotes (memory://, the fault-injecting wrapper) and write to
// remotes directly, which only the `testing` feature allows.
#[cfg(not(feature = "testing"))]
compile_error!(
    "the tests need the `testing` feature: run scripts/test.sh, or cargo test --features testing"
);

pub mod awkward;
pub mod command;
pub mod fsutil;
pub mod manifest;
pub mod remote_dirs;
pub mod repo;
pub mod report;
/// Test fixtures for the remote backends: which backends are configured (from the
/// environment written by `scripts/test-servers.sh`), a fresh remote per test, and
/// helpers shared by the conformance tests.
pub mod servers;
pub mod trees;

pub use awkward::*;
pub use command::*;
pub use fsutil::*;
pub use manifest::*;
pub use remote_dirs::*;
pub use repo::*;
pub use report::*;
pub use trees::*;
