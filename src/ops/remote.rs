//! `tangle remote list | add | replace`: change which remotes the repository spans. The
//! config is re-signed with a higher revision and written everywhere; `repair` then
//! fills a new or replacement remote from the others.

use serde::Serialize;

use crate::error::{Error, Result};
use crate::remote;
use crate::repo::{HasKey, Repository, State};

#[derive(Serialize, Debug)]
pub struct RemoteInfo {
    pub index: usize,
    pub url: String,
    pub(crate) reachable: bool,
    /// Whether it serves the repository's config: a reachable remote without it is
    /// missing (an unmounted disk, a wiped bucket) until `repair` copies it back.
    pub holds_repository: bool,
    pub objects: u64,
    pub bytes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

pub fn list<S: State>(repo: &Repository<S>) -> Result<Vec<RemoteInfo>> {
    let listings = repo.block_on(futures::future::join_all(
        repo.remotes().iter().map(|r| r.list("")),
    ));
    Ok(repo
        .remotes()
        .iter()
        .zip(listings)
        .enumerate()
        .map(|(index, (r, l))| match l {
            Ok(objs) => RemoteInfo {
                index,
                url: r.url().to_string(),
                reachable: true,
                holds_repository: objs.iter().any(|o| o.path == "config"),
                objects: objs.len() as u64,
                bytes: crate::util::saturating_sum(objs.iter().map(|o| o.size)),
                error: None,
            },
            Err(e) => RemoteInfo {
                index,
                url: r.url().to_string(),
                reachable: false,
                holds_repository: false,
                objects: 0,
                bytes: 0,
                error: Some(e.to_string()),
            },
        })
        .collect())
}

#[derive(Serialize, Debug)]
pub struct ChangeReport {
    pub revision: u64,
    pub remotes: Vec<String>,
    /// Remotes the new config could not be written to (they get it from `repair`).
    pub not_updated: Vec<String>,
}

/// Find a configured remote by URL (as given or canonical) or by its index.
fn position<S: State>(repo: &Repository<S>, which: &str) -> Result<usize> {
    let canonical = remote::canonical_url(which)?;
    repo.config
        .remotes
        .iter()
        .position(|u| *u == which || *u == canonical)
        .or_else(|| {
            which
                .parse::<usize>()
                .ok()
                .filter(|&i| i < repo.config.remotes.len())
        })
        .ok_or_else(|| {
            Error::usage(format!(
                "{which} is not a remote of this repository (see `tangle remote list`)"
            ))
        })
}

/// Refuse a URL the config already lists. (A location that serves this repository
/// under another spelling is caught by its identity marker when it would join.)
fn refuse_known<S: State>(repo: &Repository<S>, given: &str, canonical: &str) -> Result<()> {
    if repo.config.remotes.iter().any(|u| u == canonical) {
        return Err(Error::usage(format!(
            "{given} is already remote {canonical} of this repository"
        )));
    }
    Ok(())
}

/// Replace remote `old` (dead or retired) with the new, empty location `new`.
pub fn replace<S: HasKey>(repo: &Repository<S>, old: &str, new: &str) -> Result<ChangeReport> {
    let i = position(repo, old)?;
    let new_url = remote::canonical_url(new)?;
    refuse_known(repo, new, &new_url)?;
    let mut remotes = repo.config.remotes.clone();
    remotes[i] = new_url;
    change(repo, remotes, Some(i))
}

/// Add a remote. Existing extents keep their placement; new extents use all remotes.
pub fn add<S: HasKey>(repo: &Repository<S>, url: &str) -> Result<ChangeReport> {
    let new_url = remote::canonical_url(url)?;
    refuse_known(repo, url, &new_url)?;
    let mut remotes = repo.config.remotes.clone();
    remotes.push(new_url);
    repo.config.coding.check(remotes.len())?;
    change(repo, remotes, None)
}

fn change<S: HasKey>(
    repo: &Repository<S>,
    remotes: Vec<String>,
    replaced: Option<usize>,
) -> Result<ChangeReport> {
    let signer = repo.signer();
    let mut config = repo.config.clone();
    config.remotes = remotes;
    config.revision += 1;
    let published = repo.publish_config(&config, &signer, replaced)?;
    Ok(ChangeReport {
        revision: config.revision,
        remotes: config.remotes,
        not_updated: published.not_updated,
    })
}
