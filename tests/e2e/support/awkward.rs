//! The awkward tree: every case a restore must reproduce exactly.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::fsutil::{MIB, is_root, raw, set_mode, set_mtime};
use crate::shared::files::{mkfifo, pseudo_random, write_file};

pub const SPARSE_LEN: u64 = 64 * MIB;
pub const BIG_LEN: usize = 9 * 1024 * 1024 + 4321;

/// Notable paths inside an awkward tree.
pub struct Awkward {
    /// The 64 MiB sparse file.
    pub sparse: PathBuf,
    /// A plain text file.
    pub plain: PathBuf,
}

/// Build a tree with every awkward case the restore must reproduce:
/// symlinks (relative, absolute, dangling, self-loop, to a dir), hard links (two groups,
/// across directories), empty and nested-empty dirs, non-UTF-8 names (file and dir),
/// names with space / tab / newline / leading dash, a 64 MiB sparse file, a FIFO, odd
/// modes (4755, 2750, 600, 444, 000, 1777 dir, 700 dir, 555 dir), a zero-length file,
/// a > 8 MiB random file, a file of repeating content, foreign ownership (when root),
/// and explicit nanosecond mtimes on everything (dirs and symlinks included).
pub fn build_awkward_tree(root: &Path) -> Awkward {
    build_awkward_tree_opts(root, true)
}

