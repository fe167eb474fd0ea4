//! A progress bar on stderr, drawn from an operation's live counters.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use tangle::ops::Progress;

pub struct Bar {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Bar {
    /// Start drawing if `enabled`; `verb` is e.g. "backing up".
    pub fn start(enabled: bool, progress: Arc<Progress>, verb: &'static str) -> Bar {
        Bar::counting(enabled, progress, verb, "files")
    }

    /// [`start`](Self::start) for work counted in `unit` (e.g. "extents") and bytes.
    pub fn counting(
        enabled: bool,
        progress: Arc<Progress>,
        verb: &'static str,
        unit: &'static str,
    ) -> Bar {
        let stop = Arc::new(AtomicBool::new(false));
        if !enabled {
            return Bar { stop, thread: None };
        }
        let stop2 = stop.clone();
        let thread = std::thread::spawn(move || {
            let bar = ProgressBar::new(0);
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} {prefix} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {bytes_per_sec} ETA {eta} {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.set_prefix(verb);
            while !stop2.load(Ordering::Relaxed) {
                let total = Progress::get(&progress.bytes_total);
                bar.set_length(total.max(Progress::get(&progress.bytes_done)));
                bar.set_position(Progress::get(&progress.bytes_done));
                let files_total = Progress::get(&progress.files_total);
                let suffix = if progress.totals_known.load(Ordering::Relaxed) {
                    ""
                } else {
                    "+"
                };
                let waiting = match Progress::get(&progress.waiting_for_remote) {
                    0 => String::new(),
                    r => progress
                        .remote_urls
                        .get()
                        .and_then(|urls| urls.get(r as usize - 1))
                        .map(|url| format!(" (waiting for {url})"))
                        .unwrap_or_default(),
                };
                bar.set_message(format!(
                    "{}/{files_total}{suffix} {unit}{waiting}",
                    Progress::get(&progress.files_done)
                ));
                std::thread::sleep(Duration::from_millis(100));
            }
            bar.finish_and_clear();
        });
        Bar {
            stop,
            thread: Some(thread),
        }
    }

    pub fn finish(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
