//! Reads rebuild an extent through later codewords (issue 33): with every shard of an
//! extent gone, but each of its data shards named as a pointer by some later codeword,
//! `verify` says `repair` can fix it — and `restore` and `dump` now read it too, by the
//! same peeling, without writing anything to the remotes; so do they when later
//! codewords give back only some data shards and the extent's own codeword the rest.
//! Damage peeling cannot undo still fails and names the extent; a remote serving an
//! altered shard of a later codeword is named and the shard never used.
//!
//! The repository is created through the library with small extents (128 KiB, chunks of
//! 2-8 KiB) so that 6 MiB give about 50 extents whose oldest ones later codewords point
//! at; everything else runs the binary. Which extent to damage is read from the
//! certificates (no password needed).

use std::collections::HashSet;
use std::fs;
use std::path::PathBuf;
use std::sync::Arc;

use crate::shared::files::{mkfifo, pseudo_random, write_file};
use crate::support::command::{
    PASSWORD, assert_no_panic, assert_stderr_has, assert_stderr_lacks, run_any, stderr_str,
    stdout_str,
};
use crate::support::fsutil::MIB;
use crate::support::manifest::{Entry, assert_tree_matches, manifest};
use crate::support::remote_dirs::{assert_remotes_unchanged, flip_bytes};
use crate::support::repo::{Client, Repo, fine_chunked_init_options, restored_path};
use crate::support::report::{
    expect_code, finding_kind, run_report, show_findings, verify_findings,
};
use tangle::content::BlobKind;
use tangle::extent::{Certificate, ExtentName};
use tangle::repo::Repository;

const EXTENT_SIZE: u32 = 128 * 1024;
const FILES: u64 = 6;

struct Fixture {
    repo: Repo,
    src: PathBuf,
    expected: Vec<Entry>,
    /// Every certificate, oldest first (the order peeling goes).
    certs: Vec<Arc<Certificate>>,
    /// The extents that hold file data (the others hold trees).
    data: HashSet<ExtentName>,
}

fn setup() -> Fixture {
    let repo = Repo::uninit();
    let opts = fine_chunked_init_options(&repo, EXTENT_SIZE);
    let r = tangle::repo::init(&opts, PASSWORD.as_bytes()).expect("library init");
    assert_eq!((r.data_shards, r.parity_shards, r.pointers), (4, 3, 2));
    let src = repo.dir("src");
    for i in 0..FILES {
        write_file(
            &src.join(format!("f{i}.bin")),
            &pseudo_random(40 + i, MIB as usize),
        );
    }
    write_file(&src.join("notes.txt"), b"entangled\n");
    let expected = manifest(&src);
    let report = repo.backup(&[&src], &[]);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let lib = Repository::open(repo.url(0).as_str(), Some(repo.path("lib-cache")))
        .expect("open through the library");
    let certs = lib.load_catalog().expect("certificates");
    assert!(certs.len() >= 40, "{} extents", certs.len());
    let lib = (lib.unlock_and_load_index(PASSWORD.as_bytes())).expect("unlock and load the index");
    let data = (lib.index().iter().unwrap())
        .filter(|(_, _, loc)| loc.kind == BlobKind::Data)
        .map(|(_, e, _)| e)
        .collect();
    Fixture {
        repo,
        src,
        expected,
        certs,
        data,
    }
}

impl Fixture {
    /// The later codewords (positions) that name data shard `shard` of extent `e`.
    fn pointing_at(&self, e: usize, shard: usize) -> Vec<usize> {
        let name = self.certs[e].name();
        (e + 1..self.certs.len())
            .filter(|&l| {
                (self.certs[l].pointers.iter())
                    .any(|p| p.extent == name && p.shard as usize == shard)
            })
            .collect()
    }

    /// The later codewords (positions, sorted, each once) that name some data shard of
    /// extent `e`: those that rebuild it.
    fn rescuers(&self, e: usize) -> Vec<usize> {
        let mut r: Vec<usize> = (0..self.certs[e].data_shards as usize)
            .flat_map(|i| self.pointing_at(e, i))
            .collect();
        r.sort();
        r.dedup();
        r
    }

