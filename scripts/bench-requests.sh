#!/usr/bin/env bash
# What a nightly backup asks of the remotes as the history grows (issue 37): for each
# extent count N, a repository over three remotes is built with N extents in one
# backup (a test-only extent size, TANGLE_TEST_EXTENT_SIZE, so N extents take N x 4 KiB
# of data), then an unchanged backup and a small incremental one (one new 64 KiB file)
# are counted with TANGLE_DEBUG_REQUESTS and timed. The counts are per operation
# started: a listing is one, however many names it returns; "pages" is what the
# listings would take on S3, which returns 1,000 names a page.
#
# Usage: scripts/bench-requests.sh [--s3-far DELAY] [N ...]   (default: 100 1000 10000)
#   --s3-far DELAY  the three remotes are S3 (the test servers' s3s-fs, started for the
#                   run) and the two measured backups reach it through
#                   scripts/throttle-proxy.py, which adds DELAY (e.g. 30ms) of round
#                   trip to every connection; the history is built without the proxy
#                   (the same objects, only sooner). Without it: local directories.
# BENCH_REQUESTS_VERBOSE=1 also prints each measured backup's whole request line (stat,
# delete and byte counts too) on stderr. BENCH_REQUESTS_KEEP=DIR builds in DIR and keeps
# the repositories there (local remotes only), to look at one afterwards.
# Needs the `testing` build (for the test-only extent size); builds it when missing.
# TANGLE_BIN=PATH runs that binary instead (a `testing` build), building nothing: a long
# history can then be built with a copy while the tree is being changed.
# The history is built under eatmydata (Debian's package; installed when missing, as
# root) where it can be: every local shard is fsynced, and 10^5 extents are 2.4 million
# files, which took an hour at this disk's ~450 fsyncs a second. The measured backups
# run without it.
set -euo pipefail
cd "$(dirname "$0")/.."

delay=
if [ "${1:-}" = --s3-far ]; then
  delay=${2:?--s3-far needs a delay, e.g. 30ms}
  shift 2
fi
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(100 1000 10000)
if [ -n "${TANGLE_BIN:-}" ]; then
  bin=$(realpath "$TANGLE_BIN")
else
  cargo build --quiet --features testing
  bin=$PWD/target/debug/tangle
fi
extent=4096

keep=${BENCH_REQUESTS_KEEP:-}
[ -z "$keep" ] || [ -z "$delay" ] || { echo "bench-requests: BENCH_REQUESTS_KEEP is for local remotes" >&2; exit 2; }
if [ -n "$keep" ]; then
  mkdir -p "$keep"
  work=$(cd "$keep" && pwd)
else
  work=$(mktemp -d)
fi
proxy_pid=
cleanup() {
  [ -z "$proxy_pid" ] || kill "$proxy_pid" 2>/dev/null || true
  [ -z "$delay" ] || TANGLE_TEST_STATE="$work/servers" scripts/test-servers.sh stop >/dev/null 2>&1 || true
  [ -n "$keep" ] || rm -rf "$work"
}
trap cleanup EXIT
fast=()
if command -v eatmydata >/dev/null ||
  { [ "$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends eatmydata >/dev/null 2>&1; }; then
  fast=(eatmydata)
fi
near= far=
if [ -n "$delay" ]; then
  TANGLE_TEST_STATE="$work/servers" scripts/test-servers.sh start >"$work/servers.log" 2>&1 ||
    { cat "$work/servers.log" >&2; exit 1; }
  eval "$(TANGLE_TEST_STATE="$work/servers" scripts/test-servers.sh env)"
  near=$AWS_ENDPOINT
  # shellcheck source=scripts/delay-proxy.sh
  . scripts/delay-proxy.sh
  start_delay_proxy "$delay" "${AWS_ENDPOINT#http://}" "$work" || exit 1
  proxy_pid=$DELAY_PROXY_PID far=$DELAY_PROXY_URL
fi
# measured VAR CMD...: CMD's requests line ("list pages get put") and wall seconds.
measured() {
  local var=$1 t0 t1 line
  shift
  t0=$(date +%s.%N)
  line=$(TANGLE_DEBUG_REQUESTS=1 "$@" 2>&1 | tee "$work/$var.log" | requests)
  [ -z "${BENCH_REQUESTS_VERBOSE:-}" ] || grep -o 'remote requests: .*' "$work/$var.log" >&2
  t1=$(date +%s.%N)
  printf -v "$var" '%s, %.2f s' "$line" "$(echo "$t1 - $t0" | bc)"
}

# "list L, pages N, get G, put P" of one command's TANGLE_DEBUG_REQUESTS line.
requests() {
  grep -o 'remote requests: .*' |
    sed -E 's/remote requests: list ([0-9]+), get ([0-9]+), stat [0-9]+, put ([0-9]+).*list_pages ([0-9]+).*/\1 \4 \2 \3/'
}

printf '%8s  %-36s  %-36s\n' extents "unchanged (list pages get put, wall)" "incremental (list pages get put, wall)"
for n in "${counts[@]}"; do
  dir=$work/$n
  mkdir -p "$dir/src"
  export TANGLE_PASSWORD=bench TANGLE_CACHE_DIR=$dir/cache TANGLE_TEST_EXTENT_SIZE=$extent \
    TANGLE_TEST_WEAK_KDF=1
  if [ -n "$delay" ]; then
    remotes=(s3://"$TANGLE_TEST_S3_BUCKET"/req-"$n"-{a,b,c})
    export AWS_ENDPOINT=$near
  else
    remotes=("$dir/r1" "$dir/r2" "$dir/r3")
  fi
  "$bin" init --remote "${remotes[0]}" --remote "${remotes[1]}" --remote "${remotes[2]}" >/dev/null 2>&1
  head -c $((n * extent)) /dev/urandom >"$dir/src/history.bin"
  ${fast[@]+"${fast[@]}"} "$bin" -r "${remotes[0]}" backup -q --no-progress "$dir/src"
  sync
  # A second backup, so that the measured one follows an unchanged run (before backups
  # opened files with O_NOATIME, the first one's reads changed their access times).
  "$bin" -r "${remotes[0]}" backup -q --no-progress "$dir/src"
  [ -z "$delay" ] || export AWS_ENDPOINT=$far
  measured unchanged "$bin" -r "${remotes[0]}" backup -q --no-progress "$dir/src"
  head -c 65536 /dev/urandom >"$dir/src/new.bin"
  measured incremental "$bin" -r "${remotes[0]}" backup -q --no-progress "$dir/src"
  if [ -n "$delay" ]; then
    made=$(find "$work/servers/s3/$TANGLE_TEST_S3_BUCKET/req-$n-a/extents" -type f | wc -l)
    rm -rf "$work/servers/s3/$TANGLE_TEST_S3_BUCKET/req-$n-"*
  else
    made=$(find "$dir/r1/extents" -type f | wc -l)
  fi
  printf '%8s  %-36s  %-36s\n' "$made" "$unchanged" "$incremental"
  [ -n "$keep" ] || rm -rf "$dir"
done
