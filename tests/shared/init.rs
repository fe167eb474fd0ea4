//! Init options for repositories made through the library.

use tangle::content::ChunkerParams;
use tangle::crypto::KdfParams;
use tangle::repo::InitOptions;

/// Init options for repositories made through the library: small extents and chunks
/// so that a few hundred KiB give many extents, and the cheapest key derivation. No
/// remotes (set `remotes` or use `init_remotes`).
pub fn small_init_options(extent_size: u32) -> InitOptions {
    InitOptions {
        remotes: vec![],
        extent_size: Some(extent_size),
        chunker: Some(ChunkerParams {
            min: 4096,
            avg: 16384,
            max: 65536,
        }),
        // The coding of `Repo::init` (4+3, 2 pointers); tests of the default set None.
        data_shards: Some(4),
        parity_shards: Some(3),
        pointers: Some(2),
        kdf: KdfParams {
            memory_kib: 64,
            iterations: 1,
            parallelism: 1,
        },
        remote_settings: Default::default(),
    }
}
