#![no_main]
//! See `tangle::testing::fuzzing::certificate`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::testing::fuzzing::certificate(data));
