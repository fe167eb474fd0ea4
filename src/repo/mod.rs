//! A repository: the config, the remotes it spans, the unlocked key, and typed access to
//! the objects on the remotes (metadata replicated everywhere, shards spread out).
//!
//! Reads try the remote the user named first and fall back to the others; an object is
//! only accepted after its checks (signature, content address, decryption) pass, so one
//! bad copy never hides a good one.

mod authentic;
mod cache;
pub mod config;
mod heads;
mod health;
mod init;
mod listing;
mod lock;
mod marker;
pub(crate) mod names;
mod objects;
mod read_around;
mod read_plan;
mod reader;
mod rebuild;
pub mod remote;
pub(crate) mod state;
pub(crate) mod trust;
mod unlock;
mod write;
mod writers;
pub(crate) use authentic::Foreign;
pub(crate) use cache::default_cache_dir;
pub(crate) use health::WriteHealth;
pub use lock::{
    LockGuard, LockInfo, LockKind, LockState, LockTimes, LocksRemoved, RepairMarkerGuard, SeenLock,
    human_duration, lock_times, stop_writing_and_unlock,
};
pub(crate) use objects::{IdentifiedSnapshot, metadata_limit};
pub use read_around::RemoteReadAround;
pub(crate) use read_plan::{ForgetReadPlan, PLAN_SEGMENT, PlannedReads};
pub(crate) use reader::{ReadMode, TREE_SHARDS_AHEAD, TREES_AHEAD};
pub(crate) use rebuild::Graph;
pub use state::{Appends, HasIndex, HasKey, Indexed, Public, Signs, State, Unlocked, Writing};
pub use trust::{OwnerPin, pin_owner};
pub(crate) use writers::Writer;

pub use config::Config;
pub use init::{InitOptions, InitReport, check_init_options, init, init_remotes};

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use bytes::Bytes;

use crate::crypto::MasterKey;
use crate::error::{Error, Kind, Result};
use crate::extent::{Certificate, Deletions, ExtentName};
use listing::RemoteListings;
use remote::{DynRemote, RemoteSettings};

/// An open repository. What it may do is its state `S` (see [`state`]): opened with
/// the owner's public key only ([`Public`]), unlocked ([`Unlocked`]), or unlocked with
/// the blob index loaded ([`Indexed`]). The methods are spread over the files of this
/// module by concern: opening here, `unlock` (keys and the index), `listing` (unions
/// of the remotes' listings, without what deletion records name), `objects` (signed
/// metadata: snapshots, certificates), `heads` (writers' heads and rollback checks),
/// `reader` and `write` (shards and blobs), `lock`.
pub struct Repository<S = Public> {
    pub config: Config,
    /// What this repository may do: the key and index it holds, if any.
    state: S,
    /// Everything else: the same in every state.
    inner: Inner,
}

/// The parts of a [`Repository`] that do not change with its state.
struct Inner {
    remotes: Vec<DynRemote>,
    /// The remote the user named with `-r`, read first.
    primary: usize,
    /// Shared with the locks this process holds, so a lock dropped after its
    /// repository can still be removed (see `lock::HeldLock`).
    rt: Arc<tokio::runtime::Runtime>,
    cache_dir: Option<PathBuf>,
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
    /// Who may sign (read on first use: [`Repository::signers`]).
    signers: std::sync::OnceLock<crate::crypto::Signers>,
    /// The owner's KEM key (derived from the master key on first use) and the writers'
    /// run keys opened with it, by their sealed form ([`Repository::run_keys`]).
    owner_kem: std::sync::OnceLock<crate::crypto::writer::OwnerKem>,
    #[allow(clippy::type_complexity)]
    run_keys: std::sync::Mutex<
        Vec<(
            [u8; crate::crypto::writer::SEALED_KEY_LEN],
            std::sync::Arc<crate::crypto::writer::RunKeys>,
        )>,
    >,
    /// Listings made ahead by [`list_ahead`](Self::list_ahead), per prefix, each taken
    /// by the first [`list_each`](Self::list_each) of its prefix.
    listed_ahead: Mutex<HashMap<String, RemoteListings>>,
    /// Keys of the warnings [`warn_once`](Self::warn_once) has given.
    warned: Mutex<std::collections::HashSet<String>>,
    /// How long [`lock`](Self::lock) waits for a conflicting lock to go (`--retry-lock`).
    lock_wait: std::time::Duration,
}

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

pub(crate) fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .thread_name("tangle-io")
        .enable_all()
        .build()
        .map_err(|e| Error::fatal(format!("cannot start the I/O runtime: {e}")))
}