/// [`build_awkward_tree`], optionally without the hard links.
pub fn build_awkward_tree_opts(root: &Path, with_hardlinks: bool) -> Awkward {
    let root_user = is_root();
    fs::create_dir_all(root).unwrap();
    // Every created path, in creation order, gets an explicit mtime at the end.
    let mut all: Vec<PathBuf> = Vec::new();
    let mut add = |p: PathBuf| -> PathBuf {
        all.push(p.clone());
        p
    };

    let plain = add(root.join("plain.txt"));
    write_file(&plain, b"hello, tangle\n");
    let empty = add(root.join("empty-file"));
    write_file(&empty, b"");

    let big = add(root.join("big-random.bin"));
    write_file(&big, &pseudo_random(1, BIG_LEN));

    let block = pseudo_random(2, 64 * 1024);
    let repeat: Vec<u8> = block
        .iter()
        .copied()
        .cycle()
        .take(3 * MIB as usize)
        .collect();
    write_file(&add(root.join("repeating.bin")), &repeat);

    let sparse = add(root.join("sparse.img"));
    {
        let mut f = fs::File::create(&sparse).unwrap();
        f.set_len(SPARSE_LEN).unwrap();
        f.write_all(b"begin of sparse file").unwrap();
        use std::io::{Seek, SeekFrom};
        f.seek(SeekFrom::Start(SPARSE_LEN - 3)).unwrap();
        f.write_all(b"end").unwrap();
        f.sync_all().unwrap();
    }

    // Modes.
    let modes = add(root.join("modes"));
    fs::create_dir(&modes).unwrap();
    let setuid = add(modes.join("setuid"));
    write_file(&setuid, b"#!/bin/sh\necho setuid\n");
    let setgid = add(modes.join("setgid"));
    write_file(&setgid, b"#!/bin/sh\necho setgid\n");
    let private = add(modes.join("private"));
    write_file(&private, b"secret-ish\n");
    let readonly = add(modes.join("readonly"));
    write_file(&readonly, b"read only\n");
    let sticky = add(modes.join("sticky-dir"));
    fs::create_dir(&sticky).unwrap();
    write_file(&add(sticky.join("inside")), b"in sticky dir\n");
    let private_dir = add(modes.join("private-dir"));
    fs::create_dir(&private_dir).unwrap();
    write_file(&add(private_dir.join("inside")), b"in private dir\n");

    // Ownership (only possible as root). chown before chmod: chown clears setuid.
    if root_user {
        use std::os::unix::fs::{chown, lchown};
        chown(&setuid, Some(1234), Some(1234)).unwrap();
        let owned = add(root.join("owned"));
        fs::create_dir(&owned).unwrap();
        let f = add(owned.join("by-1234"));
        write_file(&f, b"owned by 1234:5678\n");
        chown(&f, Some(1234), Some(5678)).unwrap();
        let d = add(owned.join("dir-4321"));
        fs::create_dir(&d).unwrap();
        write_file(&add(d.join("file")), b"in foreign dir\n");
        chown(&d, Some(4321), Some(8765)).unwrap();
        let l = add(owned.join("link"));
        std::os::unix::fs::symlink("by-1234", &l).unwrap();
        lchown(&l, Some(1234), Some(5678)).unwrap();
    }
    set_mode(&setuid, 0o4755);
    set_mode(&setgid, 0o2750);
    set_mode(&private, 0o600);
    set_mode(&readonly, 0o444);
    set_mode(&sticky, 0o1777);
    set_mode(&private_dir, 0o700);
    if root_user {
        // Not readable / not writable by their owner: only sensible when root, who
        // can still read the source and clean up.
        let none = add(modes.join("none"));
        write_file(&none, b"mode 000\n");
        set_mode(&none, 0o000);
        let ro_dir = add(modes.join("readonly-dir"));
        fs::create_dir(&ro_dir).unwrap();
        write_file(&add(ro_dir.join("inner")), b"in read-only dir\n");
        set_mode(&ro_dir, 0o555);
    }

    // Symlinks.
    let links = add(root.join("links"));
    fs::create_dir(&links).unwrap();
    write_file(&add(links.join("target.txt")), b"link target\n");
    let sl = |target: &str, name: &str| -> PathBuf {
        let p = links.join(name);
        std::os::unix::fs::symlink(target, &p).unwrap();
        p
    };
    add(sl("target.txt", "relative"));
    add(sl("/etc/hostname", "absolute"));
    add(sl("does/not/exist", "dangling"));
    add(sl("self-loop", "self-loop"));
    add(sl("../modes", "to-dir"));
    {
        let p = links.join("non-utf8-target");
        std::os::unix::fs::symlink(raw(b"caf\xe9-missing"), &p).unwrap();
        add(p);
    }

    // Hard links: two groups, one spanning directories.
    if with_hardlinks {
        let hard = add(root.join("hard"));
        fs::create_dir(&hard).unwrap();
        let a = add(hard.join("a"));
        write_file(&a, b"hard-linked content, group 1\n");
        let deeper = add(hard.join("deeper"));
        fs::create_dir(&deeper).unwrap();
        let b = add(hard.join("b"));
        fs::hard_link(&a, &b).unwrap();
        let c = add(deeper.join("c"));
        fs::hard_link(&a, &c).unwrap();
        let x = add(hard.join("x"));
        write_file(&x, &pseudo_random(3, 100_000));
        let y = add(deeper.join("y"));
        fs::hard_link(&x, &y).unwrap();
    }

    // Empty directories.
    add(root.join("empty-dir"));
    fs::create_dir(root.join("empty-dir")).unwrap();
    add(root.join("nested"));
    add(root.join("nested/empty"));
    add(root.join("nested/empty/deeper"));
    fs::create_dir_all(root.join("nested/empty/deeper")).unwrap();

    // Names.
    let names = add(root.join("names"));
    fs::create_dir(&names).unwrap();
    write_file(&add(names.join(raw(b"caf\xe9"))), b"latin-1 name\n");
    let odd_dir = add(names.join(raw(b"dir-\xff\xfe")));
    fs::create_dir(&odd_dir).unwrap();
    write_file(&add(odd_dir.join(raw(b"f\x80"))), b"in a non-utf8 dir\n");
    for n in [
        "ü-utf8.txt",
        "with space",
        "tab\tname",
        "new\nline",
        "-dash",
        "star*",
        "q?mark",
        "[brackets]",
    ] {
        write_file(&add(names.join(n)), n.as_bytes());
    }

    // FIFO.
    let fifo = add(root.join("fifo"));
    mkfifo(&fifo);
    set_mode(&fifo, 0o640);

    // Explicit mtimes with distinct nanoseconds; the root last.
    all.push(root.to_path_buf());
    for (i, p) in all.iter().enumerate() {
        let secs = 1_500_000_000 + (i as i64) * 86_413;
        let nanos = ((i as u64 * 123_456_789 + 987_654_321) % 1_000_000_000) as u32;
        set_mtime(p, secs, nanos);
    }

    Awkward { sparse, plain }
}
