#![no_main]
//! See `tangle::fuzzing::snapshot`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::fuzzing::snapshot(data));
