//! The end-to-end tests: everything that drives the `tangle` binary (as a user or a
//! script would), one module per area, in one test binary so that the helpers of
//! [`support`] are compiled once. Run one area with
//! `cargo nextest run --features testing --test e2e -E 'test(/^prune::/)'`.

// The tests drive test-only remotes (memory://, the fault-injecting wrapper) and write to
// remotes directly, which only the `testing` feature allows.
#[cfg(not(feature = "testing"))]
compile_error!(
    "the tests need the `testing` feature: run scripts/test.sh, or cargo test --features testing"
);

#[path = "../shared/mod.rs"]
mod shared;
mod support;

// The model of `tests/library/` that `pointer_coverage` compares a real repository with;
// this binary uses only a part of it (the library binary uses all of it).
#[allow(dead_code)]
#[path = "../library/entanglement_model.rs"]
mod entanglement_model;

mod backends;
mod backup_options;
mod backup_restore;
mod bandwidth;
mod checkpoints;
mod completions;
mod copy;
mod create_only;
mod delete;
mod dump_archive;
mod durability_harness;
mod errors;
mod foreign_objects;
mod format_fixture;
mod format_versions;
mod history_scale;
mod hostile_reads;
mod import;
mod inconsistent_certificates;
mod init;
mod inspect;
mod interrupt;
mod key;
mod lock_seams;
mod locks;
mod mount;
mod overlapping_backups;
mod owner_pin;
mod pipe;
mod pointer_coverage;
mod profile_hooks;
mod profiles;
mod progress;
mod prune;
mod quickstart;
mod quiet_failures;
mod remote_identity;
mod remotes;
mod resilience;
mod restic_habits;
mod restore;
mod rewrite;
mod seams;
mod signals;
mod snapshot_selection;
mod stalled_remote;
mod tag;
mod tree_walks;
mod verify;
mod writer_lies;
mod writers;
mod xattrs;
