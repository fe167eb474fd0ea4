//! What an open repository can do, in its type (`Repository<S>`), as rustic_core's
//! repository status: a command that needs the master key or the blob index cannot
//! be written against a repository opened without them.
//!
//! ```text
//!   Repository::open_with ──► Repository<Public>      the owner's public key only:
//!                                │ unlock(password)     verify, repair, cat of signed objects
//!                                ▼
//!                             Repository<Unlocked>    + the master key: decrypt snapshots,
//!                                │ load_index()         sign as the owner, take locks
//!                                ▼
//!                             Repository<Indexed>     + the blob index: read and write blobs
//! ```
//!
//! A writer's key file opens [`Writing`] instead (`Repository::open_as_writer`): it
//! [`Signs`] and [`Appends`] like the owner's [`Indexed`], but has neither [`HasKey`]
//! nor [`HasIndex`], so nothing that reads snapshots, trees or file contents compiles
//! against it.

use super::Repository;
use crate::content::{Index, PathTable};
use crate::crypto::writer::{SEALED_KEY_LEN, WriterKey};
use crate::crypto::{ContentKey, ContentKeys, MasterKey, Signer};

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Public {}
    impl Sealed for super::Unlocked {}
    impl Sealed for super::Indexed {}
    impl Sealed for super::Writing {}
}

/// A state of an open repository. What every state answers at run time, for the few
/// commands that work with or without the password (`verify`, `repair`).
pub trait State: sealed::Sealed + Send + Sync {
    /// The master key, if this state holds it.
    fn master_key(&self) -> Option<&MasterKey> {
        None
    }
    /// The content id of the key file that unlocked the repository (`keys/<id>`).
    fn key_id(&self) -> Option<&str> {
        None
    }
    /// The loaded blob index, if this state holds it.
    fn blob_index(&self) -> Option<&Index> {
        None
    }
    /// The repository as [`Indexed`], if that is its state (see [`Repository::indexed`]).
    fn indexed(repo: &Repository<Self>) -> Option<&Repository<Indexed>>
    where
        Self: Sized,
    {
        let _ = repo;
        None
    }
}

/// A state that holds the master key.
pub trait HasKey: State {
    fn key(&self) -> &MasterKey;
    /// The content id of the key file that unlocked the repository (`keys/<id>`).
    fn unlocked_by(&self) -> &str;
}

/// A state that holds the master key and the blob index.
pub trait HasIndex: HasKey {
    fn index(&self) -> &Index;
}

/// Opened and trusted (the owner's public key), not unlocked.
pub struct Public;

impl State for Public {}

/// Unlocked with a password: the master key, without the blob index.
pub struct Unlocked {
    pub(super) key: MasterKey,
    pub(super) key_id: String,
}

impl State for Unlocked {
    fn master_key(&self) -> Option<&MasterKey> {
        Some(&self.key)
    }
    fn key_id(&self) -> Option<&str> {
        Some(&self.key_id)
    }
}

impl HasKey for Unlocked {
    fn key(&self) -> &MasterKey {
        &self.key
    }
    fn unlocked_by(&self) -> &str {
        &self.key_id
    }
}

/// Unlocked, with the blob index loaded.
pub struct Indexed {
    pub(super) unlocked: Unlocked,
    pub(super) index: Index,
}

impl State for Indexed {
    fn master_key(&self) -> Option<&MasterKey> {
        Some(&self.unlocked.key)
    }
    fn key_id(&self) -> Option<&str> {
        Some(&self.unlocked.key_id)
    }
    fn blob_index(&self) -> Option<&Index> {
        Some(&self.index)
    }
    fn indexed(repo: &Repository<Self>) -> Option<&Repository<Indexed>> {
        Some(repo)
    }
}

impl HasKey for Indexed {
    fn key(&self) -> &MasterKey {
        &self.unlocked.key
    }
    fn unlocked_by(&self) -> &str {
        &self.unlocked.key_id
    }
}

impl HasIndex for Indexed {
    fn index(&self) -> &Index {
        &self.index
    }
}

/// A state that signs what it writes: the owner's (with the password) or a writer's.
pub trait Signs: State {
    /// The key that signs this process's locks and, for a backup, its run.
    fn run_signer(&self) -> Signer;
}

/// A state that may write a backup run: the owner's with the index loaded, or a
/// writer's.
pub trait Appends: Signs {
    /// The keys the run's blobs, snapshot and index segment are sealed with.
    fn content_keys(&self) -> &dyn ContentKeys;
    /// A writer's run key sealed to the owner: it goes in front of the run's snapshot and
    /// index payloads (`None` for the owner's runs).
    fn sealed_run_key(&self) -> Option<&[u8; SEALED_KEY_LEN]>;
    /// The blobs a run may dedup against.
    fn known_blobs(&self) -> &Index;
    /// Whether [`known_blobs`](Self::known_blobs) lists every committed extent (the
    /// owner's index), so that its extents are the ones pointers may go into. A writer
    /// knows only its own: it learns the rest from the heads
    /// ([`Repository::committed_extents`](super::Repository::committed_extents)).
    fn knows_every_extent(&self) -> bool {
        true
    }
    /// A writer's files of its last run and the key of their path hashes: its change
    /// detection, where the owner reads the parent snapshot (`None`: the owner's runs).
    fn change_table(&self) -> Option<(&PathTable, &[u8; 32])> {
        None
    }
}

impl Signs for Unlocked {
    fn run_signer(&self) -> Signer {
        self.key.signer()
    }
}

impl Signs for Indexed {
    fn run_signer(&self) -> Signer {
        self.unlocked.key.signer()
    }
}

impl Appends for Indexed {
    fn content_keys(&self) -> &dyn ContentKeys {
        &self.unlocked.key
    }
    fn sealed_run_key(&self) -> Option<&[u8; SEALED_KEY_LEN]> {
        None
    }
    fn known_blobs(&self) -> &Index {
        &self.index
    }
}

/// Opened with a writer's key file: may add history under its own writer id (extents,
/// an index segment, a snapshot, a head), may decrypt nothing. The run key is fresh for
/// each process and wiped when it ends; only its sealed form (which the owner alone
/// opens) is written.
pub struct Writing {
    pub(super) key: WriterKey,
    pub(super) run: ContentKey,
    pub(super) sealed: [u8; SEALED_KEY_LEN],
    /// This writer's own committed blobs, from its cache (it cannot read the index).
    pub(super) known: Index,
    /// Its files of its last committed run, from its cache, and their path hash key.
    pub(super) files: PathTable,
    pub(super) path_key: [u8; 32],
}

impl State for Writing {}

impl Signs for Writing {
    fn run_signer(&self) -> Signer {
        self.key.signer()
    }
}

impl Appends for Writing {
    fn content_keys(&self) -> &dyn ContentKeys {
        &self.run
    }
    fn sealed_run_key(&self) -> Option<&[u8; SEALED_KEY_LEN]> {
        Some(&self.sealed)
    }
    fn known_blobs(&self) -> &Index {
        &self.known
    }
    fn knows_every_extent(&self) -> bool {
        false
    }
    fn change_table(&self) -> Option<(&PathTable, &[u8; 32])> {
        Some((&self.files, &self.path_key))
    }
}
