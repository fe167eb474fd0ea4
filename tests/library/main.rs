//! The library-level tests: what runs `tangle` as a library (in-memory and
//! fault-injecting remotes, the model, the fuzz corpora, the remote conformance suite),
//! not through the binary. One test binary; the end-to-end tests are `tests/e2e/`.
//!
//! `fuzz_corpus` installs a global allocator that fails allocations above 512 MiB (the
//! fuzzers' cap), so every test of this binary runs under that cap.

// The tests drive test-only remotes (memory://, the fault-injecting wrapper) and write to
// remotes directly, which only the `testing` feature allows.
#[cfg(not(feature = "testing"))]
compile_error!(
    "the tests need the `testing` feature: run scripts/test.sh, or cargo test --features testing"
);

#[path = "../shared/mod.rs"]
mod shared;

mod backends;
mod memory_repo;

mod entanglement_model;
mod entanglement_sim;
mod fault_injection;
mod fuzz_corpus;
mod remote_conformance;
mod upload_queues;
mod writer_create_only;
