//! `restore`: what it may write where, what it does with what is already there
//! (`--overwrite`, `--delete`), partial restores, how it reads, rebuilding
//! lost shards on the way, and what it warns about.

mod confinement;
mod dry_run;
mod overwrite;
mod partial;
mod reads;
mod rebuild;
mod warnings;
