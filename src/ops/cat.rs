//! `tangle cat`: one repository object, decoded, for debugging.
//!
//! Every object is read through the repository's checked read path: the first copy (in
//! the client's cache, then on the remotes) that is authentic (signed by the owner, at
//! its own name, of this repository) and decodes is shown; nothing is ever shown raw.
//! When copies exist but none is authentic and some are well-formed objects signed by
//! another key, the refusal is a trust violation (exit 22), as `verify` would report it.

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};

use super::listing::SnapshotInfo;
use super::listing::{entry, kind_name};
use super::select::{self, SnapshotFilter};
use crate::content::{BlobId, BlobKind, IndexSegment, Snapshot, Tree};
use crate::crypto::KeyFile;
use crate::crypto::envelope::{self, ObjectKind};
use crate::error::{Error, Kind, Result};
use crate::extent::{Certificate, Deletion, ExtentName, Head};
use crate::repo::{Config, Indexed, Repository, State};

/// What to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Object {
    Config,
    /// A key file id (prefix).
    Key(String),
    /// A snapshot id (prefix), or `latest`: the newest the filter selects.
    Snapshot(String, SnapshotFilter),
    Index(String),
    /// An extent name (prefix).
    Certificate(String),
    /// `WRITER[/SEQ]`: a writer id (prefix) and a chain position (decimal, or the 16 hex
    /// digits of the object name); without SEQ, the writer's newest head.
    Head(String),
    Deletion(String),
    Tree(String),
    Blob(String),
}

impl Object {
    /// Snapshots, index segments, trees and blobs are encrypted: they need the password.
    pub fn needs_password(&self) -> bool {
        matches!(
            self,
            Object::Snapshot(..) | Object::Index(_) | Object::Tree(_) | Object::Blob(_)
        )
    }
}

/// The decoded object; for a blob also its plaintext.
pub struct Catted {
    pub json: Value,
    pub blob: Option<Vec<u8>>,
}

/// The object `what` names, checked and decoded.
pub fn cat(repo: &Repository<Indexed>, what: &Object) -> Result<Catted> {
    let json = match what {
        Object::Snapshot(spec, filter) => {
            let path = if spec == select::LATEST {
                format!("snapshots/{}", select::find(repo, spec, filter)?.0)
            } else {
                resolve(repo, "snapshots", "snapshot", spec)?
            };
            let s = read_checked(repo, &path, ObjectKind::Snapshot, |b| {
                repo.open_snapshot(&path, b)
            })?;
            select::warn_unmatched(repo, spec, last(&path), &s, filter);
            snapshot_json(&path, &s)
        }
        Object::Index(spec) => {
            let path = resolve(repo, "index", "index segment", spec)?;
            let seg = read_checked(repo, &path, ObjectKind::Index, |b| {
                repo.open_index_segment(b).map(|o| o.segment)
            })?;
            index_json(&path, &seg)
        }
        Object::Tree(spec) => {
            let id = resolve_blob(repo, BlobKind::Tree, spec)?;
            tree_json(
                &id,
                &Tree::from_bytes(&repo.read_blob(&id, BlobKind::Tree)?)?,
            )
        }
        Object::Blob(spec) => {
            let id = resolve_blob(repo, BlobKind::Data, spec)?;
            let data = repo.read_blob(&id, BlobKind::Data)?;
            let (extent, loc) = repo
                .index()
                .get(&id)
                .ok_or_else(|| Error::corrupt("blob vanished from the index"))?;
            let json = json!({
                "id": hex::encode(id),
                "kind": "data",
                "extent": extent.hex(),
                "offset": loc.offset,
                "length": loc.length,
                "raw_len": loc.raw_len,
            });
            return Ok(Catted {
                json,
                blob: Some(data),
            });
        }
        _ => return cat_signed(repo, what),
    };
    Ok(Catted { json, blob: None })
}