    /// The oldest data extent each of whose data shards some later codeword names: with
    /// all its shards gone, peeling restores its data shards from those codewords.
    fn rescuable(&self) -> usize {
        (0..self.certs.len())
            .filter(|&e| self.data.contains(&self.certs[e].name()))
            .find(|&e| {
                (0..self.certs[e].data_shards as usize).all(|i| !self.pointing_at(e, i).is_empty())
            })
            .expect("an extent all of whose data shards later codewords point at")
    }

    /// The newest data extent with a data shard no codeword names: with all its shards
    /// gone, nothing brings that one back.
    fn unrescuable(&self) -> usize {
        (0..self.certs.len())
            .rev()
            .filter(|&e| self.data.contains(&self.certs[e].name()))
            .find(|&e| {
                (0..self.certs[e].data_shards as usize).any(|i| self.pointing_at(e, i).is_empty())
            })
            .expect("an extent with a data shard nothing points at")
    }

    fn shard_file(&self, e: usize, i: usize) -> PathBuf {
        let c = &self.certs[e];
        self.repo.remotes[c.shards[i].remote as usize].join(c.name().shard_path(i))
    }

    /// Remove every shard of extent `e`, from every remote.
    fn lose_extent(&self, e: usize) {
        for i in 0..self.certs[e].shards.len() {
            fs::remove_file(self.shard_file(e, i)).unwrap();
        }
    }

    fn short(&self, e: usize) -> String {
        self.certs[e].name().short()
    }

    /// `verify --json` (no password): exit code and report.
    fn verify(&self, extra: &[&str], what: &str) -> (i32, serde_json::Value) {
        run_report(
            self.repo
                .cmd_as(Client::via(1).no_password())
                .arg("verify")
                .arg("--json")
                .args(extra),
            what,
        )
    }

    /// `restore latest` via remote `via` with an empty cache, into a new target.
    fn restore(&self, via: usize, target: &str) -> (std::process::Output, PathBuf) {
        let target = self.repo.path(target);
        let out = run_any(
            self.repo
                .cmd_as(Client::via(via).fresh_home())
                .args(["restore", "latest", "--target"])
                .arg(&target),
        );
        assert_no_panic(&out, "restore");
        (out, target)
    }

    /// [`Fixture::restore`] into `restored`: exit 0 and the source as it was backed up
    /// (`what` names the case); returns stderr.
    fn restores_whole(&self, via: usize, what: &str) -> String {
        let (out, target) = self.restore(via, "restored");
        let err = stderr_str(&out);
        assert_eq!(out.status.code(), Some(0), "restore\nstderr:\n{err}");
        assert_tree_matches(&self.expected, &restored_path(&target, &self.src), what);
        err
    }

    /// `dump latest FILE` for every file of the source: (file, output).
    fn dump_all(&self) -> Vec<(PathBuf, std::process::Output)> {
        let mut files: Vec<PathBuf> = (0..FILES)
            .map(|i| self.src.join(format!("f{i}.bin")))
            .collect();
        files.push(self.src.join("notes.txt"));
        files
            .into_iter()
            .map(|f| {
                let out = run_any(
                    self.repo
                        .cmd_as(Client::via(0).fresh_home())
                        .args(["dump", "latest"])
                        .arg(&f),
                );
                assert_no_panic(&out, "dump");
                (f, out)
            })
            .collect()
    }
}

/// `dump` of `file` exited 0 and wrote it byte for byte.
fn assert_dumped_identical(file: &std::path::Path, out: &std::process::Output) {
    assert_eq!(
        out.status.code(),
        Some(0),
        "dump {}: {}",
        file.display(),
        stderr_str(out)
    );
    assert!(
        out.stdout == fs::read(file).unwrap(),
        "dump {} differs",
        file.display()
    );
}

