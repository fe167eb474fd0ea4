#![no_main]
//! See `tangle::testing::fuzzing::snapshot`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::testing::fuzzing::snapshot(data));
