//! What a restore fetches from high-latency remotes (S3, SFTP): each data shard once,
//! even when a file late in the tree shares its blobs with one early in it (deduplicated
//! copies), with the prefetcher running.
//!
//! The shape: a first file of 4 data shards, then 48 shards of small files, then a copy
//! of the first file. A shard cache of 16 that gives up its oldest entry fetches the
//! first file's shards twice; one that follows the restore's read plan keeps them,
//! because it knows they are read again and the other files' shards are not. The bytes fetched come
//! from `TANGLE_DEBUG_REQUESTS` (`get_shard_bytes`), the data shards' sizes from listing the
//! remotes.

use std::fs;
use std::path::{Path, PathBuf};

use crate::shared::files::{pseudo_random, write_file};
use crate::shared::init::small_init_options;
use crate::shared::servers;
use crate::support::command::{PASSWORD, run_ok, stderr_str, tangle_via_url};
use crate::support::fsutil::files_under;
use crate::support::repo::{Repo, data_shard_sizes, restored_path};
use crate::support::scenario;
use assert_cmd::Command;
use tangle::repo::Repository;

/// Extents of 128 KiB: data shards of 32 KiB.
const EXTENT_SIZE: u32 = 128 * 1024;
const SHARD: u64 = EXTENT_SIZE as u64 / 4;

/// Small files between the first file and its copy: half a shard each, 48 shards in all
/// (small files, as most of a real tree is; the cache holds few shards being read).
const FILLERS: u64 = 96;

fn filler(k: u64) -> Vec<u8> {
    pseudo_random(100 + k, SHARD as usize / 2)
}

/// Shards of the first file (and of its copy). A few, against the cache's 16: the
/// prefetcher keeps up to 8 upcoming shards in the cache, and the workers read 1-2.
const FIRST_SHARDS: u64 = 4;

fn first_file() -> Vec<u8> {
    pseudo_random(1, (FIRST_SHARDS * SHARD) as usize)
}

/// The source tree: `a/first.bin` (`FIRST_SHARDS` data shards), `b/` (48 shards of distinct data),
/// `c/again.bin` (a copy of the first).
fn make_source(src: &Path) {
    let first = first_file();
    write_file(&src.join("a/first.bin"), &first);
    for k in 0..FILLERS {
        write_file(&src.join(format!("b/filler-{k:02}.bin")), &filler(k));
    }
    write_file(&src.join("c/again.bin"), &first);
}

fn tangle(home: &Path, via: &str) -> Command {
    tangle_via_url(home, via)
}

/// Total size of the data shards on all remotes.
fn data_shard_bytes(repo: &Repository) -> u64 {
    data_shard_sizes(repo).iter().sum()
}

/// Create a repository over `urls` and back up the source into it.
fn back_up_source(repo: &Repo, urls: &[String]) {
    let opts = tangle::repo::InitOptions {
        remotes: urls.to_vec(),
        ..small_init_options(EXTENT_SIZE)
    };
    tangle::repo::init(&opts, PASSWORD.as_bytes()).expect("library init");
    make_source(&repo.dir("src"));
    run_ok(
        tangle(&repo.home, &urls[0])
            .args(["backup", "-q"])
            .arg(repo.dir("src")),
    );
}

/// Back up the source over `urls`, restore it with one worker, check the restore and
/// say what it fetched. One worker reads in exactly the order the plan foresaw; with
/// several, how far apart they run depends on the machine's load, and so does what a
/// cache of 16 shards must give up (up to 4.7 shards' worth fetched again with a plan,
/// seen over SFTP with the whole suite running on 2 cores).
fn restore_fetches(repo: &Repo, urls: &[String]) -> Restored {
    back_up_source(repo, urls);
    restore_and_check(repo, urls, &[("TANGLE_TEST_RESTORE_WORKERS", "1")])
}

/// What a restore fetched and said.
struct Restored {
    /// Bytes of shards fetched.
    fetched: u64,
    /// Bytes of all data shards on the remotes.
    data: u64,
    stderr: String,
}

/// Restore the source through `urls[0]` (with `envs` set), check every file and say
/// what it fetched.
fn restore_and_check(repo: &Repo, urls: &[String], envs: &[(&str, &str)]) -> Restored {
    let src = repo.dir("src");
    let first = first_file();
    let target = repo.path("target");
    let out = run_ok(
        tangle(&repo.home, &urls[0])
            .env("TANGLE_DEBUG_REQUESTS", "1")
            .envs(envs.iter().copied())
            .args(["restore", "-q", "latest", "--target"])
            .arg(&target),
    );
    let restored = restored_path(&target, &src);
    assert_eq!(fs::read(restored.join("a/first.bin")).unwrap(), first);
    assert_eq!(fs::read(restored.join("c/again.bin")).unwrap(), first);
    for k in 0..FILLERS {
        let name = format!("b/filler-{k:02}.bin");
        assert_eq!(fs::read(restored.join(&name)).unwrap(), filler(k), "{name}");
    }

    let stderr = stderr_str(&out);
    let fetched = stderr
        .split("get_shard_bytes ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no get_shard_bytes in the request counts:\n{stderr}"));
    let lib = Repository::open(&urls[0], Some(repo.path("lib-cache"))).expect("open");
    Restored {
        fetched,
        data: data_shard_bytes(&lib),
        stderr,
    }
}

