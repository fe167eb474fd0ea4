//! A repository: the config, the remotes it spans, the unlocked key, and typed access to
//! the objects on the remotes (metadata replicated everywhere, shards spread out).
//!
//! Reads try the remote the user named first and fall back to the others; an object is
//! only accepted after its checks (signature, content address, decryption) pass, so one
//! bad copy never hides a good one.

pub mod config;
mod init;
pub mod object;
mod reader;
pub use reader::ReadMode;

pub use config::Config;
pub use init::{InitOptions, InitReport, check_init_options, init, init_remotes};

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use futures::future::join_all;

use crate::content::{Index, IndexSegment, Snapshot};
use crate::crypto::{KeyFile, MasterKey, Signer};
use crate::error::{Error, Kind, Result};
use crate::extent::{Certificate, ExtentName, Head};
use crate::remote::{self, DynRemote};
use object::ObjectKind;

pub struct Repository {
    pub config: Config,
    remotes: Vec<DynRemote>,
    /// The remote the user named with `-r`, read first.
    primary: usize,
    rt: tokio::runtime::Runtime,
    key: Option<MasterKey>,
    cache_dir: Option<PathBuf>,
    index: Index,
    certs: Mutex<HashMap<ExtentName, Arc<Certificate>>>,
    decoded: reader::DecodedCache,
    shards: reader::ShardCache,
    on_warning: Box<dyn Fn(&str) + Send + Sync>,
    health: Arc<WriteHealth>,
}

/// Remotes that failed a write: later writes skip them instead of waiting for the same
/// failure again, and the backup reports them as having reduced redundancy.
#[derive(Default)]
pub struct WriteHealth {
    failed: Mutex<std::collections::BTreeMap<usize, String>>,
    down: Mutex<std::collections::BTreeMap<usize, String>>,
}

impl WriteHealth {
    /// Put an object unless the remote already failed; false if it was not written.
    pub async fn put(&self, index: usize, remote: &DynRemote, path: &str, data: Bytes) -> bool {
        if self
            .failed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains_key(&index)
        {
            return false;
        }
        match remote.put(path, data).await {
            Ok(()) => true,
            Err(e) => {
                self.failed
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .entry(index)
                    .or_insert_with(|| e.to_string());
                false
            }
        }
    }

    /// The error that made remote `i` count as down for reads, if any.
    pub fn down(&self, i: usize) -> Option<String> {
        self.down
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&i)
            .cloned()
    }

    /// Remote `i` answered again (e.g. a listing succeeded): read from it again.
    pub fn mark_up(&self, i: usize) {
        self.down
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&i);
    }

    /// A remote whose listing failed did not answer at all: skip it for reads for the
    /// rest of this process (one timeout, not one per object). Single failed reads do
    /// not count: a remote may lack or garble one object and still serve the rest.
    pub fn note_list_error(&self, i: usize, e: &Error) {
        if e.kind() == Kind::Fatal {
            self.down
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .entry(i)
                .or_insert_with(|| e.to_string());
        }
    }

    /// `(remote index, first error)` of every remote that failed.
    pub fn failures(&self) -> Vec<(usize, String)> {
        self.failed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .map(|(i, e)| (*i, e.clone()))
            .collect()
    }

    pub fn describe(&self, remotes: &[DynRemote]) -> String {
        self.failures()
            .iter()
            .map(|(i, e)| format!("{}: {e}", remotes.get(*i).map_or("?", |r| r.url())))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

pub fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .thread_name("tangle-io")
        .enable_all()
        .build()
        .map_err(|e| Error::fatal(format!("cannot start the I/O runtime: {e}")))
}

/// Where per-repository local state lives: `--cache-dir`, else `$XDG_CACHE_HOME/tangle`,
/// else `~/.cache/tangle`.
pub fn default_cache_dir() -> Option<PathBuf> {
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        return Some(PathBuf::from(x).join("tangle"));
    }
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| PathBuf::from(h).join(".cache").join("tangle"))
}

