//! What the criterion benchmarks share (a folder, so that cargo does not take it for a
//! benchmark of its own).

use std::time::Duration;

use criterion::Criterion;

/// Short runs, `samples` samples each: the benchmarks are for comparing, not for
/// nanoseconds.
pub fn config(samples: usize) -> Criterion {
    Criterion::default()
        .sample_size(samples)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .without_plots()
}
