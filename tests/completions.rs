//! The shell completions shipped in `completions/` match what the binary generates, so
//! they cannot silently fall behind the command line.

use assert_cmd::Command;

#[test]
fn shipped_completions_are_current() {
    for shell in ["bash", "zsh", "fish"] {
        let generated = Command::cargo_bin("tangle")
            .unwrap()
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(
            generated.status.success(),
            "tangle completions {shell} failed"
        );
        let path = format!("{}/completions/tangle.{shell}", env!("CARGO_MANIFEST_DIR"));
        let shipped = std::fs::read(&path).unwrap_or_default();
        assert!(
            shipped == generated.stdout,
            "{path} is out of date: run `tangle completions {shell} > completions/tangle.{shell}`"
        );
    }
}
