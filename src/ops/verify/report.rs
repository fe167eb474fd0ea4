//! verify's own report: the findings and numbers of one run, and what
//! `--read-data-subset` read. Like the findings (`ops/analysis/finding.rs`), part of
//! `verify --json`: keys and values only ever gain members.

use serde::Serialize;

use super::{Finding, PointerCoverage, Storage};

#[derive(Serialize, Debug, Default)]
pub struct VerifyReport {
    pub remotes: Vec<String>,
    /// Fingerprint of the owner key everything was checked against (pin it in CI with
    /// `--owner`).
    pub owner_fingerprint: String,
    pub extents: usize,
    pub shards: usize,
    pub shards_read: u64,
    pub bytes_read: u64,
    pub snapshots_checked: usize,
    pub subset: Option<SubsetReport>,
    pub findings: Vec<Finding>,
    pub exit_code: u8,
    /// Pointer coverage of the committed extents.
    pub pointer_coverage: PointerCoverage,
    /// What the committed extents store, from their certificates.
    pub storage: Storage,
}

/// What `--read-data-subset` asked for and what it read.
#[derive(Serialize, Debug)]
pub struct SubsetReport {
    /// The share of the extents asked for, in percent: `P` of `P%`, `100 / t` of `n/t`,
    /// and of a size the share of all shard bytes it makes (at most 100).
    pub percent: f64,
    /// The seed that drew the extents (0 for `n/t`, which draws nothing).
    pub seed: u64,
    /// (fraction of corrupt shards, probability this sample would have caught it).
    /// Kept for existing scripts; `detection_rates` names the same numbers.
    pub(crate) detection: Vec<(f64, f64)>,
    /// The same table as `detection`, with named fields.
    pub detection_rates: Vec<DetectionRate>,
    /// Which of restic's forms was given.
    pub form: SubsetForm,
    /// `n/t` only: the group read (1 to `t`) and the number of groups.
    pub n: Option<u64>,
    pub t: Option<u64>,
    /// A size only: the bytes of shards the read may take.
    pub budget_bytes: Option<u64>,
    /// Extents whose shards were read.
    pub extents_read: usize,
    /// Their names (full hex), sorted.
    pub(crate) extent_names: Vec<String>,
    /// The shard bytes of all extents (what `--read-data` reads).
    pub bytes_total: u64,
}

/// The form of a `--read-data-subset` value.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SubsetForm {
    /// `P%`: a random share of the extents.
    Percent,
    /// `n/t`: group `n` of `t`, by extent name.
    Group,
    /// `SIZE`: random extents up to that many bytes.
    Size,
}

/// How likely the sample was to catch corruption of a given share of all shards.
#[derive(Serialize, Clone, Copy, Debug, PartialEq)]
pub struct DetectionRate {
    /// Fraction of all shards assumed corrupt (0.01 = 1%).
    pub corrupt_fraction: f64,
    /// Probability that the sample read at least one of them.
    pub probability: f64,
}
