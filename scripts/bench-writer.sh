#!/usr/bin/env bash
# Time a backup with a writer key against one with the password, on the same tree, in
# one run (issue 35: "backup speed with a writer key within 5% of the password path").
# Each round makes two fresh repositories of three local remotes each, backs the tree
# up into one with the password and into the other with a writer key (the order
# alternates between rounds; page cache dropped before each backup when run as root),
# and prints the wall times; the end prints the medians, ranges and the ratio.
#
#   scripts/bench-writer.sh [--rounds N] [--tree DIR] [--work DIR]
#
# Uses target/release/tangle (TANGLE_BIN overrides) and the benchmark tree of
# scripts/make-bench-tree.sh (default /var/tmp/tangle-bench-tree, built if missing).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
ROUNDS=3
TREE=/var/tmp/tangle-bench-tree
WORK=${TMPDIR:-/tmp}/tangle-bench-writer
while [ $# -gt 0 ]; do
    case $1 in
        --rounds) ROUNDS=${2:?}; shift ;;
        --tree) TREE=${2:?}; shift ;;
        --work) WORK=${2:?}; shift ;;
        *) echo "usage: $0 [--rounds N] [--tree DIR] [--work DIR]" >&2; exit 2 ;;
    esac
    shift
done
BIN=${TANGLE_BIN:-$ROOT/target/release/tangle}
[ -x "$BIN" ] || (cd "$ROOT" && cargo build --release --quiet)
[ -d "$TREE" ] && [ -n "$(ls -A "$TREE")" ] || "$HERE/make-bench-tree.sh" --full "$TREE"

drop_caches() {
    sync
    if [ -w /proc/sys/vm/drop_caches ]; then echo 3 > /proc/sys/vm/drop_caches; fi
}

# One backup into a fresh repository; prints its wall time in seconds.
backup() { # MODE (owner|writer) DIR
    local mode=$1 dir=$2
    rm -rf "$dir"; mkdir -p "$dir"
    export TANGLE_PASSWORD=bench XDG_CACHE_HOME=$dir/cache
    "$BIN" init --remote "$dir/r1" --remote "$dir/r2" --remote "$dir/r3" >/dev/null 2>&1
    local args=()
    if [ "$mode" = writer ]; then
        "$BIN" -r "$dir/r1" writer add bench --out "$dir/w.key" >/dev/null 2>&1
        args=(--writer-key "$dir/w.key")
    fi
    drop_caches
    local t0 t1
    t0=$(date +%s.%N)
    if [ "$mode" = writer ]; then
        env -u TANGLE_PASSWORD XDG_CACHE_HOME="$dir/wcache" \
            "$BIN" -r "$dir/r1" backup --no-progress "${args[@]}" "$TREE" >/dev/null
    else
        "$BIN" -r "$dir/r1" backup --no-progress "$TREE" >/dev/null
    fi
    t1=$(date +%s.%N)
    rm -rf "$dir"
    python3 -c "print(round($t1 - $t0, 2))"
}

owner=(); writer=()
for r in $(seq 1 "$ROUNDS"); do
    if [ $((r % 2)) = 1 ]; then order="owner writer"; else order="writer owner"; fi
    for m in $order; do
        t=$(backup "$m" "$WORK/$m")
        echo "round $r: $m backup ${t}s"
        if [ "$m" = owner ]; then owner+=("$t"); else writer+=("$t"); fi
    done
done
python3 - "${owner[*]}" "${writer[*]}" <<'PY'
import statistics, sys
o = [float(x) for x in sys.argv[1].split()]
w = [float(x) for x in sys.argv[2].split()]
mo, mw = statistics.median(o), statistics.median(w)
print(f"password: median {mo:.1f} s (range {min(o):.1f}-{max(o):.1f})")
print(f"writer key: median {mw:.1f} s (range {min(w):.1f}-{max(w):.1f})")
print(f"writer / password: {mw / mo:.3f}")
PY
