#![no_main]
//! See `tangle::fuzzing::index`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::fuzzing::index(data));
