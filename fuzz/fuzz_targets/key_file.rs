#![no_main]
//! See `tangle::fuzzing::key_file`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::fuzzing::key_file(data));
