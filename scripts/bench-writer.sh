#!/usr/bin/env bash
# Time a backup with a writer key against one with the password, on the same tree, in
# one run (issue 35: "backup speed with a writer key within 5% of the password path").
# Each round makes two fresh repositories of three local remotes each, backs the tree
# up twice into one with the password and twice into the other with a writer key (the
# second backup finds nothing changed; the order alternates between rounds; page cache
# dropped before each backup when run as root), and prints the wall times; the end
# prints the medians, ranges and ratios of the first and of the repeat backups.
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
    local times=()
    for _ in first repeat; do
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
        times+=("$(python3 -c "print(round($t1 - $t0, 2))")")
    done
    rm -rf "$dir"
    echo "${times[*]}"
}

owner=(); writer=()
for r in $(seq 1 "$ROUNDS"); do
    if [ $((r % 2)) = 1 ]; then order="owner writer"; else order="writer owner"; fi
    for m in $order; do
        t=$(backup "$m" "$WORK/$m")
        echo "round $r: $m backup, first and repeat: ${t// /s, }s"
        if [ "$m" = owner ]; then owner+=("$t"); else writer+=("$t"); fi
    done
done
python3 - "${owner[*]}" "${writer[*]}" <<'PY'
import statistics, sys
o = [float(x) for x in sys.argv[1].split()]
w = [float(x) for x in sys.argv[2].split()]
for name, k in (("first backup", 0), ("repeat backup (nothing changed)", 1)):
    a, b = o[k::2], w[k::2]
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"{name}: password median {ma:.2f} s ({min(a):.2f}-{max(a):.2f}), "
          f"writer key {mb:.2f} s ({min(b):.2f}-{max(b):.2f}), writer / password {mb / ma:.3f}")
PY
