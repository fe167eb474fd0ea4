#![no_main]
//! See `tangle::fuzzing::head`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::fuzzing::head(data));
