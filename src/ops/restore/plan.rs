//! The walk of the snapshot's trees, in order, on one thread: which entries are restored
//! ([`Filter`]), and for each the directory, link or special file made right away, or
//! the empty file whose contents a worker writes ([`FileJob`]).

use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::existing::{Decision, Removed, Remover, decide, is_real_dir, open_up_to_date};
use super::read_plan::ReadPlanner;
use super::workers::FileJob;
use super::write::{create_file, make_dir};
use super::{RestoreReport, Restorer, Walked};
use crate::content::fsmeta;
use crate::content::{Node, NodeKind, Tree};
use crate::error::{Error, Kind, Result};
use crate::ops::Progress;
use crate::pathmatch::PathMatcher;
use crate::repo::{Indexed, Repository};

/// The include and exclude patterns.
pub(super) struct Filter {
    include: PathMatcher,
    exclude: PathMatcher,
}

/// Whether and how a tree entry is restored.
pub(super) enum Admitted {
    /// `orig` is its path as backed up; `included` once it or an ancestor matched an
    /// include pattern (or there are none).
    Yes {
        orig: PathBuf,
        included: bool,
    },
    Excluded,
    InvalidName(Error),
}

impl Filter {
    pub(super) fn new(includes: &[String], excludes: &[String]) -> Result<Filter> {
        Ok(Filter {
            include: PathMatcher::new(includes, &[])?,
            exclude: PathMatcher::new(excludes, &[])?,
        })
    }

    pub(super) fn admit(&self, node: &Node, orig_dir: &Path, included: bool) -> Admitted {
        // One path component, never a way out of `dest_dir` (trees are signed by the
        // owner, but a restore must stay inside --target whatever a tree says).
        if matches!(&node.name[..], b"" | b"." | b"..") || node.name.contains(&b'/') {
            return Admitted::InvalidName(Error::corrupt(format!(
                "{}: skipping an entry with the invalid name {:?}",
                orig_dir.display(),
                String::from_utf8_lossy(&node.name)
            )));
        }
        let orig = orig_dir.join(OsStr::from_bytes(&node.name));
        if self.exclude.matches(&orig, &node.name) {
            return Admitted::Excluded;
        }
        let included = self.includes(&orig, &node.name, included);
        Admitted::Yes { orig, included }
    }

    fn includes(&self, orig: &Path, name: &[u8], included: bool) -> bool {
        included || self.include.is_empty() || self.include.matches(orig, name)
    }

    /// Whether an exclude pattern matches `orig` (a path as backed up, named `name`).
    pub(super) fn excludes(&self, orig: &Path, name: &[u8]) -> bool {
        self.exclude.matches(orig, name)
    }

    /// Whether the patterns select `orig` itself (as a path in the snapshot would be
    /// restored): no exclude pattern matches it, and an include pattern matches it or a
    /// directory above it (`included`), or there are none. `--delete` removes only such
    /// entries.
    pub(super) fn selects(&self, orig: &Path, name: &[u8], included: bool) -> bool {
        !self.excludes(orig, name) && self.includes(orig, name, included)
    }

