//! Unlocking: finding the key file a password opens, and loading the blob index. These
//! are the repository's state changes (see [`state`](super::state)).

use std::collections::BTreeSet;

use super::listing::union_of;
use super::objects::check_content_address;
use super::{
    Appends, HasIndex, HasKey, Indexed, Public, Repository, Signs, State, Unlocked, Writing, names,
};
use crate::content::{Index, OpenedSegment};
use crate::crypto::envelope::{self, ObjectKind, SignedBy};
use crate::crypto::writer::{RunKey, SEALED_KEY_LEN, WriterKey, seal_run_key};
use crate::crypto::{ContentKey, ContentKeys, KeyFile, MasterKey, Signer};
use crate::error::{Error, Kind, Result};

impl Repository<Public> {
    /// Unlock with the key file `password` opens (see [`find_key`](Self::find_key)).
    pub fn unlock(self, password: &[u8]) -> Result<Repository<Unlocked>> {
        let unlocked = self.find_key(password)?;
        Ok(self.with_state(|Public| unlocked))
    }

    /// [`unlock`](Self::unlock), giving the repository back with the error where it
    /// cannot be unlocked: `verify` reports key files it cannot read as damage and goes
    /// on with the public key.
    #[allow(clippy::result_large_err)]
    pub fn try_unlock(
        self,
        password: &[u8],
    ) -> std::result::Result<Repository<Unlocked>, (Repository<Public>, Error)> {
        match self.find_key(password) {
            Ok(unlocked) => Ok(self.with_state(|Public| unlocked)),
            Err(e) => Err((self, e)),
        }
    }

    /// [`unlock`](Self::unlock), then [`load_index`](Repository::load_index), in less
    /// time: the index segments are read and checked (content address, the owner's
    /// signature: no key needed) on another thread while Argon2id turns the password into
    /// the key on this one. Errors come in the same order: a wrong password first.
    pub fn unlock_and_load_index(self, password: &[u8]) -> Result<Repository<Indexed>> {
        let this = &self;
        let (found, sealed) = std::thread::scope(|s| {
            let sealed = s.spawn(|| this.read_sealed_index(|_| true));
            let found = this.find_key(password);
            let sealed = sealed
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p));
            (found, sealed)
        });
        let unlocked = found?;
        let unlocked = self.with_state(|Public| unlocked);
        let index = unlocked.decrypt_index(sealed?);
        Ok(unlocked.with_state(|unlocked| Indexed { unlocked, index }))
    }
}

impl Repository<Public> {
    /// Open with a writer's key file, to add history without the password: the key must
    /// be this repository's, pin the owner keys the config carries (else a remote serves
    /// another owner's config: exit 22), and be granted and not revoked (exit 12). The
    /// run gets a fresh run key, sealed to the owner; the writer's own committed blobs
    /// (from its cache, on extents that still exist) are what it dedups against.
    pub fn open_as_writer(self, key: WriterKey) -> Result<Repository<Writing>> {
        if key.repo_id != self.config.id {
            return Err(Error::fatal(format!(
                "the writer key {:?} is for repository {}, not this one ({})",
                key.label,
                hex::encode(key.repo_id),
                hex::encode(self.config.id)
            )));
        }
        if key.owner != self.config.owner.0 || self.config.owner_kem != Some(key.owner_kem) {
            return Err(Error::new(
                Kind::Trust,
                "the repository's owner keys are not the ones the writer key pins: \
                 a remote serves a config another owner signed",
            ));
        }
        let id = key.id();
        let public = key.signer().public();
        let writers = self.writers()?;
        let Some(record) =
            (writers.iter()).find(|w| w.grant.writer == id && w.grant.public == public)
        else {
            return Err(Error::new(
                Kind::WrongPassword,
                format!(
                    "writer {:?} ({}) is not granted in this repository (the owner grants \
                     writers with `tangle writer add`)",
                    key.label,
                    hex::encode(id)
                ),
            ));
        };
        if record.revoked.is_some() {
            return Err(Error::new(
                Kind::WrongPassword,
                format!(
                    "writer {:?} ({}) was revoked by the owner: it may add no more history",
                    record.grant.label,
                    hex::encode(id)
                ),
            ));
        }
        let live: std::collections::HashSet<crate::extent::ExtentName> =
            (self.load_catalog_kept()?.iter())
                .map(|c| c.name())
                .collect();
        let mut known = Index::default();
        known.keep_id_tails_in(self.inner.cache_dir.clone());
        for mut segment in self.writer_segments(&id) {
            segment.extents.retain(|e| live.contains(&e.extent));
            known.add_segment(&segment);
        }
        known.finish_loading();
        // A writer only adds objects, each with one create-only request, so that its
        // remotes may refuse every delete, rename and overwrite (docs/REMOTES.md).
        self.inner.health.set_create_only();
        let run = RunKey::generate()?;
        let sealed = seal_run_key(&key.owner_kem, &run, &self.config.id, &id)?;
        let content = ContentKey::new(*run.encryption_key(), *key.id_key());
        let files = self.writer_files(&id);
        let path_key = key.path_table_key();
        Ok(self.with_state(|Public| Writing {
            key,
            run: content,
            sealed,
            known,
            files,
            path_key,
        }))
    }
}

