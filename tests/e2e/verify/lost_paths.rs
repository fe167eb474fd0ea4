//! `tangle verify` names what data loss costs: with the password, each `data-lost`
//! finding names the snapshots, the files (and the bytes each loses) and the directories
//! whose listing is lost, in the text and in `--json`; without it, verify says the
//! password is needed and the new fields are null. The exit code stays 21.
//!
//! The repository is plain Reed-Solomon (`pointers 0`: 4 data + 3 parity shards over
//! three remotes), so deleting 4 shards of one extent loses it for good and nothing else
//! is touched. What each case should report is worked out beforehand through the library
//! (every snapshot's trees read with the password, every blob's place from the index).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::sync::Arc;

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{PASSWORD, run_code, stdout_str};
use crate::support::repo::{Client, Repo, medium_chunked_init_options};
use crate::support::report::{
    assert_has_finding, expect_code, finding_kind, run_report, show_findings, verify_findings,
};
use serde_json::Value;
use tangle::content::{BlobId, BlobKind, NodeKind, Tree};
use tangle::extent::Certificate;
use tangle::repo::{Indexed, InitOptions, Repository};

const EXTENT_SIZE: u32 = 256 * 1024;

/// Everything a snapshot holds, as the oracle needs it.
enum Item {
    /// A directory and its tree (the root has path "/").
    Dir { path: String, tree: BlobId },
    File {
        path: String,
        size: u64,
        content: Vec<BlobId>,
    },
}

/// Where a blob lies: extent (hex), offset, stored length, plaintext length.
type Place = (String, u64, u64, u64);

struct Fixture {
    repo: Repo,
    /// (snapshot id, its items), oldest first.
    snaps: Vec<(String, Vec<Item>)>,
    places: BTreeMap<BlobId, Place>,
    certs: Vec<Arc<Certificate>>,
}

/// Two backups of a tree with several files into a `--pointers 0` repository with small
/// extents; the second changes one file and adds a directory, so most of the tree (and
/// its subtrees) is shared by both snapshots.
fn setup() -> Fixture {
    let repo = Repo::uninit();
    let opts = InitOptions {
        pointers: Some(0),
        ..medium_chunked_init_options(&repo, EXTENT_SIZE)
    };
    let r = tangle::repo::init(&opts, PASSWORD.as_bytes()).expect("library init");
    assert_eq!((r.data_shards, r.parity_shards, r.pointers), (4, 3, 0));
    let src = repo.dir("src");
    write_file(&src.join("docs/a.bin"), &pseudo_random(11, 300_000));
    write_file(&src.join("docs/b.bin"), &pseudo_random(12, 200_000));
    write_file(&src.join("photos/c.bin"), &pseudo_random(13, 500_000));
    write_file(&src.join("notes.txt"), b"first version\n");
    write_file(&src.join("sub/deep/d.txt"), &pseudo_random(14, 40_000));
    settle_atimes(&src);
    let r1 = repo.backup(&[&src], &[]);
    assert!(r1.errors.is_empty(), "backup 1: {:?}", r1.errors);
    write_file(&src.join("notes.txt"), b"second version\n");
    write_file(&src.join("more/e.bin"), &pseudo_random(15, 100_000));
    let r2 = repo.backup(&[&src], &[]);
    assert!(r2.errors.is_empty(), "backup 2: {:?}", r2.errors);

    let lib =
        Repository::open(&repo.url(0), Some(repo.path("lib-cache"))).expect("open via library");
    let lib = (lib.unlock_and_load_index(PASSWORD.as_bytes())).expect("unlock via library");
    let certs = lib.load_catalog().expect("certificates");
    let mut places = BTreeMap::new();
    for (id, extent, loc) in lib.index().iter().unwrap() {
        places.insert(
            id,
            (
                extent.hex(),
                u64::from(loc.offset),
                u64::from(loc.length),
                u64::from(loc.raw_len),
            ),
        );
    }
    let snaps = (lib.snapshots().expect("snapshots").into_iter())
        .map(|(id, s)| (id, items(&lib, s.tree)))
        .collect::<Vec<_>>();
    assert_eq!(
        snaps.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>(),
        [r1.snapshot_id, r2.snapshot_id]
    );
    Fixture {
        repo,
        snaps,
        places,
        certs,
    }
}

