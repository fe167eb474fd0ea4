#![no_main]
//! See `tangle::testing::fuzzing::deletion`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::testing::fuzzing::deletion(data));
