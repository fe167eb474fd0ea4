//! Long work draws a progress bar on a terminal and nothing when stderr is not one
//! (cron, pipes, `--json`).

mod common;

use common::*;

/// Run `tangle ARGS` (remote 0, the repository's home) under a pseudo-terminal with
/// `script`, and return everything it drew.
fn on_a_terminal(repo: &Repo, args: &str) -> String {
    let line = format!("{} -r {} {args}", bin(), repo.url(0));
    let out = std::process::Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .env_clear()
        .envs(std::env::vars_os().filter(|(k, _)| k == "PATH"))
        .env("HOME", &repo.home)
        .env("XDG_CACHE_HOME", repo.home.join("cache"))
        .env("TERM", "xterm")
        .env("TANGLE_PASSWORD", PASSWORD)
        .output()
        .expect("script(1) runs");
    assert!(out.status.success(), "{line}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn long_work_shows_a_bar_on_a_terminal_only() {
    let repo = Repo::init();
    let src = repo.dir("src");
    write_file(&src.join("a.bin"), &pseudo_random(1, 24_000_000));
    let first = repo.backup(&[&src], &[]).snapshot_id;
    write_file(&src.join("b.bin"), &pseudo_random(2, 1_000));
    repo.backup(&[&src], &[]);

    let drawn = on_a_terminal(&repo, "verify --read-data");
    assert!(
        drawn.contains("reading") && drawn.contains("extents"),
        "{drawn}"
    );
    let drawn = on_a_terminal(&repo, &format!("delete {first}"));
    assert!(drawn.contains("repacking and re-encoding"), "{drawn}");
    let fourth = repo.path("remote3");
    let drawn = on_a_terminal(&repo, &format!("remote add {}", fourth.display()));
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
