#![no_main]
//! See `tangle::fuzzing::certificate`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::fuzzing::certificate(data));
