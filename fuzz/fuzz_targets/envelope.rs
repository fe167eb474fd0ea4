#![no_main]
//! See `tangle::testing::fuzzing::envelope`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::testing::fuzzing::envelope(data));
