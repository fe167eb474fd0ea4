//! Helpers of the end-to-end tests, imported by name (`use crate::support::repo::Repo`).
//! By concept:
//!
//! * [`command`]: the `tangle` binary in a clean environment; running it and checking
//!   its output (exit codes, no panic).
//! * [`repo`]: [`repo::Repo`], a repository over three local remote directories inside
//!   one temp dir with an isolated HOME / cache.
//! * [`report`]: parsing `--json` output (backup, verify, repair reports).
//! * [`fsutil`]: modes, nanosecond mtimes, sizes, copies, the host (deterministic data,
//!   files and FIFOs are in `crate::shared::files`).
//! * [`awkward`] and [`trees`]: the source trees, all generated (nothing is copied from
//!   the system, so the tests are hermetic).
//! * [`manifest`]: a sorted, printable description of a tree, compared with a
//!   per-entry diff.
//! * [`remote_dirs`]: the state of remote directories and the damage tests do to them.
//! * [`keys`]: the key files of a repository and `key passwd` (the tests of `tangle key`).

pub mod awkward;
pub mod command;
pub mod fsutil;
pub mod keys;
pub mod manifest;
pub mod remote_dirs;
pub mod repo;
pub mod report;
pub mod trees;

/// One `#[test]` per configuration of a scenario, as ripgrep's `rgtest!`:
///
/// ```ignore
/// scenario!(a_stalled_remote_costs_one_timeout: sftp => SFTP, s3 => S3);
/// fn a_stalled_remote_costs_one_timeout(kind: Kind) { ... }
/// ```
///
/// makes the tests `a_stalled_remote_costs_one_timeout::sftp` and `…::s3`, each calling
/// the function with its configuration (an expression, evaluated in the calling module).
macro_rules! scenario {
    ($scenario:ident: $($config:ident => $arg:expr),+ $(,)?) => {
        mod $scenario {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[test]
                fn $config() {
                    super::$scenario($arg)
                }
            )+
        }
    };
}
pub(crate) use scenario;
