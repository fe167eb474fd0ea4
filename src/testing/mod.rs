//! Test support compiled into the library with the `testing` cargo feature only (never in
//! the shipped binary): the fuzz entry points that the cargo-fuzz targets in `fuzz/` (a
//! crate of its own) and the corpus replay (`tests/library/fuzz_corpus.rs`) call.
//!
//! This sits at the top of the library, beside `ops`: a harness may use any layer below
//! (it opens what a remote serves the way the repository does), and nothing in the
//! library uses it. The other test-only pieces stay with what they stand in for: the
//! in-memory and fault-injecting remotes in `repo/remote/`, [`WriteAccess::for_tests`],
//! and the few `TANGLE_TEST_*` hooks in the code they stop.
//!
//! [`WriteAccess::for_tests`]: crate::remote::WriteAccess::for_tests

pub mod fuzzing;
pub mod index_memory;
