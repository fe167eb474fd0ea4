//! Records the target triple for `tangle version` (cargo gives it to build scripts only).

fn main() {
    let target = std::env::var("TARGET").unwrap_or_else(|_| "unknown".to_string());
    println!("cargo:rustc-env=TANGLE_TARGET={target}");
    println!("cargo:rerun-if-changed=build.rs");
}