impl<S: HasKey> Repository<S> {
    pub fn key(&self) -> &MasterKey {
        self.state.key()
    }

    /// The owner's signing key (derived from the master key).
    pub fn signer(&self) -> Signer {
        self.state.key().signer()
    }

    /// The content id of the key file that unlocked the repository (`keys/<id>`).
    pub(crate) fn unlocked_by(&self) -> &str {
        self.state.unlocked_by()
    }
}

impl<S: Signs> Repository<S> {
    /// Who signs this process's locks and runs: the owner, or a writer key's writer.
    pub(crate) fn run_signer(&self) -> Signer {
        self.state.run_signer()
    }
}

impl<S: Appends> Repository<S> {
    /// The keys a backup run seals its blobs, snapshot and index segment with.
    pub(crate) fn content_keys(&self) -> &dyn ContentKeys {
        self.state.content_keys()
    }

    /// A writer's run key sealed to the owner (`None` for the owner's runs).
    pub(crate) fn sealed_run_key(&self) -> Option<&[u8; SEALED_KEY_LEN]> {
        self.state.sealed_run_key()
    }

    /// The blobs a run dedups against (the owner's index, a writer's own blobs).
    pub(crate) fn known_blobs(&self) -> &Index {
        self.state.known_blobs()
    }

    /// Whether [`known_blobs`](Self::known_blobs) lists every committed extent (the
    /// owner's index; a writer knows only its own).
    pub(crate) fn knows_every_extent(&self) -> bool {
        self.state.knows_every_extent()
    }

    /// A writer's change detection (see [`Appends::change_table`]).
    pub(crate) fn change_table(&self) -> Option<(&crate::content::PathTable, &[u8; 32])> {
        self.state.change_table()
    }
}

impl Repository<Unlocked> {
    /// Load every index segment.
    pub fn load_index(self) -> Result<Repository<Indexed>> {
        self.load_index_where(|_| true)
    }

    /// Load the index segments whose id `keep` accepts (a backup dedups only against
    /// segments some head commits to, never against an interrupted run's).
    pub(crate) fn load_index_where(
        self,
        keep: impl Fn(&str) -> bool,
    ) -> Result<Repository<Indexed>> {
        let sealed = self.read_sealed_index(keep)?;
        let index = self.decrypt_index(sealed);
        Ok(self.with_state(|unlocked| Indexed { unlocked, index }))
    }
}

impl<S: HasIndex> Repository<S> {
    pub fn index(&self) -> &Index {
        self.state.index()
    }
}

impl Repository<Indexed> {
    /// Load the index again (after this client wrote some).
    pub fn reload_index(&mut self) -> Result<()> {
        self.reload_index_where(|_| true)
    }