/// [`cat`] of an object the owner signed but did not encrypt (config, key,
/// certificate, head, deletion record): checked with the public key, no password.
pub fn cat_signed<S: State>(repo: &Repository<S>, what: &Object) -> Result<Catted> {
    let (owner, signers) = (repo.config.owner, repo.signers());
    let json = match what {
        Object::Config => {
            let c = read_checked(repo, "config", ObjectKind::Config, Config::from_object)?;
            config_json(&c)
        }
        Object::Key(spec) => {
            let path = resolve(repo, "keys", "key", spec)?;
            let k = read_checked(repo, &path, ObjectKind::Key, |b| {
                Ok(postcard::from_bytes::<KeyFile>(envelope::open(
                    ObjectKind::Key,
                    b,
                    &owner,
                )?)?)
            })?;
            key_json(&path, &k)
        }
        Object::Certificate(spec) => {
            let path = resolve(repo, "extents", "extent certificate", spec)?;
            let name = ExtentName::parse(last(&path))?;
            let c = read_checked(repo, &path, ObjectKind::Extent, |b| {
                Certificate::from_object(b, signers, &name)
            })?;
            certificate_json(repo, &c)
        }
        Object::Head(spec) => {
            let path = resolve_head(repo, spec)?;
            let h = read_checked(repo, &path, ObjectKind::Head, |b| {
                Head::from_object(b, signers, &path)
            })?;
            head_json(repo, &h)
        }
        Object::Deletion(spec) => {
            let path = resolve(repo, "deletions", "deletion record", spec)?;
            let d = read_checked(repo, &path, ObjectKind::Deletion, |b| {
                Deletion::from_object(b, &owner)
            })?;
            deletion_json(&path, &d)
        }
        Object::Snapshot(..) | Object::Index(_) | Object::Tree(_) | Object::Blob(_) => {
            return Err(Error::usage(
                "snapshots, index segments, trees and blobs are encrypted: give the password",
            ));
        }
    };
    Ok(Catted { json, blob: None })
}

/// Read `path` through the checked read path: the first copy that is authentic
/// ([`Repository::authenticate_metadata`]) and that `decode` accepts.
fn read_checked<T, S: State>(
    repo: &Repository<S>,
    path: &str,
    kind: ObjectKind,
    decode: impl Fn(&[u8]) -> Result<T>,
) -> Result<T> {
    let foreign = AtomicBool::new(false);
    let owner = repo.config.owner;
    repo.read_object(path, |b| {
        if let Err(e) = repo.authenticate_metadata(path, b) {
            // Well-formed but not the owner's: forged, or another repository's.
            let signed_elsewhere = match kind {
                ObjectKind::Config => Config::from_object(b).is_ok(),
                _ => {
                    envelope::open_unverified(kind, b).is_ok()
                        && envelope::open(kind, b, &owner).is_err()
                }
            };
            if signed_elsewhere {
                foreign.store(true, Ordering::Relaxed);
            }
            return Err(e);
        }
        decode(b)
    })
    .map_err(|e| {
        if foreign.load(Ordering::Relaxed) {
            Error::new(
                Kind::Trust,
                format!(
                    "refusing {path}: no copy is an authentic object of this repository \
                     (some are signed by another key); run `tangle verify`: {e}"
                ),
            )
        } else {
            e
        }
    })
}

fn last(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn check_hex(what: &str, spec: &str) -> Result<String> {
    let s = spec.to_ascii_lowercase();
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Error::usage(format!(
            "{spec:?} is not a {what} id (hex digits, or a prefix of them)"
        )));
    }
    Ok(s)
}

/// The one object below `dir` whose name starts with `spec`.
fn resolve<S: State>(repo: &Repository<S>, dir: &str, what: &str, spec: &str) -> Result<String> {
    let prefix = check_hex(what, spec)?;
    let found: Vec<String> = repo
        .list_union(dir)?
        .into_iter()
        .filter(|p| last(p).starts_with(&prefix))
        .collect();
    match found.len() {
        0 => Err(Error::not_found(format!("no {what} matches {spec:?}"))),
        1 => Ok(found.into_iter().next().unwrap_or_default()),
        n => Err(Error::usage(format!(
            "{n} {what}s match {spec:?}; give more of the id"
        ))),
    }
}