impl Repository {
    /// Open the repository that `url` (any one of its remotes) belongs to.
    pub fn open(url: &str, cache_dir: Option<PathBuf>) -> Result<Repository> {
        let rt = runtime()?;
        let canonical = remote::canonical_url(url)?;
        let first = remote::open(&canonical)?;
        let mut config = read_config(&rt, &first, url)?;
        // Adopt the newest authentic revision any listed remote has: after `remote
        // replace` a remote that missed the change still opens the repository right.
        for u in config.remotes.clone() {
            if u == canonical {
                continue;
            }
            let newer = remote::open(&u)
                .ok()
                .and_then(|r| rt.block_on(r.get("config")).ok())
                .and_then(|b| Config::from_object(&b).ok())
                .filter(|c| {
                    c.id == config.id && c.owner == config.owner && c.revision > config.revision
                });
            if let Some(c) = newer {
                config = c;
            }
        }
        let mut primary = 0;
        let mut remotes = Vec::with_capacity(config.remotes.len());
        for (i, u) in config.remotes.iter().enumerate() {
            if *u == canonical {
                primary = i;
                remotes.push(first.clone());
            } else {
                remotes.push(remote::open(u)?);
            }
        }
        Self::assemble(rt, config, remotes, primary, cache_dir)
    }

    /// Open over remotes the caller built (e.g. wrapped for fault injection in tests),
    /// in the order of the config's remote list; the config is read from `primary`.
    pub fn open_with_remotes(
        remotes: Vec<DynRemote>,
        primary: usize,
        cache_dir: Option<PathBuf>,
    ) -> Result<Repository> {
        let rt = runtime()?;
        let first = remotes
            .get(primary)
            .ok_or_else(|| Error::usage("no such remote"))?
            .clone();
        let config = read_config(&rt, &first, first.url())?;
        if config.remotes.len() != remotes.len() {
            return Err(Error::usage(
                "the config lists a different number of remotes",
            ));
        }
        Self::assemble(rt, config, remotes, primary, cache_dir)
    }

    fn assemble(
        rt: tokio::runtime::Runtime,
        config: Config,
        remotes: Vec<DynRemote>,
        primary: usize,
        cache_dir: Option<PathBuf>,
    ) -> Result<Repository> {
        let cache_dir = cache_dir
            .or_else(default_cache_dir)
            .map(|d| d.join(config.id_hex()));
        Ok(Repository {
            config,
            remotes,
            primary,
            rt,
            key: None,
            cache_dir,
            index: Index::default(),
            certs: Mutex::new(HashMap::new()),
            decoded: reader::DecodedCache::new(4),
            shards: reader::ShardCache::new(16),
            on_warning: Box::new(|_| {}),
            health: Arc::default(),
        })
    }

    /// Where to send warnings about damage that an operation worked around (the CLI
    /// prints them; the library never prints).
    pub fn set_warning_handler(&mut self, f: impl Fn(&str) + Send + Sync + 'static) {
        self.on_warning = Box::new(f);
    }

    pub fn warn(&self, msg: &str) {
        (self.on_warning)(msg);
    }

    pub fn block_on<F: std::future::Future>(&self, f: F) -> F::Output {
        self.rt.block_on(f)
    }

    pub fn runtime(&self) -> &tokio::runtime::Runtime {
        &self.rt
    }

    pub fn remotes(&self) -> &[DynRemote] {
        &self.remotes
    }

    /// Remotes in read order: the one the user named first.
    fn read_order(&self) -> impl Iterator<Item = (usize, &DynRemote)> {
        let n = self.remotes.len();
        (0..n).map(move |i| {
            (
                (self.primary + i) % n,
                &self.remotes[(self.primary + i) % n],
            )
        })
    }

    /// A read from remote `i`, skipped once the remote has failed to answer at all (not
    /// merely lacked an object), so one dead remote costs one timeout, not one per read.
    pub(crate) async fn get_from(&self, i: usize, path: &str) -> Result<Bytes> {
        let remote = self
            .remotes
            .get(i)
            .ok_or_else(|| Error::corrupt("no such remote in the config"))?;
        if let Some(e) = self.health.down(i) {
            return Err(Error::fatal(format!(
                "remote {} is unreachable: {e}",
                remote.url()
            )));
        }
        remote.get(path).await
    }

    pub fn key(&self) -> Result<&MasterKey> {
        self.key
            .as_ref()
            .ok_or_else(|| Error::fatal("internal: repository is not unlocked"))
    }

    pub fn signer(&self) -> Result<Signer> {
        Ok(self.key()?.signer())
    }

