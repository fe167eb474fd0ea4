//! The file readers: each reader thread takes a file from the walker, cuts it into
//! content-defined chunks (FastCDC), names each chunk by its keyed BLAKE3 hash and sends
//! the chunks no one has stored yet on to the compressors. The file's blob list goes
//! back to the tree builder through the job's reply channel.

use std::io::Read;
use std::path::Path;
use std::sync::Mutex;

use bytes::Bytes;
use crossbeam_channel::Sender;

use super::pipeline::{Dedup, PlainBlob};
use super::stream::StdinOptions;
use super::walker::FileResult;
use crate::content::chunker::{chunk_reader, chunk_slice};
use crate::content::fsmeta;
use crate::content::{BlobKind, ChunkerParams};
use crate::crypto::ContentKeys;
use crate::error::{Error, Result};
use crate::ops::Progress;

/// Files smaller than this are read whole and chunked in memory; bigger ones stream.
pub(super) const WHOLE_FILE_LIMIT: u64 = 4 << 20;

/// What every reader thread shares: how to cut and name chunks, where new ones go.
pub(super) struct Reader<'a> {
    pub(crate) key: &'a dyn ContentKeys,
    pub(crate) chunker: ChunkerParams,
    pub(crate) dedup: &'a Dedup<'a>,
    pub(crate) out: Sender<PlainBlob>,
    pub(crate) progress: &'a Progress,
    /// Held while a file bigger than [`WHOLE_FILE_LIMIT`] streams, so one reader at a
    /// time does: one stream already feeds the compressors faster than they compress
    /// (the other readers go on with small files meanwhile), and each stream holds its
    /// read-ahead (see [`chunk_reader`]) besides the chunks in flight.
    pub(crate) streaming: &'a Mutex<()>,
}

impl Reader<'_> {
    /// Name a chunk, count it, and send it on if no one has stored it yet.
    fn emit(&self, ids: &mut Vec<crate::content::BlobId>, chunk: Bytes) -> Result<()> {
        let id = self.key.blob_id(&chunk);
        ids.push(id);
        Progress::add(&self.progress.bytes_done, chunk.len() as u64);
        self.dedup.offer(&self.out, id, BlobKind::Data, chunk)
    }

    /// A file's chunks: read whole and chunked in memory up to [`WHOLE_FILE_LIMIT`],
    /// streamed (one stream at a time) above.
    pub(super) fn read_file(&self, path: &Path) -> FileResult {
        let fail = |e: std::io::Error| Error::from(e).context(path.display());
        let file = fsmeta::open_to_read(path).map_err(fail)?;
        let size = file.metadata().map_err(fail)?.len();
        let mut ids = Vec::new();
        let read = if size <= WHOLE_FILE_LIMIT {
            // Through `take`: File::read_to_end would fstat and lseek again for a size
            // hint, and read once more to see the end; the size is known (a file that
            // grows meanwhile is cut off at it, one that shrinks just reads short).
            let mut data = Vec::with_capacity(size as usize);
            (&file).take(size).read_to_end(&mut data).map_err(fail)?;
            let data = Bytes::from(data);
            let n = data.len() as u64;
            let chunker = &self.chunker;
            let mut emit = |chunk| {
                self.emit(&mut ids, chunk)
                    .map_err(|e| e.context(path.display()))
            };
            if data.len() < chunker.min as usize {
                if !data.is_empty() {
                    emit(data)?;
                }
            } else {
                for (off, len) in chunk_slice(&data, chunker) {
                    emit(data.slice(off..off + len))?;
                }
            }
            n
        } else {
            let _one_stream = self.streaming.lock().unwrap_or_else(|p| p.into_inner());
            chunk_reader(file, &self.chunker, |chunk| self.emit(&mut ids, chunk))
                .map_err(|e| e.context(path.display()))?
        };
        Ok((ids, read))
    }

    /// A stream's chunks (`backup --stdin`): as [`read_file`](Self::read_file) for a file
    /// that streams.
    pub(super) fn read_stream(&self, o: &StdinOptions) -> FileResult {
        let _one_stream = self.streaming.lock().unwrap_or_else(|p| p.into_inner());
        let mut ids = Vec::new();
        let read = super::stream::read(o, &self.chunker, |chunk| self.emit(&mut ids, chunk))?;
        Ok((ids, read))
    }
}
