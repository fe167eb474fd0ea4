//! `--limit-upload` / `--limit-download` (KiB/s, the whole process, as restic's), and
//! their profile keys. Checked by lower bounds only: a limit makes a transfer take at
//! least its bytes over the rate; how fast it is otherwise is the benchmarks' business.

use std::time::Instant;

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{run_code, run_code_saying, run_ok, stderr_str};
use crate::support::repo::{Client, Repo, restored_path};

#[test]
fn limits_slow_uploads_and_downloads_to_their_rate() {
    let repo = Repo::init();
    let src = repo.dir("src");
    // 1.5 MiB of random data: stored with 4+3 on three remotes, about 2.6 MiB go up.
    write_file(&src.join("r.bin"), &pseudo_random(3, 3 << 19));
    let t = Instant::now();
    run_ok(
        repo.cmd()
            .args(["backup", "-q", "--limit-upload", "512"])
            .arg(&src),
    );
    let up = t.elapsed().as_secs_f64();
    // A one-second burst, then 512 KiB/s: at least 2.6 MiB / 0.5 MiB/s - 1 s.
    assert!(up >= 3.0, "a backup of 2.6 MiB at 512 KiB/s took {up:.1} s");

    let target = repo.path("restored");
    let t = Instant::now();
    run_ok(
        repo.cmd()
            .args(["restore", "latest", "--limit-download", "256", "--target"])
            .arg(&target),
    );
    let down = t.elapsed().as_secs_f64();
    // At least the 1.5 MiB of data shards (fewer than all) at 256 KiB/s, less the burst.
    assert!(
        down >= 4.0,
        "a restore of 1.5 MiB at 256 KiB/s took {down:.1} s"
    );
    let restored = std::fs::read(restored_path(&target, &src).join("r.bin")).unwrap();
    assert!(restored == pseudo_random(3, 3 << 19), "the restore differs");
}

#[test]
fn bad_limits_are_refused_and_profiles_may_set_them() {
    let repo = Repo::init();
    let profile = repo.home.join("config/tangle/lim.toml");
    let urls: Vec<String> = (0..3).map(|i| format!("{:?}", repo.url(i))).collect();
    write_file(
        &profile,
        format!(
            "[repository]\nremotes = [{}]\nlimit-upload = 64\n",
            urls.join(", ")
        )
        .as_bytes(),
    );
    let out = run_ok(
        repo.cmd_as(Client::no_repo())
            .args(["-P", "lim", "profile", "show", "--json"]),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let row = &v["settings"]["repository"]["limit-upload"];
    assert_eq!(
        (row["value"].as_u64(), row["source"].as_str()),
        (Some(64), Some("profile")),
        "{v:#}"
    );
    let row = &v["settings"]["repository"]["limit-download"];
    assert_eq!(row["value"], serde_json::Value::Null, "{v:#}");
    // The flag beats the profile.
    let out = run_ok(repo.cmd_as(Client::no_repo()).args([
        "-P",
        "lim",
        "--limit-upload",
        "9",
        "profile",
        "show",
        "--json",
    ]));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["settings"]["repository"]["limit-upload"]["value"], 9,
        "{v:#}"
    );

    for bad in ["0", "fast", "1.5", "99999999999999999999"] {
        let out = run_code(repo.cmd().args(["snapshots", "--limit-upload", bad]), 1);
        assert!(
            stderr_str(&out).contains("--limit-upload"),
            "{bad}: {}",
            stderr_str(&out)
        );
    }
    run_code_saying(
        repo.cmd()
            .env("TANGLE_LIMIT_DOWNLOAD", "0")
            .arg("snapshots"),
        1,
        "0 would move nothing",
    );
}
