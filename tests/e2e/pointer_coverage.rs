//! Pointer coverage through the binary: a repository built by a full backup and 20 small
//! incremental backups reports in `verify --json` (and `verify -v`) the pointer coverage
//! the simulation model predicts for a history of the same extents — within 10%. The
//! backups count the pointers of earlier runs from the certificates, so the small
//! extents of later runs still find shards nothing points at yet.
//!
//! The repository is created through the library with small extents (128 KiB) so that a
//! few MiB give dozens of extents; everything else runs the binary. The prediction reads
//! the extents' sizes from their certificates and replays the real chooser over them in
//! the model of `entanglement_model` (many seeds, averaged).

use crate::entanglement_model::{Extent, History, Layout};
use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{PASSWORD, run_ok, stdout_str};
use crate::support::fsutil::MIB;
use crate::support::repo::{Client, Repo, fine_chunked_init_options};
use crate::support::report::run_json;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::Value;
use tangle::repo::{InitOptions, Repository};

const EXTENT_SIZE: u32 = 128 * 1024;
const REMOTES: usize = 3;
const INCREMENTALS: u64 = 20;
/// Model runs averaged for the prediction.
const PREDICTION_SEEDS: u64 = 300;

/// A full backup of 16 MiB (about 130 extents), then 20 backups that each add one
/// file of 1 to about 80 KiB (one small extent each).
fn build() -> Repo {
    let repo = Repo::uninit();
    // Today's default coding (the helper's is the 4+3 most tests assume).
    let opts = InitOptions {
        data_shards: None,
        parity_shards: None,
        pointers: None,
        ..fine_chunked_init_options(&repo, EXTENT_SIZE)
    };
    let r = tangle::repo::init(&opts, PASSWORD.as_bytes()).expect("library init");
    let d = Layout::default_for(REMOTES);
    assert_eq!(
        (
            r.data_shards as usize,
            r.parity_shards as usize,
            r.pointers as usize
        ),
        (d.s, d.p, d.t)
    );
    let src = repo.dir("src");
    for i in 0..8 {
        write_file(
            &src.join(format!("full/{i}.bin")),
            &pseudo_random(i, 2 * MIB as usize),
        );
    }
    let full = repo.backup(&[&src], &[]);
    assert!(full.errors.is_empty(), "{:?}", full.errors);
    assert!(
        full.json["extents"].as_u64().unwrap_or(0) >= 120,
        "full backup: {:#}",
        full.json
    );
    for k in 0..INCREMENTALS {
        // Sizes spread over two orders of magnitude, deterministic.
        let len = (1024.0 * 2f64.powf((k * 7 % 20) as f64 * 6.6 / 20.0)) as usize;
        write_file(
            &src.join(format!("incremental/{k}.bin")),
            &pseudo_random(1000 + k, len),
        );
        let r = repo.backup(&[&src], &[]);
        // One data extent, and trees apart (4 + 12 shards): one or two extents.
        let n = r.json["extents"].as_u64().unwrap_or(0);
        assert!((2..=3).contains(&n), "incremental {k}: {:#}", r.json);
    }
    repo
}

/// What the model predicts for this repository's extents: (share of data shards pointed
/// at, per remote the share of extents keeping a spare when it is lost).
fn predict(repo: &Repo) -> (f64, Vec<f64>) {
    let lib = Repository::open(repo.url(0).as_str(), Some(repo.path("lib-cache")))
        .expect("open through the library");
    let mut certs = lib.load_catalog().expect("certificates");
    // One chain (each run continues the previous run's): the model places extent i as
    // sequence number i.
    certs.sort_by_key(|c| c.seq);
    for (i, c) in certs.iter().enumerate() {
        assert_eq!(c.seq, i as u64, "not one chain");
    }
    let extents: Vec<Extent> = (certs.iter())
        .map(|c| match c.data_shards {
            1 => Extent::Tree(c.size as usize),
            _ => Extent::Data(c.size as usize),
        })
        .collect();
    let layout = Layout::default_for(REMOTES);
    let mut coverage = 0.0;
    let mut spare = [0.0; REMOTES];
    for seed in 0..PREDICTION_SEEDS {
        let h = History::build_mixed(layout, &extents, &mut StdRng::seed_from_u64(seed));
        coverage += h.coverage();
        for (r, s) in spare.iter_mut().enumerate() {
            *s += h.spare_without(r);
        }
    }
    let n = PREDICTION_SEEDS as f64;
    (coverage / n, spare.iter().map(|s| s / n).collect())
}

fn within_10_percent(what: &str, got: f64, predicted: f64, report: &Value) {
    assert!(
        (got - predicted).abs() <= 0.1 * predicted,
        "{what}: verify reports {got:.4}, the model predicts {predicted:.4}\n{report:#}"
    );
}