/// Read every file and list every directory under `dir` once, so that the first backup's
/// reads do not move their access times (relatime updates one only on the first access
/// after a change): the second backup then finds the unchanged subtrees identical, and
/// the snapshots share their trees.
fn settle_atimes(dir: &std::path::Path) {
    for e in fs::read_dir(dir).expect("list a source dir") {
        let p = e.expect("a dir entry").path();
        if p.is_dir() {
            settle_atimes(&p);
        } else {
            fs::read(&p).expect("read a source file");
        }
    }
}

/// Every directory and file under `root`, depth first, with absolute paths.
fn items(lib: &Repository<Indexed>, root: BlobId) -> Vec<Item> {
    let mut out = vec![];
    let mut stack = vec![(String::new(), root)];
    while let Some((path, id)) = stack.pop() {
        let bytes = lib.read_blob(&id, BlobKind::Tree).expect("tree");
        let tree = Tree::from_bytes(&bytes).expect("tree decodes");
        out.push(Item::Dir {
            path: if path.is_empty() {
                "/".into()
            } else {
                path.clone()
            },
            tree: id,
        });
        for n in &tree.nodes {
            let p = format!("{path}/{}", n.name_lossy());
            match (n.kind, n.subtree) {
                (NodeKind::Dir, Some(sub)) => stack.push((p, sub)),
                (NodeKind::File, _) => out.push(Item::File {
                    path: p,
                    size: n.size,
                    content: n.content.clone(),
                }),
                _ => {}
            }
        }
    }
    out
}

/// One entry of a finding's `paths`: (snapshot, path, type, size, lost bytes).
type PathEntry = (String, String, String, Option<u64>, Option<u64>);

/// What one `data-lost` finding should say.
#[derive(Debug, PartialEq)]
struct Expected {
    snapshots: Vec<String>,
    unrestorable: Vec<String>,
    paths: BTreeSet<PathEntry>,
    lost_bytes: u64,
}

impl Fixture {
    fn cert(&self, extent: &str) -> &Certificate {
        (self.certs.iter())
            .find(|c| c.name().hex() == extent)
            .expect("certificate of the extent")
    }

    /// Whether blob `id` touches one of data shards `lost` of `extent` (data shard i
    /// holds bytes [i·shard_size, (i+1)·shard_size) of the extent data).
    fn blob_lost(&self, id: &BlobId, extent: &str, lost: &[usize]) -> bool {
        let Some((e, offset, len, _)) = self.places.get(id) else {
            return false;
        };
        let size = u64::from(self.cert(extent).shard_size);
        e == extent
            && lost
                .iter()
                .any(|&i| *offset < (i as u64 + 1) * size && offset + len > i as u64 * size)
    }

    /// What losing data shards `lost` of `extent` costs, from the snapshots' items.
    fn expected(&self, extent: &str, lost: &[usize]) -> Expected {
        let mut e = Expected {
            snapshots: vec![],
            unrestorable: vec![],
            paths: BTreeSet::new(),
            lost_bytes: 0,
        };
        let mut chunks = BTreeSet::new();
        for (snap, items) in &self.snaps {
            let mut gone: Vec<String> = vec![];
            let under_gone = |p: &str, gone: &[String]| {
                gone.iter()
                    .any(|d| d == "/" || p.starts_with(&format!("{d}/")))
            };
            let before = e.paths.len();
            // Depth first: a directory comes before what it holds.
            for item in items {
                match item {
                    Item::Dir { path, tree } => {
                        if under_gone(path, &gone) || !self.blob_lost(tree, extent, lost) {
                            continue;
                        }
                        if path == "/" {
                            e.unrestorable.push(snap.clone());
                        }
                        gone.push(path.clone());
                        e.paths
                            .insert((snap.clone(), path.clone(), "dir".into(), None, None));
                    }
                    Item::File {
                        path,
                        size,
                        content,
                    } => {
                        if under_gone(path, &gone) {
                            continue;
                        }
                        let hit: Vec<&BlobId> = (content.iter())
                            .filter(|b| self.blob_lost(b, extent, lost))
                            .collect();
                        if hit.is_empty() {
                            continue;
                        }
                        let bytes: u64 = hit.iter().map(|b| self.places[*b].3).sum();
                        chunks.extend(hit);
                        e.paths.insert((
                            snap.clone(),
                            path.clone(),
                            "file".into(),
                            Some(*size),
                            Some(bytes),
                        ));
                    }
                }
            }
            if e.paths.len() > before {
                e.snapshots.push(snap.clone());
            }
        }
        e.lost_bytes = chunks.iter().map(|b| self.places[*b].3).sum();
        e
    }

