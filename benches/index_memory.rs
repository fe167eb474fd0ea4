//! Memory per blob of the loaded index (issue 37's target: at most 40 bytes, tables and
//! overhead included): the growth of the resident set while a synthetic index of N blobs
//! loads, divided by N, and the growth of the peak resident set while it loads.
//! `cargo bench --features testing --bench index_memory [-- N...]` (default 10^6 and
//! 10^7; each N in a fresh process, so one run's freed memory cannot flatter the next).
//! The ids' last bytes go to a file in a directory under `TMPDIR` (default `/var/tmp`,
//! a disk here, as a repository's cache directory would be), or to memory with
//! `-- memory N...`.

use std::process::Command;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if let Some(n) = args.first().and_then(|a| a.strip_prefix("child=")) {
        let n: usize = n.parse().expect("child=N");
        let dir = match args.get(1).map(String::as_str) {
            Some("memory") => None,
            _ => Some(tempdir()),
        };
        let loaded = tangle::testing::index_memory::load_synthetic(n, dir.clone());
        println!("{n} {:.1} {:.1}", loaded.per_blob, loaded.peak_per_blob);
        drop(loaded);
        if let Some(dir) = dir {
            let _ = std::fs::remove_dir_all(dir);
        }
        return;
    }
    let memory = args.first().is_some_and(|a| a == "memory");
    let counts: Vec<usize> = match args.iter().filter(|a| *a != "memory").count() {
        0 => vec![1_000_000, 10_000_000],
        _ => (args.iter().filter(|a| *a != "memory"))
            .map(|a| a.parse().expect("a blob count"))
            .collect(),
    };
    let tails = if memory { "memory" } else { "file" };
    println!("id tails in: {tails}");
    println!(
        "{:>12}  {:>14}  {:>19}",
        "blobs", "bytes per blob", "peak bytes per blob"
    );
    let me = std::env::current_exe().expect("the bench's own path");
    for n in counts {
        let out = Command::new(&me)
            .arg(format!("child={n}"))
            .arg(tails)
            .output()
            .expect("running the measurement");
        let text = String::from_utf8_lossy(&out.stdout);
        let mut fields = text.split_whitespace().skip(1);
        let per_blob = fields.next().unwrap_or("?");
        let peak = fields.next().unwrap_or("?");
        println!("{n:>12}  {per_blob:>14}  {peak:>19}");
    }
}

/// A fresh directory for the ids' tails, on the disk `TMPDIR` (else `/var/tmp`) is on.
fn tempdir() -> std::path::PathBuf {
    let base = std::env::var_os("TMPDIR").map_or("/var/tmp".into(), std::path::PathBuf::from);
    let dir = base.join(format!("tangle-index-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory for the ids' tails");
    dir
}