#[test]
fn full_backup_and_small_incrementals_reach_the_predicted_coverage() {
    let repo = build();
    let (code, v, _) = run_json(
        repo.cmd_as(Client::via(0).no_password())
            .arg("verify")
            .arg("--json"),
        "verify --json",
    );
    assert_eq!(code, 0, "{v:#}");
    let c = &v["pointer_coverage"];
    let extents = v["extents"].as_u64().expect("extents");
    // Tree extents (one or two per backup) are never pointed at, and not counted.
    let s = Layout::default_for(REMOTES).s as u64;
    let data_shards = c["data_shards"].as_u64().expect("data_shards");
    assert_eq!(data_shards % s, 0, "{v:#}");
    let data_extents = data_shards / s;
    assert!(
        (extents - 2 * (INCREMENTALS + 1)..=extents - (INCREMENTALS + 1)).contains(&data_extents),
        "{data_extents} data extents of {extents}\n{v:#}"
    );
    let pointed = c["pointed"].as_u64().expect("pointed");
    let share = c["share"].as_f64().expect("share");
    assert!(
        (share - pointed as f64 / (data_extents * s) as f64).abs() < 1e-9,
        "{c:#}"
    );
    let (coverage, spare) = predict(&repo);
    println!(
        "{extents} extents: coverage {share:.4} (predicted {coverage:.4}); spare {:?} (predicted {spare:?})",
        c["spare_after_losing"]
    );
    // Nearly every pointer is a different shard (t = s/2 per extent), far above what
    // choosing extents at random gave (about 0.3).
    assert!(coverage > 0.4, "prediction {coverage}");
    within_10_percent("share of data shards pointed at", share, coverage, &v);
    let per_remote = c["spare_after_losing"]
        .as_array()
        .expect("spare_after_losing");
    assert_eq!(per_remote.len(), 3, "{c:#}");
    for (r, s) in per_remote.iter().enumerate() {
        assert_eq!(s["remote"].as_str(), Some(repo.url(r).as_str()), "{c:#}");
        assert_eq!(s["extents"].as_u64(), Some(extents), "{c:#}");
        let got = s["share"].as_f64().expect("share");
        within_10_percent(
            &format!("extents keeping a spare without remote {r}"),
            got,
            spare[r],
            &v,
        );
    }

    // Storage: what init printed, plus a little for the trees' parity and padding.
    let st = &v["storage"];
    let (overhead, coding) = (
        st["overhead"].as_f64().expect("overhead"),
        st["coding_overhead"].as_f64().expect("coding_overhead"),
    );
    assert_eq!(coding, 1.75, "{st:#}");
    assert!((coding..coding * 1.1).contains(&overhead), "{st:#}");
    // File data alone stores what init printed, within 2% (padding of the small
    // incrementals' shards to 64 bytes); trees 4x or a little more (padding).
    let (data, trees) = (&st["file_data"], &st["trees"]);
    let data_overhead = data["overhead"].as_f64().expect("file_data.overhead");
    assert!((coding..coding * 1.02).contains(&data_overhead), "{st:#}");
    let tree_overhead = trees["overhead"].as_f64().expect("trees.overhead");
    assert!((4.0..5.0).contains(&tree_overhead), "{st:#}");
    assert_eq!(
        data["extents"].as_u64().unwrap() + trees["extents"].as_u64().unwrap(),
        extents,
        "{st:#}"
    );
    assert_eq!(
        data["shard_bytes"].as_u64().unwrap() + trees["shard_bytes"].as_u64().unwrap(),
        st["shard_bytes"].as_u64().unwrap(),
        "{st:#}"
    );
    // stats reports the same split.
    let (code, stats, _) = run_json(repo.cmd().arg("stats").arg("--json"), "stats --json");
    assert_eq!(code, 0, "{stats:#}");
    assert_eq!(
        &stats["repository"]["storage"], st,
        "stats and verify differ"
    );

    // The same numbers as one line of `verify -v`, and not without -v.
    let out = run_ok(
        repo.cmd_as(Client::via(0).no_password())
            .arg("verify")
            .arg("-v"),
    );
    let text = stdout_str(&out);
    let line = format!(
        "pointer coverage: {:.1}% of data shards ({pointed} of {})",
        share * 100.0,
        data_extents * s
    );
    assert!(text.contains(&line), "no {line:?} in verify -v:\n{text}");
    assert!(
        text.contains(&format!("without {}", repo.url(2))),
        "verify -v names the remotes:\n{text}"
    );
    let line = format!("storage: shards hold {overhead:.3}x the extent data");
    assert!(text.contains(&line), "no {line:?} in verify -v:\n{text}");
    let out = run_ok(repo.cmd_as(Client::via(0).no_password()).arg("verify"));
    assert!(
        !stdout_str(&out).contains("pointer coverage"),
        "plain verify stays short:\n{}",
        stdout_str(&out)
    );
}
