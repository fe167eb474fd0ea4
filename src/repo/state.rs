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
//! A future state for a writer key (may append, may not read) is one more struct here
//! implementing [`State`] but neither [`HasKey`] nor [`HasIndex`].

use super::Repository;
use crate::content::Index;
use crate::crypto::MasterKey;

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Public {}
    impl Sealed for super::Unlocked {}
    impl Sealed for super::Indexed {}
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
