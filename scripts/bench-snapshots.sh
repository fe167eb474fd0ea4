#!/usr/bin/env bash
# What many snapshots cost the everyday commands (issue 37): one repository over three
# local remotes gets nightly backups, one a day (the clock moved with faketime, so
# retention sees that many days), each changing one small file. When it holds N
# snapshots, for each N given, the next nightly backup, `snapshots`, the planning of
# `delete --keep-daily 7 --keep-weekly 52` (`--dry-run`) and `ls latest` are timed,
# ROUNDS times each (the backup once), and the median with its range printed.
#
# Usage: scripts/bench-snapshots.sh [--rounds R] [N ...]   (default: 3 rounds; 50 500 5000)
# Needs faketime, and the `testing` build (a trivial key derivation, so that building
# thousands of snapshots takes minutes); builds it when missing, or uses TANGLE_BIN.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=3
counts=()
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds=${2:?--rounds needs R}; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) counts+=("$1") ;;
    esac
    shift
done
[ ${#counts[@]} -gt 0 ] || counts=(50 500 5000)
mapfile -t counts < <(printf '%s\n' "${counts[@]}" | sort -n)
command -v faketime >/dev/null || { echo "bench-snapshots: needs faketime (apt install faketime)" >&2; exit 1; }
bin=${TANGLE_BIN:-}
if [ -z "$bin" ]; then
    cargo build --quiet --release --features testing
    bin=$PWD/target/release/tangle
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# median_range CMD...: run CMD $rounds times, print "median (min–max)" of the wall times.
median_range() {
    local times=() t0 t1
    for _ in $(seq "$rounds"); do
        t0=$(date +%s.%N)
        "$@" > /dev/null
        t1=$(date +%s.%N)
        times+=("$(echo "$t1 - $t0" | bc)")
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{ t[NR] = $1 } END {
        printf "%.3f (%.3f–%.3f)", t[int((NR + 1) / 2)], t[1], t[NR] }'
}

printf '| snapshots | built in s | next backup s | snapshots s | delete --dry-run s | ls latest s |\n'
printf '|---:|---:|---:|---|---|---|\n'
dir=$work/repo
mkdir -p "$dir/src"
export TANGLE_PASSWORD=bench TANGLE_CACHE_DIR=$dir/cache TANGLE_TEST_WEAK_KDF=1
"$bin" init --remote "$dir/r1" --remote "$dir/r2" --remote "$dir/r3" > /dev/null 2>&1
# A tree a little like a home directory's: 200 files, one of which changes daily.
for i in $(seq 200); do head -c $((i * 97)) /dev/urandom > "$dir/src/file-$i"; done
last=${counts[${#counts[@]} - 1]}
first=$(($(date +%s) - (last + 1) * 86400))
day=0
# nightly: the backup of day $day (the clock moved to it).
nightly() {
    echo "day $day" > "$dir/src/today.txt"
    faketime "$(date -u -d "@$((first + day * 86400))" '+%Y-%m-%d %H:%M:%S')" \
        "$bin" -r "$dir/r1" backup -q --no-progress "$dir/src"
}
t0=$(date +%s)
for n in "${counts[@]}"; do
    while [ "$day" -lt "$n" ]; do day=$((day + 1)); nightly; done
    built=$(($(date +%s) - t0))
    got=$("$bin" -r "$dir/r1" --json snapshots | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
    [ "$got" -eq "$n" ] || { echo "bench-snapshots: $got snapshots, not $n" >&2; exit 1; }
    s=$(median_range "$bin" -r "$dir/r1" snapshots)
    d=$(median_range "$bin" -r "$dir/r1" delete --keep-daily 7 --keep-weekly 52 --dry-run --no-progress)
    l=$(median_range "$bin" -r "$dir/r1" ls latest)
    b0=$(date +%s.%N); day=$((day + 1)); nightly; b1=$(date +%s.%N)
    printf '| %s | %s | %.2f | %s | %s | %s |\n' "$n" "$built" "$(echo "$b1 - $b0" | bc)" "$s" "$d" "$l"
    t0=$(( $(date +%s) - built ))
done
