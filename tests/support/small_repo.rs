//! Init options for library-level tests: small extents and chunks so a few hundred KiB
//! give many extents, and the cheapest key derivation.

use tangle::content::ChunkerParams;
use tangle::crypto::KdfParams;
use tangle::repo::InitOptions;

pub fn init_options(extent_size: u32) -> InitOptions {
    InitOptions {
        remotes: vec![],
        extent_size: Some(extent_size),
        chunker: Some(ChunkerParams {
            min: 4096,
            avg: 16384,
            max: 65536,
        }),
        data_shards: None,
        parity_shards: None,
        pointers: None,
        kdf: KdfParams {
            memory_kib: 64,
            iterations: 1,
            parallelism: 1,
        },
    }
}
