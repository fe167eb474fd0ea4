//! `tangle init`: create a repository over a set of remotes.

use bytes::Bytes;
use futures::future::join_all;
use serde::Serialize;

use super::config::{Config, DEFAULT_EXTENT_SIZE, FORMAT_VERSION};
use crate::codec::Coding;
use crate::content::ChunkerParams;
use crate::crypto::envelope::{self, ObjectKind};
use crate::crypto::{KdfParams, KeyFile, MasterKey, fingerprint};
use crate::error::{Error, Result};
use crate::remote::{self, DynRemote};

/// This module writes to remotes (see [`crate::remote::WriteAccess`]).
const WRITE: crate::remote::WriteAccess = crate::remote::WriteAccess::repository();

#[derive(Clone)]
pub struct InitOptions {
    pub remotes: Vec<String>,
    /// Target extent size (default 16 MiB) and chunk sizes; tests use small ones.
    pub extent_size: Option<u32>,
    pub chunker: Option<ChunkerParams>,
    pub data_shards: Option<u8>,
    pub parity_shards: Option<u8>,
    pub pointers: Option<u8>,
    pub kdf: KdfParams,
    /// Per-remote settings (a profile's `[remote."URL"]` tables).
    pub remote_settings: remote::SettingsByUrl,
}

#[derive(Serialize)]
pub struct InitReport {
    /// The signed config written, for pinning the owner in the local cache
    /// ([`super::pin_owner`]).
    #[serde(skip)]
    pub config_object: Bytes,
    pub id: String,
    pub owner_fingerprint: String,
    pub remotes: Vec<String>,
    pub data_shards: u8,
    pub parity_shards: u8,
    pub pointers: u8,
    pub storage_overhead: f64,
    /// Whole remotes that can be lost without losing data.
    pub remote_losses_tolerated: usize,
}

/// Check URLs and coding parameters; returns canonical URLs and the coding.
pub fn check_init_options(opts: &InitOptions) -> Result<(Vec<String>, Coding)> {
    let urls: Vec<String> = opts
        .remotes
        .iter()
        .map(|u| remote::canonical_url(u))
        .collect::<Result<_>>()?;
    for (i, u) in urls.iter().enumerate() {
        if urls[..i].contains(u) {
            return Err(Error::usage(format!("remote {u} is given twice")));
        }
        open_remote(opts, u)?;
    }
    let mut coding = Coding::default_for(urls.len())?;
    if let Some(s) = opts.data_shards {
        coding.data_shards = s;
    }
    if let Some(p) = opts.parity_shards {
        coding.parity_shards = p;
    }
    if let Some(t) = opts.pointers {
        coding.pointers = t;
    }
    coding.check(urls.len())?;
    Ok((urls, coding))
}

fn open_remote(opts: &InitOptions, url: &str) -> Result<DynRemote> {
    remote::open_with(
        url,
        opts.remote_settings.get(url).unwrap_or(&Default::default()),
    )
}

pub fn init(opts: &InitOptions, password: &[u8]) -> Result<InitReport> {
    let (urls, _) = check_init_options(opts)?;
    let remotes: Vec<DynRemote> = urls
        .iter()
        .map(|u| open_remote(opts, u))
        .collect::<Result<_>>()?;
    init_remotes(remotes, opts, password)
}

