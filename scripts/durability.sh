#!/usr/bin/env bash
# Durability harness: builds seeded backup histories through the tangle binary into local
# remotes, one repository per layout (coding), damages copies of them (random shard loss,
# a lost remote, a burst over consecutive extents), then runs verify, repair, verify
# --read-data and restores every snapshot, and reports per layout and scenario the lost
# extents, lost bytes and lost snapshots with 95% intervals, ratios against the plain
# layout at equal storage, and every case where verify and the restores disagreed.
#
#   scripts/durability.sh [--smoke | --full] [--bin TANGLE] [--json FILE] [options]
#
#   (default)      3 seeds, layouts default and rs7+6, scenarios random-20% and remote+5%,
#                  both regimes (a few minutes on 2 cores)
#   --smoke        1 seed, tiny histories (the integration test tests/durability_harness.rs)
#   --full         20 seeds, layouts default, rs4+3 and rs7+6, all five scenarios
#   --bin TANGLE   the binary (default: $TANGLE_BIN, else a release build of this checkout)
#   --json FILE    also write every run and the summary as JSON
#
# The report (Markdown) goes to stdout, progress to stderr. Exit 3 when verify and the
# restores disagreed (verify said nothing was lost, a restore failed), 1 when a history
# could not be built. All options: scripts/durability.sh --help. More: docs/DURABILITY.md.
set -euo pipefail

cd "$(dirname "$0")/.."
have_bin=0
for a in "$@"; do
    case "$a" in --bin|--bin=*|-h|--help) have_bin=1 ;; esac
done
if [ "$have_bin" = 0 ] && [ -z "${TANGLE_BIN:-}" ]; then
    cargo build --release -q
    export TANGLE_BIN=$PWD/target/release/tangle
fi
exec python3 scripts/durability.py "$@"
