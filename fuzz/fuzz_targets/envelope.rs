#![no_main]
//! See `tangle::fuzzing::envelope`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| tangle::fuzzing::envelope(data));