    /// Delete shards `shards` of `extent` from the remotes that hold them.
    fn delete_shards(&self, extent: &str, shards: &[usize]) {
        let c = self.cert(extent);
        for &i in shards {
            let remote = &self.repo.remotes[c.shards[i].remote as usize];
            fs::remove_file(remote.join(c.name().shard_path(i))).expect("delete a shard");
        }
    }

    /// The file at `suffix` (of snapshot 1), its content and its path.
    fn file(&self, suffix: &str) -> (String, Vec<BlobId>) {
        (self.snaps[0].1.iter())
            .find_map(|i| match i {
                Item::File { path, content, .. } if path.ends_with(suffix) => {
                    Some((path.clone(), content.clone()))
                }
                _ => None,
            })
            .unwrap_or_else(|| panic!("no file {suffix}"))
    }

    fn verify_json(&self, password: bool, what: &str) -> Value {
        let mut c = if password {
            self.repo.cmd_as(Client::via(0))
        } else {
            self.repo.cmd_as(Client::via(0).no_password())
        };
        let (code, v) = run_report(c.args(["verify", "--json"]), what);
        expect_code(code, 21, &v, what);
        v
    }

    fn verify_text(&self, password: bool, extra: &[&str], what: &str) -> String {
        let mut c = if password {
            self.repo.cmd_as(Client::via(0))
        } else {
            self.repo.cmd_as(Client::via(0).no_password())
        };
        let out = run_code(c.arg("verify").args(extra), 21);
        let text = stdout_str(&out);
        assert!(!text.is_empty(), "{what}: no output");
        text
    }
}

/// The one `data-lost` finding of a report, about `extent`.
fn data_lost(v: &Value, extent: &str) -> Value {
    let lost: Vec<Value> = (verify_findings(v).into_iter())
        .filter(|f| finding_kind(f) == "data-lost")
        .collect();
    assert_eq!(
        lost.len(),
        1,
        "one data-lost finding:\n{}",
        show_findings(v)
    );
    assert_eq!(lost[0]["extent"], extent, "{:#}", lost[0]);
    assert_eq!(lost[0]["severity"], "unrecoverable");
    lost[0].clone()
}

/// The finding's new fields, compared with what the oracle expects.
fn assert_names(f: &Value, want: &Expected, what: &str) {
    let strings = |k: &str| -> Vec<String> {
        f[k].as_array()
            .unwrap_or_else(|| panic!("{what}: `{k}` is not an array:\n{f:#}"))
            .iter()
            .map(|s| s.as_str().expect("an id").to_string())
            .collect()
    };
    assert_eq!(
        strings("snapshots"),
        want.snapshots,
        "{what}: snapshots\n{f:#}"
    );
    assert_eq!(
        strings("snapshots_unrestorable"),
        want.unrestorable,
        "{what}: snapshots_unrestorable\n{f:#}"
    );
    let number = |p: &Value, k: &str| -> Option<u64> {
        let v = p
            .get(k)
            .unwrap_or_else(|| panic!("{what}: a path without `{k}`: {p}"));
        assert!(v.is_null() || v.is_u64(), "{what}: `{k}`: {p}");
        v.as_u64()
    };
    let paths: Vec<PathEntry> = (f["paths"].as_array())
        .unwrap_or_else(|| panic!("{what}: `paths` is not an array:\n{f:#}"))
        .iter()
        .map(|p| {
            (
                p["snapshot"].as_str().expect("snapshot").to_string(),
                p["path"].as_str().expect("path").to_string(),
                p["type"].as_str().expect("type").to_string(),
                number(p, "size"),
                number(p, "lost_bytes"),
            )
        })
        .collect();
    let got: BTreeSet<_> = paths.iter().cloned().collect();
    assert_eq!(got.len(), paths.len(), "{what}: a path listed twice\n{f:#}");
    assert_eq!(got, want.paths, "{what}: paths\n{f:#}");
    // Listed per snapshot (oldest first), paths in byte order within one.
    let order: Vec<(usize, &str)> = (paths.iter())
        .map(|p| {
            let s = want.snapshots.iter().position(|s| *s == p.0);
            (s.expect("a listed snapshot"), p.1.as_str())
        })
        .collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted, "{what}: order of paths\n{f:#}");
    assert_eq!(
        f["lost_bytes"], want.lost_bytes,
        "{what}: lost_bytes\n{f:#}"
    );
}

