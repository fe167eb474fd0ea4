//! Throughput of the stages of tangle's backup pipeline, calling tangle's own functions,
//! on in-process data.
//!
//!   cargo bench --bench pipeline                 # all, ~1-2 minutes after the build
//!   cargo bench --bench pipeline -- erasure      # only the benchmarks matching "erasure"
//!   TANGLE_BENCH_MIB=64 cargo bench --bench pipeline
//!
//! The input is `TANGLE_BENCH_MIB` (default 32, clamped to 16..=64) MiB of
//! pseudo-random but partially compressible bytes (a mix of random blocks, text-like
//! blocks and repeated runs; zstd level 3 makes it about 60% of its size), generated
//! in-process from a fixed seed, so every run measures the same input.
//!
//! What is measured (throughput is of the plaintext / extent bytes going in):
//! * `content/`: FastCDC chunking with the repository's default chunker parameters
//!   (`tangle::content::chunker::chunk_slice`), keyed BLAKE3 blob ids
//!   (`MasterKey::blob_id`), and both together.
//! * `codec/`: zstd per chunk at tangle's level, with the same zstd calls that
//!   `content::blob` makes (tangle has no separate compression function).
//! * `crypto/`: XChaCha20-Poly1305 per chunk (`tangle::crypto::seal` / `open`).
//! * `blob/`: the whole per-chunk path, `content::encode_blob` (compress + encrypt) and
//!   `content::decode_blob` (decrypt + decompress + id check).
//! * `erasure/`: Reed-Solomon over extents of the default extent size
//!   (`tangle::codec::encode_parity` / `reconstruct`): 4 data + 3 parity; the coding
//!   tangle picks for 3 remotes (4 data + 2 pointer inputs + 3 parity); and decoding with
//!   3 of 7 shards lost (data shards 0-2, the worst case). `baseline_crate_*` runs the
//!   same shards through reed-solomon-simd's one-shot API, to show the wrapper's cost.

mod support;

use std::hint::black_box;

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tangle::codec::{Coding, encode_parity, reconstruct, shard_size_for};
use tangle::content::blob::ZSTD_LEVEL;
use tangle::content::chunker::chunk_slice;
use tangle::content::{BlobKind, ChunkerParams, decode_blob, encode_blob};
use tangle::crypto::{MasterKey, open, seal};
use tangle::repo::config::DEFAULT_EXTENT_SIZE;

const RS_DATA: usize = 4;
const RS_PARITY: usize = 3;

// ---- input data ------------------------------------------------------------------------

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn fill(&mut self, out: &mut [u8]) {
        for c in out.chunks_mut(8) {
            let v = self.next().to_le_bytes();
            c.copy_from_slice(&v[..c.len()]);
        }
    }
}

/// `mib` MiB of data that is about 40% incompressible random blocks, 40% text-like
/// blocks and 20% repetitions of earlier data, in 4-64 KiB blocks.
fn test_data(mib: usize) -> Vec<u8> {
    const WORDS: &[&str] = &[
        "the", "extent", "remote", "snapshot", "of", "and", "backup", "chunk", "index", "static",
        "struct", "return", "if", "else", "for", "while", "fn", "let", "mut", "int", "0x1f",
        "error", "data", "=", ";", "{", "}", "(", ")", "\n", "\t", "->", "size_t",
    ];
    let len = mib * 1024 * 1024;
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::with_capacity(len + 65536);
    while out.len() < len {
        let block = 4096 + (rng.next() % (60 * 1024)) as usize;
        match rng.next() % 10 {
            0..=3 => {
                let start = out.len();
                out.resize(start + block, 0);
                rng.fill(&mut out[start..]);
            }
            4..=7 => {
                let end = out.len() + block;
                while out.len() < end {
                    let w = WORDS[(rng.next() % WORDS.len() as u64) as usize];
                    out.extend_from_slice(w.as_bytes());
                    out.push(b' ');
                }
            }
            _ => {
                if out.len() > block {
                    let from = (rng.next() % (out.len() - block) as u64) as usize;
                    out.extend_from_within(from..from + block);
                } else {
                    out.resize(out.len() + block, 0);
                }
            }
        }
    }
    out.truncate(len);
    out
}

