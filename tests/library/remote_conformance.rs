//! One conformance suite for every remote backend: local directory, `memory://`,
//! `s3://` and `sftp://`, each opened through `tangle::remote::open(url)` (so the URL
//! dispatch is tested too), plus negative tests for the network backends.
//!
//! The S3 and SFTP tests talk to real servers. `scripts/test-servers.sh start` starts
//! them on 127.0.0.1 and `eval "$(scripts/test-servers.sh env)"` exports:
//!
//! * `AWS_ENDPOINT`, `AWS_ALLOW_HTTP`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
//!   `AWS_DEFAULT_REGION`: the S3 endpoint and credentials (read by the backend itself);
//! * `TANGLE_TEST_S3_BUCKET`: an existing bucket the tests may write to;
//! * `TANGLE_TEST_SFTP_URL`: `sftp://USER@127.0.0.1:PORT/DIR`, a directory the tests may
//!   write to;
//! * `TANGLE_SSH_COMMAND`: `ssh -F CONFIG` (read by the backend: the test key and
//!   known_hosts); `TANGLE_TEST_SSH_CONFIG` that config; `TANGLE_TEST_SSH_KEY` the key;
//! * the second implementation of each protocol: `TANGLE_TEST_MOTO_ENDPOINT` and
//!   `TANGLE_TEST_MOTO_BUCKET` (moto, cases `s3_moto::*`), `TANGLE_TEST_RCLONE_SFTP_URL`
//!   and `TANGLE_TEST_RCLONE_DIR` (`rclone serve sftp`, cases `sftp_rclone::*`).
//!
//! Without them the S3/SFTP tests print a note and pass without testing; when `CI` is
//! set they fail instead, so CI never silently skips them.
//!
//! The SFTP cases also run without any server, as `sftp_server_binary::*`: the "ssh
//! command" is OpenSSH's `sftp-server` run on this machine (restic tests its backend
//! the same way), so the SFTP backend is tested by a plain `cargo test`. They skip, with
//! a note, only where that binary is not installed (and fail in CI).

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use crate::backends::{self, Backend, fixture, pattern};
use crate::shared::servers::{self, runtime, sftp_server, sftp_server_command, var};
use bytes::Bytes;
use tangle::Kind;
use tangle::remote::{CloudRemote, DynRemote, ObjectInfo, Remote, SftpRemote};

/// These tests change remotes directly (the `testing` feature grants it).
const W: tangle::remote::WriteAccess = tangle::remote::WriteAccess::for_tests();

const MIB: usize = 1024 * 1024;

/// Where a case's remote comes from.
#[derive(Clone, Copy)]
enum Source {
    /// The backend's fixture (the test servers for S3 and SFTP).
    Server(Backend),
    /// An SFTP remote served by the `sftp-server` binary, without sshd.
    SftpServerBinary,
}

/// What a case gets: a fresh remote, and what must live as long as it.
pub struct Fixture {
    pub backend: Backend,
    pub url: String,
    pub remote: DynRemote,
    /// The remote's root as a local directory, where the test can reach it.
    pub local_dir: Option<PathBuf>,
    /// The servers' fixture or the temp dir: dropped with the fixture, not before.
    _keep: Box<dyn std::any::Any>,
}

impl Fixture {
    /// Delete everything the test wrote (best effort; the servers' state is temporary).
    pub async fn cleanup(&self) {
        if let Ok(list) = self.remote.list("").await {
            for o in list {
                let _ = self.remote.delete(W, &o.path).await;
            }
        }
    }
}

/// Run one conformance case against one backend (skipped when not configured).
fn run<F, Fut>(source: Source, name: &str, create: bool, case: F)
where
    F: FnOnce(Fixture) -> Fut,
    Fut: Future<Output = ()>,
{
    let rt = runtime();
    rt.block_on(async {
        let f = match source {
            Source::Server(backend) => fixture(backend, name, create).await.map(|f| Fixture {
                backend: f.backend,
                url: f.url.clone(),
                remote: f.remote.clone(),
                local_dir: f.local_dir.clone(),
                _keep: Box::new(f),
            }),
            Source::SftpServerBinary => sftp_server_fixture(create).await,
        };
        let Some(f) = f else {
            return;
        };
        case(f).await;
    });
}

/// A fresh directory served over SFTP by `sftp-server`, as `sftp://localhost/DIR`.
async fn sftp_server_fixture(create: bool) -> Option<Fixture> {
    let bin = sftp_server()?;
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path().join("remote");
    let url = format!("sftp://localhost{}", root.display());
    let remote: DynRemote = Arc::new(
        SftpRemote::open_with_ssh_command(&url, Some(sftp_server_command(bin)))
            .unwrap_or_else(|e| panic!("opening {url}: {e}")),
    );
    if create {
        remote
            .create(W)
            .await
            .unwrap_or_else(|e| panic!("creating {url}: {e}"));
    }
    Some(Fixture {
        backend: Backend::Sftp,
        url,
        remote,
        local_dir: Some(root),
        _keep: Box::new(tmp),
    })
}

