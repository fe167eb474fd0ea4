//! The durability harness (`scripts/durability.sh`, docs/DURABILITY.md) against the
//! binary under test, in its smoke configuration (64 KiB test extents): every layout and
//! damage scenario is measured, stored bytes are measured (and agree with `stats`), the
//! default is compared with the best plain layout, lost data and tree extents are counted
//! apart, some damage loses data (so the comparison of verify with the restores is not
//! vacuous) and verify never disagrees with what the restores show. A second, tiny run
//! with a deliberately wrong manifest checks that the harness does report a disagreement
//! when there is one.

use std::ffi::OsStr;
use std::path::Path;
use std::process::Output;
use std::time::Duration;

use crate::support::command::{bin, clean_command, run_any, stderr_str, stdout_str};
use serde_json::Value;

/// Runs `scripts/durability.sh ARGS --json FILE` with a clean environment and its work
/// directory under `dir`; returns the output and the JSON it wrote.
fn harness(dir: &Path, args: &[&str]) -> (Output, Value) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/durability.sh");
    let json = dir.join("durability.json");
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let mut c = clean_command(OsStr::new("bash"), &[OsStr::new(script)], &dir.join("home"));
    c.env("TANGLE_BIN", bin())
        .args(args)
        .arg("--json")
        .arg(&json)
        .arg("--workdir")
        .arg(&work);
    c.timeout(Duration::from_secs(900));
    let out = run_any(&mut c);
    let text = std::fs::read_to_string(&json).unwrap_or_else(|e| {
        panic!(
            "durability.sh wrote no JSON ({e}); exit {:?}\nstdout:\n{}\nstderr:\n{}",
            out.status.code(),
            stdout_str(&out),
            stderr_str(&out)
        )
    });
    let left: Vec<_> = std::fs::read_dir(&work).unwrap().collect();
    assert!(
        left.is_empty(),
        "the harness left its work directory behind: {left:?}"
    );
    (out, serde_json::from_str(&text).expect("durability JSON"))
}

fn names(v: &Value) -> Vec<String> {
    match v {
        Value::Array(a) => a.iter().map(|x| x.as_str().unwrap().to_string()).collect(),
        Value::Object(o) => o.keys().cloned().collect(),
        _ => panic!("not a list: {v}"),
    }
}