impl Repository<Public> {
    /// Open the repository that `url` (any one of its remotes) belongs to.
    pub fn open(url: &str, cache_dir: Option<PathBuf>) -> Result<Self> {
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
    pub fn open_with(url: &str, opts: &OpenOptions) -> Result<Self> {
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
        repo.inner.foreign_configs = trusted.foreign;
        repo.inner.remote_settings = opts.remote_settings.clone();
        Ok(repo)
    }

    /// Open over remotes the caller built (e.g. wrapped for fault injection in tests),
    /// in the order of the config's remote list; the config is read from `primary`.
    pub fn open_with_remotes(
        remotes: Vec<DynRemote>,
        primary: usize,
        cache_dir: Option<PathBuf>,
    ) -> Result<Self> {
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
    ) -> Result<Self> {
        let cache_dir = cache_dir
            .or_else(default_cache_dir)
            .map(|d| d.join(config.id_hex()));
        let data_shards = (config.coding.data_shards as usize).max(1);
        Ok(Repository {
            config,
            state: Public,
            inner: Inner {
                remotes,
                primary,
                rt: Arc::new(rt),
                cache_dir,
                certs: Mutex::new(HashMap::new()),
                decoded: reader::DecodedCache::new(4),
                shards: reader::ShardCache::new(read_plan::SHARD_CACHE_EXTENTS * data_shards),
                read_plan: Mutex::new(None),
                rescue: Mutex::new(None),
                read_around: Default::default(),
                on_warning: Box::new(|_| {}),
                health: Arc::default(),
                foreign_configs: Vec::new(),
                remote_settings: remote::SettingsByUrl::new(),
                deletions: std::sync::OnceLock::new(),
                signers: std::sync::OnceLock::new(),
                owner_kem: std::sync::OnceLock::new(),
                run_keys: std::sync::Mutex::new(Vec::new()),
                listed_ahead: Mutex::new(HashMap::new()),
                warned: Mutex::new(Default::default()),
                lock_wait: std::time::Duration::ZERO,
            },
        })
    }
}

impl<S: State> Repository<S> {
    /// The settings the remote with this URL was opened with.
    pub(crate) fn remote_settings(&self, url: &str) -> RemoteSettings {
        self.inner
            .remote_settings
            .get(url)
            .cloned()
            .unwrap_or_default()
    }

    /// Open a remote (not one of this repository's yet, e.g. one being added) with
    /// its settings.
    pub(crate) fn open_remote(&self, url: &str) -> Result<DynRemote> {
        remote::open_with(url, &self.remote_settings(url))
    }

    /// Remotes that served a config of another owner at open (`url: why`): they are
    /// read around, and `verify` reports them as trust violations.
    pub fn foreign_configs(&self) -> &[String] {
        &self.inner.foreign_configs
    }

    /// Where to send warnings about damage that an operation worked around (the CLI
    /// prints them; the library never prints).
    pub fn set_warning_handler(&mut self, f: impl Fn(&str) + Send + Sync + 'static) {
        self.inner.on_warning = Box::new(f);
    }

    pub(crate) fn warn(&self, msg: &str) {
        (self.inner.on_warning)(msg);
    }

    /// [`warn`](Self::warn), once per `key` in this process: for what a command may look
    /// at more than once (a lock is read before and after taking one's own).
    pub(crate) fn warn_once(&self, key: &str, msg: &str) {
        let first = (self.inner.warned.lock())
            .unwrap_or_else(|p| p.into_inner())
            .insert(key.to_string());
        if first {
            self.warn(msg);
        }
    }

    pub(crate) fn block_on<F: std::future::Future>(&self, f: F) -> F::Output {
        self.inner.rt.block_on(f)
    }

    pub(crate) fn runtime(&self) -> &tokio::runtime::Runtime {
        &self.inner.rt
    }

    pub fn remotes(&self) -> &[DynRemote] {
        &self.inner.remotes
    }

    /// Remotes in read order: the one the user named first.
    fn read_order(&self) -> impl Iterator<Item = (usize, &DynRemote)> {
        let n = self.inner.remotes.len();
        (0..n).map(move |i| {
            (
                (self.inner.primary + i) % n,
                &self.inner.remotes[(self.inner.primary + i) % n],
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

    /// Shard `path` on remote `i`, certified to be `size` bytes: as
    /// [`get_from`](Self::get_from) with that limit, through
    /// [`Remote::get_sized`](remote::Remote::get_sized).
    pub(crate) async fn get_shard_from(&self, i: usize, path: &str, size: u64) -> Result<Bytes> {
        let remote = self.live_remote(i)?;
        let got = remote.get_sized(path, size).await;
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
            .inner
            .remotes
            .get(i)
            .ok_or_else(|| Error::corrupt("no such remote in the config"))?;
        if let Some(e) = self.inner.health.down(i) {
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
        if let Err(e) = got
            && stalled(e)
        {
            self.inner.health.note_list_error(i, e);
        }
    }

    /// The same repository in another state (the key or index it holds added or given up).
    fn with_state<T>(self, next: impl FnOnce(S) -> T) -> Repository<T> {
        Repository {
            config: self.config,
            state: next(self.state),
            inner: self.inner,
        }
    }

    /// The master key, where this state holds it (verify and repair work with or without).
    pub(crate) fn master_key(&self) -> Option<&MasterKey> {
        self.state.master_key()
    }

    /// The content id of the key file that unlocked the repository (`keys/<id>`), if any.
    pub(crate) fn key_id(&self) -> Option<&str> {
        self.state.key_id()
    }

    /// This repository, if it holds the key and the index: for what works with the
    /// public key alone and does more with the password (verify reads the snapshots).
    pub fn indexed(&self) -> Option<&Repository<Indexed>> {
        S::indexed(self)
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
