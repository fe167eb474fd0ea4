//! A repository: the config, the remotes it spans, the unlocked key, and typed access to
//! the objects on the remotes (metadata replicated everywhere, shards spread out).
//!
//! Reads try the remote the user named first and fall back to the others; an object is
//! only accepted after its checks (signature, content address, decryption) pass, so one
//! bad copy never hides a good one.

mod cache;
pub mod config;
mod health;
mod init;
mod lock;
mod marker;
pub mod names;
mod read_around;
mod read_plan;
mod reader;
mod rebuild;
pub mod remote;
pub mod trust;
mod write;
pub use cache::default_cache_dir;
pub use health::WriteHealth;
pub use lock::{
    LockGuard, LockInfo, LockKind, LockState, LockTimes, RepairMarkerGuard, SeenLock, Unlocked,
    human_duration, lock_times, stop_writing_and_unlock,
};
pub use read_around::RemoteReadAround;
pub use read_plan::{
    ForgetReadPlan, PLAN_SEGMENT, PREFETCH_WINDOW, PlanCounts, PlannedReads, plan_counts,
};
pub use reader::{ReadMode, TREE_SHARDS_AHEAD, TREES_AHEAD, shard_waits};
pub use rebuild::Graph;
pub use trust::{OwnerPin, pin_owner};
pub use write::{ConfigPublished, Foreign};

pub use config::Config;
pub use init::{InitOptions, InitReport, check_init_options, init, init_remotes};

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use futures::future::join_all;

use crate::content::{Index, IndexSegment, Snapshot};
use crate::crypto::envelope::{self, ObjectKind};
use crate::crypto::{KeyFile, MasterKey, Signer};
use crate::error::{Error, Kind, Result};
use crate::extent::{Certificate, Deletions, ExtentName, Head};
use remote::{DynRemote, RemoteSettings};

pub struct Repository {
    pub config: Config,
    remotes: Vec<DynRemote>,
    /// The remote the user named with `-r`, read first.
    primary: usize,
    rt: tokio::runtime::Runtime,
    key: Option<MasterKey>,
    /// Content id of the key file that unlocked the repository (`keys/<id>`).
    key_id: Option<String>,
    cache_dir: Option<PathBuf>,
    index: Index,
    certs: Mutex<HashMap<ExtentName, Arc<Certificate>>>,
    decoded: reader::DecodedCache,
    shards: reader::ShardCache,
    /// What restore will read next, for the shard cache (see [`read_plan`]).
    read_plan: Mutex<Option<Arc<read_plan::ReadPlan>>>,
    /// Rebuilding extents through later codewords (see [`rebuild`]): set up by the first
    /// extent whose own codeword cannot be decoded, kept for the process.
    rescue: Mutex<Option<rebuild::Rescue>>,
    /// Shards reads went around (see [`read_around`]).
    read_around: read_around::ReadAround,
    on_warning: Box<dyn Fn(&str) + Send + Sync>,
    health: Arc<WriteHealth>,
    foreign_configs: Vec<String>,
    remote_settings: remote::SettingsByUrl,
    /// What the owner's deletion records name (read on first use).
    deletions: std::sync::OnceLock<Deletions>,
    /// Listings made ahead by [`list_ahead`](Self::list_ahead), per prefix, each taken
    /// by the first [`list_each`](Self::list_each) of its prefix.
    listed_ahead: Mutex<HashMap<String, RemoteListings>>,
    /// Keys of the warnings [`warn_once`](Self::warn_once) has given.
    warned: Mutex<std::collections::HashSet<String>>,
    /// How long [`lock`](Self::lock) waits for a conflicting lock to go (`--retry-lock`).
    lock_wait: std::time::Duration,
}

/// What each remote answered to a listing, in remote order.
type RemoteListings = Vec<Result<Vec<remote::ObjectInfo>>>;

