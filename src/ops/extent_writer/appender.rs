//! The extent appender: one thread that appends the compressed, encrypted blobs to the
//! current extent in arrival order. When the next blob would not fit it seals the extent
//! (Reed-Solomon shards plus up to `t` pointer shards of older extents, chained to the
//! previous extent and signed) and hands it to [`Uploads`], which may block it while a
//! remote's upload queue is full. It also keeps what the snapshot's index and head need:
//! each extent's blob list and the last extent sealed.
//!
//! Tree blobs go to extents of their own, as restic keeps trees in packs of their own.
//! Every backup writes new trees for each directory on the path of a change, and those
//! die together when its snapshot is deleted: kept apart from file data they leave whole
//! extents to remove, where mixed in they would leave a little garbage in every data
//! extent, reclaimable only by copying the live data around it. Tree extents are sealed
//! at a quarter of the extent size, which bounds the memory they hold. A run that never
//! fills an extent (a small increment) seals its data and trees as one extent, so small
//! backups still add one extent each.

use std::collections::{HashSet, VecDeque};

use rand::SeedableRng;
use rand::rngs::StdRng;

use super::StoredBlob;
use super::upload::Uploads;
use crate::codec::{self, StripeSource};
use crate::content::BlobKind;
use crate::content::index::{ExtentBlobs, IndexEntry};
use crate::error::Result;
use crate::extent::pointers::{self, Catalog, Want};
use crate::extent::{
    BufferPool, Certificate, ExtentBuilder, ExtentName, Pointer, SealContext, genesis_verifier,
};
use crate::ops::Progress;
use crate::repo::{Appends, Repository};

/// Appends blobs to the current extent, seals full extents and hands them to uploads.
pub(crate) struct Appender<'a, S: Appends> {
    repo: &'a Repository<S>,
    writer: [u8; 16],
    /// The extent being filled with file data, and the one with tree blobs.
    builder: Filling,
    trees: Filling,
    /// Where the next extent's hash chain starts (the last extent's name, or genesis).
    start: [u8; 32],
    seq: u64,
    prev: Option<ExtentName>,
    dry_run: bool,
    uploads: Uploads<'a, S>,
    /// Blob lists of the extents sealed in this run, for the index segment (since the
    /// last [`take_stored`](Self::take_stored)).
    pub(crate) extents: Vec<ExtentBlobs>,
    /// Blobs in `extents`.
    sealed_blobs: usize,
    /// Extents sealed in this run.
    pub(crate) extents_sealed: u64,
    /// The last extent sealed and its sequence number, for the head.
    pub(crate) last: Option<(ExtentName, u64)>,
    pub(crate) bytes_added: u64,
    pub(crate) bytes_stored: u64,
    /// Older extents pointers may use, oldest first, with how many codewords point at
    /// each of their data shards (grows as this run seals extents). Loaded when the
    /// first data extent is sealed: a backup that stores no data (nothing changed)
    /// reads no certificate of the history (see [`Appender::load_catalog`]).
    catalog: Catalog,
    /// Until then: extents no pointer may go into, and the certificates of the tree
    /// extents sealed before (the catalog's newest once it is loaded).
    unloaded: Option<(HashSet<ExtentName>, Vec<Certificate>)>,
    /// Certificates of the last few extents sealed in this run, whose certificates may
    /// not be on the remotes yet: pointers into them read the shard straight from its
    /// remote. Their data is not kept: a chosen shard of an extent still uploading is
    /// replaced by another choice, and holding the last extent's 16 MiB until the next
    /// one is sealed was a sixth of a backup's peak memory, for pointers that pick the
    /// last extent only about once in as many extents as the run has written.
    recent: VecDeque<Certificate>,
    rng: StdRng,
    /// Data extents' buffers, reused once their uploads are done (see [`BufferPool`]).
    pool: BufferPool,
    pub(crate) pointers_used: u64,
    pub(crate) pointer_bytes_fetched: u64,
}

/// An extent being filled, and the index entries of the blobs appended to it so far
/// (the extent log knows blocks, not blobs: see [`ExtentBuilder::append`]).
struct Filling {
    extent: ExtentBuilder,
    blobs: Vec<IndexEntry>,
}

impl Filling {
    fn new(extent: ExtentBuilder) -> Self {
        Filling {
            extent,
            blobs: Vec::new(),
        }
    }

