//! What `repair` cannot rebuild, said as `verify` says it: each extent whose data
//! shards peeling cannot restore gets verify's `data-lost` finding (with the password:
//! the snapshots, paths and bytes the loss costs) and why nothing can be done (its own
//! codeword has too few symbols left, and no later codeword that points at the lost data
//! shards can be decoded either).

use serde::Serialize;

use super::analysis::{self, Finding};
use super::survey::Survey;
use crate::codec::peel::peel;
use crate::error::Result;
use crate::repo::{Repository, State};

/// An extent whose data nothing can rebuild (`repair --json`'s `data_lost`).
#[derive(Serialize, Debug, Clone)]
pub struct DataLost {
    /// verify's `data-lost` finding for the extent (its keys sit on this object).
    #[serde(flatten)]
    pub finding: Finding,
    /// Why no remote and no codeword can give the data back.
    pub why: String,
    /// The line of `unrepaired` this explains (the text output shows this instead).
    #[serde(skip)]
    pub unrepaired: Option<String>,
}

/// The `data-lost` findings of the survey, each with why nothing rebuilds it, and the
/// `unrepaired` line (of `unrepaired`: extent index and line) it explains.
pub(super) fn explain<S: State>(
    repo: &Repository<S>,
    survey: &Survey,
    unrepaired: &[(usize, String)],
) -> Result<Vec<DataLost>> {
    if unrepaired.is_empty() {
        return Ok(Vec::new());
    }
    let findings = analysis::data_lost(repo, survey)?;
    let (codewords, before, offset) = survey.graph();
    let mut present = before.clone();
    peel(&codewords, &mut present);
    let mut out = Vec::with_capacity(findings.len());
    for finding in findings {
        let e = (finding.extent.as_ref())
            .and_then(|hex| survey.certs.iter().position(|c| c.name().hex() == *hex));
        let Some(e) = e else { continue };
        let c = &survey.certs[e];
        let name = c.name();
        let cw = &codewords[e];
        let s = c.data_shards as usize;
        let have = cw.symbols.iter().filter(|&&x| before[x]).count();
        let need = s + c.pointers.len();
        let lost: Vec<usize> = (0..s).filter(|&i| !present[offset[e] + i]).collect();
        let named = |i: usize| {
            (survey.certs[e + 1..].iter())
                .any(|l| (l.pointers.iter()).any(|p| p.extent == name && p.shard as usize == i))
        };
        let (pointed, not_pointed): (Vec<usize>, Vec<usize>) =
            lost.iter().copied().partition(|&i| named(i));
        let mut why = format!(
            "only {have} of the {} symbols of its codeword are left on the remotes (its own \
             shards and the data shards it points at), and decoding it needs {need}",
            cw.symbols.len()
        );
        if !not_pointed.is_empty() {
            why += &format!(
                "; no later codeword points at its data {}",
                shards(&not_pointed)
            );
        }
        if !pointed.is_empty() {
            why += &format!(
                "; the later codewords that point at its data {} cannot be decoded either",
                shards(&pointed)
            );
        }
        out.push(DataLost {
            finding,
            why,
            unrepaired: (unrepaired.iter())
                .find(|(x, _)| *x == e)
                .map(|(_, line)| line.clone()),
        });
    }
    Ok(out)
}

/// `1, 2 and 5`.
/// `shard 3`, `shards 1 and 4`.
fn shards(xs: &[usize]) -> String {
    let noun = if xs.len() == 1 { "shard" } else { "shards" };
    format!("{noun} {}", list(xs))
}

fn list(xs: &[usize]) -> String {
    let words: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.join(""),
    }
}