/// `WRITER[/SEQ]` to a head's path.
fn resolve_head<S: State>(repo: &Repository<S>, spec: &str) -> Result<String> {
    let (writer, seq) = match spec.split_once('/') {
        Some((w, s)) => (w, Some(s)),
        None => (spec, None),
    };
    let prefix = check_hex("writer", writer)?;
    let listed: Vec<(String, u64)> = repo
        .list_union("heads")?
        .iter()
        .filter_map(|p| {
            let mut parts = p.split('/').skip(1);
            let (w, s) = (parts.next()?, parts.next()?);
            Some((w.to_string(), u64::from_str_radix(s, 16).ok()?))
        })
        .filter(|(w, _)| w.starts_with(&prefix))
        .collect();
    let mut writers: Vec<&str> = listed.iter().map(|(w, _)| w.as_str()).collect();
    writers.dedup();
    let w = match writers.as_slice() {
        [] => return Err(Error::not_found(format!("no writer matches {writer:?}"))),
        [w] => w.to_string(),
        many => {
            return Err(Error::usage(format!(
                "{} writers match {writer:?}; give more of the id",
                many.len()
            )));
        }
    };
    let seq = match seq {
        Some(s) if s.len() == 16 => u64::from_str_radix(s, 16).ok(),
        Some(s) => s.parse().ok(),
        None => listed.iter().map(|(_, s)| *s).max(),
    }
    .ok_or_else(|| {
        Error::usage(format!(
            "{spec:?}: SEQ must be a decimal number or 16 hex digits"
        ))
    })?;
    Ok(format!("heads/{w}/{seq:016x}"))
}

/// The one indexed blob of `kind` whose id starts with `spec`.
fn resolve_blob(repo: &Repository<Indexed>, kind: BlobKind, spec: &str) -> Result<BlobId> {
    let what = match kind {
        BlobKind::Data => "blob",
        BlobKind::Tree => "tree",
    };
    let prefix = check_hex(what, spec)?;
    let found: Vec<BlobId> = (repo.index().iter()?)
        .filter(|(id, _, loc)| loc.kind == kind && hex::encode(id).starts_with(&prefix))
        .map(|(id, _, _)| id)
        .take(2)
        .collect();
    match found.as_slice() {
        [] => Err(Error::not_found(format!(
            "no {what} in the index matches {spec:?}"
        ))),
        [id] => Ok(*id),
        _ => Err(Error::usage(format!(
            "several {what}s match {spec:?}; give more of the id"
        ))),
    }
}

fn time_secs(t: i64) -> String {
    chrono::DateTime::from_timestamp(t, 0)
        .map(|t| {
            t.with_timezone(&chrono::Local)
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, false)
        })
        .unwrap_or_default()
}

fn remote_url<S: State>(repo: &Repository<S>, i: u16) -> Value {
    repo.config
        .remotes
        .get(i as usize)
        .map_or(Value::Null, |u| Value::String(u.clone()))
}

fn config_json(c: &Config) -> Value {
    json!({
        "path": "config",
        "id": c.id_hex(),
        "owner_fingerprint": crate::crypto::fingerprint(&c.owner),
        "owner_key": hex::encode(c.owner.0),
        "format_version": c.format_version,
        "owner_kem": c.owner_kem.map(hex::encode),
        "revision": c.revision,
        "created": time_secs(c.created),
        "remotes": c.remotes,
        "data_shards": c.coding.data_shards,
        "parity_shards": c.coding.parity_shards,
        "pointers": c.coding.pointers,
        "extent_size": c.extent_size,
        "chunker": {"min": c.chunker.min, "avg": c.chunker.avg, "max": c.chunker.max},
    })
}

fn key_json(path: &str, k: &KeyFile) -> Value {
    json!({
        "path": path,
        "id": last(path),
        "created": time_secs(k.created),
        "host": k.host,
        "user": k.user,
        "kdf": {
            "algorithm": "argon2id",
            "memory_kib": k.kdf.memory_kib,
            "iterations": k.kdf.iterations,
            "parallelism": k.kdf.parallelism,
        },
        "salt": hex::encode(k.salt),
        "wrapped_bytes": k.wrapped.len(),
    })
}

fn snapshot_json(path: &str, s: &Snapshot) -> Value {
    let mut v = serde_json::to_value(SnapshotInfo::new(last(path), s)).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        m.remove("repository_stale");
        m.insert("path".into(), json!(path));
        m.insert("program".into(), json!(s.program));
        m.insert(
            "summary".into(),
            serde_json::to_value(&s.summary).unwrap_or(Value::Null),
        );
    }
    v
}

