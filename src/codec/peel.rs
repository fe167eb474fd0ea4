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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_through_pointers() {
        // Codeword 0 = {0,1,2} (parity 1); codeword 1 = {3,4,1 (pointer),5} (parity 1).
        let cws = vec![
            Codeword {
                symbols: vec![0, 1, 2],
                parity: 1,
            },
            Codeword {
                symbols: vec![3, 4, 1, 5],
                parity: 1,
            },
        ];
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
}