/// When verify cannot name what is lost, the new fields are there, null, and
/// `paths_unknown` says `why`.
fn assert_unknown(f: &Value, why: &str, what: &str) {
    for k in ["snapshots", "snapshots_unrestorable", "paths", "lost_bytes"] {
        let o = f.as_object().expect("a finding object");
        assert!(o.contains_key(k), "{what}: no `{k}`\n{f:#}");
        assert!(f[k].is_null(), "{what}: `{k}` is not null\n{f:#}");
    }
    assert_eq!(f["paths_unknown"], why, "{what}\n{f:#}");
}

/// One data shard of the extent holding part of a file is lost (with three parity
/// shards, so nothing can rebuild it): verify names the snapshots sharing the file, the
/// files whose chunks touch that shard and the bytes each loses; without the password it
/// says the password is needed.
#[test]
fn lost_data_shard_names_snapshots_files_and_bytes() {
    let fx = setup();
    let (c_path, c_content) = fx.file("/photos/c.bin");
    let (extent, offset, _, _) = fx.places[&c_content[0]].clone();
    let shard = (offset / u64::from(fx.cert(&extent).shard_size)) as usize;
    let want = fx.expected(&extent, &[shard]);
    assert_eq!(
        want.snapshots.len(),
        2,
        "c.bin is in both snapshots: {want:?}"
    );
    assert!(want.unrestorable.is_empty(), "{want:?}");
    assert!(
        want.paths.iter().all(|p| p.2 == "file"),
        "the extent holds data only: {want:?}"
    );
    fx.delete_shards(&extent, &[shard, 4, 5, 6]);

    let what = "verify --json with the password";
    let v = fx.verify_json(true, what);
    let f = data_lost(&v, &extent);
    assert_names(&f, &want, what);
    assert!(
        (f["paths"].as_array().unwrap().iter())
            .any(|p| p["path"] == c_path.as_str() && p["snapshot"] == want.snapshots[0]),
        "{what}: c.bin is not named:\n{f:#}"
    );
    // The finding keeps its old keys and meaning.
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("1 of 4 data shards")
    );

    let what = "verify with the password";
    let text = fx.verify_text(true, &[], what);
    let files: BTreeSet<&str> = want.paths.iter().map(|p| p.1.as_str()).collect();
    let summary = format!(
        "lost: {} file{} (",
        files.len(),
        if files.len() == 1 { "" } else { "s" }
    );
    assert!(text.contains(&summary), "{what}: no `{summary}`:\n{text}");
    assert!(text.contains("in 2 snapshots: "), "{what}:\n{text}");
    for s in &want.snapshots {
        assert!(
            text.contains(&s[..8]),
            "{what}: snapshot {s} not named:\n{text}"
        );
    }
    for p in &files {
        assert!(
            text.contains(&format!("    {p}: ")),
            "{what}: {p} not named:\n{text}"
        );
    }
    assert!(!text.contains("needs the password"), "{what}:\n{text}");
    // -q still names them: they are the damage.
    let quiet = fx.verify_text(true, &["-q"], "verify -q");
    assert!(
        quiet.contains(&format!("    {c_path}: ")),
        "verify -q:\n{quiet}"
    );

    let what = "verify --json without the password";
    let v = fx.verify_json(false, what);
    assert_unknown(&data_lost(&v, &extent), "no-password", what);
    let what = "verify without the password";
    let text = fx.verify_text(false, &[], what);
    let needs: Vec<&str> = (text.lines())
        .filter(|l| l.contains("needs the password"))
        .collect();
    assert_eq!(needs.len(), 1, "{what}: one line says so:\n{text}");
    assert!(!text.contains(&c_path), "{what}:\n{text}");
    assert!(text.contains("data loss found"), "{what}:\n{text}");
}

