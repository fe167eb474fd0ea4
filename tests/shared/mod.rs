//! Helpers both test binaries compile (`e2e` and `library` include this folder with
//! `#[path]`): everything here is used by both, so neither needs `allow(dead_code)`.

pub mod files;
pub mod init;
pub mod servers;