    /// Load the index again, only the segments whose id `keep` accepts.
    pub(crate) fn reload_index_where(&mut self, keep: impl Fn(&str) -> bool) -> Result<()> {
        let sealed = self.read_sealed_index(keep)?;
        let index = self.decrypt_index(sealed);
        self.state.index = index;
        Ok(())
    }

    /// Make these segments, in this order, the loaded index: of two that place one blob,
    /// the first wins (prune reads the snapshots through the segments that stay first).
    pub(crate) fn load_index_segments<'a>(
        &mut self,
        segments: impl IntoIterator<Item = &'a OpenedSegment>,
    ) {
        self.state.index = index_of(segments, self.inner.cache_dir.clone());
    }

    /// Give up the index (to load another part of it).
    pub fn without_index(self) -> Repository<Unlocked> {
        self.with_state(|indexed| indexed.unlocked)
    }
}

impl<S: State> Repository<S> {
    /// The master key that `password` opens, and the id of its key file. A key file
    /// that a deletion record names (`key remove`) never opens the repository, even where
    /// a remote that was away during the removal still holds it.
    fn find_key(&self, password: &[u8]) -> Result<Unlocked> {
        // The key files and the names of key removals' records, in one round trip.
        let missing: Vec<String> = {
            let ahead = (self.inner.listed_ahead.lock()).unwrap_or_else(|p| p.into_inner());
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
                    return Ok(Unlocked {
                        key: master,
                        key_id: id,
                    });
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

    /// Key file `keys/<id>` from the first remote whose copy is authentic (signed by
    /// the owner and named by its content hash).
    pub(crate) fn read_key_file(&self, path: &str) -> Result<KeyFile> {
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

    /// The payloads of the index segments whose id `keep` accepts, each checked against
    /// its content address and the owner's signature, still encrypted. A payload that
    /// passes both is the same from every remote, so decrypting it later instead of
    /// here, where a failure would send the read on to the next remote, changes nothing.
    fn read_sealed_index(&self, keep: impl Fn(&str) -> bool) -> Result<Vec<Result<SealedSegment>>> {
        let signers = self.signers();
        let mut paths = self.list_union("index")?;
        paths.retain(|path| keep(path.trim_start_matches("index/")));
        Ok(self.read_objects(&paths, |path, b| {
            check_content_address(path, b)?;
            let (payload, signed_by) = signers.open(ObjectKind::Index, b)?;
            Ok((payload.to_vec(), signed_by))
        }))
    }
}

/// An index segment's payload, still encrypted, and who signed it.
type SealedSegment = (Vec<u8>, SignedBy);

impl<S: HasKey> Repository<S> {
    /// The index from the sealed segments; one that does not decrypt is skipped with a
    /// warning (its blobs become unreachable until the index is rebuilt from the extents).
    /// A writer's segment opens with its run's keys, which its blobs are under.
    fn decrypt_index(&self, sealed: Vec<Result<SealedSegment>>) -> Index {
        let mut index = Index::default();
        index.keep_id_tails_in(self.inner.cache_dir.clone());
        for segment in sealed {
            let opened =
                segment.and_then(|(payload, signed_by)| self.decrypt_segment(signed_by, &payload));
            match opened {
                Ok(opened) => index.add_opened(&opened),
                Err(e) => self.warn(&format!("skipping index segment: {e}")),
            }
        }
        index.finish_loading();
        index
    }
}

/// `tails_dir`: where the blob ids' last bytes go (the cache directory; see `blob_table`).
fn index_of<'a>(
    segments: impl IntoIterator<Item = &'a OpenedSegment>,
    tails_dir: Option<std::path::PathBuf>,
) -> Index {
    let mut index = Index::default();
    index.keep_id_tails_in(tails_dir);
    for segment in segments {
        index.add_opened(segment);
    }
    index.finish_loading();
    index
}

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
