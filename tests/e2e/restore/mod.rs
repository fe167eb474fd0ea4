//! `restore`: what it may write where, partial restores, how it reads, rebuilding
//! lost shards on the way, and what it warns about.

mod confinement;
mod dry_run;
mod partial;
mod reads;
mod rebuild;
mod warnings;