    fn append(&mut self, blob: &StoredBlob) {
        let offset = self.extent.append(&blob.data);
        self.blobs.push(IndexEntry {
            id: blob.id,
            kind: blob.kind,
            offset,
            length: blob.data.len() as u32,
            raw_len: blob.raw_len,
        });
    }
}

/// Extents of this run whose certificates stay in memory (see `recent`).
const RECENT_EXTENTS: usize = 4;

/// Tree extents are sealed at this share of the extent size (4 MiB of the default 16).
const TREE_EXTENT_DIVISOR: usize = 4;

impl<'a, S: Appends> Appender<'a, S> {
    /// An appender on a chain of its own (a fresh random writer id, as delete's repack
    /// and rewrite write): no earlier head, the default upload queue.
    pub(crate) fn fresh_chain(
        repo: &'a Repository<S>,
        progress: &'a Progress,
        exclude: &HashSet<ExtentName>,
    ) -> Result<Self> {
        let writer: [u8; 16] = crate::crypto::random_bytes()?;
        Self::new(
            repo,
            writer,
            None,
            false,
            super::DEFAULT_UPLOAD_QUEUE,
            progress,
            exclude,
        )
    }

    /// The writer id whose chain this appender extends.
    pub(crate) fn writer(&self) -> [u8; 16] {
        self.writer
    }

    /// `exclude`: extents no pointer may go into (those a delete is removing).
    pub(crate) fn new(
        repo: &'a Repository<S>,
        writer: [u8; 16],
        last: Option<(ExtentName, u64)>,
        dry_run: bool,
        upload_queue: usize,
        progress: &'a Progress,
        exclude: &HashSet<ExtentName>,
    ) -> Result<Self> {
        let (start, seq) = match last {
            // A signed head at the end of the chain's positions: only a broken writer
            // (or a stolen key) makes one; never wrap around to 0.
            Some((name, seq)) => (
                name.0,
                seq.checked_add(1).ok_or_else(|| {
                    crate::Error::corrupt("the extent chain is at its last position")
                })?,
            ),
            None => (genesis_verifier(&repo.config.owner), 0),
        };
        let pool = BufferPool::new();
        Ok(Appender {
            catalog: Catalog::new(),
            // A dry run seals nothing.
            unloaded: (!dry_run).then(|| (exclude.clone(), Vec::new())),
            recent: VecDeque::new(),
            rng: StdRng::from_rng(&mut rand::rng()),
            pointers_used: 0,
            pointer_bytes_fetched: 0,
            repo,
            writer,
            builder: Filling::new(ExtentBuilder::pooled(&pool, extent_capacity(&repo.config))),
            pool,
            trees: Filling::new(ExtentBuilder::new(0)),
            start,
            seq,
            prev: last.map(|(n, _)| n),
            dry_run,
            uploads: Uploads::new(repo, upload_queue, progress),
            extents: Vec::new(),
            sealed_blobs: 0,
            extents_sealed: 0,
            last,
            bytes_added: 0,
            bytes_stored: 0,
        })
    }

    /// Seconds the backup waited for each remote's upload queue.
    pub(crate) fn upload_waits(&self) -> Vec<f64> {
        self.uploads.waits_secs()
    }

    /// Extents never grow past the target size (a blob that does not fit starts the
    /// next one), so shard sizes stay uniform and most older shards can be pointers.
    pub(crate) fn append(&mut self, blob: StoredBlob) -> Result<()> {
        self.bytes_added += blob.data.len() as u64;
        let extent_size = self.repo.config.extent_size as usize;
        let (kind, target) = match blob.kind {
            BlobKind::Data => (BlobKind::Data, extent_size),
            BlobKind::Tree => (BlobKind::Tree, extent_size / TREE_EXTENT_DIVISOR),
        };
        let builder = &self.builder_for(kind).extent;
        if !builder.is_empty() && builder.len() + blob.data.len() > target {
            self.seal(kind)?;
        }
        self.builder_for(kind).append(&blob);
        Ok(())
    }

    /// Seal the partly filled extents and wait for every upload. Trees always go in
    /// extents of their own, even in a small run: they get far more parity
    /// (`Coding::for_trees`) than file data.
    pub(crate) fn finish(&mut self) -> Result<()> {
        for kind in [BlobKind::Data, BlobKind::Tree] {
            if !self.builder_for(kind).extent.is_empty() {
                self.seal(kind)?;
            }
        }
        self.uploads.finish()
    }