/// How to open a repository.
#[derive(Clone, Debug, Default)]
pub struct OpenOptions {
    /// `--cache-dir` (else the default cache directory).
    pub cache_dir: Option<PathBuf>,
    /// `--owner` / `TANGLE_OWNER`: the owner key to trust (else the one the cache pins).
    pub owner: Option<OwnerPin>,
    /// Per-remote settings (a profile's `[remote."URL"]` tables).
    pub remote_settings: remote::SettingsByUrl,
}

/// Metadata objects [`Repository::read_objects`] fetches at once.
const OBJECTS_IN_FLIGHT: usize = 16;

pub fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .thread_name("tangle-io")
        .enable_all()
        .build()
        .map_err(|e| Error::fatal(format!("cannot start the I/O runtime: {e}")))
}

impl Repository {
    /// Open the repository that `url` (any one of its remotes) belongs to.
    pub fn open(url: &str, cache_dir: Option<PathBuf>) -> Result<Repository> {
        Self::open_with(
            url,
            &OpenOptions {
                cache_dir,
                ..Default::default()
            },
        )
    }

    /// Open through `url`, trusting only the owner pinned by `opts.owner` or the local
    /// cache (see [`trust`]), and adopting the newest config revision of that owner any
    /// listed remote has (after `remote replace` a remote that missed the change still
    /// opens the repository right).
    pub fn open_with(url: &str, opts: &OpenOptions) -> Result<Repository> {
        let rt = runtime()?;
        let canonical = remote::canonical_url(url)?;
        let settings = &opts.remote_settings;
        // Each URL is opened once: the remotes that served their config while it was
        // resolved are the ones the repository keeps (an SFTP remote opened twice
        // started ssh twice, 0.3-0.5 s each).
        let opened: std::cell::RefCell<HashMap<String, DynRemote>> = Default::default();
        let open_remote = |u: &str| -> Result<DynRemote> {
            if let Some(r) = opened.borrow().get(u) {
                return Ok(r.clone());
            }
            let r = remote::open_with(u, settings.get(u).unwrap_or(&Default::default()))?;
            opened.borrow_mut().insert(u.to_string(), r.clone());
            Ok(r)
        };
        let first = open_remote(&canonical)?;
        let (named, object) = read_config(&rt, &first, url)?;
        let cache_root = opts.cache_dir.clone().or_else(default_cache_dir);
        let (trusted, object) = trust::resolve(
            &rt,
            &canonical,
            object,
            named,
            opts.owner.as_ref(),
            cache_root.as_deref(),
            &open_remote,
        )?;
        let config = trusted.config;
        trust::remember(cache_root.as_deref(), &object, &config);
        let mut primary = 0;
        let mut remotes = Vec::with_capacity(config.remotes.len());
        for (i, u) in config.remotes.iter().enumerate() {
            if *u == canonical {
                primary = i;
            }
            remotes.push(open_remote(u)?);
        }
        let mut repo = Self::assemble(rt, config, remotes, primary, opts.cache_dir.clone())?;
        repo.foreign_configs = trusted.foreign;
        repo.remote_settings = opts.remote_settings.clone();
        Ok(repo)
    }

    /// The settings the remote with this URL was opened with.
    pub fn remote_settings(&self, url: &str) -> RemoteSettings {
        self.remote_settings.get(url).cloned().unwrap_or_default()
    }

    /// Open a remote (not one of this repository's yet, e.g. one being added) with
    /// its settings.
    pub(crate) fn open_remote(&self, url: &str) -> Result<DynRemote> {
        remote::open_with(url, &self.remote_settings(url))
    }