/// Every shard of an extent is gone; later codewords name each of its data shards.
/// verify: repairable (20). restore and dump read it through those codewords, exit 0,
/// byte for byte, with a warning on stderr (not stdout) naming the extent and `tangle
/// repair`; the remotes are untouched, byte for byte. repair then makes it permanent.
#[test]
fn restore_and_dump_rebuild_a_lost_extent_through_later_codewords() {
    let fx = setup();
    let e = fx.rescuable();
    let short = fx.short(e);
    fx.lose_extent(e);

    let (code, v) = fx.verify(&[], "verify, extent lost");
    expect_code(code, 20, &v, "verify, extent lost");
    assert!(
        verify_findings(&v)
            .iter()
            .any(|f| finding_kind(f) == "bad-shard" && f["extent"] == fx.certs[e].name().hex()),
        "verify does not name the lost extent:\n{}",
        show_findings(&v)
    );

    let before = fx.repo.remote_state();
    for via in [0, 2] {
        let (out, target) = fx.restore(via, &format!("restored-{via}"));
        let err = stderr_str(&out);
        assert_eq!(
            out.status.code(),
            Some(0),
            "restore via remote{via}\nstdout:\n{}\nstderr:\n{err}",
            stdout_str(&out)
        );
        assert_tree_matches(
            &fx.expected,
            &restored_path(&target, &fx.src),
            "restore through later codewords",
        );
        assert!(
            err.contains(&format!("extent {short} was rebuilt through"))
                && err.contains("later codeword")
                && err.contains("tangle repair"),
            "restore does not say the extent was rebuilt through later codewords:\n{err}"
        );
        assert_eq!(
            err.matches(&format!("extent {short} was rebuilt")).count(),
            1,
            "one warning per extent:\n{err}"
        );
        let text = stdout_str(&out);
        assert!(
            text.starts_with("restored snapshot") && !text.contains("rebuilt"),
            "stdout:\n{text}"
        );
        fs::remove_dir_all(&target).unwrap();
    }

    // dump: every file byte for byte; the ones in the lost extent say so on stderr.
    let mut rebuilt = 0;
    for (file, out) in fx.dump_all() {
        assert_dumped_identical(&file, &out);
        if stderr_str(&out).contains(&format!("extent {short} was rebuilt through")) {
            rebuilt += 1;
        }
    }
    assert!(rebuilt > 0, "no dumped file lies in the lost extent");
    assert_remotes_unchanged(&before, &fx.repo.remote_state(), "restore and dump");

    // repair rebuilds it for good; then no warning.
    let (code, r) = run_report(
        fx.repo
            .cmd_as(Client::via(1).no_password())
            .args(["repair", "--json"]),
        "repair",
    );
    assert_eq!(code, 0, "{r:#}");
    let (out, target) = fx.restore(1, "restored-after-repair");
    assert_eq!(out.status.code(), Some(0), "{}", stderr_str(&out));
    assert_tree_matches(
        &fx.expected,
        &restored_path(&target, &fx.src),
        "restore after repair",
    );
    assert_stderr_lacks(&out, "rebuilt through");
}

