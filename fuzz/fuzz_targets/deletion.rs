#![no_main]
//! See `tangle::fuzzing::deletion`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::fuzzing::deletion(data));