/// Create a repository over remotes the caller built (their URLs go into the config).
pub fn init_remotes(
    remotes: Vec<DynRemote>,
    opts: &InitOptions,
    password: &[u8],
) -> Result<InitReport> {
    let urls: Vec<String> = remotes.iter().map(|r| r.url().to_string()).collect();
    let (_, coding) = check_init_options(&InitOptions {
        remotes: urls.clone(),
        ..opts.clone()
    })?;
    let rt = super::runtime()?;
    // Check every remote before writing anything: init must not half-create.
    for r in &remotes {
        if rt.block_on(r.exists())? && rt.block_on(r.stat("config")).is_ok() {
            return Err(Error::fatal(format!(
                "remote {} already holds a tangle repository; refusing to init over it",
                r.url()
            )));
        }
    }
    for r in &remotes {
        rt.block_on(r.create(WRITE))
            .map_err(|e| e.context(format!("creating remote {}", r.url())))?;
    }

    let master = MasterKey::generate()?;
    let signer = master.signer();
    let config = Config {
        format_version: FORMAT_VERSION,
        owner_kem: None,
        id: crate::crypto::random_bytes()?,
        owner: signer.public(),
        coding,
        extent_size: opts.extent_size.unwrap_or(DEFAULT_EXTENT_SIZE),
        chunker: opts.chunker.unwrap_or_default(),
        remotes: urls.clone(),
        created: chrono::Utc::now().timestamp(),
        revision: 0,
    };
    // Identity markers first: the same location given twice is refused before anything
    // of the repository is written (and the markers of a refused init are removed).
    for (i, r) in remotes.iter().enumerate() {
        let earlier: Vec<&DynRemote> = remotes[..i].iter().collect();
        if let Err(e) = rt.block_on(super::marker::claim(r, &earlier, config.id)) {
            for r in &remotes[..i] {
                rt.block_on(super::marker::remove(r));
            }
            return Err(e);
        }
    }
    let key = KeyFile::wrap(&master, password, opts.kdf)?;
    let key_obj = Bytes::from(envelope::seal(
        ObjectKind::Key,
        &postcard::to_stdvec(&key)?,
        &signer,
    ));
    let key_path = format!("keys/{}", envelope::content_id(&key_obj));
    let config_obj = Bytes::from(config.to_object(&signer)?);

    // Keys first, config last: a remote only looks like a repository once it is complete.
    // A failure anywhere takes back what was written, so that a failed init leaves no
    // repository on some remotes (it would open and take backups while `init` said it
    // failed, and refuse the next `init` as "already holds a tangle repository").
    let undo = |configs_written: &[bool]| {
        let key_path = key_path.as_str();
        rt.block_on(join_all(remotes.iter().enumerate().map(|(i, r)| {
            let config = configs_written.get(i).copied().unwrap_or(false);
            async move {
                if config {
                    let _ = r.delete(WRITE, "config").await;
                }
                let _ = r.delete(WRITE, key_path).await;
                super::marker::remove(r).await;
            }
        })));
    };
    let keys = rt.block_on(join_all(
        remotes
            .iter()
            .map(|r| r.put(WRITE, &key_path, key_obj.clone())),
    ));
    if let Some(Err(e)) = keys.into_iter().find(|k| k.is_err()) {
        undo(&[]);
        return Err(e);
    }
    let configs = rt.block_on(join_all(
        remotes
            .iter()
            .map(|r| r.put_new(WRITE, "config", config_obj.clone())),
    ));
    let written: Vec<bool> = configs.iter().map(|c| matches!(c, Ok(true))).collect();
    for (r, config) in remotes.iter().zip(configs) {
        let failure = match config {
            Ok(true) => continue,
            Ok(false) => Error::fatal(format!(
                "remote {} got a config from someone else while initialising",
                r.url()
            )),
            Err(e) => e.context(format!("writing the config to {}", r.url())),
        };
        undo(&written);
        return Err(failure);
    }

    Ok(InitReport {
        config_object: config_obj,
        id: config.id_hex(),
        owner_fingerprint: fingerprint(&config.owner),
        remotes: urls,
        data_shards: coding.data_shards,
        parity_shards: coding.parity_shards,
        pointers: coding.pointers,
        storage_overhead: coding.overhead(),
        remote_losses_tolerated: remote_losses_tolerated(&coding, config.remotes.len()),
    })
}

/// How many whole remotes can go without losing any extent, given round-robin placement.
pub(crate) fn remote_losses_tolerated(coding: &Coding, remotes: usize) -> usize {
    let width = coding.width();
    let per_remote = width.div_ceil(remotes);
    // Worst case: the k fullest remotes are the ones lost.
    let full = width % remotes;
    let mut lost = 0;
    for k in 1..remotes {
        let worst = (0..k)
            .map(|i| {
                if full == 0 || i < full {
                    per_remote
                } else {
                    per_remote - 1
                }
            })
            .sum::<usize>();
        if worst <= coding.parity_shards as usize {
            lost = k;
        } else {
            break;
        }
    }
    lost
}
