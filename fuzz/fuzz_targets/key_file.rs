#![no_main]
//! See `tangle::testing::fuzzing::key_file`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::testing::fuzzing::key_file(data));
