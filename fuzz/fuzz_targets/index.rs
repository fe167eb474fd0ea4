#![no_main]
//! See `tangle::testing::fuzzing::index`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::testing::fuzzing::index(data));