/// Shard bytes fetched against the data shards' bytes: every data shard once, and fewer
/// than `again` shards a second time. A cache that gives up its oldest entry fetches the
/// first file's shards again, and more (4.3-7.1 shards' worth measured from local
/// remotes). One that follows the plan may still give up one or two while the
/// prefetcher keeps up to 8 upcoming shards in (with one restore worker: 0-1.9 measured
/// over S3 and SFTP on an idle machine, 0 with both cores busy).
fn assert_each_shard_fetched_once(restored: &Restored, again: u64) {
    let (fetched, data) = (restored.fetched, restored.data);
    assert!(
        data > 50 * SHARD,
        "the source makes 57 data shards or more: {data}"
    );
    assert!(
        fetched < data + again * SHARD,
        "the restore fetched {fetched} bytes of shards for {data} bytes of data shards: \
         {} shards' worth fetched again; {}",
        (fetched.saturating_sub(data)) as f64 / SHARD as f64,
        plan_line(restored)
    );
}

/// The `TANGLE_DEBUG_REQUESTS` line about the read plan.
fn plan_line(restored: &Restored) -> &str {
    restored
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("tangle: read plan: "))
        .unwrap_or_else(|| panic!("no read plan line:\n{}", restored.stderr))
}

/// Three fresh remotes under `base` (an S3 prefix or an SFTP directory URL).
fn three_remotes_under(base: &str) -> Vec<String> {
    let name = servers::unique("restore-reads");
    ["a", "b", "c"]
        .iter()
        .map(|r| format!("{}/{name}-{r}", base.trim_end_matches('/')))
        .collect()
}

/// Three fresh S3 remotes under `dir` of the test bucket, or `None` without an S3 server.
fn three_s3_remotes(dir: &str) -> Option<Vec<String>> {
    if !servers::require("S3", servers::S3_VARS) {
        return None;
    }
    let bucket = servers::var("TANGLE_TEST_S3_BUCKET").expect("bucket");
    Some(three_remotes_under(&format!("s3://{bucket}/{dir}")))
}

/// Three fresh SFTP remotes, or `None` without an SFTP server.
fn three_sftp_remotes() -> Option<Vec<String>> {
    if !servers::require("SFTP", servers::SFTP_VARS) {
        return None;
    }
    Some(three_remotes_under(
        &servers::var("TANGLE_TEST_SFTP_URL").expect("SFTP URL"),
    ))
}

scenario!(
    a_restore_with_prefetching_fetches_each_data_shard_once:
    s3 => || three_s3_remotes("cli-restore-reads"),
    sftp => three_sftp_remotes,
);

fn a_restore_with_prefetching_fetches_each_data_shard_once(
    remotes: impl FnOnce() -> Option<Vec<String>>,
) {
    let Some(urls) = remotes() else {
        return;
    };
    assert_each_shard_fetched_once(&restore_fetches(&Repo::uninit(), &urls), 3);
}

/// The plan is made a segment at a time while the restore runs, so its memory stays
/// bounded however large the restore: with segments of 16 reads (`TANGLE_TEST_PLAN_SEGMENT`,
/// read by the `testing` build the tests run) the restore over S3 adds segment after
/// segment, never has more than a few segments' reads planned ahead, and is identical.
#[test]
fn a_restore_from_s3_plans_its_reads_a_segment_at_a_time() {
    let Some(urls) = three_s3_remotes("cli-restore-segments") else {
        return;
    };
    let repo = Repo::uninit();
    back_up_source(&repo, &urls);
    let restored = restore_and_check(&repo, &urls, &[("TANGLE_TEST_PLAN_SEGMENT", "16")]);
    let line = plan_line(&restored);
    let numbers: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    let [reads, segments, most_ahead, unmade, _unforeseen] = numbers[..] else {
        panic!("read plan line: {line}");
    };
    assert!(reads > 100, "the source makes over 100 shard reads: {line}");
    assert!(segments >= 6, "{line}");
    assert!(most_ahead <= 48, "{line}");
    // Every planned read was made: the planner's own tree reads are not the restore's.
    assert_eq!(unmade, 0, "{line}");
}

