//! tangle: archival backups as signed, hash-chained extents, erasure-coded and entangled
//! across several remotes. See docs/DESIGN.md for the architecture; layers, bottom up:
//! [`remote`] → [`codec`] → [`extent`] → [`content`] → [`repo`] → [`ops`] (the
//! operations behind each command) → the CLI in `main.rs`/`cli`.

pub mod codec;
pub mod content;
pub mod crypto;
pub mod debug;
pub mod error;
pub mod extent;
pub mod ops;
pub mod pathmatch;
pub mod repo;
#[cfg(feature = "testing")]
pub mod testing;
pub mod util;

pub use error::{Error, Kind, Result};
/// The remote backends live inside the repository layer (only it may write to them);
/// reading code names them by this path.
pub use repo::remote;
