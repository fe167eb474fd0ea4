#![no_main]
//! See `tangle::testing::fuzzing::blob`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::testing::fuzzing::blob(data));
