//! `tangle dump SNAPSHOT DIR --archive zip`: the directory's subtree as a zip archive,
//! as `restic dump --archive zip` writes one.
//!
//! The archive is streamed: no entry is gone back to, so it can go to a pipe. Each
//! file's sizes and checksum follow its data (a data descriptor), which `unzip`, Python's
//! `zipfile` and every common reader take. Entries are named relative to the dumped
//! directory, as the tar archive's are. Directories, regular files (deflated) and
//! symlinks become zip entries with the node's permission bits (`0o777`: zip keeps no
//! setuid, setgid or sticky bit) and mtime: in the DOS time field (local time, 2-second
//! steps, 1980 to 2107) and, to the second, in the extended timestamp field that `unzip`
//! restores. Zip has no entry for a FIFO, a device node or a socket: they are left out,
//! each with a warning. Hard links are written as regular files, each with its contents.
//!
//! Zip names are UTF-8: a name that is not is written with U+FFFD for its undecodable
//! bytes, with a warning (`--archive tar` keeps names exactly).
//!
//! A blob that no remote serves and no codeword rebuilds ends the archive with data lost
//! (exit 21), and nothing more is written after it: no central directory, so readers
//! report the archive as broken rather than take it for complete.

use std::cell::Cell;
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use ::zip::write::{FullFileOptions, StreamWriter};
use ::zip::{CompressionMethod, DateTime, ZipWriter};

use super::archive::{Contents, Entry};
use crate::content::NodeKind;
use crate::error::{Error, Result, ResultExt};
use crate::repo::{Indexed, Repository};

type Writer<'a> = ZipWriter<StreamWriter<Cut<'a>>>;

/// Write `entries` (of the directory at `root`, as backed up; see
/// [`with_entries`](super::archive::with_entries)) as a zip archive to `out`; returns the
/// file bytes written.
pub(super) fn write_zip(
    repo: &Repository<Indexed>,
    entries: &[Entry],
    root: &Path,
    out: &mut dyn Write,
) -> Result<u64> {
    let shut = Cell::new(false);
    let mut zip = ZipWriter::new_stream(Cut { out, shut: &shut });
    let mut written = 0u64;
    for e in entries {
        match append(repo, &mut zip, e, root) {
            Ok(n) => written += n,
            Err(err) => {
                // Dropping the writer writes the central directory: not after a cut
                // entry, which must not look like a complete archive.
                shut.set(true);
                return Err(err);
            }
        }
    }
    let cut = zip.finish().map_err(zip_error)?.into_inner();
    if shut.get() {
        return Err(Error::fatal("writing output: the archive was cut short"));
    }
    cut.out.flush().ctx("writing output")?;
    Ok(written)
}

/// The output, shut at its first error (or when an entry is cut short): from then on
/// what the zip writer writes is dropped, so that it writes nothing after the failure,
/// not even the central directory it writes when dropped, and has no error to print
/// there either (the first one is the command's).
struct Cut<'a> {
    out: &'a mut dyn Write,
    shut: &'a Cell<bool>,
}

impl Cut<'_> {
    fn seen<T>(&mut self, r: io::Result<T>) -> io::Result<T> {
        if r.as_ref()
            .is_err_and(|e| e.kind() != io::ErrorKind::Interrupted)
        {
            self.shut.set(true);
        }
        r
    }
}

impl Write for Cut<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.shut.get() {
            return Ok(buf.len());
        }
        let r = self.out.write(buf);
        self.seen(r)
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.shut.get() {
            return Ok(());
        }
        let r = self.out.flush();
        self.seen(r)
    }
}

/// A zip writer's error: the output's, or the crate's own.
fn zip_error(e: ::zip::result::ZipError) -> Error {
    match e {
        ::zip::result::ZipError::Io(e) => Error::from(e).context("writing output"),
        e => Error::fatal(format!("writing the zip archive: {e}")),
    }
}

