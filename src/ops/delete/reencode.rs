//! Re-encoding a live codeword whose pointers reach into extents being deleted: new
//! pointers are chosen among live data shards (same chooser and remote rule as backup),
//! the parity is computed afresh over the extent's own data shards and the new pointers,
//! written over the old parity shards (each checked against the new certificate), and the
//! certificate is re-signed with a higher placement revision (so every reader takes the
//! new one over a stale copy). Pointers are data shards only, so re-encoding never
//! cascades: only this codeword's parity changes.

use std::sync::Arc;

use bytes::Bytes;
use rand::SeedableRng;

use crate::codec;
use crate::crypto::Signer;
use crate::error::{Error, Result};
use crate::extent::{Certificate, Pointer, pointers};
use crate::repo::{Indexed, Repository};

/// Bytes moved by one re-encode.
#[derive(Default, Clone, Copy)]
pub(crate) struct Moved {
    pub(crate) read: u64,
    pub(crate) written: u64,
}

/// The live extents a new pointer may reference, oldest first, with the pointer counts
/// the chooser balances (least-pointed first, as in backup).
pub(crate) struct Catalog {
    pub(crate) certs: Vec<Arc<Certificate>>,
    pointers: pointers::Catalog,
}

impl Catalog {
    /// `live`: the certificates that stay, oldest first.
    pub(crate) fn new(live: Vec<Arc<Certificate>>) -> Catalog {
        let pointers = pointers::Catalog::from_certificates(live.iter().map(|c| c.as_ref()));
        Catalog {
            certs: live,
            pointers,
        }
    }
}

/// Re-encode `cert` (live, with pointers into removed extents) against `catalog`;
/// returns the new certificate (already written) and the bytes moved.
pub(crate) fn reencode(
    repo: &Repository<Indexed>,
    signer: &Signer,
    cert: &Certificate,
    catalog: &mut Catalog,
    seed: u64,
    allow_degraded: bool,
) -> Result<(Certificate, Moved)> {
    let name = cert.name();
    let (s, p) = (cert.data_shards as usize, cert.parity_shards as usize);
    let ss = cert.shard_size as usize;
    let mut moved = Moved::default();

    // Its own data shards, hash-checked (rebuilt from the codeword if some are missing).
    let mut data: Vec<Bytes> = Vec::with_capacity(s);
    for i in 0..s {
        match repo.fetch_shard(cert, i) {
            Some(b) => data.push(b),
            None => {
                data.clear();
                break;
            }
        }
    }
    if data.len() == s {
        moved.read += (s * ss) as u64;
    } else {
        let whole = repo.rebuilt_extent(cert).map_err(|e| {
            e.context(format!(
                "re-encoding extent {}: its data cannot be read",
                name.short()
            ))
        })?;
        moved.read += ((s + p) * ss) as u64;
        data = (0..s)
            .map(|i| {
                let mut b = vec![0u8; ss];
                let (start, end) = ((i * ss).min(whole.len()), ((i + 1) * ss).min(whole.len()));
                b[..end - start].copy_from_slice(&whole[start..end]);
                Bytes::from(b)
            })
            .collect();
    }

    // New pointers: only older live extents, never larger than its own shards (its
    // codeword's shard size is fixed by the data shards already stored).
    let own = catalog.pointers.position(&name);
    let older = own.unwrap_or(catalog.certs.len());
    for p in &cert.pointers {
        if let Some(e) = catalog.pointers.position(&p.extent) {
            catalog.pointers.unpoint(e, p.shard, older);
        }
    }
    let mut symbols_on = vec![0usize; repo.remotes().len()];
    for sh in &cert.shards {
        if let Some(n) = symbols_on.get_mut(sh.remote as usize) {
            *n += 1;
        }
    }
    let want = pointers::Want {
        at: older,
        pointers: cert.pointers.len(),
        parity: p,
        shard_size: cert.shard_size,
    };
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let candidates = catalog.pointers.candidates();
    let chosen = pointers::choose(&mut rng, &want, &mut symbols_on, &catalog.pointers, |i| {
        i < older && candidates[i].shard_size <= cert.shard_size
    });
    let mut new_pointers = Vec::with_capacity(chosen.len());
    let mut pointer_data: Vec<Vec<u8>> = Vec::with_capacity(chosen.len());
    for c in chosen {
        let target = &catalog.certs[c.extent];
        // A pointer that cannot be read is dropped: fewer pointers, never a wrong one.
        if let Some(b) = repo.fetch_shard(target, c.shard as usize) {
            moved.read += b.len() as u64;
            let mut v = b.to_vec();
            v.resize(ss, 0);
            pointer_data.push(v);
            catalog.pointers.point(c.extent, c.shard, older);
            new_pointers.push(Pointer {
                extent: target.name(),
                shard: c.shard,
            });
        }
    }

    let inputs: Vec<&[u8]> = (data.iter().map(|b| b.as_ref()))
        .chain(pointer_data.iter().map(|v| v.as_slice()))
        .collect();
    let parity = codec::encode_parity(&inputs, p)?;
    let mut new = cert.clone();
    new.pointers = new_pointers;
    for (i, shard) in parity.iter().enumerate() {
        new.shards[s + i].hash = *blake3::hash(shard).as_bytes();
    }
    new.placement = cert.placement.checked_add(1).ok_or_else(|| {
        Error::corrupt(format!(
            "extent {}: placement revision overflows",
            name.short()
        ))
    })?;
    // Parity first, then the certificate: until it lands, the old certificate and its
    // pointers (still present) stay a consistent codeword for everything but the parity
    // shards already rewritten, which verify calls repairable and repair restores.
    for (i, shard) in parity.into_iter().enumerate() {
        match repo.put_shard(&new, s + i, Bytes::from(shard)) {
            Ok(()) => moved.written += ss as u64,
            // A remote that is down keeps its old parity shard: verify calls it
            // repairable and repair rewrites it once the remote is back.
            Err(_) if allow_degraded => {}
            Err(e) => return Err(e),
        }
    }
    let object = Bytes::from(new.to_object(signer)?);
    moved.written += object.len() as u64 * repo.remotes().len() as u64;
    repo.write_replicated(&name.cert_path(), object)?;
    Ok((new, moved))
}
