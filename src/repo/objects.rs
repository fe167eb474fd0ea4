//! Signed metadata on the remotes: reading one object from the first remote whose copy
//! passes its checks, snapshots, extent certificates.

use std::sync::Arc;

use bytes::Bytes;

use super::{HasKey, Repository, State, lock};
use crate::content::Snapshot;
use crate::crypto::envelope::{self, ObjectKind, SignedBy};
use crate::error::{Error, Kind, Result};
use crate::extent::{Certificate, ExtentName};

/// Metadata objects [`Repository::read_objects`] fetches at once.
const OBJECTS_IN_FLIGHT: usize = 16;

/// A snapshot and its id.
pub(crate) type IdentifiedSnapshot = (String, Snapshot);

impl<S: State> Repository<S> {
    /// Read `path` from the first remote whose copy passes `parse`.
    pub(crate) fn read_object<T>(
        &self,
        path: &str,
        parse: impl Fn(&[u8]) -> Result<T>,
    ) -> Result<T> {
        self.inner.rt.block_on(self.read_object_async(path, parse))
    }

    /// [`read_object`](Self::read_object) of each of `paths`, in order, many at once: a
    /// directory of objects not in the local cache (a new machine, a disaster recovery)
    /// costs a few round trips instead of one per object.
    pub(crate) fn read_objects<T: Send>(
        &self,
        paths: &[String],
        parse: impl Fn(&str, &[u8]) -> Result<T> + Sync,
    ) -> Vec<Result<T>> {
        use futures::stream::{self, StreamExt};
        let parse = &parse;
        // The copies in the local cache are checked on every core first: a signature
        // check is ~50 µs, and with thousands of snapshots it was most of `snapshots`'
        // time on one core. What the cache lacks (or holds damaged) is read as before.
        let cached = on_every_core(paths, 64, |p| {
            self.cached_object(p).and_then(|b| parse(p, &b).ok())
        });
        self.inner.rt.block_on(
            stream::iter(paths.iter().zip(cached).map(|(path, cached)| async move {
                match cached {
                    Some(v) => Ok(v),
                    None => {
                        self.read_object_async(path, move |b: &[u8]| parse(path, b))
                            .await
                    }
                }
            }))
            .buffered(OBJECTS_IN_FLIGHT)
            .collect(),
        )
    }

