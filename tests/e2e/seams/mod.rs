//! Seams between commands and their inputs: inputs, keys, names.

mod inputs;
mod keys;
mod names;
