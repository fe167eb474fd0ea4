//! `tangle tag`: restic's `tag`. A snapshot whose tags change is replaced by a copy with
//! the new tags (same tree, time, host, paths, user, parent, summary), and the old one is
//! deleted by a deletion record (`ops::replace`); one whose tags would stay the same
//! is left alone. Snapshots are named by id (or `latest`), or chosen by the filters.

use serde::Serialize;

use super::replace;
use super::select::{self, Selection};
use crate::content::Snapshot;
use crate::error::{Error, Result};
use crate::repo::{HasKey, Repository};

/// What to do to the tags: `set` replaces them all; else `add`, then `remove`.
#[derive(Clone, Debug, Default)]
pub struct TagChange {
    /// `--set`: the new tags (empty: none). Exclusive with `add` and `remove`.
    pub(crate) set: Option<Vec<String>>,
    pub(crate) add: Vec<String>,
    pub(crate) remove: Vec<String>,
}

impl TagChange {
    /// From the flags as given (each a comma-separated list, as restic takes them):
    /// refuses no change at all, and `--set` with `--add` or `--remove`.
    pub fn new(set: &[String], add: &[String], remove: &[String]) -> Result<TagChange> {
        let tags = |lists: &[String]| -> Vec<String> {
            let mut out: Vec<String> = Vec::new();
            for t in lists.iter().flat_map(|l| select::split_tags(l)) {
                if !out.contains(&t) {
                    out.push(t);
                }
            }
            out
        };
        let others = !add.is_empty() || !remove.is_empty();
        if !set.is_empty() && others {
            return Err(Error::usage(
                "--set replaces every tag: give it alone, or --add/--remove without it",
            ));
        }
        if set.is_empty() && !others {
            return Err(Error::usage(
                "nothing to change: give --add TAG, --remove TAG or --set TAG (--set '' removes \
                 every tag)",
            ));
        }
        Ok(TagChange {
            set: (!set.is_empty()).then(|| tags(set)),
            add: tags(add),
            remove: tags(remove),
        })
    }

    /// The tags after the change: `set` as given; else the old ones (duplicates dropped),
    /// then the added ones they lack, without the removed ones.
    pub(crate) fn apply(&self, old: &[String]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let base = self.set.as_deref().unwrap_or(old);
        for t in base.iter().chain(&self.add) {
            if !out.contains(t) && !self.remove.contains(t) {
                out.push(t.clone());
            }
        }
        out
    }
}

/// Whether two tag lists hold the same tags (in any order).
fn same_tags(a: &[String], b: &[String]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort();
    a.dedup();
    b.sort();
    b.dedup();
    a == b
}

pub struct TagOptions {
    /// The snapshots to change.
    pub selection: Selection,
    pub change: TagChange,
    pub dry_run: bool,
}

/// One snapshot whose tags change.
#[derive(Serialize, Debug, Clone)]
pub struct Retagged {
    /// The snapshot as it was (deleted now, unless `dry_run`).
    pub old_id: String,
    /// The snapshot that replaces it (`null` with `dry_run`).
    pub new_id: Option<String>,
    pub tags_before: Vec<String>,
    pub tags_after: Vec<String>,
}

#[derive(Serialize, Debug, Default)]
pub struct TagReport {
    pub dry_run: bool,
    /// The snapshots whose tags changed (or would), oldest first.
    pub changed: Vec<Retagged>,
    /// Full ids of the chosen snapshots whose tags already were the wanted ones.
    pub unchanged: Vec<String>,
}

/// Change the tags. The caller holds the exclusive lock (not with `dry_run`).
pub fn run<S: HasKey>(repo: &Repository<S>, opts: &TagOptions) -> Result<TagReport> {
    let mut chosen = opts.selection.find_all(repo)?;
    chosen.sort_by(|a, b| a.1.time_ns.cmp(&b.1.time_ns).then(a.0.cmp(&b.0)));
    let mut report = TagReport {
        dry_run: opts.dry_run,
        ..Default::default()
    };
    let mut changing: Vec<(String, Snapshot, Vec<String>)> = Vec::new();
    for (id, s) in chosen {
        let tags = opts.change.apply(&s.tags);
        match same_tags(&tags, &s.tags) {
            true => report.unchanged.push(id),
            false => changing.push((id, s, tags)),
        }
    }
    replace::refuse_writers(changing.iter().map(|(id, s, _)| (id, s)), "tag")?;
    let changes: Vec<(String, Snapshot)> = (changing.into_iter())
        .map(|(id, s, tags)| {
            report.changed.push(Retagged {
                old_id: id.clone(),
                new_id: None,
                tags_before: s.tags.clone(),
                tags_after: tags.clone(),
            });
            (id, Snapshot { tags, ..s })
        })
        .collect();
    if opts.dry_run {
        return Ok(report);
    }
    let new_ids = replace::replace(repo, &changes, true)?;
    for (r, id) in report.changed.iter_mut().zip(new_ids) {
        r.new_id = Some(id);
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(tags: &[&str]) -> Vec<String> {
        tags.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn changes_apply_as_restic_applies_them() {
        let add = TagChange::new(&[], &v(&["b,c", "a"]), &v(&["x"])).unwrap();
        assert_eq!(add.apply(&v(&["x", "a", "y"])), v(&["a", "y", "b", "c"]));
        // Added, then removed: a tag in both is gone.
        let both = TagChange::new(&[], &v(&["a"]), &v(&["a"])).unwrap();
        assert_eq!(both.apply(&v(&["b"])), v(&["b"]));
        let set = TagChange::new(&v(&["z,y", "z"]), &[], &[]).unwrap();
        assert_eq!(set.apply(&v(&["a"])), v(&["z", "y"]));
        let clear = TagChange::new(&v(&[""]), &[], &[]).unwrap();
        assert_eq!(clear.apply(&v(&["a", "b"])), Vec::<String>::new());
        assert!(same_tags(&v(&["a", "b"]), &v(&["b", "a", "a"])));
        assert!(!same_tags(&v(&["a"]), &v(&["a", "b"])));
    }

    #[test]
    fn no_change_and_set_with_another_are_usage_errors() {
        for (set, add, remove) in [
            (v(&[]), v(&[]), v(&[])),
            (v(&["a"]), v(&["b"]), v(&[])),
            (v(&["a"]), v(&[]), v(&["b"])),
        ] {
            let e = TagChange::new(&set, &add, &remove).unwrap_err();
            assert_eq!(e.kind(), crate::Kind::Usage, "{set:?} {add:?} {remove:?}");
        }
    }
}
