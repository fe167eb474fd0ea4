//! Peeling: the repair model of an entangled archive. A codeword whose missing symbols
//! number at most its parity count can be decoded, which restores *all* its symbols —
//! its own data and parity and the pointer shards it borrowed from older extents. Doing
//! this repeatedly, oldest codewords first (so pointers come back before the codewords
//! that need them), until nothing changes restores everything that can be restored.
//!
//! The same function drives `repair` (over real shard states) and the simulation test
//! (over random presence bitmaps).

/// One codeword: the symbols it spans (indices into a presence vector) and how many of
/// them may be missing for it to decode.
#[derive(Clone, Debug)]
pub struct Codeword {
    pub symbols: Vec<usize>,
    pub parity: usize,
}

/// Mark every recoverable symbol present; return the codewords to decode, in order.
pub fn peel(codewords: &[Codeword], present: &mut [bool]) -> Vec<usize> {
    let mut plan = Vec::new();
    loop {
        let mut progress = false;
        for (i, cw) in codewords.iter().enumerate() {
            let missing = cw.symbols.iter().filter(|&&s| !present[s]).count();
            if missing > 0 && missing <= cw.parity {
                for &s in &cw.symbols {
                    present[s] = true;
                }
                plan.push(i);
                progress = true;
            }
        }
        if !progress {
            return plan;
        }
    }
}

/// The steps of `plan` that restoring the symbols `wanted` takes, in plan order: the
/// codewords a reader must decode, where `repair` decodes all of them. `plan` is what
/// [`peel`] returned for `codewords` starting from the presence `before`.
///
/// A wanted symbol present before needs nothing; one restored needs the step that first
/// restored it. A needed step whose codeword had enough symbols before any step (all
/// but `parity`) needs no other step; one that lacked some needs, for each it lacked,
/// an earlier step that restored one of its symbols: steps already needed first, then
/// the latest (the dependencies stay few and short).
pub(crate) fn needed(
    codewords: &[Codeword],
    before: &[bool],
    plan: &[usize],
    wanted: &[usize],
) -> Vec<usize> {
    use std::collections::HashMap;
    // The step (index into `plan`) that first restored each symbol.
    let mut restored_by: HashMap<usize, usize> = HashMap::new();
    let mut present = before.to_vec();
    for (k, &c) in plan.iter().enumerate() {
        for &s in &codewords[c].symbols {
            if !present[s] {
                present[s] = true;
                restored_by.insert(s, k);
            }
        }
    }
    let mut need = vec![false; plan.len()];
    for w in wanted {
        if let Some(&k) = restored_by.get(w) {
            need[k] = true;
        }
    }
    for k in (0..plan.len()).rev() {
        if !need[k] {
            continue;
        }
        let cw = &codewords[plan[k]];
        let enough = cw.symbols.len().saturating_sub(cw.parity);
        let have = cw.symbols.iter().filter(|&&s| before[s]).count();
        let mut earlier: Vec<usize> = (cw.symbols.iter())
            .filter_map(|s| restored_by.get(s).copied().filter(|&j| j < k))
            .collect();
        earlier.sort_by_key(|&j| (!need[j], std::cmp::Reverse(j)));
        for j in earlier.into_iter().take(enough.saturating_sub(have)) {
            need[j] = true;
        }
    }
    (plan.iter().zip(&need))
        .filter(|(_, n)| **n)
        .map(|(&c, _)| c)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Codewords of these symbols, each with one parity symbol.
    fn parity_one(symbols: &[&[usize]]) -> Vec<Codeword> {
        (symbols.iter())
            .map(|s| Codeword {
                symbols: s.to_vec(),
                parity: 1,
            })
            .collect()
    }

    #[test]
    fn chains_through_pointers() {
        // Codeword 0 = {0,1,2} (parity 1); codeword 1 = {3,4,1 (pointer),5} (parity 1).
        let cws = parity_one(&[&[0, 1, 2], &[3, 4, 1, 5]]);
        // Lose 0 and 1: codeword 0 alone cannot decode, but codeword 1 restores 1 first.
        let mut present = vec![false, false, true, true, true, true];
        let plan = peel(&cws, &mut present);
        assert!(present.iter().all(|&p| p));
        assert_eq!(plan, vec![1, 0]);
        // Lose 0, 1 and 3: nothing decodes.
        let mut present = vec![false, false, true, false, true, true];
        assert!(peel(&cws, &mut present).is_empty());
        assert_eq!(present, vec![false, false, true, false, true, true]);
    }

    #[test]
    fn a_reader_decodes_only_what_its_symbols_need() {
        // Codeword 0 = {0,1,2}, 1 = {3,4,1,5}, 2 = {6,7,8}, all parity 1.
        let cws = parity_one(&[&[0, 1, 2], &[3, 4, 1, 5], &[6, 7, 8]]);
        // Lose 0, 1 and 6: peeling decodes 1 (restores 1), 2 (restores 6), then 0.
        let before = vec![false, false, true, true, true, true, false, true, true];
        let mut present = before.clone();
        let plan = peel(&cws, &mut present);
        assert_eq!(plan, vec![1, 2, 0]);
        // Symbol 0 needs codeword 0, which lacked two symbols: 1 comes from codeword 1.
        assert_eq!(needed(&cws, &before, &plan, &[0]), vec![1, 0]);
        // Symbol 1 needs codeword 1 only; 6 needs 2 only; present symbols need nothing.
        assert_eq!(needed(&cws, &before, &plan, &[1]), vec![1]);
        assert_eq!(needed(&cws, &before, &plan, &[6]), vec![2]);
        assert!(needed(&cws, &before, &plan, &[2, 3]).is_empty());
        // What no step restores needs nothing either (the caller sees it missing).
        let before = vec![false, false, true, false, true, true, true, true, true];
        let mut present = before.clone();
        let plan = peel(&cws, &mut present);
        assert!(needed(&cws, &before, &plan, &[0]).is_empty());
    }
}
