#![no_main]
//! See `tangle::testing::fuzzing::config`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::testing::fuzzing::config(data));
