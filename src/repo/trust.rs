//! Which owner key to trust when a repository is opened.
//!
//! The config names the owner key that authenticates everything else, and any remote can
//! serve a config signed by a key of its own. So the owner is never taken from the remote
//! the user named alone: it is pinned, like an ssh host key in `known_hosts`.
//!
//! * `--owner FINGERPRINT` (or `TANGLE_OWNER`) pins it explicitly: the fingerprint `init`
//!   prints, for CI jobs that start with an empty cache.
//! * Otherwise `init` and the first successful open record the repository id, owner key
//!   and newest config in the local cache (`<cache>/<id>/owner`, `<cache>/<id>/config`),
//!   and later opens hold every remote to that pin.
//! * With nothing pinned, the configs of every listed remote must name the same owner;
//!   if they disagree nothing is trusted (exit 22) and the error names both sides.
//!
//! Remotes whose config is not signed by the pinned owner are reported as foreign; the
//! repository opens through the others. Per-host writer keys, when they come, will be
//! certified by the owner key, so the pin stays the owner's and never changes when a
//! writer is added.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::Config;
use crate::crypto::{OwnerPublicKey, fingerprint};
use crate::error::{Error, Kind, Result};
use crate::remote::DynRemote;
use crate::util::{read_regular_file, replace_file};

/// An owner pin given by the user: the key's fingerprint as `init` prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnerPin(String);

impl OwnerPin {
    pub fn parse(s: &str) -> Result<OwnerPin> {
        let hex: String = s
            .trim()
            .chars()
            .filter(|c| *c != ':')
            .collect::<String>()
            .to_ascii_lowercase();
        if hex.len() != 32 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(Error::usage(format!(
                "--owner {s:?}: expected the owner key fingerprint (32 hex digits, as `tangle init` prints it)"
            )));
        }
        Ok(OwnerPin(hex))
    }

    fn matches(&self, owner: &OwnerPublicKey) -> bool {
        fingerprint(owner) == self.0
    }
}

/// The config to trust, and the remotes that served a config of another owner.
pub(super) struct Trusted {
    pub(crate) config: Config,
    /// `url: why` of each remote whose config is not the pinned owner's.
    pub(crate) foreign: Vec<String>,
}

/// Where the pin for repository `id` lives.
fn pin_dir(cache_root: &Path, id_hex: &str) -> PathBuf {
    cache_root.join(id_hex)
}

/// The pinned owner key and newest trusted config (with its object bytes) of repository
/// `id`, from the cache.
fn cached(
    cache_root: Option<&Path>,
    id_hex: &str,
) -> (Option<OwnerPublicKey>, Option<(Config, bytes::Bytes)>) {
    let Some(dir) = cache_root.map(|r| pin_dir(r, id_hex)) else {
        return (None, None);
    };
    let owner = read_regular_file(&dir.join("owner"), 128)
        .ok()
        .and_then(|s| {
            let mut k = [0u8; 32];
            hex::decode_to_slice(s.trim_ascii(), &mut k).ok()?;
            Some(OwnerPublicKey(k))
        });
    let config = read_regular_file(&dir.join("config"), super::metadata_limit("config"))
        .ok()
        .and_then(|b| Config::from_object(&b).ok().map(|c| (c, b.into())))
        .filter(|(c, _)| Some(c.owner) == owner && c.id_hex() == id_hex);
    (owner, config)
}

/// Record `config` (trusted) as the pin of its repository. Best effort: without a
/// writable cache every open is a first open.
pub(super) fn remember(cache_root: Option<&Path>, config_object: &[u8], config: &Config) {
    let Some(dir) = cache_root.map(|r| pin_dir(r, &config.id_hex())) else {
        return;
    };
    let _ = replace_file(&dir.join("owner"), hex::encode(config.owner.0).as_bytes())
        .and_then(|_| replace_file(&dir.join("config"), config_object));
}

/// Pin the owner of the repository whose config object this is (after `init`).
pub fn pin_owner(cache_dir: Option<&Path>, config_object: &[u8]) -> Result<()> {
    let config = Config::from_object(config_object)?;
    let root = cache_dir
        .map(Path::to_path_buf)
        .or_else(super::default_cache_dir);
    remember(root.as_deref(), config_object, &config);
    Ok(())
}

