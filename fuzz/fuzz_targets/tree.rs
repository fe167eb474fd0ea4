#![no_main]
//! See `tangle::testing::fuzzing::tree`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::testing::fuzzing::tree(data));
