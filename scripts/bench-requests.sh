#!/usr/bin/env bash
# What a nightly backup asks of the remotes as the history grows (issue 37): for each
# extent count N, a repository over three local remotes is built with N extents in one
# backup (a test-only extent size, TANGLE_TEST_EXTENT_SIZE, so N extents take N x 4 KiB
# of data), then an unchanged backup and a small incremental one (one new 64 KiB file)
# are counted with TANGLE_DEBUG_REQUESTS. The counts are per operation started: a
# listing is one, however many names it returns; "pages" is what the listings would
# take on S3, which returns 1,000 names a page.
#
# Usage: scripts/bench-requests.sh [N ...]   (default: 100 1000 10000)
# Needs the `testing` build (for the test-only extent size); builds it when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(100 1000 10000)
cargo build --quiet --features testing
bin=$PWD/target/debug/tangle
extent=4096

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# "list L, pages N, get G, put P" of one command's TANGLE_DEBUG_REQUESTS line.
requests() {
  grep -o 'remote requests: .*' |
    sed -E 's/remote requests: list ([0-9]+), get ([0-9]+), stat [0-9]+, put ([0-9]+).*list_pages ([0-9]+).*/\1 \4 \2 \3/'
}

printf '%8s  %-28s  %-28s\n' extents "unchanged (list pages get put)" "incremental (list pages get put)"
for n in "${counts[@]}"; do
  dir=$work/$n
  mkdir -p "$dir/src"
  export TANGLE_PASSWORD=bench TANGLE_CACHE_DIR=$dir/cache TANGLE_TEST_EXTENT_SIZE=$extent \
    TANGLE_TEST_WEAK_KDF=1
  "$bin" init --remote "$dir/r1" --remote "$dir/r2" --remote "$dir/r3" >/dev/null 2>&1
  head -c $((n * extent)) /dev/urandom >"$dir/src/history.bin"
  "$bin" -r "$dir/r1" backup -q --no-progress "$dir/src"
  # The backup read the file, which changed its access time: the second is unchanged.
  "$bin" -r "$dir/r1" backup -q --no-progress "$dir/src"
  unchanged=$(TANGLE_DEBUG_REQUESTS=1 "$bin" -r "$dir/r1" backup -q --no-progress "$dir/src" 2>&1 | requests)
  head -c 65536 /dev/urandom >"$dir/src/new.bin"
  incremental=$(TANGLE_DEBUG_REQUESTS=1 "$bin" -r "$dir/r1" backup -q --no-progress "$dir/src" 2>&1 | requests)
  made=$(find "$dir/r1/extents" -type f | wc -l)
  printf '%8s  %-28s  %-28s\n' "$made" "$unchanged" "$incremental"
  rm -rf "$dir"
done