fn blob_kind(k: BlobKind) -> &'static str {
    match k {
        BlobKind::Data => "data",
        BlobKind::Tree => "tree",
    }
}

fn index_json(path: &str, seg: &IndexSegment) -> Value {
    json!({
        "path": path,
        "id": last(path),
        "writers": seg.writers.iter().map(|g| json!({
            "writer": hex::encode(g.writer),
            "extents": g.extents.iter().map(|e| e.extent.hex()).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "extents": seg.extents.iter().map(|e| json!({
            "extent": e.extent.hex(),
            "blobs": e.blobs.iter().map(|b| json!({
                "id": hex::encode(b.id),
                "kind": blob_kind(b.kind),
                "offset": b.offset,
                "length": b.length,
                "raw_len": b.raw_len,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

fn certificate_json<S: State>(repo: &Repository<S>, c: &Certificate) -> Value {
    let s = c.data_shards as usize;
    json!({
        "path": c.name().cert_path(),
        "name": c.name().hex(),
        "repo_id": hex::encode(c.repo_id),
        "writer": hex::encode(c.writer),
        "seq": c.seq,
        "prev": c.prev.map(|p| p.hex()),
        "start_verifier": hex::encode(c.start_verifier),
        "timestamp": time_secs(c.timestamp),
        "size": c.size,
        "blocks": c.block_lengths.len(),
        "block_lengths": c.block_lengths,
        "data_shards": c.data_shards,
        "parity_shards": c.parity_shards,
        "shard_size": c.shard_size,
        "placement": c.placement,
        "pointers": c.pointers.iter().map(|p| json!({
            "extent": p.extent.hex(),
            "shard": p.shard,
        })).collect::<Vec<_>>(),
        "shards": c.shards.iter().enumerate().map(|(i, sh)| json!({
            "index": i,
            "kind": if i < s { "data" } else { "parity" },
            "hash": hex::encode(sh.hash),
            "remote": remote_url(repo, sh.remote),
        })).collect::<Vec<_>>(),
    })
}

fn head_json<S: State>(repo: &Repository<S>, h: &Head) -> Value {
    json!({
        "path": h.path(),
        "writer": hex::encode(h.writer),
        "seq": h.seq,
        "time": time_secs(h.time),
        "extent": h.extent.map(|(e, seq)| json!({"name": e.hex(), "seq": seq})),
        "snapshot": h.snapshot,
        "index": h.index,
        "skipped": h.skipped.iter().map(|&r| remote_url(repo, r)).collect::<Vec<_>>(),
    })
}

fn deletion_json(path: &str, d: &Deletion) -> Value {
    json!({
        "path": path,
        "id": last(path),
        "time": time_secs(d.time),
        "snapshots": d.snapshots,
        "extents": d.extents.iter().map(|e| json!({
            "name": e.name.hex(),
            "writer": hex::encode(e.writer),
            "seq": e.seq,
            "prev": e.prev.map(|p| p.hex()),
        })).collect::<Vec<_>>(),
        "index": d.index,
        "heads": d.heads.iter().map(|(w, seq)| json!({
            "writer": hex::encode(w),
            "seq": seq,
        })).collect::<Vec<_>>(),
        "keys": d.keys,
    })
}

fn tree_json(id: &BlobId, t: &Tree) -> Value {
    let nodes: Vec<Value> = t
        .nodes
        .iter()
        .map(|n| {
            let mut v = serde_json::to_value(entry(&n.name, n)).unwrap_or(Value::Null);
            if let Value::Object(m) = &mut v {
                m.remove("path");
                m.insert("name".into(), json!(n.name_lossy()));
                m.insert("type".into(), json!(kind_name(n.kind)));
                m.insert("inode".into(), json!(n.inode));
                m.insert("links".into(), json!(n.links));
                if n.rdev != 0 {
                    m.insert("rdev".into(), json!(n.rdev));
                }
                if !n.content.is_empty() {
                    let content: Vec<String> = n.content.iter().map(hex::encode).collect();
                    m.insert("content".into(), json!(content));
                }
                if let Some(s) = n.subtree {
                    m.insert("subtree".into(), json!(hex::encode(s)));
                }
            }
            v
        })
        .collect();
    json!({ "id": hex::encode(id), "nodes": nodes })
}
