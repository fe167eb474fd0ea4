//! `verify` and `repair`: the JSON report, lost paths, repair, the repair loop, subsets.

mod json;
mod lost_paths;
mod repair;
mod repair_loop;
mod subset;