    /// Find a key file that `password` opens.
    pub fn unlock(&mut self, password: &[u8]) -> Result<()> {
        let names = self.list_union("keys")?;
        if names.is_empty() {
            return Err(Error::fatal(
                "the repository has no key files (keys/ is empty on every remote)",
            ));
        }
        let mut damaged = Vec::new();
        let mut readable = 0;
        for path in names {
            let owner = self.config.owner;
            let kf = match self.read_object(&path, |b| {
                Ok(postcard::from_bytes::<KeyFile>(object::open(
                    ObjectKind::Key,
                    b,
                    &owner,
                )?)?)
            }) {
                Ok(kf) => kf,
                Err(e) => {
                    damaged.push(e.to_string());
                    continue;
                }
            };
            readable += 1;
            match kf.unwrap(password) {
                Ok(master) => {
                    if master.signer().public() != self.config.owner {
                        return Err(Error::corrupt(format!(
                            "key {path} does not belong to this repository's owner"
                        )));
                    }
                    self.key = Some(master);
                    return Ok(());
                }
                Err(e) if e.kind() == Kind::WrongPassword => continue,
                Err(e) => return Err(e),
            }
        }
        if readable == 0 {
            // Not the user's fault: say so instead of blaming the password.
            return Err(Error::corrupt(format!(
                "no key file of the repository can be read on any remote: {}",
                damaged.join("; ")
            )));
        }
        Err(Error::new(
            Kind::WrongPassword,
            "wrong password: no key of the repository opens with it",
        ))
    }

    /// Paths of all objects below `prefix` on any reachable remote.
    pub fn list_union(&self, prefix: &str) -> Result<Vec<String>> {
        let results = self
            .rt
            .block_on(join_all(self.remotes.iter().enumerate().map(
                |(i, r)| async move {
                    // A remote already known not to answer is not asked again.
                    match self.health.down(i) {
                        Some(e) => Err(Error::fatal(e)),
                        None => r.list(prefix).await,
                    }
                },
            )));
        let mut names = BTreeSet::new();
        let mut last_err = None;
        let mut ok = 0;
        for (i, r) in results.into_iter().enumerate() {
            if let Err(e) = &r {
                self.health.note_list_error(i, e);
            }
            match r {
                Ok(list) => {
                    ok += 1;
                    names.extend(list.into_iter().map(|o| o.path));
                }
                Err(e) => last_err = Some(e),
            }
        }
        match (ok, last_err) {
            (0, Some(e)) => Err(e.context(format!("listing {prefix} on every remote failed"))),
            _ => Ok(names.into_iter().collect()),
        }
    }

    /// Read `path` from the first remote whose copy passes `parse`.
    pub fn read_object<T>(&self, path: &str, parse: impl Fn(&[u8]) -> Result<T>) -> Result<T> {
        self.rt.block_on(self.read_object_async(path, parse))
    }

    pub async fn read_object_async<T>(
        &self,
        path: &str,
        parse: impl Fn(&[u8]) -> Result<T>,
    ) -> Result<T> {
        let mut errors = Vec::new();
        for (i, r) in self.read_order() {
            match self.get_from(i, path).await.and_then(|b| parse(&b)) {
                Ok(v) => return Ok(v),
                Err(e) => errors.push((r.url().to_string(), e)),
            }
        }
        let all_missing = errors.iter().all(|(_, e)| e.kind() == Kind::NotFound);
        let detail: Vec<String> = errors.iter().map(|(u, e)| format!("{u}: {e}")).collect();
        let kind = if all_missing {
            Kind::NotFound
        } else {
            Kind::Corrupt
        };
        Err(Error::new(
            kind,
            format!("no good copy of {path} ({})", detail.join("; ")),
        ))
    }

    /// Write a metadata object to every remote that still takes writes; succeed if no
    /// more remotes failed than the coding tolerates (the rest is for `repair` later).
    pub fn write_replicated(&self, path: &str, bytes: Bytes) -> Result<()> {
        let health = &self.health;
        let oks = self.rt.block_on(join_all(
            self.remotes
                .iter()
                .enumerate()
                .map(|(i, r)| health.put(i, r, path, bytes.clone())),
        ));
        let failed = oks.iter().filter(|ok| !**ok).count();
        if failed > self.losses_tolerated() {
            return Err(Error::fatal(format!(
                "could not write {path} to enough remotes ({failed} of {} failed): {}",
                self.remotes.len(),
                health.describe(&self.remotes)
            )));
        }
        Ok(())
    }

    /// Whole remotes that can be lost without losing data, with this coding.
    pub fn losses_tolerated(&self) -> usize {
        init::remote_losses_tolerated(&self.config.coding, self.remotes.len())
    }

    /// Which remotes failed writes in this process (shared with upload tasks).
    pub fn health(&self) -> Arc<WriteHealth> {
        self.health.clone()
    }