/// The entry's name in the archive; a name that is not UTF-8 gets U+FFFD for the bytes
/// that do not decode, with a warning.
fn name(repo: &Repository<Indexed>, e: &Entry, root: &Path) -> String {
    let bytes = e.rel.as_os_str().as_bytes();
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => {
            let lossy = String::from_utf8_lossy(bytes).into_owned();
            repo.warn(&format!(
                "{}: the name is not UTF-8, as zip names are; stored as {lossy:?} \
                 (--archive tar keeps it exactly)",
                root.join(&e.rel).display()
            ));
            lossy
        }
    }
}

/// The options every entry starts from: mode, mtime (DOS field and extended timestamp).
fn options(e: &Entry) -> FullFileOptions<'static> {
    let node = &e.node;
    let mut o = FullFileOptions::default()
        .unix_permissions(node.mode & 0o777)
        .last_modified_time(dos_time(node.mtime));
    // Info-ZIP's extended timestamp (0x5455): flags (bit 0: mtime), then the mtime as
    // seconds since the epoch, signed 32 bits; left out for a time it cannot hold.
    if let Ok(secs) = i32::try_from(node.mtime) {
        let mut data = vec![1u8];
        data.extend_from_slice(&secs.to_le_bytes());
        // Nothing else is in this entry's extra fields, so this cannot be too long.
        let _ = o.add_extra_data(0x5455, &data, false);
    }
    o
}

/// `mtime` as the DOS date and time in local time, as zip tools write it; outside
/// 1980..=2107, the nearest end of that range.
fn dos_time(mtime: i64) -> DateTime {
    use chrono::{Datelike, Timelike};
    let local = chrono::DateTime::from_timestamp(mtime, 0)
        .map(|t| t.with_timezone(&chrono::Local).naive_local());
    let Some(t) = local else {
        return DateTime::default();
    };
    if t.year() > 2107 {
        return DateTime::from_date_and_time(2107, 12, 31, 23, 59, 58)
            .unwrap_or_else(|_| DateTime::default());
    }
    let Ok(year) = u16::try_from(t.year()) else {
        return DateTime::default();
    };
    // The fields come from a valid date and time, and the year is in range or refused.
    DateTime::from_date_and_time(
        year,
        t.month() as u8,
        t.day() as u8,
        t.hour() as u8,
        t.minute() as u8,
        t.second() as u8,
    )
    .unwrap_or_else(|_| DateTime::default())
}

/// One entry into the archive; returns the file bytes written.
fn append(repo: &Repository<Indexed>, zip: &mut Writer<'_>, e: &Entry, root: &Path) -> Result<u64> {
    let node = &e.node;
    let left_out = |what: &str| {
        repo.warn(&format!(
            "{}: a {what} has no zip entry; left out (--archive tar keeps it)",
            root.join(&e.rel).display()
        ));
    };
    match node.kind {
        NodeKind::Dir => {
            zip.add_directory(name(repo, e, root), options(e))
                .map_err(zip_error)?;
        }
        NodeKind::Symlink => {
            let target = String::from_utf8_lossy(&node.target).into_owned();
            if target.as_bytes() != node.target.as_slice() {
                repo.warn(&format!(
                    "{}: the symlink's target is not UTF-8; stored as {target:?}",
                    root.join(&e.rel).display()
                ));
            }
            zip.add_symlink(name(repo, e, root), target, options(e))
                .map_err(zip_error)?;
        }
        NodeKind::Fifo => left_out("FIFO"),
        NodeKind::CharDevice => left_out("character device"),
        NodeKind::BlockDevice => left_out("block device"),
        NodeKind::Socket => left_out("socket"),
        NodeKind::File => {
            let o = options(e)
                .compression_method(CompressionMethod::Deflated)
                .large_file(node.size >= u64::from(u32::MAX));
            zip.start_file(name(repo, e, root), o).map_err(zip_error)?;
            let path = root.join(&e.rel);
            let mut contents = Contents::new(repo, node, &path);
            let r = io::copy(&mut contents, zip);
            if let Some(lost) = contents.lost {
                return Err(lost);
            }
            r.ctx("writing output")?;
            return Ok(node.size);
        }
    }
    Ok(0)
}