    /// Blobs of the extents sealed since the last [`take_stored`](Self::take_stored).
    pub(crate) fn sealed_blobs(&self) -> usize {
        self.sealed_blobs
    }

    /// The blob lists of the extents sealed so far, once every one of them is stored
    /// (waits for their uploads), for a checkpoint to commit; the extents being filled
    /// stay open.
    pub(crate) fn take_stored(&mut self) -> Result<Vec<ExtentBlobs>> {
        self.uploads.finish()?;
        self.sealed_blobs = 0;
        Ok(std::mem::take(&mut self.extents))
    }

    fn builder_for(&mut self, kind: BlobKind) -> &mut Filling {
        match kind {
            BlobKind::Data => &mut self.builder,
            BlobKind::Tree => &mut self.trees,
        }
    }

    /// The pointer catalog, counted from the certificates (so other hosts' backups count
    /// too), if it is not loaded yet.
    fn load_catalog(&mut self) -> Result<()> {
        let Some((exclude, sealed)) = self.unloaded.take() else {
            return Ok(());
        };
        let repo = self.repo;
        // Only committed extents may be pointed at: those of the loaded index (see
        // `prepare`), or for a writer, which reads no index, those the heads commit to.
        // The owner's index names them, so it lists no `extents/` (which grows with
        // the history) and fetches no certificate of an uncommitted extent.
        let mut certs = if repo.knows_every_extent() {
            repo.load_catalog_kept_of(repo.known_blobs().extents())?
        } else {
            let mut all = repo.load_catalog_kept()?;
            let committed = repo.committed_extents(&all)?;
            all.retain(|c| committed.contains(&c.name()));
            all
        };
        certs.retain(|c| !exclude.contains(&c.name()));
        self.catalog = Catalog::from_certificates(certs.iter().map(|c| &**c));
        for cert in &sealed {
            self.catalog.push_certificate(cert);
        }
        Ok(())
    }

    /// Seal the extent of `kind` and start a new one.
    fn seal(&mut self, kind: BlobKind) -> Result<()> {
        let next = match kind {
            BlobKind::Data => ExtentBuilder::pooled(&self.pool, extent_capacity(&self.repo.config)),
            BlobKind::Tree => ExtentBuilder::new(0),
        };
        let Filling {
            extent: builder,
            blobs,
        } = std::mem::replace(self.builder_for(kind), Filling::new(next));
        if self.dry_run {
            return Ok(());
        }
        if kind == BlobKind::Data {
            self.load_catalog()?;
        }
        let signer = self.repo.run_signer();
        let remotes = self.repo.remotes().len();
        // Trees get 4+12, without pointers (`Coding::for_trees`).
        let coding = match kind {
            BlobKind::Data => self.repo.config.coding,
            BlobKind::Tree => codec::Coding::for_trees(),
        };
        // Where this extent's symbols go (the same `codec::place` sealing uses).
        let mut symbols_on = vec![0usize; remotes];
        for i in 0..coding.data_shards as usize + coding.parity_shards as usize {
            symbols_on[codec::place(self.seq, i, remotes)] += 1;
        }
        // Wait for room in the upload queues first: the parity and pointers are only
        // held in memory once the extent can leave (see `Uploads::reserve`).
        let permits = self.uploads.reserve(|r| symbols_on[r] > 0)?;
        let ctx = SealContext {
            repo_id: self.repo.config.id,
            writer: self.writer,
            seq: self.seq,
            prev: self.prev,
            start_verifier: self.start,
            coding,
            remotes,
            signer: &signer,
        };
        let pointers = match kind {
            BlobKind::Data => self.choose_pointers(&builder, symbols_on),
            BlobKind::Tree => Vec::new(),
        };
        let sealed = builder.seal(&ctx, pointers)?;
        let name = sealed.name();
        self.start = name.0;
        self.last = Some((name, self.seq));
        self.prev = Some(name);
        self.seq += 1;
        self.bytes_stored += sealed.shards.iter().map(|s| s.len() as u64).sum::<u64>();
        self.pointers_used += sealed.cert.pointers.len() as u64;
        self.sealed_blobs += blobs.len();
        self.extents_sealed += 1;
        self.extents.push(ExtentBlobs {
            extent: name,
            blobs,
        });
        match self.unloaded.as_mut() {
            Some((_, sealed_before)) => sealed_before.push(sealed.cert.clone()),
            None => {
                self.catalog.push_certificate(&sealed.cert);
            }
        }
        self.recent.push_back(sealed.cert.clone());
        if self.recent.len() > RECENT_EXTENTS {
            self.recent.pop_front();
        }
        self.uploads.start(sealed, permits);
        Ok(())
    }

