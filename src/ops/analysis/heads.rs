//! What the heads commit to: the newest authentic head of each writer, and the extents
//! those heads commit to with their ancestors (the committed extents, which verify,
//! repair and stats judge; anything else an interrupted run left).

use std::collections::{HashMap, HashSet};

use crate::extent::{ExtentName, Head};
use crate::ops::survey::Survey;
use crate::repo::{Repository, State};

/// The extents some authentic head commits to, and their ancestors, without the
/// rollback checks and without touching the cache's memory of heads (for `stats` and
/// `repair`).
pub(crate) fn committed<S: State>(repo: &Repository<S>, survey: &Survey) -> HashSet<ExtentName> {
    committed_by(survey, &newest_heads(&heads_by_writer(repo, survey)))
}

/// Every authentic head the survey found, by writer (hex).
pub(crate) fn heads_by_writer<S: State>(
    repo: &Repository<S>,
    survey: &Survey,
) -> HashMap<String, Vec<Head>> {
    let signers = repo.signers();
    let mut heads: HashMap<String, Vec<Head>> = HashMap::new();
    for (path, m) in survey.meta.range("heads/".to_string()..) {
        if !path.starts_with("heads/") {
            break;
        }
        let Some(b) = &m.good else { continue };
        if let Ok(h) = Head::from_object(b, signers, path) {
            heads.entry(hex::encode(h.writer)).or_default().push(h);
        }
    }
    heads
}

/// The newest head of each writer.
pub(crate) fn newest_heads(heads: &HashMap<String, Vec<Head>>) -> HashMap<String, Head> {
    let mut newest: HashMap<String, Head> = HashMap::new();
    for (w, list) in heads {
        if let Some(h) = list.iter().max_by_key(|h| h.seq) {
            newest.insert(w.clone(), h.clone());
        }
    }
    newest
}

/// Extents committed by the newest heads, and their ancestors.
pub(crate) fn committed_by(survey: &Survey, newest: &HashMap<String, Head>) -> HashSet<ExtentName> {
    survey.reached_from(newest.values())
}
