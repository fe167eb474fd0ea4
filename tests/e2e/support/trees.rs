//! Source trees the tests back up, all generated here from fixed seeds so that a run
//! depends on nothing installed on the machine.

use std::fs;
use std::path::{Path, PathBuf};

use super::awkward::{Awkward, BIG_LEN, build_awkward_tree};
use super::fsutil::{MIB, set_mode, set_mtime};
use crate::shared::files::{pseudo_random, write_file};

/// A real-looking tree: `root/docs` (~32 MiB of generated documentation, see
/// [`build_doc_tree`]), `root/bin` (generated program-sized binaries), `root/awkward`
/// (see [`build_awkward_tree`]).
pub fn build_real_tree(root: &Path) -> Awkward {
    fs::create_dir_all(root).unwrap();
    build_doc_tree(&root.join("docs"), 7, 32 * MIB);
    build_binaries(&root.join("bin"), 8);
    let awk = build_awkward_tree(&root.join("awkward"));
    set_mtime(root, 1_650_000_000, 424_242_424);
    awk
}

/// A small tree of ordinary files: returns (number of regular files, number of
/// directories below the root, total file bytes). Contains `big-random.bin`
/// (9 MiB + 4321 random bytes) and an identical copy `copy-of-big.bin` for dedup.
pub fn build_simple_tree(root: &Path) -> (u64, u64, u64) {
    let big = pseudo_random(11, BIG_LEN);
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("a.txt", b"alpha\n".to_vec()),
        ("b.txt", b"bravo bravo\n".to_vec()),
        ("big-random.bin", big.clone()),
        ("sub/copy-of-big.bin", big),
        ("sub/c.txt", b"charlie\n".to_vec()),
        ("sub/deep/d.txt", pseudo_random(12, 70_000)),
        ("sub/deep/e.log", b"a log line\n".to_vec()),
        ("other/f.txt", b"foxtrot\n".to_vec()),
        ("other/g.log", b"another log line\n".to_vec()),
        ("other/empty", Vec::new()),
    ];
    let mut total = 0;
    for (name, data) in &files {
        write_file(&root.join(name), data);
        total += data.len() as u64;
    }
    fs::create_dir_all(root.join("emptydir")).unwrap();
    // dirs below root: sub, sub/deep, other, emptydir
    (files.len() as u64, 4, total)
}

/// `files` files `f0`, `f1`, ... of `len` pseudo-random bytes each (seeded from `seed`,
/// so incompressible and different from every other seed) directly under `root`.
/// Returns the total size.
pub fn build_random_tree(root: &Path, seed: u64, files: usize, len: usize) -> u64 {
    fs::create_dir_all(root).unwrap();
    for i in 0..files {
        write_file(
            &root.join(format!("f{i}")),
            &pseudo_random(seed * 1000 + i as u64, len),
        );
    }
    set_mtime(root, 1_600_000_000 + seed as i64, 123_456_789);
    (files * len) as u64
}

/// SplitMix64: the shape of the generated trees (names, sizes, kinds) from one seed.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..hi` (hi > lo).
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo)
    }

    /// True with probability `n / d`.
    fn chance(&mut self, n: u64, d: u64) -> bool {
        self.next() % d < n
    }

    /// Log-uniform in `lo..hi`: many small values, a few large ones (like file sizes).
    fn log_size(&mut self, lo: u64, hi: u64) -> usize {
        let (a, b) = ((lo as f64).ln(), (hi as f64).ln());
        let f = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        (a + (b - a) * f).exp() as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.next() as usize % from.len()]
    }
}

const WORDS: &[&str] = &[
    "the",
    "a",
    "of",
    "to",
    "and",
    "in",
    "is",
    "for",
    "file",
    "files",
    "package",
    "version",
    "copyright",
    "license",
    "software",
    "free",
    "without",
    "warranty",
    "see",
    "this",
    "that",
    "with",
    "may",
    "under",
    "terms",
    "GNU",
    "General",
    "Public",
    "upstream",
    "release",
    "fixed",
    "bug",
    "closes",
    "new",
    "option",
    "support",
    "added",
    "removed",
    "build",
    "debian",
    "manual",
    "page",
    "example",
    "configuration",
    "default",
    "directory",
    "user",
    "system",
    "library",
    "shared",
    "documentation",
    "changes",
    "security",
    "update",
];

/// `len` bytes of text (words, lines, paragraphs): compresses well, rarely repeats.
fn text(g: &mut Gen, len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 16);
    let mut col = 0;
    while out.len() < len {
        let w = g.pick(WORDS);
        out.extend_from_slice(w.as_bytes());
        col += w.len() + 1;
        if col > 72 {
            out.push(b'\n');
            col = 0;
            if g.chance(1, 12) {
                out.push(b'\n');
            }
        } else {
            out.push(b' ');
        }
    }
    out.truncate(len);
    out
}

/// Contents of one kind: compressed-looking (random), text, or half of each.
fn contents(g: &mut Gen, kind: &str, len: usize) -> Vec<u8> {
    match kind {
        "gz" => pseudo_random(g.next(), len),
        "mixed" => {
            let mut v = text(g, len / 2);
            v.extend_from_slice(&pseudo_random(g.next(), len - len / 2));
            v
        }
        _ => text(g, len),
    }
}

