//! Pointer coverage: how much of the committed data entanglement protects — the share
//! of data shards some codeword points at, and per remote the share of extents that
//! keep a spare symbol if that remote is lost. Counted from the certificates by the same
//! catalog the pointer chooser uses, so it reports what the chooser aims for.

use std::collections::HashSet;

use super::finding::{PointerCoverage, RemoteSpare, Storage, StoredShare};
use crate::extent::ExtentName;
use crate::extent::pointers::Catalog;
use crate::ops::survey::Survey;
use crate::repo::{Repository, State};

pub(crate) fn coverage(survey: &Survey, committed: &HashSet<ExtentName>) -> PointerCoverage {
    let catalog = Catalog::from_certificates(
        (survey.certs.iter())
            .filter(|c| committed.contains(&c.name()))
            .map(|c| &**c),
    );
    let c = catalog.coverage();
    PointerCoverage {
        data_shards: c.data_shards,
        pointed: c.pointed,
        share: share(c.pointed, c.data_shards),
        spare_after_losing: (survey.urls.iter().enumerate())
            .map(|(r, url)| {
                let spare = catalog.spare_without(r as u16);
                RemoteSpare {
                    remote: url.clone(),
                    extents: catalog.len(),
                    spare,
                    share: share(spare, catalog.len()),
                }
            })
            .collect(),
    }
}

/// What the committed extents store: their shards against their data.
pub(crate) fn storage<S: State>(
    repo: &Repository<S>,
    survey: &Survey,
    committed: &HashSet<ExtentName>,
) -> Storage {
    let coding = repo.config.coding;
    let (mut all, mut file_data, mut trees) = Default::default();
    for c in (survey.certs.iter()).filter(|c| committed.contains(&c.name())) {
        let shard_bytes = c.shard_bytes();
        StoredShare::add(&mut all, c.size, shard_bytes);
        let kind = match coding.is_tree_extent(c.data_shards, c.parity_shards) {
            true => &mut trees,
            false => &mut file_data,
        };
        StoredShare::add(kind, c.size, shard_bytes);
    }
    let all: StoredShare = all;
    Storage {
        extent_bytes: all.extent_bytes,
        shard_bytes: all.shard_bytes,
        overhead: all.overhead,
        coding_overhead: coding.overhead(),
        file_data,
        trees,
    }
}

fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}
