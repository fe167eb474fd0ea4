//! tangle: archival backups as signed, hash-chained extents, erasure-coded and entangled
//! across several remotes. See docs/DESIGN.md for the architecture and
//! docs/DEVELOPING.md for every folder and file.
//!
//! # Layers
//!
//! Bottom up. A module uses the layers below it and never one beside or above it
//! (`scripts/check_layers.py`, run by `scripts/test.sh`, keeps it so):
//!
//! 1. [`error`], [`util`], [`debug`] (the `TANGLE_DEBUG_REQUESTS` counters): nothing of
//!    the crate.
//! 2. [`crypto`] (keys, AEAD, the signed envelope) and [`pathmatch`] (path patterns).
//! 3. [`remote`] (where objects live) and [`codec`] (Reed-Solomon, placement, peeling),
//!    side by side: neither uses the other.
//! 4. [`extent`]: the extent log (building and sealing, certificates, heads, deletion
//!    records, the pointer chooser).
//! 5. [`content`]: chunks, blobs, trees, snapshots and the blob index (which names
//!    extents).
//! 6. [`repo`]: the repository, `Repository<S>`, and every write to a remote.
//! 7. [`ops`]: the operation behind each command.
//! 8. `testing` (cargo feature `testing` only): the fuzz entry points.
//!
//! The command line (`main.rs`, `cli/`) is the binary, on top, through this crate's
//! public paths.
//!
//! One exception, deliberate, in where a folder is rather than in what it uses: the
//! remote backends live in `repo/remote/` and are re-exported as [`remote`]. Writing or
//! deleting takes a [`remote::WriteAccess`], which only `repo` can make
//! (`pub(in crate::repo)`), so every write goes through the repository's durability and
//! trust rules; code outside `repo/` reads through `crate::remote` and cannot write.
//! `repo/remote/` still uses nothing of `repo`: it is the bottom layer it always was.
//!
//! # The public API
//!
//! `pub` means "used from outside this library": by the binary (`main.rs`, `cli/`), the
//! integration tests, `benches/` or `fuzz/`. Everything else is `pub(crate)` or narrower,
//! so a `pub` item is one whose change a user of the library would notice, and the
//! compiler's dead-code warnings see the rest. `unreachable_pub` (below) keeps a `pub`
//! item from hiding inside a private module; when a new caller outside needs an item,
//! widen it then.

#![warn(unreachable_pub)]

pub mod codec;
pub mod content;
pub mod crypto;
pub mod debug;
pub mod error;
pub mod extent;
pub mod ops;
pub(crate) mod pathmatch;
pub mod repo;
#[cfg(feature = "testing")]
pub mod testing;
pub mod util;

pub use error::{Error, Kind, Result};
/// The remote layer lives inside the repository's folder (only it may write to remotes,
/// see the layers above); everything else names it by this path.
pub use repo::remote;