/// Decide which config to trust, starting from `named` (the config of the remote the
/// user named, at `named_url`) and reading the config of every other remote it or the
/// cached config lists. Returns the trusted config's object bytes too, for the cache.
pub(super) fn resolve(
    rt: &tokio::runtime::Runtime,
    named_url: &str,
    named_object: bytes::Bytes,
    named: Config,
    pin: Option<&OwnerPin>,
    cache_root: Option<&Path>,
    open_remote: &dyn Fn(&str) -> Result<DynRemote>,
) -> Result<(Trusted, bytes::Bytes)> {
    let (cached_owner, cached_config) = cached(cache_root, &named.id_hex());
    let mut urls: Vec<String> = named.remotes.clone();
    if let Some((c, _)) = &cached_config {
        urls.extend(c.remotes.iter().cloned());
    }
    urls.sort();
    urls.dedup();
    // (url, config, object) of every remote that served a well-formed config.
    let mut seen: Vec<(String, Config, bytes::Bytes)> =
        vec![(named_url.to_string(), named, named_object)];
    let others: Vec<(String, DynRemote)> = urls
        .into_iter()
        .filter(|u| u != named_url)
        .filter_map(|u| open_remote(&u).ok().map(|r| (u, r)))
        .collect();
    let fetched = rt.block_on(futures::future::join_all(
        others
            .iter()
            .map(|(_, r)| r.get_max("config", super::metadata_limit("config"))),
    ));
    for ((u, _), got) in others.into_iter().zip(fetched) {
        if let Some((c, b)) = got
            .ok()
            .and_then(|b| Config::from_object(&b).ok().map(|c| (c, b)))
        {
            seen.push((u, c, b));
        }
    }

    let named_id = seen[0].1.id;
    let pinned = |c: &Config| match (pin, cached_owner) {
        (Some(p), _) => p.matches(&c.owner),
        (None, Some(k)) => c.owner == k && c.id == named_id,
        (None, None) => true,
    };
    if pin.is_none() && cached_owner.is_none() {
        // Nothing pinned: every remote must name the same repository and owner.
        let mut sides: BTreeMap<(String, String), Vec<&str>> = BTreeMap::new();
        for (u, c, _) in &seen {
            sides
                .entry((c.id_hex(), fingerprint(&c.owner)))
                .or_default()
                .push(u);
        }
        if sides.len() > 1 {
            let described: Vec<String> = sides
                .iter()
                .map(|((id, fp), urls)| {
                    format!("{} say repository {id} with owner {fp}", urls.join(", "))
                })
                .collect();
            return Err(Error::new(
                Kind::Trust,
                format!(
                    "the remotes disagree about the repository's owner ({}); nothing is trusted until the owner is pinned: pass --owner FINGERPRINT (or set TANGLE_OWNER) with the fingerprint `tangle init` printed",
                    described.join("; ")
                ),
            ));
        }
    }
    let mut foreign = Vec::new();
    let mut best: Option<(Config, bytes::Bytes)> = None;
    for (u, c, b) in seen {
        if !pinned(&c) {
            foreign.push(format!(
                "{u}: its config is signed by owner {}, not the pinned owner",
                fingerprint(&c.owner)
            ));
            continue;
        }
        if best.as_ref().is_none_or(|(bc, _)| c.revision > bc.revision) {
            best = Some((c, b));
        }
    }
    // The cached config counts as a copy too: every remote may have been rolled back.
    if let Some((c, object)) = cached_config.filter(|(c, _)| pinned(c))
        && best.as_ref().is_none_or(|(bc, _)| c.revision > bc.revision)
    {
        best = Some((c, object));
    }
    let Some((config, object)) = best else {
        let want = match (pin, cached_owner) {
            (Some(p), _) => p.0.clone(),
            (None, Some(k)) => fingerprint(&k),
            (None, None) => "(none)".to_string(),
        };
        return Err(Error::new(
            Kind::Trust,
            format!(
                "no remote holds a config signed by the pinned owner {want} ({})",
                foreign.join("; ")
            ),
        ));
    };
    Ok((Trusted { config, foreign }, object))
}
