//! `tangle writer add | list | revoke` (issue 35, DESIGN.md §17): the owner grants a
//! backup host a writer key, which may add history but neither read nor delete it, and
//! revokes it. The grant and the revocation are owner-signed records on every remote
//! (`writers/<id>`, `revoked-writers/<id>`); the key itself is given to the host in a
//! file and never stored in the repository.

use serde::Serialize;

use crate::crypto::writer::{OwnerKem, WriterKey};
use crate::error::{Error, Result};
use crate::extent::{Revocation, WriterRecord, valid_label};
use crate::repo::{HasKey, Repository, State, Writer};

/// One writer, as `writer list` shows it.
#[derive(Serialize, Debug, Clone)]
pub struct WriterInfo {
    /// The writer id (hex): its heads are under `heads/<id>/`.
    pub id: String,
    pub label: String,
    /// When the owner granted it (RFC 3339).
    pub created: String,
    /// The writer's public key (hex).
    pub(crate) public_key: String,
    /// When it was revoked (RFC 3339), if it was.
    pub revoked: Option<String>,
    /// The writer's last head the revocation accepts (a later one is a trust violation).
    pub revoked_after_head: Option<u64>,
}

#[derive(Serialize, Debug)]
pub struct AddReport {
    pub id: String,
    pub label: String,
    /// The config went to format version 2 (with the owner's KEM key) with this writer,
    /// the repository's first: binaries older than writer keys no longer open it.
    pub config_upgraded: bool,
    /// `url: error` of the remotes that did not take the record (`repair` copies it).
    pub not_written: Vec<String>,
}

#[derive(Serialize, Debug)]
pub struct RevokeReport {
    pub id: String,
    pub label: String,
    pub revoked_after_head: Option<u64>,
    pub not_written: Vec<String>,
}

/// Grant a new writer labelled `label`: the config goes to version 2 first if it is the
/// first writer, then the grant is written everywhere. Returns the key for the host.
pub fn add<S: HasKey>(repo: &Repository<S>, label: &str) -> Result<(WriterKey, AddReport)> {
    if !valid_label(label) {
        return Err(Error::usage(format!(
            "invalid writer label {label:?}: use 1 to 64 letters, digits and . _ @ - (not first . or -)"
        )));
    }
    let writers = repo.writers()?;
    if writers.iter().any(|w| w.grant.label == label) {
        return Err(Error::usage(format!(
            "a writer labelled {label:?} exists already (`tangle writer list`)"
        )));
    }
    let kem = OwnerKem::derive(repo.key()).public();
    let config_upgraded = match repo.config.with_owner_kem(kem) {
        Some(v2) => {
            let published = repo.publish_config(&v2, &repo.signer(), None)?;
            if !published.not_updated.is_empty() {
                return Err(Error::fatal(format!(
                    "the config with the owner's writer key did not reach every remote ({}): \
                     run `tangle repair`, then add the writer again",
                    published.not_updated.join("; ")
                )));
            }
            true
        }
        None if repo.config.owner_kem != Some(kem) => {
            return Err(Error::corrupt(
                "the config's writer key is not the one this owner's master key derives",
            ));
        }
        None => false,
    };
    let key = WriterKey::generate(repo.config.id, label, repo.key())?;
    let grant = WriterRecord::grant(repo.config.id, key.signer().public(), label, now());
    repo.write_writer_record(&grant)?;
    Ok((
        key,
        AddReport {
            id: hex::encode(grant.writer),
            label: label.to_string(),
            config_upgraded,
            not_written: repo.failed_remotes(),
        },
    ))
}

/// Every writer, oldest first.
pub fn list<S: State>(repo: &Repository<S>) -> Result<Vec<WriterInfo>> {
    Ok(repo.writers()?.iter().map(info).collect())
}

/// Revoke the writer `spec` names (its label, or a unique prefix of its id): its heads
/// after the newest one the remotes serve now are refused from here on.
pub fn revoke<S: HasKey>(repo: &Repository<S>, spec: &str) -> Result<RevokeReport> {
    let writers = repo.writers()?;
    let w = find(&writers, spec)?;
    if w.revoked.is_some() {
        return Err(Error::usage(format!(
            "writer {} is revoked already",
            w.grant.label
        )));
    }
    let last_head = repo.latest_head(&w.grant.writer)?.map(|h| h.seq);
    let record = WriterRecord {
        revoked: Some(Revocation {
            time: now(),
            last_head,
        }),
        ..w.grant.clone()
    };
    repo.write_writer_record(&record)?;
    Ok(RevokeReport {
        id: hex::encode(w.grant.writer),
        label: w.grant.label.clone(),
        revoked_after_head: last_head,
        not_written: repo.failed_remotes(),
    })
}

/// The writer with label `spec`, else the one whose id starts with `spec`.
fn find<'a>(writers: &'a [Writer], spec: &str) -> Result<&'a Writer> {
    if let Some(w) = writers.iter().find(|w| w.grant.label == spec) {
        return Ok(w);
    }
    let by_id: Vec<&Writer> = (writers.iter())
        .filter(|w| !spec.is_empty() && hex::encode(w.grant.writer).starts_with(spec))
        .collect();
    match by_id.as_slice() {
        [w] => Ok(w),
        [] => Err(Error::new(
            crate::Kind::NotFound,
            format!("no writer is labelled {spec:?} or has an id starting with it"),
        )),
        _ => Err(Error::usage(format!(
            "{} writers have ids starting with {spec:?}; give more of the id",
            by_id.len()
        ))),
    }
}

fn info(w: &Writer) -> WriterInfo {
    WriterInfo {
        id: hex::encode(w.grant.writer),
        label: w.grant.label.clone(),
        created: rfc3339(w.grant.created),
        public_key: hex::encode(w.grant.public.0),
        revoked: w.revoked.map(|r| rfc3339(r.time)),
        revoked_after_head: w.revoked.and_then(|r| r.last_head),
    }
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

fn rfc3339(secs: i64) -> String {
    chrono::DateTime::from_timestamp(secs, 0)
        .map(|t| t.to_rfc3339())
        .unwrap_or_default()
}