    /// Remotes that served a config of another owner at open (`url: why`): they are
    /// read around, and `verify` reports them as trust violations.
    pub fn foreign_configs(&self) -> &[String] {
        &self.foreign_configs
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
        let (config, _) = read_config(&rt, &first, first.url())?;
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
            key_id: None,
            cache_dir,
            index: Index::default(),
            certs: Mutex::new(HashMap::new()),
            decoded: reader::DecodedCache::new(4),
            shards: reader::ShardCache::new(16),
            read_plan: Mutex::new(None),
            rescue: Mutex::new(None),
            read_around: Default::default(),
            on_warning: Box::new(|_| {}),
            health: Arc::default(),
            foreign_configs: Vec::new(),
            remote_settings: remote::SettingsByUrl::new(),
            deletions: std::sync::OnceLock::new(),
            listed_ahead: Mutex::new(HashMap::new()),
            warned: Mutex::new(Default::default()),
            lock_wait: std::time::Duration::ZERO,
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

    /// [`warn`](Self::warn), once per `key` in this process: for what a command may look
    /// at more than once (a lock is read before and after taking one's own).
    pub fn warn_once(&self, key: &str, msg: &str) {
        let first = (self.warned.lock())
            .unwrap_or_else(|p| p.into_inner())
            .insert(key.to_string());
        if first {
            self.warn(msg);
        }
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
    /// At most `max` bytes are read: a remote cannot make a reader exhaust memory.
    pub(crate) async fn get_from(&self, i: usize, path: &str, max: u64) -> Result<Bytes> {
        let remote = self.live_remote(i)?;
        let got = remote.get_max(path, max).await;
        self.note_stall(i, &got);
        got
    }

    /// Bytes `offset..offset + len` of an object on remote `i`, skipped like
    /// [`get_from`](Self::get_from) once the remote has stalled.
    pub(crate) async fn get_range_from(
        &self,
        i: usize,
        path: &str,
        offset: u64,
        len: u64,
    ) -> Result<Bytes> {
        let remote = self.live_remote(i)?;
        let got = remote.get_range(path, offset, len).await;
        self.note_stall(i, &got);
        got
    }

    /// Remote `i`, unless it is unknown or has stalled in this run.
    fn live_remote(&self, i: usize) -> Result<&remote::DynRemote> {
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
        Ok(remote)
    }

    /// A remote that stalled is skipped for the rest of the run: one stall costs one
    /// timeout, not one per read. Other single failures do not count (a remote may lack
    /// or garble one object and still serve the rest).
    fn note_stall(&self, i: usize, got: &Result<Bytes>) {
        if let Err(e) = got {
            if stalled(e) {
                self.health.note_list_error(i, e);
            }
        }
    }

    pub fn key(&self) -> Result<&MasterKey> {
        self.key
            .as_ref()
            .ok_or_else(|| Error::fatal("internal: repository is not unlocked"))
    }

    pub fn signer(&self) -> Result<Signer> {
        Ok(self.key()?.signer())
    }

    /// The content id of the key file that unlocked the repository (`keys/<id>`).
    pub fn key_id(&self) -> Option<&str> {
        self.key_id.as_deref()
    }

    /// Find a key file that `password` opens. A key file that a deletion record names
    /// (`key remove`) never opens the repository, even where a remote that was away
    /// during the removal still holds it.
    pub fn unlock(&mut self, password: &[u8]) -> Result<()> {
        let (key, id) = self.find_key(password)?;
        self.key = Some(key);
        self.key_id = Some(id);
        Ok(())
    }

    /// [`unlock`](Self::unlock), then [`load_index`](Self::load_index), in less time:
    /// the index segments are read and checked (content address, the owner's signature:
    /// no key needed) on another thread while Argon2id turns the password into the key
    /// on this one. Errors come in the same order: a wrong password first.
    pub fn unlock_and_load_index(&mut self, password: &[u8]) -> Result<()> {
        let this = &*self;
        let (found, sealed) = std::thread::scope(|s| {
            let sealed = s.spawn(|| this.read_sealed_index(|_| true));
            let found = this.find_key(password);
            let sealed = sealed
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p));
            (found, sealed)
        });
        let (key, id) = found?;
        self.key = Some(key);
        self.key_id = Some(id);
        self.load_sealed_index(sealed?)
    }