macro_rules! conformance {
    ($($case:ident),* $(,)?) => {
        mod local { $( #[test] fn $case() { super::run(super::Source::Server(super::Backend::Local), stringify!($case), true, super::cases::$case) } )* }
        mod memory { $( #[test] fn $case() { super::run(super::Source::Server(super::Backend::Memory), stringify!($case), true, super::cases::$case) } )* }
        mod s3 { $( #[test] fn $case() { super::run(super::Source::Server(super::Backend::S3), stringify!($case), true, super::cases::$case) } )* }
        mod sftp { $( #[test] fn $case() { super::run(super::Source::Server(super::Backend::Sftp), stringify!($case), true, super::cases::$case) } )* }
        mod sftp_server_binary { $( #[test] fn $case() { super::run(super::Source::SftpServerBinary, stringify!($case), true, super::cases::$case) } )* }
        mod s3_moto { $( #[test] fn $case() { super::run(super::Source::Server(super::Backend::S3Moto), stringify!($case), true, super::cases::$case) } )* }
        mod sftp_rclone { $( #[test] fn $case() { super::run(super::Source::Server(super::Backend::SftpRclone), stringify!($case), true, super::cases::$case) } )* }
        mod azure { $( #[test] fn $case() { super::run(super::Source::Server(super::Backend::Azure), stringify!($case), true, super::cases::$case) } )* }
    };
}

conformance!(
    put_get_roundtrip,
    put_replaces,
    ranged_get,
    list_with_prefixes,
    delete_and_list_after_deletion,
    stat_sizes,
    put_new_never_replaces,
    put_once_never_replaces,
    missing_objects_are_not_found,
    large_objects,
    large_objects_read_in_turn,
    concurrent_use,
    temp_files_never_listed,
    bounded_reads_refuse_larger_objects,
    sized_reads_answer_as_bounded_reads,
);

/// exists/create start from a remote that was never created.
macro_rules! fresh {
    ($($backend:ident => $variant:ident),* $(,)?) => {
        mod exists_and_create {
            $( #[test] fn $backend() { super::run(super::Source::Server(super::Backend::$variant), "exists", false, super::cases::exists_and_create) } )*
            #[test] fn sftp_server_binary() { super::run(super::Source::SftpServerBinary, "exists", false, super::cases::exists_and_create) }
        }
    };
}
fresh!(local => Local, memory => Memory, s3 => S3, sftp => Sftp, s3_moto => S3Moto, sftp_rclone => SftpRclone, azure => Azure);

fn paths(list: &[ObjectInfo]) -> Vec<&str> {
    list.iter().map(|o| o.path.as_str()).collect()
}

#[track_caller]
fn assert_kind<T: std::fmt::Debug>(r: tangle::Result<T>, kind: Kind, url: &str) {
    match r {
        Ok(v) => panic!("expected a {kind:?} error, got Ok({v:?})"),
        Err(e) => {
            assert_eq!(e.kind(), kind, "wrong kind for error: {e}");
            assert!(
                e.message().contains(url),
                "the message does not name the remote {url}: {e}"
            );
        }
    }
}

mod cases {
    use super::*;

    /// A read with a bound never returns more: the object is refused as corrupt
    /// (a reader must not be made to hold an oversized object).
    pub async fn bounded_reads_refuse_larger_objects(f: Fixture) {
        let r = &f.remote;
        let data = pattern(10_000, 9);
        r.put(W, "index/big", data.clone()).await.unwrap();
        assert_eq!(r.get_max("index/big", 10_000).await.unwrap(), data);
        let e = r.get_max("index/big", 9_999).await.unwrap_err();
        assert_eq!(e.kind(), tangle::Kind::Corrupt, "{e}");
        assert!(e.to_string().contains("index/big"), "{e}");
        f.cleanup().await;
    }

    /// A read told the size to expect (a shard's, from its certificate) answers as the
    /// read bounded by it: the object when it has that size or less, and an object
    /// larger than that refused (SFTP asks for the bytes without `fstat` first, so a
    /// long or short object must still come out as `get_max` would give it).
    pub async fn sized_reads_answer_as_bounded_reads(f: Fixture) {
        let r = &f.remote;
        let data = pattern(300_000, 4);
        r.put(W, "shards/ab/0", data.clone()).await.unwrap();
        assert_eq!(r.get_sized("shards/ab/0", 300_000).await.unwrap(), data);
        assert_eq!(r.get_sized("shards/ab/0", 300_001).await.unwrap(), data);
        let e = r.get_sized("shards/ab/0", 299_999).await.unwrap_err();
        assert_eq!(e.kind(), tangle::Kind::Corrupt, "{e}");
        assert!(e.to_string().contains("shards/ab/0"), "{e}");
        let e = r.get_sized("shards/ab/1", 300_000).await.unwrap_err();
        assert_eq!(e.kind(), tangle::Kind::NotFound, "{e}");
        // A directory where the object should be (a remote's own mistake or lie) is what
        // a bounded read says it is.
        r.put(W, "shards/cd/0/x", data.slice(..10)).await.unwrap();
        let sized = r.get_sized("shards/cd/0", 300_000).await.map(|b| b.len());
        let bounded = r.get_max("shards/cd/0", 300_000).await.map(|b| b.len());
        match (&sized, &bounded) {
            (Err(a), Err(b)) => assert_eq!(a.kind(), b.kind(), "{a} / {b}"),
            _ => assert_eq!(sized.is_ok(), bounded.is_ok(), "{sized:?} / {bounded:?}"),
        }
        f.cleanup().await;
    }

    pub async fn put_get_roundtrip(f: Fixture) {
        let r = &f.remote;
        assert_eq!(r.url(), f.url);
        let data = pattern(1000, 1);
        r.put(W, "config", data.clone()).await.unwrap();
        assert_eq!(r.get("config").await.unwrap(), data);
        r.put(W, "keys/abc", Bytes::from_static(b"key"))
            .await
            .unwrap();
        assert_eq!(&r.get("keys/abc").await.unwrap()[..], b"key");
        // Empty objects exist and are empty.
        r.put(W, "empty/e", Bytes::new()).await.unwrap();
        assert_eq!(r.get("empty/e").await.unwrap().len(), 0);
        assert_eq!(r.stat("empty/e").await.unwrap().size, 0);
        // Deep paths get their directories created.
        r.put(W, "shards/aa/bb/cc/0", pattern(10, 2)).await.unwrap();
        assert_eq!(r.get("shards/aa/bb/cc/0").await.unwrap(), pattern(10, 2));
        f.cleanup().await;
    }

    pub async fn put_replaces(f: Fixture) {
        let r = &f.remote;
        r.put(W, "heads/w/1", pattern(5000, 1)).await.unwrap();
        r.put(W, "heads/w/1", pattern(17, 2)).await.unwrap();
        assert_eq!(r.get("heads/w/1").await.unwrap(), pattern(17, 2));
        assert_eq!(r.stat("heads/w/1").await.unwrap().size, 17);
        assert_eq!(paths(&r.list("heads").await.unwrap()), ["heads/w/1"]);
        f.cleanup().await;
    }

    pub async fn ranged_get(f: Fixture) {
        let r = &f.remote;
        let data = pattern(1000, 3);
        r.put(W, "obj", data.clone()).await.unwrap();
        for (off, len) in [
            (0, 10),
            (990, 10),
            (0, 1000),
            (123, 456),
            (999, 1),
            (500, 0),
        ] {
            let got = r.get_range("obj", off, len).await.unwrap();
            assert_eq!(
                got,
                data.slice(off as usize..(off + len) as usize),
                "{off}+{len}"
            );
        }
        // Past the end: the object is short, which is corruption, not absence.
        let mut past_end = vec![(995, 10), (1000, 1), (2000, 5), (0, 1001)];
        if f.backend.is_object_store() || f.backend.is_sftp() {
            // offset + len overflows, or is huge (the local and memory backends do not
            // check this).
            past_end.push((u64::MAX, 2));
            // An absurd length must not be allocated up front.
            past_end.push((0, 1 << 40));
        }
        for (off, len) in past_end {
            let e = r.get_range("obj", off, len).await.unwrap_err();
            assert_eq!(e.kind(), Kind::Corrupt, "{off}+{len}: {e}");
        }
        assert_kind(r.get_range("nothing", 0, 1).await, Kind::NotFound, &f.url);
        f.cleanup().await;
    }

    pub async fn list_with_prefixes(f: Fixture) {
        let r = &f.remote;
        for (i, p) in [
            "a/x",
            "a/y/z",
            "ab/w",
            "b",
            "snapshots/abc",
            "snapshots/def",
        ]
        .iter()
        .enumerate()
        {
            r.put(W, p, pattern(i * 10 + 1, i as u64)).await.unwrap();
        }
        assert_eq!(paths(&r.list("a").await.unwrap()), ["a/x", "a/y/z"]);
        assert_eq!(paths(&r.list("a/").await.unwrap()), ["a/x", "a/y/z"]);
        assert_eq!(paths(&r.list("a/y").await.unwrap()), ["a/y/z"]);
        let snaps = r.list("snapshots").await.unwrap();
        assert_eq!(
            snaps,
            vec![
                ObjectInfo {
                    path: "snapshots/abc".into(),
                    size: 41
                },
                ObjectInfo {
                    path: "snapshots/def".into(),
                    size: 51
                },
            ]
        );
        let mut all: Vec<String> = r
            .list("")
            .await
            .unwrap()
            .into_iter()
            .map(|o| o.path)
            .collect();
        all.sort();
        assert_eq!(
            all,
            [
                "a/x",
                "a/y/z",
                "ab/w",
                "b",
                "snapshots/abc",
                "snapshots/def"
            ]
        );
        assert!(r.list("nonexistent").await.unwrap().is_empty());
        f.cleanup().await;
    }

    pub async fn delete_and_list_after_deletion(f: Fixture) {
        let r = &f.remote;
        r.put(W, "x/1", pattern(3, 1)).await.unwrap();
        r.put(W, "x/2", pattern(3, 2)).await.unwrap();
        r.put(W, "x/sub/3", pattern(3, 3)).await.unwrap();
        r.delete(W, "x/1").await.unwrap();
        assert_eq!(paths(&r.list("x").await.unwrap()), ["x/2", "x/sub/3"]);
        assert_kind(r.get("x/1").await, Kind::NotFound, &f.url);
        // Deleting what is not there is fine.
        r.delete(W, "x/1").await.unwrap();
        r.delete(W, "never/was").await.unwrap();
        r.delete(W, "x/sub/3").await.unwrap();
        assert_eq!(paths(&r.list("x").await.unwrap()), ["x/2"]);
        r.delete(W, "x/2").await.unwrap();
        assert!(r.list("x").await.unwrap().is_empty());
        assert!(r.list("").await.unwrap().is_empty());
    }

    pub async fn stat_sizes(f: Fixture) {
        let r = &f.remote;
        r.put(W, "s/one", pattern(12345, 1)).await.unwrap();
        let st = r.stat("s/one").await.unwrap();
        assert_eq!(
            st,
            ObjectInfo {
                path: "s/one".into(),
                size: 12345
            }
        );
        assert_kind(r.stat("s/two").await, Kind::NotFound, &f.url);
        f.cleanup().await;
    }

    /// The create-only write of a writer key's backup: new objects (and directories)
    /// only, an existing one kept, and no temp file left (it writes none).
    pub async fn put_once_never_replaces(f: Fixture) {
        let r = &f.remote;
        assert!(r.put_once(W, "shards/x/0", pattern(3000, 1)).await.unwrap());
        assert!(!r.put_once(W, "shards/x/0", pattern(50, 2)).await.unwrap());
        assert_eq!(r.get("shards/x/0").await.unwrap(), pattern(3000, 1));
        assert!(r.put_once(W, "deep/er/new", pattern(7, 3)).await.unwrap());
        assert_eq!(r.get("deep/er/new").await.unwrap(), pattern(7, 3));
        assert!(r.list_temp().await.unwrap().is_empty());
        f.cleanup().await;
    }

    pub async fn put_new_never_replaces(f: Fixture) {
        let r = &f.remote;
        assert!(r.put_new(W, "locks/a", pattern(100, 1)).await.unwrap());
        assert!(!r.put_new(W, "locks/a", pattern(50, 2)).await.unwrap());
        assert_eq!(r.get("locks/a").await.unwrap(), pattern(100, 1));
        // put_new creates missing directories too.
        assert!(r.put_new(W, "deep/er/new", pattern(7, 3)).await.unwrap());
        r.delete(W, "locks/a").await.unwrap();
        assert!(r.put_new(W, "locks/a", pattern(50, 2)).await.unwrap());
        assert_eq!(r.get("locks/a").await.unwrap(), pattern(50, 2));
        // Racing create-only writes: exactly one wins where the server makes create-only
        // atomic.
        let wins = futures::future::join_all(
            (0..8u64).map(|i| r.put_new(W, "race", pattern(64 * 1024, 100 + i))),
        )
        .await;
        let won: Vec<usize> = wins
            .iter()
            .enumerate()
            .filter(|(_, w)| *w.as_ref().unwrap())
            .map(|(i, _)| i)
            .collect();
        // Atomic create-only needs the server's help: s3s-fs checks `If-None-Match` before
        // writing, not atomically, and rclone has no working hardlink and its rename
        // replaces. There racing writers may all "win"; the object is one whole write.
        // Azurite checks atomically: one winner, as on a local disk.
        if matches!(
            f.backend,
            Backend::S3 | Backend::S3Moto | Backend::SftpRclone
        ) {
            assert!(!won.is_empty(), "{wins:?}");
            let got = r.get("race").await.unwrap();
            assert!(
                won.iter()
                    .any(|i| got == pattern(64 * 1024, 100 + *i as u64)),
                "the object is none of the writes"
            );
        } else {
            assert_eq!(won.len(), 1, "{wins:?}");
            assert_eq!(
                r.get("race").await.unwrap(),
                pattern(64 * 1024, 100 + won[0] as u64)
            );
        }
        assert_eq!(
            paths(&r.list("").await.unwrap()),
            ["deep/er/new", "locks/a", "race"]
        );
        f.cleanup().await;
    }

    pub async fn missing_objects_are_not_found(f: Fixture) {
        let r = &f.remote;
        assert_kind(r.get("config").await, Kind::NotFound, &f.url);
        assert_kind(r.get("no/such/dir/obj").await, Kind::NotFound, &f.url);
        assert_kind(r.stat("config").await, Kind::NotFound, &f.url);
        assert_kind(r.get_range("config", 0, 10).await, Kind::NotFound, &f.url);
        // A "directory" is not an object. (Not on S3, which has no directories; its
        // test server s3s-fs answers 500 for a key that is a directory there.)
        if !f.backend.is_object_store() {
            r.put(W, "dir/obj", pattern(1, 1)).await.unwrap();
            assert!(r.get("dir").await.is_err());
            assert_kind(r.stat("dir").await, Kind::NotFound, &f.url);
        }
        // Invalid object paths are refused, not resolved (the memory backend, a test
        // double, takes any string).
        if f.backend != Backend::Memory {
            for bad in ["", "/abs", "a//b", "../x", "a/./b"] {
                assert!(r.get(bad).await.is_err(), "{bad:?}");
                assert!(r.put(W, bad, Bytes::new()).await.is_err(), "{bad:?}");
            }
        }
        f.cleanup().await;
    }

    pub async fn large_objects(f: Fixture) {
        let r = &f.remote;
        // 20 MiB: above the multipart threshold of the S3 backend, many SFTP requests.
        let big = pattern(20 * MIB + 12345, 7);
        r.put(W, "shards/big/0", big.clone()).await.unwrap();
        assert_eq!(r.stat("shards/big/0").await.unwrap().size, big.len() as u64);
        let got = r.get("shards/big/0").await.unwrap();
        assert!(got == big, "20 MiB object differs after a round trip");
        // A range across an S3 part boundary (8 MiB) and one at the very end.
        let (off, len) = (8 * MIB - 100, 3 * MIB);
        assert_eq!(
            r.get_range("shards/big/0", off as u64, len as u64)
                .await
                .unwrap(),
            big.slice(off..off + len)
        );
        let end = big.len() - 1000;
        assert_eq!(
            r.get_range("shards/big/0", end as u64, 1000).await.unwrap(),
            big.slice(end..)
        );
        // Replacing a large object with a small one and back.
        r.put(W, "shards/big/0", pattern(10, 1)).await.unwrap();
        assert_eq!(r.get("shards/big/0").await.unwrap(), pattern(10, 1));
        assert!(r.put_new(W, "shards/big/1", big.clone()).await.unwrap());
        assert!(r.get("shards/big/1").await.unwrap() == big);
        f.cleanup().await;
    }

    /// Shard-sized objects a few bytes apart in size, read in turn as a restore reads
    /// shards: each read keeps its bytes while later ones are made, and none hands out
    /// bytes of an object read before (the local backend reuses read buffers).
    pub async fn large_objects_read_in_turn(f: Fixture) {
        let r = &f.remote;
        let objects: Vec<Bytes> = (0..5)
            .map(|i| pattern(2 * MIB - 1000 * i, i as u64 + 1))
            .collect();
        for (i, o) in objects.iter().enumerate() {
            r.put(W, &format!("shards/turn/{i}"), o.clone())
                .await
                .unwrap();
        }
        let mut held = Vec::new();
        for round in 0..2 {
            for (i, o) in objects.iter().enumerate() {
                let got = r.get(&format!("shards/turn/{i}")).await.unwrap();
                assert!(got == *o, "object {i} differs (round {round})");
                if (i + round) % 2 == 0 {
                    held.push((i, got.slice(..4096), got.slice(got.len() - 4096..)));
                }
            }
        }
        for (i, head, tail) in held {
            let o = &objects[i];
            assert!(head == o.slice(..4096), "object {i}: a kept view changed");
            assert!(
                tail == o.slice(o.len() - 4096..),
                "object {i}: a kept view changed"
            );
        }
        f.cleanup().await;
    }

    pub async fn concurrent_use(f: Fixture) {
        let r: Arc<dyn Remote> = f.remote.clone();
        let n = 32u64;
        let size = |i: u64| (i as usize * 7919) % (256 * 1024) + 1;
        let puts = (0..n).map(|i| {
            let r = r.clone();
            tokio::spawn(async move { r.put(W, &format!("c/{i:02}"), pattern(size(i), i)).await })
        });
        for p in futures::future::join_all(puts).await {
            p.unwrap().unwrap();
        }
        // Gets, ranged gets, stats and listings all at once.
        let gets = (0..n).map(|i| {
            let r = r.clone();
            tokio::spawn(async move {
                let path = format!("c/{i:02}");
                assert_eq!(r.get(&path).await.unwrap(), pattern(size(i), i), "{path}");
                let len = size(i) as u64;
                let part = r.get_range(&path, len / 2, len - len / 2).await.unwrap();
                assert_eq!(part, pattern(size(i), i).slice((len / 2) as usize..));
                assert_eq!(r.stat(&path).await.unwrap().size, len);
                assert_eq!(r.list("c").await.unwrap().len(), n as usize);
            })
        });
        for g in futures::future::join_all(gets).await {
            g.unwrap();
        }
        // Puts and gets of the same objects interleaved: readers see old or new, whole.
        let mixed = (0..n).map(|i| {
            let r = r.clone();
            tokio::spawn(async move {
                let path = format!("c/{:02}", i % 4);
                if i % 2 == 0 {
                    r.put(W, &path, pattern(size(i), 1000 + i)).await.unwrap();
                } else {
                    let got = r.get(&path).await.unwrap();
                    assert!(!got.is_empty());
                }
            })
        });
        for m in futures::future::join_all(mixed).await {
            m.unwrap();
        }
        assert_eq!(r.list("c").await.unwrap().len(), n as usize);
        f.cleanup().await;
    }

    pub async fn temp_files_never_listed(f: Fixture) {
        let r = &f.remote;
        r.put(W, "snapshots/one", pattern(10, 1)).await.unwrap();
        r.put(W, "top", pattern(10, 2)).await.unwrap();
        if let Some(dir) = &f.local_dir {
            // What an interrupted write leaves behind.
            std::fs::write(dir.join(".tmp-0123456789abcdef"), b"partial").unwrap();
            std::fs::write(dir.join("snapshots/.tmp-fedcba9876543210"), b"partial").unwrap();
        }
        assert_eq!(paths(&r.list("").await.unwrap()), ["snapshots/one", "top"]);
        assert_eq!(
            paths(&r.list("snapshots").await.unwrap()),
            ["snapshots/one"]
        );
        // Writes leave no temp files of their own.
        for i in 0..5 {
            r.put(W, "snapshots/one", pattern(100, i)).await.unwrap();
            r.put_new(W, &format!("snapshots/n{i}"), pattern(10, i))
                .await
                .unwrap();
        }
        if let Some(dir) = &f.local_dir {
            let stray: Vec<_> = std::fs::read_dir(dir.join("snapshots"))
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(".tmp-") && n != ".tmp-fedcba9876543210")
                .collect();
            assert!(stray.is_empty(), "temp files left behind: {stray:?}");
        }
        assert_eq!(r.list("snapshots").await.unwrap().len(), 6);
        // `list_temp` shows them (prune removes them), and `delete` takes them away.
        let temps = r.list_temp().await.unwrap();
        if f.local_dir.is_some() {
            assert_eq!(
                paths(&temps),
                [".tmp-0123456789abcdef", "snapshots/.tmp-fedcba9876543210"]
            );
            assert_eq!(temps[0].size, 7);
            r.delete(W, ".tmp-0123456789abcdef").await.unwrap();
            assert_eq!(
                paths(&r.list_temp().await.unwrap()),
                ["snapshots/.tmp-fedcba9876543210"]
            );
            assert_eq!(r.list("snapshots").await.unwrap().len(), 6);
        } else {
            assert_eq!(paths(&temps), Vec::<&str>::new());
        }
        f.cleanup().await;
    }

    pub async fn exists_and_create(f: Fixture) {
        let r = &f.remote;
        // Directories do not exist before `create`; a bucket (S3) or memory always does.
        let before = f.backend.is_object_store() || f.backend == Backend::Memory;
        assert_eq!(r.exists().await.unwrap(), before, "{}", f.url);
        r.create(W).await.unwrap();
        assert!(r.exists().await.unwrap());
        r.create(W).await.unwrap();
        r.put(W, "config", pattern(5, 5)).await.unwrap();
        assert!(r.exists().await.unwrap());
        f.cleanup().await;
    }
}

// ---------------------------------------------------------------------------------
// URL dispatch and negative tests
// ---------------------------------------------------------------------------------

#[test]
fn bad_urls_are_usage_errors() {
    for url in [
        "s3://",
        "s3:///prefix",
        "sftp://host",
        "sftp://-oProxyCommand=evil/x",
        "sftp://h:notaport/x",
        "ftp://h/x",
    ] {
        match tangle::remote::open(url) {
            Ok(_) => panic!("{url} was accepted"),
            Err(e) => {
                assert_eq!(e.kind(), Kind::Usage, "{url}: {e}");
                assert!(e.message().contains(url), "{url}: {e}");
            }
        }
    }
}

#[test]
fn s3_wrong_secret_is_a_clear_error() {
    if !servers::require("S3", servers::S3_VARS) {
        return;
    }
    let bucket = var("TANGLE_TEST_S3_BUCKET").unwrap();
    let url = format!("s3://{bucket}/wrong-secret");
    let r = CloudRemote::open_s3(&url, &[("AWS_SECRET_ACCESS_KEY", "not-the-secret")]).unwrap();
    runtime().block_on(async {
        for result in [
            r.exists().await.map(|_| ()),
            r.get("config").await.map(|_| ()),
            r.put(W, "x", Bytes::from_static(b"x")).await,
        ] {
            let e = result.expect_err("a wrong secret must fail");
            assert_eq!(e.kind(), Kind::Fatal, "{e}");
            assert!(e.message().contains(&url), "{e}");
            assert!(e.message().contains("access denied"), "{e}");
        }
    });
}

#[test]
fn s3_missing_bucket_is_not_a_repository() {
    if !servers::require("S3", servers::S3_VARS) {
        return;
    }
    let url = format!("s3://{}/p", servers::unique("no-such-bucket"));
    let r = tangle::remote::open(&url).unwrap();
    runtime().block_on(async {
        assert!(
            !r.exists().await.unwrap(),
            "a missing bucket must not exist"
        );
        for e in [
            r.create(W).await.unwrap_err(),
            r.get("config").await.unwrap_err(),
        ] {
            assert_eq!(e.kind(), Kind::Fatal, "{e}");
            assert!(e.message().contains(&url), "{e}");
            assert!(e.message().contains("does not exist"), "{e}");
        }
    });
}

#[test]
fn s3_unreachable_endpoint_is_a_clear_error() {
    if !servers::require("S3", servers::S3_VARS) {
        return;
    }
    let url = "s3://bucket/unreachable";
    let r = CloudRemote::open_s3(url, &[("AWS_ENDPOINT", "http://127.0.0.1:1")]).unwrap();
    let started = std::time::Instant::now();
    let e = runtime().block_on(r.exists()).unwrap_err();
    assert_eq!(e.kind(), Kind::Fatal, "{e}");
    assert!(e.message().contains(url), "{e}");
    assert!(e.message().contains("cannot reach"), "{e}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(90),
        "took {:?}",
        started.elapsed()
    );
}

/// The test servers' SFTP URL with another directory, and a temp dir for ssh files.
fn sftp_negative_setup() -> Option<(String, String, tempfile::TempDir)> {
    if !servers::require("SFTP", servers::SFTP_VARS) {
        return None;
    }
    let base = var("TANGLE_TEST_SFTP_URL").unwrap();
    let key = var("TANGLE_TEST_SSH_KEY").unwrap();
    Some((base, key, tempfile::tempdir().unwrap()))
}

#[test]
fn sftp_unknown_host_key_is_refused() {
    let Some((base, key, tmp)) = sftp_negative_setup() else {
        return;
    };
    let empty = tmp.path().join("known_hosts");
    std::fs::write(&empty, "").unwrap();
    let cfg = backends::write_ssh_config(tmp.path(), &key, &empty);
    let url = format!("{base}/hostkey");
    let r =
        SftpRemote::open_with_ssh_command(&url, Some(format!("ssh -F {}", cfg.display()))).unwrap();
    let e = runtime().block_on(r.exists()).unwrap_err();
    assert_eq!(e.kind(), Kind::Fatal, "{e}");
    assert!(e.message().contains(&url), "{e}");
    assert!(e.message().contains("Host key verification failed"), "{e}");
    assert!(e.message().contains("known_hosts"), "{e}");
}

#[test]
fn sftp_wrong_key_is_refused() {
    let Some((base, _, tmp)) = sftp_negative_setup() else {
        return;
    };
    let other = tmp.path().join("other_key");
    let st = std::process::Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(&other)
        .status()
        .unwrap();
    assert!(st.success());
    let known = var("TANGLE_TEST_SSH_CONFIG")
        .and_then(|c| std::fs::read_to_string(c).ok())
        .and_then(|c| {
            c.lines().find_map(|l| {
                l.trim()
                    .strip_prefix("UserKnownHostsFile ")
                    .map(str::to_string)
            })
        })
        .expect("known_hosts in TANGLE_TEST_SSH_CONFIG");
    let cfg = backends::write_ssh_config(
        tmp.path(),
        &other.to_string_lossy(),
        std::path::Path::new(&known),
    );
    let url = format!("{base}/wrongkey");
    let r =
        SftpRemote::open_with_ssh_command(&url, Some(format!("ssh -F {}", cfg.display()))).unwrap();
    let e = runtime().block_on(r.get("config")).unwrap_err();
    assert_eq!(e.kind(), Kind::Fatal, "{e}");
    assert!(e.message().contains(&url), "{e}");
    assert!(e.message().contains("Permission denied"), "{e}");
}

#[test]
fn sftp_unreachable_port_is_a_clear_error() {
    // Needs only the ssh client, not the test servers.
    if std::process::Command::new("ssh")
        .arg("-V")
        .output()
        .is_err()
    {
        assert!(!servers::in_ci(), "CI is set but there is no ssh client");
        eprintln!("note: skipping: no ssh client");
        return;
    }
    let url = "sftp://nobody@127.0.0.1:1/srv/x";
    let r = SftpRemote::open_with_ssh_command(url, Some("ssh -F /dev/null".into())).unwrap();
    let rt = runtime();
    for e in [
        rt.block_on(r.exists()).unwrap_err(),
        rt.block_on(r.get("config")).unwrap_err(),
    ] {
        assert_eq!(e.kind(), Kind::Fatal, "{e}");
        assert!(e.message().contains(url), "{e}");
        assert!(e.message().contains("Connection refused"), "{e}");
    }
}

#[test]
fn sftp_missing_ssh_program_is_a_clear_error() {
    let url = "sftp://h/srv/x";
    let r = SftpRemote::open_with_ssh_command(url, Some("/nonexistent/tangle-test-ssh".into()))
        .unwrap();
    let e = runtime().block_on(r.exists()).unwrap_err();
    assert_eq!(e.kind(), Kind::Fatal, "{e}");
    assert!(e.message().contains(url), "{e}");
    assert!(e.message().contains("tangle-test-ssh"), "{e}");
}

#[test]
fn sftp_reconnects_after_connection_loss() {
    let Some((base, _, tmp)) = sftp_negative_setup() else {
        return;
    };
    let cfg = var("TANGLE_TEST_SSH_CONFIG").expect("TANGLE_TEST_SSH_CONFIG");
    // A wrapper that records the pid of each ssh it starts (sh execs into ssh).
    let pids = tmp.path().join("pids");
    let cmd = format!("echo $$ >> {}; exec ssh -F {cfg}", pids.display());
    let url = format!("{base}/{}", servers::unique("reconnect"));
    reconnects_after_connection_loss(&url, cmd, &pids);
}

#[test]
fn sftp_server_binary_reconnects_after_connection_loss() {
    let Some(bin) = sftp_server() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    // The outer shell records its pid and execs the inner one, which execs sftp-server.
    let pids = tmp.path().join("pids");
    let cmd = format!(
        "echo $$ >> {}; exec {}",
        pids.display(),
        sftp_server_command(bin)
    );
    let url = format!("sftp://localhost{}", tmp.path().join("remote").display());
    reconnects_after_connection_loss(&url, cmd, &pids);
}

/// Kill the process behind the connection: the next operations reconnect (once).
fn reconnects_after_connection_loss(url: &str, cmd: String, pids: &std::path::Path) {
    let r = SftpRemote::open_with_ssh_command(url, Some(cmd)).unwrap();
    let started = || std::fs::read_to_string(pids).unwrap_or_default();
    let rt = runtime();
    rt.block_on(async {
        r.put(W, "a/b", pattern(1000, 1)).await.unwrap();
        let first = started();
        assert_eq!(first.lines().count(), 1, "one connection for all requests");
        let pid = first.trim();
        let killed = std::process::Command::new("kill")
            .args(["-9", pid])
            .status()
            .unwrap();
        assert!(killed.success());
        // The next operations find the connection dead and reconnect.
        assert_eq!(r.get("a/b").await.unwrap(), pattern(1000, 1));
        r.put(W, "a/c", pattern(10, 2)).await.unwrap();
        assert_eq!(started().lines().count(), 2, "reconnected once");
    });
    // tangle makes a runtime per command; a connection made in a runtime that is gone
    // is replaced too.
    drop(rt);
    runtime().block_on(async {
        assert_eq!(paths(&r.list("a").await.unwrap()), ["a/b", "a/c"]);
        r.delete(W, "a/b").await.unwrap();
        r.delete(W, "a/c").await.unwrap();
    });
}

/// An SFTP server that serves an object that never ends (here `/dev/zero` behind a
/// symlink: its size reads as 0) cannot make a bounded read run on: it stops just past
/// the bound with an error naming the object.
#[test]
fn sftp_server_binary_endless_object_is_refused_at_the_bound() {
    let Some(bin) = sftp_server() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sftp");
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("config")).unwrap();
    let url = format!("sftp://localhost{}", dir.display());
    let settings = tangle::remote::RemoteSettings {
        ssh_command: Some(sftp_server_command(bin)),
        ..Default::default()
    };
    let remote = tangle::remote::open_with(&url, &settings).unwrap();
    let started = std::time::Instant::now();
    let e = runtime()
        .block_on(remote.get_max("config", 1 << 20))
        .unwrap_err();
    assert_eq!(e.kind(), tangle::Kind::Corrupt, "{e}");
    assert!(e.to_string().contains("config"), "{e}");
    // Read as a shard of a known size: the bytes are there, but the object goes on.
    let e = runtime()
        .block_on(remote.get_sized("config", 1 << 16))
        .unwrap_err();
    assert_eq!(e.kind(), tangle::Kind::Corrupt, "{e}");
    assert!(e.to_string().contains("config"), "{e}");
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}