fn data_mib() -> usize {
    std::env::var("TANGLE_BENCH_MIB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(32usize)
        .clamp(16, 64)
}

/// zstd as `content::blob` does it: stream encode on the way in, bulk decode on the way out.
fn compress(plaintext: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(plaintext.len() / 2 + 64);
    zstd::stream::copy_encode(plaintext, &mut out, ZSTD_LEVEL).expect("zstd compress");
    out
}

fn decompress(compressed: &[u8], raw_len: usize) -> Vec<u8> {
    zstd::bulk::decompress(compressed, raw_len.max(1)).expect("zstd decompress")
}

/// The `s` data shards of one extent, split in order and zero-padded, as the codec does.
fn data_shards(extent: &[u8], s: usize) -> Vec<Vec<u8>> {
    let size = shard_size_for(extent.len(), s);
    (0..s)
        .map(|i| {
            let mut shard = vec![0u8; size];
            let lo = (i * size).min(extent.len());
            let hi = ((i + 1) * size).min(extent.len());
            shard[..hi - lo].copy_from_slice(&extent[lo..hi]);
            shard
        })
        .collect()
}

// ---- benchmarks ------------------------------------------------------------------------

fn pipeline(c: &mut Criterion) {
    let data = test_data(data_mib());
    let total = data.len() as u64;
    let key = MasterKey::generate().expect("master key");
    let params = ChunkerParams::default();
    let chunks = chunk_slice(&data, &params);
    let compressed: Vec<Vec<u8>> = chunks
        .iter()
        .map(|&(o, l)| compress(&data[o..o + l]))
        .collect();
    let csize: usize = compressed.iter().map(Vec::len).sum();
    eprintln!(
        "pipeline bench input: {} MiB, {} chunks (avg {} KiB, chunker {}/{}/{} KiB), zstd-{ZSTD_LEVEL} ratio {:.2}, extents of {} MiB",
        total >> 20,
        chunks.len(),
        total as usize / chunks.len().max(1) / 1024,
        params.min / 1024,
        params.avg / 1024,
        params.max / 1024,
        csize as f64 / total as f64,
        DEFAULT_EXTENT_SIZE >> 20,
    );

    let mut g = c.benchmark_group("content");
    g.throughput(Throughput::Bytes(total));
    g.bench_function("fastcdc", |b| {
        b.iter(|| black_box(chunk_slice(black_box(&data), &params)))
    });
    g.bench_function("blake3_keyed", |b| {
        b.iter(|| {
            for &(o, l) in &chunks {
                black_box(key.blob_id(&data[o..o + l]));
            }
        })
    });
    g.bench_function("fastcdc+blake3_keyed", |b| {
        b.iter(|| {
            for (o, l) in chunk_slice(black_box(&data), &params) {
                black_box(key.blob_id(&data[o..o + l]));
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("codec");
    g.throughput(Throughput::Bytes(total));
    g.bench_function(BenchmarkId::new("zstd_compress", ZSTD_LEVEL), |b| {
        b.iter(|| {
            for &(o, l) in &chunks {
                black_box(compress(&data[o..o + l]));
            }
        })
    });
    g.bench_function(BenchmarkId::new("zstd_decompress", ZSTD_LEVEL), |b| {
        b.iter(|| {
            for (z, &(_, l)) in compressed.iter().zip(&chunks) {
                black_box(decompress(z, l));
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("crypto");
    g.throughput(Throughput::Bytes(total));
    g.bench_function("xchacha20poly1305_seal", |b| {
        b.iter(|| {
            for &(o, l) in &chunks {
                black_box(seal(&key.encryption, b"d", &data[o..o + l]).unwrap());
            }
        })
    });
    let sealed: Vec<Vec<u8>> = chunks
        .iter()
        .map(|&(o, l)| seal(&key.encryption, b"d", &data[o..o + l]).unwrap())
        .collect();
    g.bench_function("xchacha20poly1305_open", |b| {
        b.iter(|| {
            for s in &sealed {
                black_box(open(&key.encryption, b"d", s).unwrap());
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("blob");
    g.throughput(Throughput::Bytes(total));
    g.bench_function("encode_blob", |b| {
        b.iter(|| {
            for &(o, l) in &chunks {
                black_box(encode_blob(&key, BlobKind::Data, &data[o..o + l]).unwrap());
            }
        })
    });
    let blobs: Vec<([u8; 32], Vec<u8>, usize)> = chunks
        .iter()
        .map(|&(o, l)| {
            let p = &data[o..o + l];
            (
                key.blob_id(p),
                encode_blob(&key, BlobKind::Data, p).unwrap(),
                l,
            )
        })
        .collect();
    g.bench_function("decode_blob", |b| {
        b.iter(|| {
            for (id, stored, l) in &blobs {
                black_box(decode_blob(&key, BlobKind::Data, id, stored, *l).unwrap());
            }
        })
    });
    g.finish();

    let extent_size = DEFAULT_EXTENT_SIZE as usize;
    let extents: Vec<Vec<Vec<u8>>> = data
        .chunks(extent_size)
        .map(|e| data_shards(e, RS_DATA))
        .collect();
    let shard_size = extents[0][0].len();
    let coding3 = Coding::default_for(3).unwrap();
    let (s3, t3, p3) = (
        coding3.data_shards as usize,
        coding3.pointers as usize,
        coding3.parity_shards as usize,
    );
    let extents3: Vec<Vec<Vec<u8>>> = data
        .chunks(extent_size)
        .map(|e| data_shards(e, s3))
        .collect();
    let parity: Vec<Vec<Vec<u8>>> = extents
        .iter()
        .map(|d| {
            encode_parity(&d.iter().map(Vec::as_slice).collect::<Vec<_>>(), RS_PARITY).unwrap()
        })
        .collect();

    let mut g = c.benchmark_group("erasure");
    g.throughput(Throughput::Bytes(total));
    g.bench_function(format!("rs_encode_{RS_DATA}+{RS_PARITY}"), |b| {
        b.iter(|| {
            for d in &extents {
                let inputs: Vec<&[u8]> = d.iter().map(Vec::as_slice).collect();
                black_box(encode_parity(&inputs, RS_PARITY).unwrap());
            }
        })
    });
    // tangle's coding for 3 remotes: the pointer inputs are data shards of older extents
    // (here: of the previous extent, or of the last one for the first).
    g.bench_function(format!("rs_encode_{s3}+{t3}ptr+{p3}"), |b| {
        b.iter(|| {
            for (i, d) in extents3.iter().enumerate() {
                let older = &extents3[if i == 0 { extents3.len() - 1 } else { i - 1 }];
                let mut inputs: Vec<&[u8]> = d.iter().map(Vec::as_slice).collect();
                inputs.extend(older.iter().take(t3).map(Vec::as_slice));
                black_box(encode_parity(&inputs, p3).unwrap());
            }
        })
    });
    g.bench_function(format!("rs_decode_{RS_DATA}+{RS_PARITY}_lost3"), |b| {
        b.iter_batched(
            || {
                extents
                    .iter()
                    .zip(&parity)
                    .map(|(d, p)| {
                        let mut shards: Vec<Option<Vec<u8>>> =
                            vec![None, None, None, Some(d[3].clone())];
                        shards.extend(p.iter().cloned().map(Some));
                        shards
                    })
                    .collect::<Vec<_>>()
            },
            |mut all| {
                for shards in &mut all {
                    reconstruct(shards, RS_DATA, shard_size).unwrap();
                }
                all
            },
            BatchSize::PerIteration,
        )
    });
    // Baselines: the same shards through reed-solomon-simd's one-shot API directly, so
    // the cost of tangle's wrapper (striping, copies, allocation) shows.
    g.bench_function(
        format!("baseline_crate_rs_encode_{RS_DATA}+{RS_PARITY}"),
        |b| {
            b.iter(|| {
                for d in &extents {
                    black_box(reed_solomon_simd::encode(RS_DATA, RS_PARITY, d).unwrap());
                }
            })
        },
    );
    g.bench_function(
        format!("baseline_crate_rs_decode_{RS_DATA}+{RS_PARITY}_lost3"),
        |b| {
            b.iter(|| {
                for (d, p) in extents.iter().zip(&parity) {
                    let kept_parity = p.iter().enumerate().map(|(i, s)| (i, s.as_slice()));
                    black_box(
                        reed_solomon_simd::decode(
                            RS_DATA,
                            RS_PARITY,
                            [(3, d[3].as_slice())],
                            kept_parity,
                        )
                        .unwrap(),
                    );
                }
            })
        },
    );
    g.finish();

    // Sanity: what the decoder rebuilds is what was lost.
    let mut shards: Vec<Option<Vec<u8>>> = vec![None, None, None, Some(extents[0][3].clone())];
    shards.extend(parity[0].iter().cloned().map(Some));
    reconstruct(&mut shards, RS_DATA, shard_size).unwrap();
    for i in 0..RS_DATA {
        assert_eq!(
            shards[i].as_deref(),
            Some(&extents[0][i][..]),
            "RS did not rebuild shard {i}"
        );
    }
    let (id, stored, l) = &blobs[0];
    assert_eq!(
        decode_blob(&key, BlobKind::Data, id, stored, *l).unwrap(),
        data[..*l]
    );
}

criterion_group! {
    name = benches;
    config = support::config(10);
    targets = pipeline
}
criterion_main!(benches);
