//! `tangle init --remote URL...` (or over the remotes of the profile's `[repository]`)

use clap::Args;
use tangle::crypto::KdfParams;
use tangle::repo::{InitOptions, init};
use tangle::{Error, Result};

use super::{Global, password};

#[derive(Args)]
#[command(
    after_help = "Example:\n  tangle init --remote /mnt/usb/tangle --remote s3://bucket/tangle --remote sftp://me@nas/srv/tangle"
)]
pub struct InitArgs {
    /// A remote of the new repository (give it once per remote; 3 are recommended;
    /// default: the profile's [repository] remotes)
    #[arg(long = "remote", value_name = "URL")]
    pub remotes: Vec<String>,
    /// Data shards per extent (default from the number of remotes)
    #[arg(long)]
    pub data_shards: Option<u8>,
    /// Parity shards per extent
    #[arg(long)]
    pub parity_shards: Option<u8>,
    /// Pointer shards (entanglement with older extents) per extent; 0 is plain Reed-Solomon
    #[arg(long)]
    pub pointers: Option<u8>,
}

pub fn run(g: &Global, a: &InitArgs) -> Result<u8> {
    let remotes = if a.remotes.is_empty() {
        g.remotes.clone()
    } else {
        a.remotes.clone()
    };
    if remotes.is_empty() {
        return Err(Error::usage(
            "init needs the remotes: give --remote URL for each, or a profile (-P) with [repository] remotes",
        ));
    }
    let (extent_size, chunker) = test_extent_size()?;
    let chunker = test_chunk_size()?.or(chunker);
    let opts = InitOptions {
        remotes,
        extent_size,
        chunker,
        data_shards: a.data_shards,
        parity_shards: a.parity_shards,
        pointers: a.pointers,
        kdf: test_kdf(),
        remote_settings: g.remote_settings.clone(),
    };
    // Validate the coding before asking for a password.
    tangle::repo::check_init_options(&opts)?;
    let pw = password::read(g, true)?;
    let r = init(&opts, pw.as_bytes())?;
    // Like ssh's known_hosts: later opens through this cache trust only this owner.
    tangle::repo::pin_owner(g.cache_dir.as_deref(), &r.config_object)?;
    if g.json {
        return g.print_json(&r).map(|_| 0);
    }
    g.say(format_args!("created tangle repository {}", r.id));
    g.say(format_args!(
        "owner key fingerprint:   {}",
        r.owner_fingerprint
    ));
    for (i, u) in r.remotes.iter().enumerate() {
        g.say(format_args!("remote {i}: {u}"));
    }
    g.say(format_args!(
        "coding: {} data + {} parity shards per extent, {} pointers ({:.2}x storage)",
        r.data_shards, r.parity_shards, r.pointers, r.storage_overhead
    ));
    g.say(format_args!(
        "fault tolerance: survives the loss of any {} of {} remotes, or of any {} shards of an extent",
        r.remote_losses_tolerated,
        r.remotes.len(),
        r.parity_shards
    ));
    g.say("\nKeep the password safe: without it the data cannot be read. Anyone with the repository can verify it without the password.");
    Ok(0)
}

/// `TANGLE_TEST_EXTENT_SIZE=BYTES` (builds with the `testing` feature only): a small
/// target extent size, with chunk sizes scaled to it (a sixteenth on average), so the
/// durability harness and tests get long histories of many extents from little data.
#[cfg(feature = "testing")]
fn test_extent_size() -> Result<(Option<u32>, Option<tangle::content::ChunkerParams>)> {
    let Ok(v) = std::env::var("TANGLE_TEST_EXTENT_SIZE") else {
        return Ok((None, None));
    };
    let size: u32 = v.trim().parse().map_err(|_| {
        Error::usage(format!(
            "TANGLE_TEST_EXTENT_SIZE: {v:?} is not a number of bytes"
        ))
    })?;
    let chunker = tangle::content::ChunkerParams {
        min: (size / 32).clamp(64, 1 << 20),
        avg: (size / 16).clamp(256, 4 << 20),
        max: (size / 4).clamp(1024, 16 << 20),
    };
    Ok((Some(size), Some(chunker)))
}

/// `TANGLE_TEST_CHUNK_SIZE=AVG` (builds with the `testing` feature only): chunks of about
/// AVG bytes (between a quarter and four times it) in extents of the default size, so a
/// few GiB make a repository of ten million blobs (`scripts/bench-index-scale.sh`).
#[cfg(feature = "testing")]
fn test_chunk_size() -> Result<Option<tangle::content::ChunkerParams>> {
    let Ok(v) = std::env::var("TANGLE_TEST_CHUNK_SIZE") else {
        return Ok(None);
    };
    let avg: u32 = v.trim().parse().map_err(|_| {
        Error::usage(format!(
            "TANGLE_TEST_CHUNK_SIZE: {v:?} is not a number of bytes"
        ))
    })?;
    Ok(Some(tangle::content::ChunkerParams {
        min: (avg / 4).clamp(64, 1 << 20),
        avg: avg.clamp(256, 4 << 20),
        max: avg.saturating_mul(4).clamp(1024, 16 << 20),
    }))
}

#[cfg(not(feature = "testing"))]
fn test_chunk_size() -> Result<Option<tangle::content::ChunkerParams>> {
    Ok(None)
}

/// `TANGLE_TEST_WEAK_KDF=1` (builds with the `testing` feature only): wrap the key with
/// a trivial Argon2 cost (64 KiB, one pass), so the durability harness's thousands of
/// commands do not spend most of their time deriving the key.
#[cfg(feature = "testing")]
fn test_kdf() -> KdfParams {
    match std::env::var("TANGLE_TEST_WEAK_KDF") {
        Ok(v) if v == "1" => KdfParams {
            memory_kib: 64,
            iterations: 1,
            parallelism: 1,
        },
        _ => KdfParams::default(),
    }
}

#[cfg(not(feature = "testing"))]
fn test_kdf() -> KdfParams {
    KdfParams::default()
}

#[cfg(not(feature = "testing"))]
fn test_extent_size() -> Result<(Option<u32>, Option<tangle::content::ChunkerParams>)> {
    Ok((None, None))
}