    /// Entangle: pick up to `t` data shards of older extents, least-pointed first under
    /// the remote and size rules (see [`pointers`]), and get their bytes. `symbols_on`:
    /// this extent's symbols per remote.
    fn choose_pointers(
        &mut self,
        builder: &ExtentBuilder,
        mut symbols_on: Vec<usize>,
    ) -> Vec<(Pointer, Box<dyn StripeSource + 'a>)> {
        let coding = self.repo.config.coding;
        let (s, p, t) = (
            coding.data_shards as usize,
            coding.parity_shards as usize,
            coding.pointers as usize,
        );
        if t == 0 {
            return Vec::new();
        }
        let own = builder.own_shard_size(s) as u32;
        let mut out: Vec<(Pointer, Box<dyn StripeSource + 'a>)> = Vec::with_capacity(t);
        let mut used: Vec<usize> = Vec::new();
        let mut unreadable: Vec<usize> = Vec::new();
        // A shard that cannot be read (its extent still uploading, its remote down) is
        // replaced by another choice, once: fewer pointers, never a wrong one.
        for _ in 0..2 {
            let want = Want {
                at: self.catalog.len(),
                pointers: t - out.len(),
                parity: p,
                shard_size: own,
            };
            let chosen =
                pointers::choose(&mut self.rng, &want, &mut symbols_on, &self.catalog, |e| {
                    !unreadable.contains(&e) && !used.contains(&e)
                });
            for (c, input) in chosen.iter().zip(self.pointer_data(&chosen)) {
                match input {
                    Some(ptr) => {
                        used.push(c.extent);
                        out.push(ptr);
                    }
                    None => {
                        let cand = &self.catalog.candidates()[c.extent];
                        symbols_on[cand.data_remotes[c.shard as usize] as usize] -= 1;
                        unreadable.push(c.extent);
                    }
                }
            }
            if out.len() == t || unreadable.is_empty() {
                break;
            }
        }
        out
    }

    /// The chosen pointers, each to be read from its remote as the encoder gets to it
    /// (and hash-checked), all fetched at once where a remote has a round trip per read;
    /// `None` for one that cannot be read (an extent of this run still uploading, a
    /// remote down).
    #[allow(clippy::type_complexity)]
    fn pointer_data(
        &mut self,
        chosen: &[pointers::Chosen],
    ) -> Vec<Option<(Pointer, Box<dyn StripeSource + 'a>)>> {
        let repo = self.repo;
        let certs: Vec<Option<std::sync::Arc<Certificate>>> = chosen
            .iter()
            .map(|c| {
                let extent = self.catalog.name(c.extent)?;
                match self.recent.iter().find(|cert| cert.name() == extent) {
                    Some(cert) => Some(std::sync::Arc::new(cert.clone())),
                    None => repo.certificate(&extent).ok(),
                }
            })
            .collect();
        let wanted: Vec<(&Certificate, usize)> = (chosen.iter().zip(&certs))
            .filter_map(|(c, cert)| Some((&**cert.as_ref()?, c.shard as usize)))
            .collect();
        let mut inputs = repo.pointer_inputs_for_sealing(&wanted).into_iter();
        let mut out = Vec::with_capacity(chosen.len());
        for (c, cert) in chosen.iter().zip(&certs) {
            let Some(cert) = cert else {
                out.push(None);
                continue;
            };
            out.push(inputs.next().flatten().map(|input| {
                self.pointer_bytes_fetched += input.size() as u64;
                let extent = cert.name();
                (
                    Pointer {
                        extent,
                        shard: c.shard,
                    },
                    input,
                )
            }));
        }
        out
    }
}

/// Room for a full extent plus the zero padding sealing adds, so sealing never has to
/// reallocate (and briefly double) the extent buffer.
fn extent_capacity(config: &crate::repo::Config) -> usize {
    config.extent_size as usize + config.coding.data_shards as usize * crate::codec::SHARD_ALIGN
}
