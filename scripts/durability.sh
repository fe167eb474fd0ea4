#!/usr/bin/env bash
# Durability harness: builds seeded backup histories through the tangle binary into local
# remotes, with small test extents (hundreds per history), one repository per remote
# count and layout (coding); damages copies of them (random shard loss, a lost remote, a
# burst over consecutive extents), then runs verify, repair, verify --read-data and
# restores; and reports per layout and scenario the lost data and tree extents, lost
# bytes and lost snapshots with 95% intervals, the stored bytes (measured, nominal and as
# `stats` says), the default against the best plain layout at no more measured bytes,
# and every case where verify and the restores disagreed.
#
#   scripts/durability.sh [--smoke | --full] [--bin TANGLE] [--json FILE] [options]
#
#   (default)      3 seeds, 3 remotes, short histories, 3 scenarios (minutes)
#   --smoke        1 seed, tiny histories (the integration test tests/e2e/durability_harness.rs)
#   --full         20 seeds, all five scenarios, 150-300 extents per history
#   --remotes N,.. remote counts (default 3), each with its own preset layouts
#   --bin TANGLE   the binary (default: $TANGLE_BIN, else a release build of this checkout
#                  with --features testing, which the test extent size needs)
#   --json FILE    also write every run and the summary as JSON
#
# The report (Markdown) goes to stdout, progress to stderr. Exit 3 when verify and the
# restores disagreed (verify said nothing was lost, a restore failed), 1 when a history
# could not be built. All options: scripts/durability.sh --help. More: docs/DURABILITY.md.
set -euo pipefail

cd "$(dirname "$0")/.."
have_bin=0
for a in "$@"; do
    case "$a" in --bin|--bin=*|--report|--report=*|-h|--help) have_bin=1 ;; esac
done
if [ "$have_bin" = 0 ] && [ -z "${TANGLE_BIN:-}" ]; then
    cargo build --release --features testing -q
    export TANGLE_BIN=$PWD/target/release/tangle
fi
exec python3 scripts/durability.py "$@"