/// A remote that serves altered shards while the plan and the prefetcher run: every
/// shard on the second of three SFTP remotes has bytes flipped (the SFTP test server is
/// on this machine, so its directory can be written directly). The restore reads around
/// them (each fails its certified hash and the extent is rebuilt from the others) and
/// is identical, through the lying remote too; so is a `dump` of one file.
#[test]
fn a_restore_with_a_plan_reads_around_a_remote_serving_altered_shards() {
    if !servers::require("SFTP", servers::SFTP_VARS) {
        return;
    }
    let base = servers::var("TANGLE_TEST_SFTP_URL").expect("SFTP URL");
    let urls = three_remotes_under(&base);
    let repo = Repo::uninit();
    back_up_source(&repo, &urls);
    // sftp://USER@HOST:PORT/DIR: DIR is a directory of this machine.
    let dir = |url: &str| {
        let rest = url.trim_start_matches("sftp://");
        PathBuf::from(&rest[rest.find('/').expect("a path in the SFTP URL")..])
    };
    let lying = dir(&urls[1]).join("shards");
    let mut altered = 0;
    for path in files_under(&lying) {
        let mut data = fs::read(&path).expect("shard");
        if data.is_empty() {
            continue;
        }
        let last = data.len() - 1;
        for at in [0, data.len() / 2, last] {
            data[at] ^= 0x5a;
        }
        fs::write(&path, &data).expect("alter shard");
        altered += 1;
    }
    assert!(altered > 10, "only {altered} shards on {}", lying.display());
    // Reads that fail count as made: none of the plan is left standing (16-read
    // segments, so that reads fail in later segments too).
    let segments = [("TANGLE_TEST_PLAN_SEGMENT", "16")];
    for through in [&urls[..], &urls[1..2]] {
        let restored = restore_and_check(&repo, through, &segments);
        let line = plan_line(&restored);
        assert!(line.contains(", 0 never made,"), "{line}");
        fs::remove_dir_all(repo.path("target")).expect("clear target");
    }
    // `dump` plans its reads and prefetches the same way.
    let out = run_ok(
        tangle(&repo.home, &urls[1])
            .args(["dump", "latest"])
            .arg(repo.dir("src").join("c/again.bin")),
    );
    assert!(
        out.stdout == first_file(),
        "dump through the lying remote differs from the file ({} bytes)",
        out.stdout.len()
    );
}

/// Local remotes get no plan (a shard read again comes from the page cache), so this is
/// the cache that gives up its oldest entry: the first file's shards are fetched again.
/// Shows that the shape above does make a cache without a plan fetch again, so the
/// remote tests above can fail.
#[test]
fn a_restore_from_local_remotes_without_a_plan_fetches_shards_again() {
    let repo = Repo::uninit();
    let urls: Vec<String> = (0..3).map(|i| repo.url(i)).collect();
    let Restored { fetched, data, .. } = restore_fetches(&repo, &urls);
    assert!(
        fetched >= data + 3 * SHARD,
        "{fetched} bytes of shards fetched for {data} bytes of data shards"
    );
}

/// A restore with an include pattern asks at every directory whether anything below
/// matches: over S3, with segments of one read (so the plan's walk goes on on its own
/// thread too), the one file at the bottom of a 1,900-level tree (about as deep as a
/// path can go) is restored identically, and in seconds: each question searched the
/// whole subtree again, which took 140 s here (the bound below only catches that
/// quadratic search; it is not a speed target).
#[test]
fn a_restore_with_an_include_pattern_plans_through_the_deepest_tree() {
    let Some(urls) = three_s3_remotes("cli-restore-deep") else {
        return;
    };
    let repo = Repo::uninit();
    let opts = tangle::repo::InitOptions {
        remotes: urls.to_vec(),
        ..small_init_options(EXTENT_SIZE)
    };
    tangle::repo::init(&opts, PASSWORD.as_bytes()).expect("library init");
    let src = repo.dir("src");
    for k in 0..4 {
        write_file(&src.join(format!("top-{k}.bin")), &filler(k));
    }
    let mut bottom = src.clone();
    for _ in 0..1900 {
        bottom.push("d");
    }
    fs::create_dir_all(&bottom).unwrap();
    write_file(&bottom.join("leaf.bin"), &filler(7));
    run_ok(
        tangle(&repo.home, &urls[0])
            .args(["backup", "-q"])
            .arg(&src),
    );
    let target = repo.path("target");
    let started = std::time::Instant::now();
    run_ok(
        tangle(&repo.home, &urls[0])
            .env("TANGLE_TEST_PLAN_SEGMENT", "1")
            .args([
                "restore",
                "-q",
                "latest",
                "--include",
                "leaf.bin",
                "--target",
            ])
            .arg(&target),
    );
    let took = started.elapsed();
    assert_eq!(
        fs::read(restored_path(&target, &bottom.join("leaf.bin"))).unwrap(),
        filler(7)
    );
    assert!(took.as_secs() < 60, "the restore took {took:?}");
}