    /// The master key that `password` opens, and the id of its key file.
    fn find_key(&self, password: &[u8]) -> Result<(MasterKey, String)> {
        // The key files and the names of key removals' records, in one round trip.
        let missing: Vec<String> = {
            let ahead = (self.listed_ahead.lock()).unwrap_or_else(|p| p.into_inner());
            (["keys", names::REMOVED_KEYS].into_iter())
                .filter(|p| !ahead.contains_key(*p))
                .map(String::from)
                .collect()
        };
        self.list_ahead(&missing);
        let listings = self.list_each("keys");
        let removals = self.list_each(names::REMOVED_KEYS);
        let names = union_of(&listings, "keys")?;
        if names.is_empty() {
            return Err(Error::fatal(
                "the repository has no key files (keys/ is empty on every remote)",
            ));
        }
        // Loaded only when needed: `key remove` takes a key file off every remote it
        // reaches, so one on every remote is not removed (reading every record on each
        // open would cost one read per delete ever run).
        let mut removed: Option<std::collections::HashSet<String>> = None;
        let mut opened_removed = false;
        let mut damaged = Vec::new();
        let mut readable = 0;
        for path in names {
            let kf = match self.read_key_file(&path) {
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
                    let id = path.trim_start_matches("keys/").to_string();
                    let everywhere = (listings.iter())
                        .all(|l| l.as_ref().is_ok_and(|names| names.contains(&path)));
                    // On every remote, it is removed only if a removal that stopped
                    // before taking it off left its record: the one at
                    // `removed-keys/<id>`, written first, is all that needs looking at.
                    let is_removed = match (everywhere, key_removal_listed(&removals, &id)) {
                        (true, Some(false)) => false,
                        (true, Some(true)) => self.key_removal(&id),
                        // Some remote lacks the file, or the records' names could not be
                        // listed everywhere: every record counts.
                        _ => match &mut removed {
                            Some(r) => r,
                            None => removed.insert(self.deletions()?.keys.clone()),
                        }
                        .contains(&id),
                    };
                    if is_removed {
                        opened_removed = true;
                        continue;
                    }
                    return Ok((master, id));
                }
                Err(e) if e.kind() == Kind::WrongPassword => continue,
                Err(e) => return Err(e),
            }
        }
        if opened_removed {
            return Err(Error::new(
                Kind::WrongPassword,
                "wrong password: it opens only a key that was removed (`tangle key remove`); \
                 run `tangle repair` to take the removed key file off the remotes that still hold it",
            ));
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

    /// Whether an authentic record at `removed-keys/<key_id>` removes that key (a forged
    /// one, planted to deny a password, does not).
    fn key_removal(&self, key_id: &str) -> bool {
        let path = names::removed_key_path(key_id);
        match self.read_object(&path, |b| self.deletion_record(&path, b)) {
            Ok(_) => true,
            Err(e) => {
                self.warn(&format!("skipping deletion record: {e}"));
                false
            }
        }
    }

    /// Paths of all objects below `prefix` on any reachable remote, without those the
    /// owner's deletion records name (a remote that missed a delete still serves them
    /// until `repair`; they are no longer part of the repository).
    pub fn list_union(&self, prefix: &str) -> Result<Vec<String>> {
        let mut names = self.list_union_all(prefix)?;
        self.prune_object_cache(prefix, &names);
        if !matches!(prefix, "deletions" | "locks") {
            let deleted = self.deletions()?;
            if !deleted.is_empty() {
                names.retain(|p| !deleted.names(p));
            }
        }
        Ok(names)
    }

    /// Everything the authentic deletion records name, read once per process. A record
    /// that no remote serves authentically is ignored (a forged one never counts).
    pub fn deletions(&self) -> Result<&Deletions> {
        if let Some(d) = self.deletions.get() {
            return Ok(d);
        }
        let mut all = Deletions::default();
        let mut listed = self.list_union_all("deletions")?;
        self.prune_object_cache("deletions", &listed);
        // A key removal stopped between its two records has only the one named by the key.
        // A remote that cannot list them is no reason to stop (the listing of `deletions/`
        // worked on some remote).
        if let Ok(keys) = self.list_union_all(names::REMOVED_KEYS) {
            self.prune_object_cache(names::REMOVED_KEYS, &keys);
            listed.extend(keys);
        }
        let records = self.read_objects(&listed, |path, b| self.deletion_record(path, b));
        for record in records {
            match record {
                Ok(d) => all.add(&d),
                // Verify reports it; a forged record never counts.
                Err(e) => self.warn(&format!("skipping deletion record: {e}")),
            }
        }
        Ok(self.deletions.get_or_init(|| all))
    }

    /// Key file `keys/<id>` from the first remote whose copy is authentic (signed by
    /// the owner and named by its content hash).
    pub fn read_key_file(&self, path: &str) -> Result<KeyFile> {
        let owner = self.config.owner;
        self.read_object(path, |b| {
            check_content_address(path, b)?;
            Ok(postcard::from_bytes::<KeyFile>(envelope::open(
                ObjectKind::Key,
                b,
                &owner,
            )?)?)
        })
    }

    /// Per remote, the canonical object paths below `prefix`, or why it could not be
    /// listed. A remote that does not answer is noted as down for this process.
    pub fn list_each(&self, prefix: &str) -> Vec<Result<BTreeSet<String>>> {
        let ahead = (self.listed_ahead.lock())
            .unwrap_or_else(|p| p.into_inner())
            .remove(prefix);
        let results = match ahead {
            Some(results) => results,
            None => self.rt.block_on(self.list_remotes(prefix)),
        };
        (results.into_iter().enumerate())
            .map(|(i, r)| {
                if let Err(e) = &r {
                    self.health.note_list_error(i, e);
                }
                // Foreign names are never objects (see `names`): not read, not trusted.
                r.map(|list| {
                    (list.into_iter())
                        .map(|o| o.path)
                        .filter(|p| names::is_canonical(p))
                        .collect()
                })
            })
            .collect()
    }

    async fn list_remotes(&self, prefix: &str) -> RemoteListings {
        join_all(self.remotes.iter().enumerate().map(|(i, r)| async move {
            // A remote already known not to answer is not asked again.
            match self.health.down(i) {
                Some(e) => Err(Error::fatal(e)),
                None => r.list(prefix).await,
            }
        }))
        .await
    }

    /// List `prefixes` on every remote now, all at once, for the first
    /// [`list_each`](Self::list_each) of each to use: a command that lists them one after
    /// another (keys to unlock, deletions, index, snapshots, heads) waits for one round
    /// trip instead of one per prefix. Only for commands that write nothing below these
    /// prefixes before they list them (the read-only ones): a listing used after the
    /// command wrote would miss what it wrote.
    pub fn list_ahead(&self, prefixes: &[String]) {
        let listed = self.rt.block_on(join_all(
            (prefixes.iter()).map(|p| async move { (p.clone(), self.list_remotes(p).await) }),
        ));
        (self.listed_ahead.lock())
            .unwrap_or_else(|p| p.into_inner())
            .extend(listed);
    }

    /// What a read-only command lists before it reads a snapshot: the key files (to
    /// unlock), the deletion records, the index (if it loads it), the snapshots, and the
    /// heads of the writers this client has seen (to notice a rollback); see
    /// [`list_ahead`](Self::list_ahead).
    pub fn list_ahead_for_reading(&self, index: bool) {
        let mut prefixes: Vec<String> = ["keys", names::REMOVED_KEYS, "deletions", "snapshots"]
            .into_iter()
            .chain(index.then_some("index"))
            .map(String::from)
            .collect();
        let mut writers: Vec<String> = self.known_heads().into_keys().collect();
        writers.sort();
        prefixes.extend(writers.iter().map(|w| format!("heads/{w}")));
        self.list_ahead(&prefixes);
    }

    /// Paths of all objects below `prefix` on any reachable remote, deleted or not.
    fn list_union_all(&self, prefix: &str) -> Result<Vec<String>> {
        union_of(&self.list_each(prefix), prefix)
    }

    /// Read `path` from the first remote whose copy passes `parse`.
    pub fn read_object<T>(&self, path: &str, parse: impl Fn(&[u8]) -> Result<T>) -> Result<T> {
        self.rt.block_on(self.read_object_async(path, parse))
    }

    /// [`read_object`](Self::read_object) of each of `paths`, in order, many at once: a
    /// directory of objects not in the local cache (a new machine, a disaster recovery)
    /// costs a few round trips instead of one per object.
    pub fn read_objects<T>(
        &self,
        paths: &[String],
        parse: impl Fn(&str, &[u8]) -> Result<T>,
    ) -> Vec<Result<T>> {
        use futures::stream::{self, StreamExt};
        let parse = &parse;
        self.rt.block_on(
            stream::iter(
                paths
                    .iter()
                    .map(|path| self.read_object_async(path, move |b: &[u8]| parse(path, b))),
            )
            .buffered(OBJECTS_IN_FLIGHT)
            .collect(),
        )
    }

    pub async fn read_object_async<T>(
        &self,
        path: &str,
        parse: impl Fn(&[u8]) -> Result<T>,
    ) -> Result<T> {
        if let Some(v) = self.cached_object(path).and_then(|b| parse(&b).ok()) {
            return Ok(v);
        }
        let mut errors = Vec::new();
        for (i, r) in self.read_order() {
            let got = self.get_from(i, path, metadata_limit(path)).await;
            match got.and_then(|b| parse(&b).map(|v| (v, b))) {
                Ok((v, b)) => {
                    self.cache_object(path, &b);
                    return Ok(v);
                }
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

    /// Load every index segment (needs the key).
    pub fn load_index(&mut self) -> Result<()> {
        self.load_index_where(|_| true)
    }

    /// Load the index segments whose id `keep` accepts (a backup dedups only against
    /// segments some head commits to, never against an interrupted run's).
    pub fn load_index_where(&mut self, keep: impl Fn(&str) -> bool) -> Result<()> {
        self.key()?;
        let sealed = self.read_sealed_index(keep)?;
        self.load_sealed_index(sealed)
    }

    /// The payloads of the index segments whose id `keep` accepts, each checked against
    /// its content address and the owner's signature, still encrypted. A payload that
    /// passes both is the same from every remote, so decrypting it later instead of
    /// here, where a failure would send the read on to the next remote, changes nothing.
    fn read_sealed_index(&self, keep: impl Fn(&str) -> bool) -> Result<Vec<Result<Vec<u8>>>> {
        let owner = self.config.owner;
        let mut paths = self.list_union("index")?;
        paths.retain(|path| keep(path.trim_start_matches("index/")));
        Ok(self.read_objects(&paths, |path, b| {
            check_content_address(path, b)?;
            Ok(envelope::open(ObjectKind::Index, b, &owner)?.to_vec())
        }))
    }

    fn load_sealed_index(&mut self, sealed: Vec<Result<Vec<u8>>>) -> Result<()> {
        let key = self.key()?;
        let mut index = Index::default();
        for segment in sealed {
            match segment.and_then(|payload| IndexSegment::decrypt(key, &payload)) {
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

    /// Make these segments, in this order, the loaded index: of two that place one blob,
    /// the first wins (prune reads the snapshots through the segments that stay first).
    pub fn load_index_segments<'a>(
        &mut self,
        segments: impl IntoIterator<Item = &'a IndexSegment>,
    ) {
        let mut index = Index::default();
        for segment in segments {
            index.add_segment(segment);
        }
        self.index = index;
    }

    /// Every snapshot, oldest first; one that cannot be read is skipped with a warning.
    pub fn snapshots(&self) -> Result<Vec<IdentifiedSnapshot>> {
        let (snapshots, unreadable) = self.snapshots_and_unreadable()?;
        for e in unreadable {
            self.warn(&format!("skipping snapshot: {e}"));
        }
        Ok(snapshots)
    }

    /// Every snapshot that can be read, oldest first, and why each other one cannot:
    /// for `delete`, which must not take a snapshot it cannot read for one not wanted.
    pub fn snapshots_and_unreadable(&self) -> Result<(Vec<IdentifiedSnapshot>, Vec<Error>)> {
        let key = self.key()?;
        let owner = self.config.owner;
        let (mut out, mut unreadable) = (Vec::new(), Vec::new());
        let paths = self.list_union("snapshots")?;
        let snapshots = self.read_objects(&paths, |path, b| {
            check_content_address(path, b)?;
            Snapshot::decrypt(key, envelope::open(ObjectKind::Snapshot, b, &owner)?)
        });
        for (path, snapshot) in paths.iter().zip(snapshots) {
            match snapshot {
                Ok(snap) => out.push((path.trim_start_matches("snapshots/").to_string(), snap)),
                Err(e) => unreadable.push(e),
            }
        }
        out.sort_by(|a, b| a.1.time_ns.cmp(&b.1.time_ns).then(a.0.cmp(&b.0)));
        Ok((out, unreadable))
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
        self.rt.block_on(self.fetch_verified(cert, index))
    }

    /// Every authentic head of every writer.
    pub fn heads(&self) -> Result<Vec<Head>> {
        let owner = self.config.owner;
        let paths = self.list_union("heads")?;
        let heads = self.read_objects(&paths, |path, b| Head::from_object(b, &owner, path));
        Ok((heads.into_iter().filter_map(Result::ok))
            .filter(|h| h.repo_id == self.config.id)
            .collect())
    }

    /// Whether the remotes serve an older state than this client last saw: a message
    /// naming the first writer whose newest authentic head on any remote is older than
    /// the head this client remembers (its own last backup, or what its last verify saw).
    /// A rollback of every remote (a restored disk image, a provider's snapshot) shows
    /// only this way; verify reports it as a trust violation, backup refuses to build on
    /// it, and snapshots and restore warn.
    pub fn older_than_seen(&self) -> Result<Option<String>> {
        let mut known: Vec<(String, u64)> = self.known_heads().into_iter().collect();
        known.sort();
        let deleted = self.deletions()?;
        for (writer, seen) in known {
            let mut id = [0u8; 16];
            if hex::decode_to_slice(&writer, &mut id).is_err() {
                continue;
            }
            // Consolidated away by a delete: gone on purpose, not rolled back (and no
            // longer worth remembering).
            if deleted.heads.contains(&crate::extent::head_path(&id, seen)) {
                self.forget_heads(std::slice::from_ref(&writer));
                continue;
            }
            let have = self.latest_head(&id)?.map(|h| h.seq);
            if have.is_none_or(|h| h < seen) {
                return Ok(Some(format!(
                    "the remotes serve an older state than this client last saw (writer {}: \
                     head {seen} seen, the remotes have {}); a remote may have been rolled \
                     back: run `tangle verify`",
                    &writer[..8.min(writer.len())],
                    have.map_or("none".into(), |h| h.to_string())
                )));
            }
        }
        Ok(None)
    }

    /// The newest head of `writer`, if any.
    pub fn latest_head(&self, writer: &[u8; 16]) -> Result<Option<Head>> {
        let dir = format!("heads/{}", hex::encode(writer));
        let owner = self.config.owner;
        for path in self.list_union(&dir)?.into_iter().rev() {
            match self.read_object(&path, |b| Head::from_object(b, &owner, &path)) {
                Ok(h) if h.repo_id == self.config.id => return Ok(Some(h)),
                Ok(_) => continue,
                Err(_) => continue,
            }
        }
        Ok(None)
    }
}

/// A snapshot and its id.
pub type IdentifiedSnapshot = (String, Snapshot);

/// Whether a remote's listing of `removed-keys/` (`removals`) holds `key_id`'s record
/// (`None` if some remote could not be listed, so its silence proves nothing).
fn key_removal_listed(removals: &[Result<BTreeSet<String>>], key_id: &str) -> Option<bool> {
    let path = names::removed_key_path(key_id);
    let mut listed = false;
    for l in removals {
        listed |= l.as_ref().ok()?.contains(&path);
    }
    Some(listed)
}

/// The union of per-remote listings; an error only if no remote could be listed.
fn union_of(listings: &[Result<BTreeSet<String>>], prefix: &str) -> Result<Vec<String>> {
    let mut names = BTreeSet::new();
    let mut last_err = None;
    let mut ok = 0;
    for l in listings {
        match l {
            Ok(list) => {
                ok += 1;
                names.extend(list.iter().cloned());
            }
            Err(e) => last_err = Some(e),
        }
    }
    match (ok, last_err) {
        (0, Some(e)) => Err(e
            .clone()
            .context(format!("listing {prefix} on every remote failed"))),
        _ => Ok(names.into_iter().collect()),
    }
}

/// The config of the remote at `url`, parsed (its signature checked against the key it
/// names itself), and its object bytes.
fn read_config(
    rt: &tokio::runtime::Runtime,
    first: &DynRemote,
    url: &str,
) -> Result<(Config, Bytes)> {
    // The config first: where it is, the location exists, and asking costs a round trip
    // (on S3 a listing of the prefix, on SFTP a stat) that most opens need not make.
    let bytes = match rt.block_on(first.get_max("config", metadata_limit("config"))) {
        Ok(bytes) => bytes,
        // A remote that stalled would only stall again.
        Err(e) if stalled(&e) => return Err(e.context(format!("reading the config of {url}"))),
        // The message says which bucket and where; no repository can be there (exit 10).
        Err(e)
            if remote_error(&e)
                .is_some_and(|r| matches!(r, remote::RemoteError::NoBucket { .. })) =>
        {
            return Err(e.with_kind(Kind::RepoNotFound));
        }
        Err(e) => {
            if !rt.block_on(first.exists())? {
                return Err(Error::new(
                    Kind::RepoNotFound,
                    format!("no repository at {url}: the location does not exist"),
                ));
            }
            return Err(match e.kind() {
                Kind::NotFound => Error::new(
                    Kind::RepoNotFound,
                    format!("no repository at {url}: there is no config"),
                ),
                _ => e.context(format!("reading the config of {url}")),
            });
        }
    };
    let config = Config::from_object(&bytes).map_err(|e| {
        e.context(format!("the config at {url} is unusable"))
            .with_kind(Kind::Fatal)
    })?;
    Ok((config, bytes))
}

/// Whether the remote did not answer within its allowance ([`remote::RemoteError::Timeout`]).
fn stalled(e: &Error) -> bool {
    remote_error(e).is_some_and(|r| matches!(r, remote::RemoteError::Timeout { .. }))
}

/// The remote layer's error behind `e`, if it came from there.
fn remote_error(e: &Error) -> Option<&remote::RemoteError> {
    std::error::Error::source(e).and_then(|s| s.downcast_ref::<remote::RemoteError>())
}

/// The largest metadata object a reader accepts at `path`: index segments and snapshots
/// grow with a backup; configs, keys, heads and certificates stay small. Anything larger
/// is damage (or a hostile remote), and is never read whole.
pub fn metadata_limit(path: &str) -> u64 {
    match path.split('/').next() {
        Some("index") | Some("snapshots") | Some("deletions") => 256 << 20,
        Some("extents") => 4 << 20,
        Some("locks") => lock::MAX_SIZE,
        _ => 1 << 20,
    }
}

/// Snapshot and index objects are named by the BLAKE3 of their bytes.
fn check_content_address(path: &str, bytes: &[u8]) -> Result<()> {
    let name = path.rsplit('/').next().unwrap_or(path);
    if envelope::content_id(bytes) != name {
        return Err(Error::corrupt(format!(
            "{path} does not match its content hash"
        )));
    }
    Ok(())
}
