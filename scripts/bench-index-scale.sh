#!/usr/bin/env bash
# A repository of ten million blobs, cheaply (issue 37): chunks of about 256 bytes
# (TANGLE_TEST_CHUNK_SIZE, testing builds only) in extents of the default 16 MiB, so
# N blobs take about N x 300 bytes of random data, backed up in one run into three local
# remotes. Then, each timed with its peak RSS (`/usr/bin/time`):
#   1. the backup that makes them;
#   2. an unchanged backup (loads the whole index, reads no file);
#   3. from an empty cache (as on a new machine), `restore latest:FILE` of one file,
#      which must load every index segment from the remotes and come out identical.
# It also lists the index segments (how many, largest): a reader refuses one over
# 256 MiB. With --old-bin BIN the same data is backed up with another build into a second
# repository (made by this build, so with the same chunker) and step 3 is tried with it:
# before 2026-12-01 one run wrote one segment, which at this size no reader accepts.
#
# Usage: scripts/bench-index-scale.sh [--blobs N] [--workdir DIR] [--old-bin BIN] [--keep]
#   (defaults: 10000000 blobs, /var/tmp/tangle-index-scale; needs about N x 1 KiB of disk)
# Uses target/release/tangle built with `--features testing` (built when missing, or
# TANGLE_BIN). Prints a markdown report to stdout.
set -euo pipefail
cd "$(dirname "$0")/.."

blobs=10000000
work=/var/tmp/tangle-index-scale
old_bin=
keep=
while [ $# -gt 0 ]; do
  case "$1" in
    --blobs) blobs=${2:?--blobs needs N}; shift ;;
    --workdir) work=${2:?--workdir needs DIR}; shift ;;
    --old-bin) old_bin=${2:?--old-bin needs a tangle binary}; shift ;;
    --keep) keep=1 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "bench-index-scale: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

bin=${TANGLE_BIN:-$PWD/target/release/tangle}
if [ -z "${TANGLE_BIN:-}" ]; then
  cargo build --release --locked --quiet --features testing
fi
"$bin" version --json | grep -q '"testing"' ||
  { echo "bench-index-scale: $bin lacks the testing feature (TANGLE_TEST_CHUNK_SIZE)" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work/src"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
export TANGLE_PASSWORD=bench TANGLE_TEST_WEAK_KDF=1 TANGLE_TEST_CHUNK_SIZE=256

# About 300 bytes a chunk (min 64, average 256 after the minimum, max 1024): files of
# 64 MiB of random data, the last one shorter.
total=$((blobs * 300))
n=0
while [ $((n * 67108864)) -lt "$total" ]; do
  left=$((total - n * 67108864))
  head -c $((left < 67108864 ? left : 67108864)) /dev/urandom > "$work/src/part-$n.bin"
  n=$((n + 1))
done
probe=$work/src/part-0.bin

# timed LABEL CMD...: run CMD, note wall seconds and peak RSS (MiB) under LABEL.
rows=()
timed() {
  local label=$1; shift
  /usr/bin/time -f '%e %M' -o "$work/time" "$@" > "$work/last.out" 2> "$work/last.err" ||
    { echo "bench-index-scale: $label failed:" >&2; tail -n 20 "$work/last.err" >&2; return 1; }
  read -r secs kib < "$work/time"
  rows+=("| $label | $secs | $((kib / 1024)) |")
}

segments() {
  local dir=$1/index
  local count largest
  count=$(find "$dir" -type f ! -name '.*' | wc -l)
  largest=$(find "$dir" -type f ! -name '.*' -printf '%s\n' | sort -n | tail -n 1)
  echo "$count segments, largest $((largest / 1048576)) MiB"
}

# init REPO_DIR BIN: a repository over three remotes under REPO_DIR, made by this build.
init() {
  TANGLE_CACHE_DIR=$1/cache "$bin" init --remote "$1/r1" --remote "$1/r2" --remote "$1/r3" > /dev/null
}

restore_probe() {
  local use=$1 repo=$2 label=$3
  rm -rf "$repo/target" "$repo/cache-fresh"
  TANGLE_CACHE_DIR=$repo/cache-fresh timed "$label" "$use" -r "$repo/r2" restore \
    "latest:$probe" --target "$repo/target" --no-progress -q || return 1
  cmp -s "$probe" "$repo/target$probe" ||
    { echo "bench-index-scale: $label: the restored file differs" >&2; return 1; }
}

new=$work/new
init "$new"
TANGLE_CACHE_DIR=$new/cache timed "backup of $blobs blobs" "$bin" -r "$new/r1" backup \
  --no-progress --json "$work/src"
added=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["blobs_added"])' "$work/last.out")
TANGLE_CACHE_DIR=$new/cache timed "unchanged backup" "$bin" -r "$new/r1" backup --no-progress -q "$work/src"
restore_probe "$bin" "$new" "restore of one file, empty cache"
new_segments=$(segments "$new/r1")

old_result=
if [ -n "$old_bin" ]; then
  old=$work/old
  init "$old"
  TANGLE_CACHE_DIR=$old/cache timed "backup with $("$old_bin" --version)" "$old_bin" -r "$old/r1" \
    backup --no-progress -q "$work/src"
  old_segments=$(segments "$old/r1")
  if restore_probe "$old_bin" "$old" "its restore of one file, empty cache"; then
    old_result="restored identical"
  else
    old_result="failed: $(grep -m1 -i 'error\|index\|large' "$work/last.err" || tail -n 1 "$work/last.err")"
  fi
fi

echo "# A repository of $added blobs ($("$bin" --version))"
echo
echo "One backup of $(du -sh --apparent-size "$work/src" | cut -f1) of random data in chunks of about 300 bytes"
echo "(TANGLE_TEST_CHUNK_SIZE=256) into three local remotes on $(df -h --output=source "$work" | tail -n 1); index: $new_segments."
echo
echo "| step | wall s | peak RSS MiB |"
echo "|---|---:|---:|"
printf '%s\n' "${rows[@]}"
if [ -n "$old_bin" ]; then
  echo
  echo "With $old_bin: index $old_segments; restore from an empty cache: $old_result."
fi