/// Later codewords can restore only some data shards of an extent; its own codeword
/// then has enough to decode the rest. All its data shards and all but `s - k` parity
/// shards are gone (`k` of its data shards are named by later codewords): its own
/// codeword has `s - k` parity and its `t` pointers, `k` short of decoding, until the
/// later codewords give back those `k`. Restore takes both steps, read only.
#[test]
fn restore_decodes_later_codewords_then_the_extents_own() {
    let fx = setup();
    let named = |e: usize| {
        (0..fx.certs[e].data_shards as usize)
            .filter(|&i| !fx.pointing_at(e, i).is_empty())
            .count()
    };
    let e = (0..fx.certs.len())
        .filter(|&e| fx.data.contains(&fx.certs[e].name()))
        .find(|&e| {
            let c = &fx.certs[e];
            let k = named(e);
            c.pointers.len() == 2 && (1..c.data_shards as usize).contains(&k)
        })
        .expect("a data extent with pointers, some but not all of its data shards named");
    let c = &fx.certs[e];
    let (s, k) = (c.data_shards as usize, named(e));
    let short = fx.short(e);
    // Keep parity shards s..s + (s - k); remove the rest.
    for i in (0..s).chain(s + (s - k)..c.shards.len()) {
        fs::remove_file(fx.shard_file(e, i)).unwrap();
    }

    let (code, v) = fx.verify(&[], "verify, own codeword short");
    expect_code(code, 20, &v, "verify, own codeword short");
    let before = fx.repo.remote_state();
    let err = fx.restores_whole(1, "restore through later codewords and the extent's own");
    // "... rebuilt through L later codewords (D decoded, ...": the extent's own is one.
    let counts: Vec<u64> = err
        .split(&format!("extent {short} was rebuilt through "))
        .nth(1)
        .unwrap_or_else(|| panic!("no rebuild warning:\n{err}"))
        .split(|ch: char| !ch.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .take(2)
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(counts.len(), 2, "{err}");
    assert!(counts[0] >= 1, "{err}");
    assert_eq!(
        counts[1],
        counts[0] + 1,
        "its own codeword decoded too:\n{err}"
    );
    assert_remotes_unchanged(&before, &fx.repo.remote_state(), "restore");
}

/// An extent with a data shard no codeword names loses everything: verify says data is
/// lost (21), and restore and dump fail (exit 1) naming the extent and what is missing,
/// writing nothing to the remotes.
#[test]
fn restore_names_an_extent_peeling_cannot_rebuild() {
    let fx = setup();
    let e = fx.unrescuable();
    let short = fx.short(e);
    fx.lose_extent(e);

    let (code, v) = fx.verify(&[], "verify, extent lost for good");
    expect_code(code, 21, &v, "verify, extent lost for good");

    let before = fx.repo.remote_state();
    let (out, _) = fx.restore(0, "restored");
    let err = stderr_str(&out);
    assert_eq!(out.status.code(), Some(21), "restore\nstderr:\n{err}");
    assert!(
        err.contains(&format!("extent {short} cannot be rebuilt"))
            && err.contains("too many shards lost")
            && err.contains("nor through later codewords")
            && err.contains("of its data shards stay lost")
            && err.contains("not restored: their data is lost on every remote")
            && !err.contains("rebuilt through"),
        "restore does not name the lost extent and what is missing:\n{err}"
    );
    let mut failed = 0;
    for (file, out) in fx.dump_all() {
        if out.status.code() == Some(0) {
            assert!(out.stdout == fs::read(&file).unwrap());
        } else {
            // Data lost: 21, as restore and verify exit for it.
            assert_eq!(out.status.code(), Some(21), "{}", stderr_str(&out));
            assert_stderr_has(&out, &format!("extent {short} cannot be rebuilt"));
            failed += 1;
        }
    }
    assert!(failed > 0, "no dumped file lies in the lost extent");
    assert_remotes_unchanged(&before, &fx.repo.remote_state(), "restore and dump");
}

/// The later codewords that rebuild a lost extent are read from remotes that may lie:
/// the first data shard of each of them is altered (same size, other bytes). Each is
/// refused by its hash, named with its remote, and never decoded with: the restore
/// still comes out byte for byte (each codeword lacks only that shard and the lost
/// extent's). When every shard of those codewords is altered, nothing can rebuild the
/// extent: verify --read-data says so (21), and the restore fails naming the extent and
/// the remotes serving the altered shards.
#[test]
fn altered_shards_of_later_codewords_are_named_and_never_used() {
    let fx = setup();
    let e = fx.rescuable();
    let short = fx.short(e);
    let rescuers = fx.rescuers(e);
    fx.lose_extent(e);
    for &l in &rescuers {
        flip_bytes(&fx.shard_file(l, 0));
    }

    let before = fx.repo.remote_state();
    let err = fx.restores_whole(0, "restore around altered shards");
    assert!(
        err.contains(&format!("extent {short} was rebuilt through")),
        "{err}"
    );
    let named: Vec<usize> = (rescuers.iter().copied())
        .filter(|&l| {
            let c = &fx.certs[l];
            err.contains(&format!(
                "remote {} serves shard 0 of extent {} with bytes that do not match its certificate (not used)",
                fx.repo.url(c.shards[0].remote as usize),
                c.name().short()
            ))
        })
        .collect();
    assert!(
        !named.is_empty(),
        "no altered shard of a later codeword is named with its remote:\n{err}"
    );
    assert_remotes_unchanged(&before, &fx.repo.remote_state(), "restore");

    // Every shard of every rescuer altered: the lost extent's pointed shards are gone.
    for &l in &rescuers {
        for i in 1..fx.certs[l].shards.len() {
            flip_bytes(&fx.shard_file(l, i));
        }
    }
    let (code, v) = fx.verify(&["--read-data"], "verify --read-data, rescuers altered");
    expect_code(code, 21, &v, "verify --read-data, rescuers altered");
    assert!(
        verify_findings(&v)
            .iter()
            .any(|f| finding_kind(f) == "data-lost" && f["extent"] == fx.certs[e].name().hex()),
        "verify --read-data does not report the extent lost:\n{}",
        show_findings(&v)
    );
    let before = fx.repo.remote_state();
    let (out, _) = fx.restore(1, "restored-2");
    let err = stderr_str(&out);
    assert_eq!(out.status.code(), Some(21), "restore\nstderr:\n{err}");
    assert!(
        err.contains(&format!("extent {short} cannot be rebuilt"))
            && err.contains("do not match its certificate"),
        "restore does not name the extent and the altered shards:\n{err}"
    );
    // Which rescuers the rebuild reads before it gives up depends on the order concurrent
    // reads finish in: some rescuer's altered shard is named, with its remote.
    assert!(
        (0..3).any(|r| err.contains(&format!("remote {} serves shard", fx.repo.url(r))))
            && (rescuers.iter()).any(|&l| err.contains(&fx.certs[l].name().short())),
        "restore does not name a remote serving an altered shard:\n{err}"
    );
    assert_remotes_unchanged(&before, &fx.repo.remote_state(), "failed restore");
}

/// The later codewords that rebuild a lost extent are themselves served by hostile
/// remotes: one of each rescuer's own shards is a FIFO (a reader that opened it would
/// wait forever), another a 512 MiB sparse file where a small shard should be (within
/// each rescuer's parity). The rebuild reads around both, promptly, and the restore
/// and every dump are byte for byte.
#[test]
fn the_rebuild_reads_around_fifos_and_giant_shards() {
    let fx = setup();
    let e = fx.rescuable();
    let short = fx.short(e);
    let lost = fx.certs[e].name();
    let rescuers = fx.rescuers(e);
    fx.lose_extent(e);
    let mut hostile_shards = vec![];
    for &l in &rescuers {
        let c = &fx.certs[l];
        // Symbols this codeword already misses: the lost extent's shards it names.
        let missing = (c.pointers.iter()).filter(|p| p.extent == lost).count();
        let room = (c.parity_shards as usize).saturating_sub(missing).min(2);
        for i in 0..room {
            let path = fx.shard_file(l, i);
            fs::remove_file(&path).unwrap();
            if i == 0 {
                mkfifo(&path);
            } else {
                let giant = fs::File::create(&path).unwrap();
                giant.set_len(512 << 20).unwrap();
            }
            let remote = c.shards[i].remote as usize;
            hostile_shards.push((fx.repo.url(remote), c.name().shard_path(i)));
        }
    }
    assert!(
        !hostile_shards.is_empty(),
        "no rescuer had room for a hostile shard"
    );

    let started = std::time::Instant::now();
    let (out, target) = fx.restore(2, "restored");
    let err = stderr_str(&out);
    assert_eq!(out.status.code(), Some(0), "restore\nstderr:\n{err}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "the restore was held up ({:?})",
        started.elapsed()
    );
    assert_tree_matches(
        &fx.expected,
        &restored_path(&target, &fx.src),
        "restore around hostile shards of later codewords",
    );
    assert!(
        err.contains(&format!("extent {short} was rebuilt through")),
        "{err}"
    );
    // verify names every hostile shard with its remote; nothing is lost.
    let (code, v) = fx.verify(&[], "verify, hostile rescuers");
    expect_code(code, 20, &v, "verify, hostile rescuers");
    for (remote, path) in &hostile_shards {
        assert!(
            verify_findings(&v)
                .iter()
                .any(|f| f["remote"] == remote.as_str() && f["path"] == path.as_str()),
            "verify does not name {path} on {remote}:\n{}",
            show_findings(&v)
        );
    }
    for (file, out) in fx.dump_all() {
        assert_dumped_identical(&file, &out);
    }
}