const DOC_NAMES: &[(&str, &str)] = &[
    ("changelog.Debian.gz", "gz"),
    ("changelog.gz", "gz"),
    ("NEWS.gz", "gz"),
    ("README", "text"),
    ("README.md", "text"),
    ("TODO", "text"),
    ("AUTHORS", "text"),
    ("index.html", "text"),
    ("manual.pdf", "mixed"),
    ("logo.png", "gz"),
];
const SUBDIRS: &[&str] = &["examples", "html", "contrib", "api", "images", "tests"];

/// Generated documentation in the spirit of /usr/share/doc, until about `budget` bytes:
/// package directories of a copyright file (a few licence texts shared by many, for
/// dedup), compressed changelogs and text files, some with nested subdirectories
/// (up to 5 deep), log-uniform sizes (mostly 100 B..20 KiB, a few up to 2 MiB), relative
/// symlinks to files and directories of other packages, and explicit nanosecond mtimes
/// on everything. Deterministic for a given `seed`. Returns the bytes written.
pub fn build_doc_tree(dst: &Path, seed: u64, budget: u64) -> u64 {
    let mut g = Gen(seed);
    let mut made: Vec<PathBuf> = vec![dst.to_path_buf()];
    fs::create_dir_all(dst).unwrap();
    let licences: Vec<Vec<u8>> = (0..4)
        .map(|_| {
            let n = g.log_size(800, 40_000);
            text(&mut g, n)
        })
        .collect();
    let mut total = 0u64;
    let mut packages: Vec<String> = Vec::new();
    while total < budget {
        let name = format!(
            "{}{}-{}",
            g.pick(&["lib", "", "", "python3-", "x11-"]),
            g.pick(WORDS).to_lowercase(),
            packages.len()
        );
        let pkg = dst.join(&name);
        fs::create_dir(&pkg).unwrap();
        made.push(pkg.clone());
        // The copyright file: mostly one of the shared licences.
        let copyright = if g.chance(3, 4) {
            licences[g.next() as usize % licences.len()].clone()
        } else {
            let n = g.log_size(300, 30_000);
            text(&mut g, n)
        };
        total += copyright.len() as u64;
        write_file(&pkg.join("copyright"), &copyright);
        made.push(pkg.join("copyright"));
        // A few more files, in the package dir or nested below it.
        let mut dir = pkg.clone();
        for _ in 0..g.range(1, 16) {
            if g.chance(1, 4) && dir.strip_prefix(&pkg).unwrap().components().count() < 5 {
                dir = dir.join(g.pick(SUBDIRS));
                if !dir.exists() {
                    fs::create_dir(&dir).unwrap();
                    made.push(dir.clone());
                }
            }
            let (base, kind) = DOC_NAMES[g.next() as usize % DOC_NAMES.len()];
            let len = if g.chance(1, 70) {
                g.log_size(256 * 1024, 2 * MIB)
            } else {
                g.log_size(100, 20_000)
            };
            let p = dir.join(format!("{}{base}", g.range(0, 10)));
            if p.exists() {
                continue;
            }
            write_file(&p, &contents(&mut g, kind, len));
            if g.chance(1, 30) {
                set_mode(&p, 0o755);
            }
            total += len as u64;
            made.push(p);
        }
        // Now and then a relative symlink into an earlier package, as Debian links
        // the docs of one package to another's.
        if !packages.is_empty() && g.chance(1, 4) {
            let other = &packages[g.next() as usize % packages.len()];
            let (link, target) = if g.chance(1, 2) {
                ("changelog.Debian.gz", format!("../{other}/copyright"))
            } else {
                ("more-docs", format!("../{other}"))
            };
            let p = pkg.join(link);
            if !p.exists() {
                std::os::unix::fs::symlink(target, &p).unwrap();
                made.push(p);
            }
        }
        packages.push(name);
    }
    // Setting a child's times leaves its directory's mtime alone, so any order works
    // once nothing more is created.
    for p in &made {
        let secs = g.range(1_300_000_000, 1_700_000_000) as i64;
        let nanos = g.range(0, 1_000_000_000) as u32;
        set_mtime(p, secs, nanos);
    }
    total
}

/// Program-sized files under `dst` (names and sizes of a few coreutils), mode 0755:
/// an ELF-like header, then mostly incompressible bytes with some zero padding, as
/// real binaries have.
pub fn build_binaries(dst: &Path, seed: u64) {
    fs::create_dir_all(dst).unwrap();
    let programs: &[(&str, usize)] = &[
        ("ls", 151_344),
        ("cat", 44_016),
        ("cp", 151_152),
        ("tar", 531_984),
        ("gzip", 98_136),
        ("env", 48_536),
        ("touch", 109_616),
        ("mkfifo", 68_784),
        ("setpriv", 80_192),
        ("bash", 1_265_648),
    ];
    for (i, (name, len)) in programs.iter().enumerate() {
        let mut data = b"\x7fELF\x02\x01\x01\0".to_vec();
        data.extend_from_slice(&pseudo_random(seed * 100 + i as u64, len * 3 / 4));
        data.resize(*len, 0);
        let p = dst.join(name);
        write_file(&p, &data);
        set_mode(&p, 0o755);
        set_mtime(
            &p,
            1_690_000_000 + i as i64 * 3_600,
            100_000_007 * i as u32 % 1_000_000_000,
        );
    }
    set_mtime(dst, 1_690_100_000, 5);
}
