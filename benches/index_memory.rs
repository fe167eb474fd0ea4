//! Memory per blob of the loaded index (issue 37's target: at most 40 bytes, tables and
//! overhead included): the growth of the resident set while a synthetic index of N blobs
//! loads, divided by N. `cargo bench --features testing --bench index_memory [-- N...]`
//! (default 10^6 and 10^7; each N in a fresh process, so one run's freed memory cannot
//! flatter the next).

use std::process::Command;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if let Some(n) = args.first().and_then(|a| a.strip_prefix("child=")) {
        let n: usize = n.parse().expect("child=N");
        let (per_blob, index) = tangle::testing::index_memory::load_synthetic(n);
        println!("{n} {per_blob:.1}");
        drop(index);
        return;
    }
    let counts: Vec<usize> = match args.is_empty() {
        true => vec![1_000_000, 10_000_000],
        false => args
            .iter()
            .map(|a| a.parse().expect("a blob count"))
            .collect(),
    };
    println!("{:>12}  {:>14}", "blobs", "bytes per blob");
    let me = std::env::current_exe().expect("the bench's own path");
    for n in counts {
        let out = Command::new(&me)
            .arg(format!("child={n}"))
            .output()
            .expect("running the measurement");
        let text = String::from_utf8_lossy(&out.stdout);
        let per_blob = text.split_whitespace().nth(1).unwrap_or("?");
        println!("{n:>12}  {per_blob:>14}");
    }
}
