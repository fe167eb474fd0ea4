#![no_main]
//! See `tangle::testing::fuzzing::head`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::testing::fuzzing::head(data));