    /// Load every index segment (needs the key).
    pub fn load_index(&mut self) -> Result<()> {
        self.load_index_where(|_| true)
    }

    /// Load the index segments whose id `keep` accepts (a backup dedups only against
    /// segments some head commits to, never against an interrupted run's).
    pub fn load_index_where(&mut self, keep: impl Fn(&str) -> bool) -> Result<()> {
        let key = self.key()?.clone();
        let owner = self.config.owner;
        let mut index = Index::default();
        for path in self.list_union("index")? {
            if !keep(path.trim_start_matches("index/")) {
                continue;
            }
            match self.read_object(&path, |b| {
                check_content_address(&path, b)?;
                IndexSegment::decrypt(&key, object::open(ObjectKind::Index, b, &owner)?)
            }) {
                Ok(seg) => index.add_segment(&seg),
                // Its blobs become unreachable until the index is rebuilt from the extents.
                Err(e) => self.warn(&format!("skipping index segment: {e}")),
            }
        }
        self.index = index;
        Ok(())
    }

    pub fn index(&self) -> &Index {
        &self.index
    }

    /// Every snapshot, oldest first.
    pub fn snapshots(&self) -> Result<Vec<(String, Snapshot)>> {
        let key = self.key()?;
        let owner = self.config.owner;
        let mut out = Vec::new();
        for path in self.list_union("snapshots")? {
            match self.read_object(&path, |b| {
                check_content_address(&path, b)?;
                Snapshot::decrypt(key, object::open(ObjectKind::Snapshot, b, &owner)?)
            }) {
                Ok(snap) => out.push((path.trim_start_matches("snapshots/").to_string(), snap)),
                Err(e) => self.warn(&format!("skipping snapshot: {e}")),
            }
        }
        out.sort_by(|a, b| a.1.time_ns.cmp(&b.1.time_ns).then(a.0.cmp(&b.0)));
        Ok(out)
    }

    /// `latest` or a unique id prefix.
    pub fn find_snapshot(&self, spec: &str) -> Result<(String, Snapshot)> {
        let mut all = self.snapshots()?;
        if spec == "latest" {
            return all
                .pop()
                .ok_or_else(|| Error::fatal("the repository has no snapshots yet"));
        }
        let matches: Vec<_> = all
            .into_iter()
            .filter(|(id, _)| id.starts_with(&spec.to_ascii_lowercase()))
            .collect();
        match matches.len() {
            0 => Err(Error::fatal(format!("no snapshot matches {spec:?}"))),
            1 => Ok(matches.into_iter().next().unwrap_or_else(|| unreachable!())),
            n => Err(Error::fatal(format!(
                "{n} snapshots match {spec:?}; give more of the id"
            ))),
        }
    }

    pub fn certificate(&self, name: &ExtentName) -> Result<Arc<Certificate>> {
        self.rt.block_on(self.certificate_async(name))
    }

    /// A verified certificate (cached for the life of the process).
    pub async fn certificate_async(&self, name: &ExtentName) -> Result<Arc<Certificate>> {
        if let Some(c) = self
            .certs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(name)
        {
            return Ok(c.clone());
        }
        let (owner, remotes) = (self.config.owner, self.remotes.len());
        let cert = self
            .read_object_async(&name.cert_path(), |b| {
                let c = Certificate::from_object(b, &owner, name)?;
                if c.shards.iter().any(|s| s.remote as usize >= remotes) {
                    return Err(Error::corrupt(
                        "certificate places shards on remotes the config does not have",
                    ));
                }
                Ok(c)
            })
            .await?;
        let cert = Arc::new(cert);
        self.certs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(*name, cert.clone());
        Ok(cert)
    }

    /// Every extent certificate in the repository, oldest first (by time, then writer and
    /// chain position). Certificates that cannot be read anywhere are skipped with a warning.
    pub fn load_catalog(&self) -> Result<Vec<Arc<Certificate>>> {
        use futures::stream::{self, StreamExt};
        let names: Vec<ExtentName> = self
            .list_union("extents")?
            .iter()
            .filter_map(|p| ExtentName::parse(p.trim_start_matches("extents/")).ok())
            .collect();
        let results: Vec<Result<Arc<Certificate>>> = self.rt.block_on(
            stream::iter(names.iter().map(|n| self.certificate_async(n)))
                .buffer_unordered(32)
                .collect(),
        );
        let mut certs = Vec::with_capacity(results.len());
        for r in results {
            match r {
                Ok(c) => certs.push(c),
                Err(e) => self.warn(&format!("skipping extent certificate: {e}")),
            }
        }
        certs.sort_by_key(|c| (c.timestamp, c.writer, c.seq));
        Ok(certs)
    }

