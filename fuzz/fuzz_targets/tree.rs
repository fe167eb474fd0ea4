#![no_main]
//! See `tangle::fuzzing::tree`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::fuzzing::tree(data));