/// The extent holding the first snapshot's root tree is lost whole: that snapshot cannot
/// be restored at all, and the second, which shares the unchanged subtrees, loses those
/// directories whole.
#[test]
fn lost_tree_makes_the_snapshot_unrestorable() {
    let fx = setup();
    let (first, items) = &fx.snaps[0];
    let Some(Item::Dir { tree: root, .. }) = items.first() else {
        panic!("no root tree");
    };
    let extent = fx.places[root].0.clone();
    // Trees are 4 data + 12 parity shards: 13 go, the four data shards among them.
    let cert = fx.cert(&extent);
    assert_eq!(
        (cert.data_shards, cert.parity_shards),
        (4, 12),
        "a tree extent"
    );
    let want = fx.expected(&extent, &[0, 1, 2, 3]);
    assert_eq!(want.unrestorable, std::slice::from_ref(first), "{want:?}");
    assert!(
        (want.paths.iter()).any(|p| p.0 == fx.snaps[1].0 && p.2 == "dir"),
        "the second snapshot shares lost subtrees: {want:?}"
    );
    fx.delete_shards(&extent, &(0..13).collect::<Vec<_>>());

    let what = "verify --json with the password, a tree extent lost";
    let v = fx.verify_json(true, what);
    assert_names(&data_lost(&v, &extent), &want, what);
    // The walk's own finding stays.
    assert_has_finding(&v, "snapshot-incomplete", what);

    let what = "verify with the password, a tree extent lost";
    let text = fx.verify_text(true, &[], what);
    let line = (text.lines())
        .find(|l| l.contains("cannot be restored at all"))
        .unwrap_or_else(|| panic!("{what}: no unrestorable line:\n{text}"));
    assert!(line.contains(&first[..8]), "{what}: {line}");
    let dir = (want.paths.iter())
        .find(|p| p.2 == "dir" && p.1 != "/")
        .expect("a lost subdirectory");
    assert!(
        text.contains(&format!(
            "    {}: directory listing lost, nothing under it can be restored",
            dir.1
        )),
        "{what}: {} not named:\n{text}",
        dir.1
    );

    let v = fx.verify_json(false, "verify --json without the password");
    assert_unknown(
        &data_lost(&v, &extent),
        "no-password",
        "without the password",
    );
}

/// The index segments are lost as well (on every remote): with the password, verify
/// cannot know what the lost extent held, and says so instead of naming nothing.
#[test]
fn lost_index_leaves_the_loss_unnamed() {
    let fx = setup();
    let (_, c_content) = fx.file("/photos/c.bin");
    let extent = fx.places[&c_content[0]].0.clone();
    fx.delete_shards(&extent, &[0, 1, 2, 3]);
    for r in &fx.repo.remotes {
        fs::remove_dir_all(r.join("index")).expect("remove the index segments");
    }
    let what = "verify --json with the password, index lost";
    let v = fx.verify_json(true, what);
    assert_unknown(&data_lost(&v, &extent), "not-indexed", what);
    let what = "verify with the password, index lost";
    let text = fx.verify_text(true, &[], what);
    assert!(
        text.contains("what it held is unknown: no index segment names this extent"),
        "{what}:\n{text}"
    );
    assert!(!text.contains("needs the password"), "{what}:\n{text}");
}