    /// Shard `index` of an extent, checked against its certified hash (`None` if no
    /// intact copy can be read).
    pub fn fetch_shard(&self, cert: &Certificate, index: usize) -> Option<Bytes> {
        let info = cert.shards.get(index)?;
        self.rt
            .block_on(self.fetch_verified(info.remote, cert.name().shard_path(index), info.hash))
    }

    /// Every authentic head of every writer.
    pub fn heads(&self) -> Result<Vec<Head>> {
        let owner = self.config.owner;
        let mut out = Vec::new();
        for path in self.list_union("heads")? {
            if let Ok(h) = self.read_object(&path, |b| Head::from_object(b, &owner, &path)) {
                out.push(h);
            }
        }
        Ok(out)
    }

    /// The newest head of `writer`, if any.
    pub fn latest_head(&self, writer: &[u8; 16]) -> Result<Option<Head>> {
        let dir = format!("heads/{}", hex::encode(writer));
        let owner = self.config.owner;
        for path in self.list_union(&dir)?.into_iter().rev() {
            match self.read_object(&path, |b| Head::from_object(b, &owner, &path)) {
                Ok(h) => return Ok(Some(h)),
                Err(_) => continue,
            }
        }
        Ok(None)
    }

    /// The newest head sequence number this client has seen per writer (its memory
    /// against rollbacks of every remote at once), from the local cache.
    pub fn known_heads(&self) -> HashMap<String, u64> {
        self.cache_dir
            .as_ref()
            .and_then(|d| std::fs::read(d.join("heads.json")).ok())
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    /// Remember heads (only ever raising the known sequence numbers).
    pub fn remember_heads(&self, seen: &HashMap<String, u64>) {
        let Some(dir) = &self.cache_dir else { return };
        let mut known = self.known_heads();
        for (w, &seq) in seen {
            let e = known.entry(w.clone()).or_insert(seq);
            *e = (*e).max(seq);
        }
        if let Ok(json) = serde_json::to_vec(&known) {
            let tmp = dir.join(".heads.json.tmp");
            let _ = std::fs::create_dir_all(dir)
                .and_then(|_| std::fs::write(&tmp, json))
                .and_then(|_| std::fs::rename(&tmp, dir.join("heads.json")));
        }
    }

    /// This client's writer id for the repository, kept in the cache directory.
    pub fn writer_id(&self) -> Result<[u8; 16]> {
        let Some(dir) = &self.cache_dir else {
            return crate::crypto::random_bytes();
        };
        let path = dir.join("writer");
        if let Ok(s) = std::fs::read_to_string(&path) {
            let mut id = [0u8; 16];
            if hex::decode_to_slice(s.trim(), &mut id).is_ok() {
                return Ok(id);
            }
        }
        let id = crate::crypto::random_bytes()?;
        // Without a writable cache every run is a new writer: allowed, chains just get shorter.
        let _ = std::fs::create_dir_all(dir).and_then(|_| std::fs::write(&path, hex::encode(id)));
        Ok(id)
    }
}

fn read_config(rt: &tokio::runtime::Runtime, first: &DynRemote, url: &str) -> Result<Config> {
    if !rt.block_on(first.exists())? {
        return Err(Error::new(
            Kind::RepoNotFound,
            format!("no repository at {url}: the location does not exist"),
        ));
    }
    let bytes = rt
        .block_on(first.get("config"))
        .map_err(|e| match e.kind() {
            Kind::NotFound => Error::new(
                Kind::RepoNotFound,
                format!("no repository at {url}: there is no config"),
            ),
            _ => e.context(format!("reading the config of {url}")),
        })?;
    Config::from_object(&bytes).map_err(|e| {
        e.context(format!("the config at {url} is unusable"))
            .with_kind(Kind::Fatal)
    })
}

/// Snapshot and index objects are named by the BLAKE3 of their bytes.
fn check_content_address(path: &str, bytes: &[u8]) -> Result<()> {
    let name = path.rsplit('/').next().unwrap_or(path);
    if object::content_id(bytes) != name {
        return Err(Error::corrupt(format!(
            "{path} does not match its content hash"
        )));
    }
    Ok(())
}
