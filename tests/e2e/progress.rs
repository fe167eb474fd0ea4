//! Long work draws a progress bar on a terminal and nothing when stderr is not one
//! (cron, pipes, `--json`).

use crate::shared::files::{pseudo_random, write_file};
use crate::support::command::{run_ok, stderr_str};
use crate::support::repo::Repo;

#[test]
fn long_work_shows_a_bar_on_a_terminal_only() {
    let (repo, src) = Repo::with_source("a.bin", &pseudo_random(1, 24_000_000));
    let first = repo.backup(&[&src], &[]).snapshot_id;
    write_file(&src.join("b.bin"), &pseudo_random(2, 1_000));
    repo.backup(&[&src], &[]);

    let drawn =
        String::from_utf8_lossy(&repo.on_a_terminal("verify --read-data", "xterm")).into_owned();
    assert!(
        drawn.contains("reading") && drawn.contains("extents"),
        "{drawn}"
    );
    let drawn = String::from_utf8_lossy(&repo.on_a_terminal(&format!("delete {first}"), "xterm"))
        .into_owned();
    assert!(drawn.contains("repacking and re-encoding"), "{drawn}");
    let fourth = repo.path("remote3");
    let drawn = String::from_utf8_lossy(
        &repo.on_a_terminal(&format!("remote add {}", fourth.display()), "xterm"),
    )
    .into_owned();
    assert!(drawn.contains("rebalancing"), "{drawn}");

    // Not a terminal: no bar, whatever the command.
    for args in [vec!["verify", "--read-data"], vec!["repair"]] {
        let out = run_ok(repo.cmd().args(&args));
        let err = stderr_str(&out);
        assert!(
            !err.contains("reading") && !err.contains("rebuilding") && !err.contains('\r'),
            "{args:?} drew on a pipe: {err}"
        );
    }
}
