#![no_main]
//! See `tangle::fuzzing::blob`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::fuzzing::blob(data));
