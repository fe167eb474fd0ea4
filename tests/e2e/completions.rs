//! The shell completions shipped in `completions/` and the man pages in `docs/man/` match
//! what the binary generates, so they cannot silently fall behind the command line.

use assert_cmd::Command;

#[test]
fn shipped_completions_are_current() {
    for (shell, file) in [
        ("bash", "tangle.bash"),
        ("zsh", "tangle.zsh"),
        ("fish", "tangle.fish"),
        ("elvish", "tangle.elvish"),
        ("powershell", "tangle.ps1"),
    ] {
        let generated = Command::cargo_bin("tangle")
            .unwrap()
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(
            generated.status.success(),
            "tangle completions {shell} failed"
        );
        let path = format!("{}/completions/{file}", env!("CARGO_MANIFEST_DIR"));
        let shipped = std::fs::read(&path).unwrap_or_default();
        assert!(
            shipped == generated.stdout,
            "{path} is out of date: run `tangle completions {shell} > completions/{file}`"
        );
    }
}

#[test]
fn shipped_man_pages_are_current() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("tangle")
        .unwrap()
        .arg("man")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "tangle man failed: {out:?}");
    let shipped_dir = format!("{}/docs/man", env!("CARGO_MANIFEST_DIR"));
    let list = |d: &std::path::Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(d)
            .map(|r| {
                r.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    };
    let generated = list(dir.path());
    assert!(generated.len() > 20, "{generated:?}");
    let fix = "run `rm docs/man/*; tangle man docs/man`";
    assert_eq!(
        list(std::path::Path::new(&shipped_dir)),
        generated,
        "docs/man/ lists other pages than the binary makes: {fix}"
    );
    for name in generated {
        let shipped = std::fs::read(format!("{shipped_dir}/{name}")).unwrap_or_default();
        let made = std::fs::read(dir.path().join(&name)).unwrap();
        assert!(shipped == made, "docs/man/{name} is out of date: {fix}");
    }
}
