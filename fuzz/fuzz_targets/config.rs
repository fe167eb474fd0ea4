#![no_main]
//! See `tangle::fuzzing::config`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::fuzzing::config(data));