    /// Whether anything below the directory `orig` (holding `tree`) matches the include
    /// patterns. `memo` keeps what earlier looks found out about the directories below
    /// (each answer is taken out when asked for): a walk asks about every directory on
    /// its way down, and without it each question would search the same subtree again
    /// (quadratic in the depth: a 1,900-level tree took minutes).
    pub(super) fn subtree_has_match(
        &self,
        repo: &Repository<Indexed>,
        tree: &Tree,
        orig: &Path,
        memo: &mut HashMap<PathBuf, bool>,
    ) -> Result<bool> {
        if self.include.is_empty() {
            return Ok(true);
        }
        if let Some(known) = memo.remove(orig) {
            return Ok(known);
        }
        for n in &tree.nodes {
            let p = orig.join(OsStr::from_bytes(&n.name));
            if self.include.matches(&p, &n.name) {
                return Ok(true);
            }
            if let (NodeKind::Dir, Some(id)) = (n.kind, n.subtree) {
                let subtree = repo.load_tree_off_plan(&id)?;
                let found = self.subtree_has_match(repo, &subtree, &p, memo)?;
                memo.insert(p, found);
                if found {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

pub(super) struct Planner<'a> {
    r: &'a Restorer<'a>,
    tx: crossbeam_channel::Sender<FileJob>,
    report: &'a mut RestoreReport,
    dirs: Vec<(PathBuf, Node)>,
    /// First restored path of each hard-linked inode.
    links: HashMap<(u64, u64), PathBuf>,
    /// (existing, new) pairs to link after all contents are written.
    hard_links: Vec<(PathBuf, PathBuf)>,
    /// Hard-linked inodes whose planned reads were skipped with their directory (or
    /// made by a worker).
    skipped_inodes: HashSet<(u64, u64)>,
    /// What looks for include patterns found out below the walk (`Filter::subtree_has_match`).
    memo: HashMap<PathBuf, bool>,
    /// Add each file to the progress totals (they were not known ahead).
    count_totals: bool,
    /// The directory being walked was just made (or, with `--dry-run`, would be): nothing
    /// is in it, so nothing needs looking at.
    pub(super) fresh: bool,
}

impl<'a> Planner<'a> {
    /// The walk, sending file contents to the workers through `tx` and counting what it
    /// restores in `report`.
    pub(super) fn new(
        r: &'a Restorer<'a>,
        tx: crossbeam_channel::Sender<FileJob>,
        report: &'a mut RestoreReport,
        count_totals: bool,
    ) -> Self {
        Planner {
            r,
            tx,
            report,
            dirs: Vec::new(),
            links: HashMap::new(),
            hard_links: Vec::new(),
            skipped_inodes: Default::default(),
            memo: HashMap::new(),
            count_totals,
            fresh: false,
        }
    }

    /// The walk is over: the workers get no more files, and what is left for after them
    /// is handed on.
    pub(super) fn finish(self) -> Walked {
        Walked {
            dirs: self.dirs,
            hard_links: self.hard_links,
        }
    }

    /// A directory whose listing cannot be read: nothing below it is restored, the
    /// rest of the snapshot is.
    fn listing_lost(&self, orig: &Path, e: Error) -> Result<()> {
        let e = e.into_data_lost();
        if e.kind() != Kind::DataLost {
            return Err(e);
        }
        if self.r.dry {
            // A dry run cannot say what the restore would do below it.
            return Err(e.context(format!(
                "the listing of directory {} cannot be read",
                orig.display()
            )));
        }
        self.r.notes.lost(orig, "dir", 0, &e);
        (self.r.notes).error(e.context(format!("directory {} not restored", orig.display())));
        Ok(())
    }

    /// Restore the entries of `tree`; `dest` is where they go, `orig` where they were.
    /// `included` is set once an ancestor matched an include pattern.
    pub(super) fn tree(
        &mut self,
        tree: &Tree,
        dest: &Path,
        orig: &Path,
        included: bool,
    ) -> Result<()> {
        for node in &tree.nodes {
            self.node(node.clone(), dest, orig, included)?;
        }
        Ok(())
    }

    pub(super) fn node(
        &mut self,
        node: Node,
        dest_dir: &Path,
        orig_dir: &Path,
        included: bool,
    ) -> Result<()> {
        let r = self.r;
        let (repo, notes) = (r.repo, &r.notes);
        let (orig, included) = match r.filter.admit(&node, orig_dir, included) {
            Admitted::Yes { orig, included } => (orig, included),
            Admitted::Excluded => return Ok(()),
            Admitted::InvalidName(e) => {
                notes.error(e);
                return Ok(());
            }
        };
        let dest = dest_dir.join(OsStr::from_bytes(&node.name));
        match node.kind {
            NodeKind::Dir => {
                let subtree = match node.subtree.map(|id| repo.load_tree(&id)) {
                    Some(Ok(tree)) => tree,
                    Some(Err(e)) => return self.listing_lost(&orig, e),
                    None => Tree::default(),
                };
                if !included {
                    match (r.filter).subtree_has_match(repo, &subtree, &orig, &mut self.memo) {
                        Ok(true) => {}
                        Ok(false) => return Ok(()),
                        Err(e) => return self.listing_lost(&orig, e),
                    }
                }
                let fresh = if r.dry {
                    self.fresh || !is_real_dir(&dest)
                } else {
                    match make_dir(&dest) {
                        Ok(made) => made || self.fresh,
                        Err(e) => {
                            notes.error(e);
                            self.skip_planned(subtree, orig, included);
                            return Ok(());
                        }
                    }
                };
                self.dir_entries(&subtree, &dest, &orig, included, fresh)?;
                self.report.dirs += 1;
                if !r.dry {
                    self.dirs.push((dest, node));
                }
            }
            _ if !included => {}
            _ => self.leaf(node, dest, orig)?,
        }
        Ok(())
    }

    /// Restore the entries of the directory `dest` (`orig` in the snapshot, listed in
    /// `tree`), which was just made (`fresh`: nothing is in it) or was there: with
    /// `--delete`, what it holds that `tree` does not name goes first.
    pub(super) fn dir_entries(
        &mut self,
        tree: &Tree,
        dest: &Path,
        orig: &Path,
        included: bool,
        fresh: bool,
    ) -> Result<()> {
        if self.r.delete && !fresh {
            let mut removed = Removed::default();
            self.remover()
                .extras(dest, orig, tree, included, &mut removed);
            self.count_removed(removed);
        }
        let outer = std::mem::replace(&mut self.fresh, fresh);
        let result = self.tree(tree, dest, orig, included);
        self.fresh = outer;
        result
    }

    fn remover(&self) -> Remover<'a> {
        let r = self.r;
        Remover {
            filter: &r.filter,
            notes: &r.notes,
            dry: r.dry,
        }
    }

    fn count_removed(&mut self, removed: Removed) {
        self.report.files_deleted += removed.files;
        self.report.dirs_deleted += removed.dirs;
    }

    /// A file, symlink or special file, selected for the restore: made at `dest`, kept
    /// if `--overwrite` keeps what is there.
    fn leaf(&mut self, node: Node, dest: PathBuf, orig: PathBuf) -> Result<()> {
        let r = self.r;
        let (repo, notes, progress) = (r.repo, &r.notes, r.progress);
        let is_file = node.kind == NodeKind::File;
        if is_file && self.count_totals {
            Progress::add(&progress.files_total, 1);
            Progress::add(&progress.bytes_total, node.size);
        }
        let first_link = (is_file && node.links > 1)
            .then(|| self.links.get(&(node.device, node.inode)).cloned())
            .flatten();
        let existing = match self.fresh {
            true => None,
            false => std::fs::symlink_metadata(&dest).ok(),
        };
        let mut decision = decide(r.overwrite, &node, existing.as_ref());
        if decision == Decision::UpToDate
            && (first_link.is_some() || !(r.dry || self.keep_up_to_date(&dest, &node)))
        {
            // A later link of an inode is a link to its first path, whatever it looks
            // like; a file that changed since it was looked at is replaced.
            decision = Decision::Replace;
        }
        match decision {
            Decision::Skip | Decision::UpToDate => {
                if !is_file {
                    self.report.others_skipped += 1;
                    return Ok(());
                }
                self.report.files_skipped += 1;
                self.report.bytes_skipped += node.size;
                Progress::add(&progress.files_done, 1);
                Progress::add(&progress.bytes_done, node.size);
                if first_link.is_none() {
                    repo.skip_planned_reads(&node.content);
                    // A kept up-to-date file is the inode's first path; one kept as it
                    // was is not (the next path is restored from the snapshot).
                    if node.links > 1 && decision == Decision::UpToDate {
                        self.links.insert((node.device, node.inode), dest);
                    }
                }
                return Ok(());
            }
            Decision::Replace => {
                if existing.as_ref().is_some_and(|md| md.is_dir()) && r.delete {
                    // `--delete` lets an entry replace a directory (restic does too).
                    let mut removed = Removed::default();
                    self.remover().remove(&dest, &orig, &mut removed);
                    self.count_removed(removed);
                }
                if is_file {
                    self.report.files_overwritten += 1;
                }
            }
            Decision::New => {}
        }
        if !is_file {
            self.report.others += 1;
            if r.dry {
                return Ok(());
            }
            let _ = std::fs::remove_file(&dest);
            if node.kind == NodeKind::Socket {
                return Ok(());
            }
            let made = fsmeta::create_special(&dest, &node)
                .and_then(|_| fsmeta::apply_metadata(&dest, &node, r.chown));
            match made {
                Ok(refused) => notes.refused(&dest, &refused),
                Err(e) => notes.error(e),
            }
            return Ok(());
        }
        self.report.files += 1;
        self.report.bytes += node.size;
        if let Some(first) = first_link {
            // Linked once the workers are done: the first path may not exist yet.
            if !r.dry {
                self.hard_links.push((first, dest));
            }
            Progress::add(&progress.files_done, 1);
            return Ok(());
        }
        if node.links > 1 {
            self.links.insert((node.device, node.inode), dest.clone());
        }
        if r.dry {
            return Ok(());
        }
        // Files are created here, in walk order, by one thread: workers creating
        // the files of one directory at once contended for its lock, and
        // creating a file cost them twice what it costs tar -x.
        let (file, tmp) = match create_file(&dest) {
            Ok(created) => created,
            Err(e) => {
                repo.skip_planned_reads(&node.content);
                notes.error(e);
                Progress::add(&progress.files_done, 1);
                return Ok(());
            }
        };
        let job = FileJob {
            path: dest,
            orig,
            node,
            file,
            tmp,
        };
        self.tx
            .send(job)
            .map_err(|_| Error::fatal("restore workers stopped"))
    }

    /// `--overwrite if-changed` found an up-to-date file at `dest`: set its metadata
    /// through the file opened read-only (never through a link). False if it is no
    /// longer the file that was looked at: it is replaced then.
    fn keep_up_to_date(&self, dest: &Path, node: &Node) -> bool {
        let Some(file) = open_up_to_date(dest, node) else {
            return false;
        };
        match fsmeta::apply_metadata_to_file(&file, dest, node, self.r.chown) {
            Ok(refused) => self.r.notes.refused(dest, &refused),
            Err(e) => self.r.notes.error(e),
        }
        true
    }

    /// A directory is not restored after all (it could not be made): take the reads
    /// planned for what it holds off the read plan, listed by the plan's own walk.
    fn skip_planned(&mut self, subtree: Tree, orig: PathBuf, included: bool) {
        let (repo, filter) = (self.r.repo, &self.r.filter);
        let mut walk = ReadPlanner::starting_at(repo, filter, subtree.nodes, orig, included);
        // The plan lists an inode's reads at its first path only.
        walk.links = (self.links.keys().chain(&self.skipped_inodes))
            .copied()
            .collect();
        // A walk that fails skips what it listed.
        let _ = walk.walk(usize::MAX);
        repo.skip_planned(walk.take_reads());
        self.skipped_inodes = walk.links;
    }
}