    pub(crate) async fn read_object_async<T>(
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

    pub(crate) fn certificate(&self, name: &ExtentName) -> Result<Arc<Certificate>> {
        self.inner.rt.block_on(self.certificate_async(name))
    }

    /// A verified certificate (cached for the life of the process).
    pub(crate) async fn certificate_async(&self, name: &ExtentName) -> Result<Arc<Certificate>> {
        if let Some(c) = self
            .inner
            .certs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(name)
        {
            return Ok(c.clone());
        }
        let (cert, bytes) = self
            .read_object_async(&name.cert_path(), |b| {
                Ok((self.check_certificate(b, name)?, b.to_vec()))
            })
            .await?;
        self.keep_catalog_copy(name, &bytes);
        let cert = Arc::new(cert);
        self.inner
            .certs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(*name, cert.clone());
        Ok(cert)
    }

    /// A certificate's bytes checked as read from a remote: signed by the owner or its
    /// writer, named `name`, its shards on remotes the config has.
    fn check_certificate(&self, bytes: &[u8], name: &ExtentName) -> Result<Certificate> {
        let c = Certificate::from_object(bytes, self.signers(), name)?;
        if c.shards
            .iter()
            .any(|s| s.remote as usize >= self.inner.remotes.len())
        {
            return Err(Error::corrupt(
                "certificate places shards on remotes the config does not have",
            ));
        }
        Ok(c)
    }

    /// The names of the extents the remotes list (deleted ones left out).
    fn extent_names(&self) -> Result<Vec<ExtentName>> {
        Ok((self.list_union("extents")?.iter())
            .filter_map(|p| ExtentName::parse(p.trim_start_matches("extents/")).ok())
            .collect())
    }

    /// Every extent certificate in the repository, oldest first (by time, then writer and
    /// chain position), each as the remotes serve it now. Certificates that cannot be
    /// read anywhere are skipped with a warning.
    pub fn load_catalog(&self) -> Result<Vec<Arc<Certificate>>> {
        let names = self.extent_names()?;
        self.fetch_catalog(&names)
    }

    /// [`load_catalog`](Self::load_catalog) for the backup's pointer chooser: a
    /// certificate this client fetched before is taken from its cache (checked again as
    /// if fetched), so a backup fetches only the certificates of extents new since the
    /// last one, not one per extent in the repository's history.
    ///
    /// A kept copy may be behind a re-signing done by another client (a rebalance moves
    /// shards, a re-encoding changes parity and pointers, each under the same name), so
    /// the chooser may weigh an extent by its old placement or pointer count. That costs
    /// no correctness: a pointer is a *data* shard, and data shards never change under a
    /// name; the shards chosen are read through [`certificate`](Self::certificate), which
    /// always fetches the current certificate (and keeps it). The extents listed decide
    /// which are candidates, as for `load_catalog`: a remote cannot add one (each copy
    /// is checked) nor hide one (the listing is the union of all remotes).
    pub(crate) fn load_catalog_kept(&self) -> Result<Vec<Arc<Certificate>>> {
        let names = self.extent_names()?;
        self.load_catalog_kept_of(&names)
    }

    /// [`load_catalog_kept`](Self::load_catalog_kept) of the extents `names`, without
    /// listing `extents/`: the owner's backup takes the names from its loaded index, the
    /// committed extents (a listing of 10^5 certificates is 100 requests per remote on
    /// S3, each nightly). The index segments are listed as the union of every remote and
    /// each is signed, so a remote can no more add or hide an extent this way than
    /// through the listing; extents a deletion record names are left out.
    pub(crate) fn load_catalog_kept_of(
        &self,
        names: &[ExtentName],
    ) -> Result<Vec<Arc<Certificate>>> {
        let deleted = &self.deletions()?.extents;
        let names: Vec<ExtentName> = (names.iter())
            .filter(|n| !deleted.contains_key(n))
            .copied()
            .collect();
        let listed: std::collections::HashSet<ExtentName> = names.iter().copied().collect();
        self.prune_catalog_copies(&listed);
        // Checking a signature is ~50 µs: spread a long history's over the cores.
        let kept = on_every_core(&names, 256, |n| {
            let bytes = self.catalog_copy(n)?;
            self.check_certificate(&bytes, n).ok()
        });
        let mut missing = Vec::new();
        let mut certs = Vec::with_capacity(names.len());
        for (name, kept) in names.iter().zip(kept) {
            match kept {
                Some(c) => certs.push(Arc::new(c)),
                None => missing.push(*name),
            }
        }
        certs.extend(self.fetch_catalog(&missing)?);
        certs.sort_by_key(|c| (c.timestamp, c.writer, c.seq));
        Ok(certs)
    }

    /// The certificates of `names` fetched (as [`certificate`](Self::certificate)
    /// fetches), many at once, oldest first; those no remote serves intact are skipped
    /// with a warning.
    fn fetch_catalog(&self, names: &[ExtentName]) -> Result<Vec<Arc<Certificate>>> {
        use futures::stream::{self, StreamExt};
        let results: Vec<Result<Arc<Certificate>>> = self.inner.rt.block_on(
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
    pub(crate) fn fetch_shard(&self, cert: &Certificate, index: usize) -> Option<Bytes> {
        self.inner.rt.block_on(self.fetch_verified(cert, index))
    }
}

/// Snapshots are encrypted: reading them needs the key.
impl<S: HasKey> Repository<S> {
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
    pub(crate) fn snapshots_and_unreadable(&self) -> Result<(Vec<IdentifiedSnapshot>, Vec<Error>)> {
        let (mut out, mut unreadable) = (Vec::new(), Vec::new());
        let paths = self.list_union("snapshots")?;
        let snapshots = self.read_objects(&paths, |path, b| self.open_snapshot(path, b));
        for (path, snapshot) in paths.iter().zip(snapshots) {
            match snapshot {
                Ok(snap) => out.push((path.trim_start_matches("snapshots/").to_string(), snap)),
                Err(e) => unreadable.push(e),
            }
        }
        out.sort_by(|a, b| a.1.time_ns.cmp(&b.1.time_ns).then(a.0.cmp(&b.0)));
        Ok((out, unreadable))
    }

    /// A snapshot object's content, checked (content address, signature of the owner or
    /// a granted writer) and decrypted (a writer's with its run's keys).
    pub(crate) fn open_snapshot(&self, path: &str, object: &[u8]) -> Result<Snapshot> {
        check_content_address(path, object)?;
        let (payload, signed_by) = self.signers().open(ObjectKind::Snapshot, object)?;
        let mut snapshot = match self.payload_keys(signed_by, payload)? {
            (Some(keys), sealed) => Snapshot::decrypt(&keys.content, sealed)?,
            (None, sealed) => Snapshot::decrypt(self.key(), sealed)?,
        };
        if let SignedBy::Writer(w) = signed_by {
            snapshot.writer = Some(w);
        }
        Ok(snapshot)
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
}

/// The largest metadata object a reader accepts at `path`: index segments and snapshots
/// grow with a backup; configs, keys, heads and certificates stay small. Anything larger
/// is damage (or a hostile remote), and is never read whole.
pub(crate) fn metadata_limit(path: &str) -> u64 {
    match path.split('/').next() {
        Some("index") | Some("snapshots") | Some("deletions") => 256 << 20,
        Some("extents") => 4 << 20,
        Some("locks") => lock::MAX_SIZE,
        _ => 1 << 20,
    }
}

/// Snapshot and index objects are named by the BLAKE3 of their bytes.
pub(super) fn check_content_address(path: &str, bytes: &[u8]) -> Result<()> {
    let name = path.rsplit('/').next().unwrap_or(path);
    if envelope::content_id(bytes) != name {
        return Err(Error::corrupt(format!(
            "{path} does not match its content hash"
        )));
    }
    Ok(())
}

/// `check` of each of `items`, in order, spread over the cores in runs of at least
/// `min_run` (fewer items are checked on this thread): for signature checks of cached
/// objects, ~50 µs each. An item whose thread failed gets `None`, as one whose check did:
/// it is then read from the remotes.
fn on_every_core<I: Sync, T: Send>(
    items: &[I],
    min_run: usize,
    check: impl Fn(&I) -> Option<T> + Sync,
) -> Vec<Option<T>> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per_thread = items.len().div_ceil(threads).max(min_run);
    if items.len() <= per_thread {
        return items.iter().map(&check).collect();
    }
    let check = &check;
    std::thread::scope(|scope| {
        let parts: Vec<_> = (items.chunks(per_thread))
            .map(|part| {
                let len = part.len();
                (
                    len,
                    scope.spawn(move || part.iter().map(check).collect::<Vec<_>>()),
                )
            })
            .collect();
        (parts.into_iter())
            .flat_map(|(len, p)| {
                p.join()
                    .unwrap_or_else(|_| (0..len).map(|_| None).collect())
            })
            .collect()
    })
}