#[test]
fn smoke_run_measures_every_layout_and_verify_agrees_with_restores() {
    let dir = tempfile::tempdir().unwrap();
    let (out, doc) = harness(dir.path(), &["--smoke"]);
    let report = stdout_str(&out);
    let context = format!("stdout:\n{report}\nstderr:\n{}", stderr_str(&out));
    assert_eq!(
        out.status.code(),
        Some(0),
        "durability.sh --smoke failed\n{context}"
    );

    let config = &doc["config"];
    // Layouts per remote count.
    let layouts: Vec<(u64, String)> = config["layouts"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(rc, ls)| {
            let rc: u64 = rc.parse().unwrap();
            ls.as_array()
                .unwrap()
                .iter()
                .map(move |l| (rc, l["name"].as_str().unwrap().to_string()))
        })
        .collect();
    let scenarios = names(&config["scenarios"]);
    let regimes = names(&config["regimes"]);
    let seeds = config["seeds"].as_array().unwrap().len() as u64;
    assert!(
        layouts.len() >= 2 && scenarios.len() >= 2 && regimes.len() >= 2,
        "{config:#}"
    );
    assert!(doc["failures"].as_array().unwrap().is_empty(), "{context}");
    assert_eq!(config["restores"], "on-loss", "{config:#}");

    // Every (regime, remote count, layout, scenario) measured over every seed, and in the
    // report.
    let rows = doc["summary"]["losses"].as_array().unwrap();
    for regime in &regimes {
        for (rc, layout) in &layouts {
            for scenario in &scenarios {
                let row = rows
                    .iter()
                    .find(|r| {
                        r["regime"] == **regime
                            && r["remotes"] == *rc
                            && r["layout"] == **layout
                            && r["scenario"] == **scenario
                    })
                    .unwrap_or_else(|| {
                        panic!("no result for {regime} {rc} {layout} {scenario}\n{context}")
                    });
                assert_eq!(row["runs"], seeds, "{row:#}");
                assert!(
                    report.contains(&format!("| {rc} | {scenario} | {layout} |")),
                    "{scenario} / {layout} missing from the report\n{context}"
                );
            }
            // Stored bytes measured on the remotes, and by `stats`.
            let stored = doc["summary"]["storage"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["regime"] == **regime && s["remotes"] == *rc && s["layout"] == **layout)
                .unwrap_or_else(|| panic!("no stored bytes for {regime} {layout}\n{context}"));
            let shard = stored["shard_bytes"]["mean"].as_f64().unwrap();
            let all = stored["all_bytes"]["mean"].as_f64().unwrap();
            let data = stored["extent_data_bytes"]["mean"].as_f64().unwrap();
            assert!(shard > 0.0 && all >= shard && data > 0.0, "{stored:#}");
            // At least the data itself, at most twice the nominal overhead.
            let overhead = stored["shard_overhead"].as_f64().unwrap();
            let nominal = stored["nominal_overhead"].as_f64().unwrap();
            assert!((1.0..=2.0 * nominal).contains(&overhead), "{stored:#}");
            let stats = stored["stats_overhead"].as_f64().unwrap();
            assert!((stats / overhead - 1.0).abs() < 0.05, "{stored:#}");
        }
        // The default compared with the best plain layout at no more measured bytes, in
        // every scenario.
        for scenario in &scenarios {
            let c = doc["summary"]["comparisons"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["regime"] == **regime && c["scenario"] == **scenario)
                .unwrap_or_else(|| panic!("no comparison for {regime} {scenario}\n{context}"));
            assert!(c["subject_overhead"].as_f64().is_some(), "{c:#}");
        }
    }
    assert!(
        report.contains("against the best plain layout"),
        "no comparison in the report\n{context}"
    );

    // Verify never said OK while a restore failed, and agreed with itself before and
    // after repair.
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(
        runs.len() as u64,
        seeds * (layouts.len() * scenarios.len() * regimes.len()) as u64
    );
    assert!(
        doc["disagreements"].as_array().unwrap().is_empty(),
        "verify and the restores disagreed: {:#}\n{context}",
        doc["disagreements"]
    );
    assert!(
        doc["inconsistencies"].as_array().unwrap().is_empty(),
        "verify before and after repair (or repair) disagreed: {:#}\n{context}",
        doc["inconsistencies"]
    );
    for r in runs {
        // Tree and data extents are counted apart.
        assert_eq!(
            r["lost_extents"].as_u64().unwrap(),
            r["lost_data_extents"].as_u64().unwrap() + r["lost_tree_extents"].as_u64().unwrap(),
            "{r:#}"
        );
        let failed = r["restores"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["identical"] != true);
        assert_eq!(failed, r["lost_snapshots"].as_f64().unwrap() > 0.0, "{r:#}");
        if failed {
            assert_eq!(r["verify_before"]["exit_code"], 21, "{r:#}");
            assert_eq!(r["verify_after"]["exit_code"], 21, "{r:#}");
        }
        // Smoke restores every snapshot where verify reported lost data (`--restores
        // on-loss`); else at least the newest.
        let restored = r["restores"].as_array().unwrap();
        let snapshots = r["snapshots"].as_u64().unwrap() as usize;
        if r["verify_after"]["exit_code"] == 21 {
            assert_eq!(restored.len(), snapshots, "{r:#}");
        } else {
            assert!(
                restored.iter().any(|x| x["index"] == snapshots as u64 - 1),
                "{r:#}"
            );
        }
    }
    // Not vacuous: some damage lost data (plain 4+3 cannot survive a burst over two of
    // three remotes), and some was repaired completely.
    assert!(
        runs.iter()
            .any(|r| r["lost_snapshots"].as_f64().unwrap() > 0.0),
        "no run lost anything\n{context}"
    );
    assert!(
        runs.iter()
            .any(|r| r["shards_gone"].as_u64().unwrap() > 0 && r["lost_extents"] == 0),
        "no damage was repaired\n{context}"
    );

    // A candidate coding measured alone over the same seeds merges with the run above:
    // `--report` then compares it (as `--subject`) with that run's plain layouts.
    let dir2 = tempfile::tempdir().unwrap();
    let (out2, _) = harness(dir2.path(), &["--smoke", "--layouts", "cand=4/3/2"]);
    assert_eq!(out2.status.code(), Some(0), "{}", stderr_str(&out2));
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/durability.sh");
    let merged = run_any(
        clean_command(
            OsStr::new("bash"),
            &[OsStr::new(script)],
            &dir2.path().join("home"),
        )
        .arg("--report")
        .arg(dir.path().join("durability.json"))
        .arg(dir2.path().join("durability.json"))
        .args(["--subject", "cand"]),
    );
    let text = stdout_str(&merged);
    assert_eq!(
        merged.status.code(),
        Some(0),
        "{text}\n{}",
        stderr_str(&merged)
    );
    assert!(
        text.contains("## `cand` against the best plain layout"),
        "{text}"
    );
    // The first run's plain 4+3 is what cand is weighed against: chosen, or named as
    // the nearest when it stored more (in the dailies the tree extents dominate, and a
    // few bytes of tree metadata more or less decide which layout stored less).
    assert!(
        text.lines()
            .any(|l| l.starts_with("| dailies | 3 | burst |") && l.contains("rs4+3")),
        "cand is not compared with the first run's plain 4+3:\n{text}"
    );
}

#[test]
fn harness_reports_a_restore_that_verify_did_not_predict() {
    let dir = tempfile::tempdir().unwrap();
    let (out, doc) = harness(
        dir.path(),
        &[
            "--smoke",
            "--regimes",
            "dailies",
            "--dailies-b",
            "2",
            "--layouts",
            "default=",
            "--scenarios",
            "none",
            "--tamper-manifest",
        ],
    );
    let context = format!(
        "stdout:\n{}\nstderr:\n{}",
        stdout_str(&out),
        stderr_str(&out)
    );
    assert_eq!(out.status.code(), Some(3), "{context}");
    assert_eq!(
        doc["disagreements"].as_array().unwrap().len(),
        1,
        "{context}"
    );
    assert!(
        stdout_str(&out).contains("VERIFY AND RESTORES DISAGREED"),
        "{context}"
    );
}
