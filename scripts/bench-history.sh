#!/usr/bin/env bash
# Does history stay cheap? Many small backups, with a delete every so often, and the
# cost of the last backups compared with the first ones (a fresh repository).
#
#   scripts/bench-history.sh [--backups N] [--every K] [--keep K] [--no-delete] [--out FILE]
#
#   --backups N   backups to run (default 1000)
#   --every K     run `tangle delete --keep-last KEEP` after every K backups (default 50)
#   --keep K      snapshots each delete keeps (default 10)
#   --no-delete   never delete (shows the growth delete is there to stop)
#   --out FILE    also write the report (markdown) to FILE
#
# Each backup changes one small file of a 200-file tree, into three local remotes (in a
# temporary directory, removed at the end). The report compares the last cycle of EVERY
# backups with the first one (a fresh repository, at the same point of its cycle): the
# mean wall and CPU time and the mean remote requests per backup (lists, gets, puts: counted by
# the binary itself, TANGLE_DEBUG_REQUESTS), and their ratio (the issue's target: at most
# 1.2x). It also times each delete.
set -uo pipefail

BACKUPS=1000
EVERY=50
KEEP=10
DELETE=1
OUT=""
while [ $# -gt 0 ]; do
    case "$1" in
        --backups) BACKUPS=$2; shift ;;
        --every) EVERY=$2; shift ;;
        --keep) KEEP=$2; shift ;;
        --no-delete) DELETE=0 ;;
        --out) OUT=$2; shift ;;
        *) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
    shift
done

cd "$(dirname "$0")/.."
if [ -z "${TANGLE_BIN:-}" ]; then
    cargo build --release -q || exit 1
    TANGLE_BIN=$PWD/target/release/tangle
fi
WORK=$(mktemp -d /var/tmp/tangle-history.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
SRC=$WORK/src
mkdir -p "$SRC"
for i in $(seq 1 200); do head -c 4096 /dev/urandom > "$SRC/f$i"; done
echo "bench" > "$WORK/pw"
export TANGLE_DEBUG_REQUESTS=1
T=("$TANGLE_BIN" --password-file "$WORK/pw" --cache-dir "$WORK/cache")
R=("$WORK/r0" "$WORK/r1" "$WORK/r2")
"${T[@]}" init --remote "${R[0]}" --remote "${R[1]}" --remote "${R[2]}" >/dev/null 2>&1 || { echo "init failed" >&2; exit 1; }

# One backup: prints "seconds lists gets puts cpu-seconds" (cpu: user + system, which
# other work on the machine disturbs less than wall time).
backup_once() {
    head -c 512 /dev/urandom >> "$SRC/f$(( ($1 % 200) + 1 ))"
    local err
    err=$(/usr/bin/time -f 'TIME %e %U %S' "${T[@]}" -r "${R[0]}" backup "$SRC" --json 2>&1 >/dev/null) || {
        echo "backup $1 failed: $err" >&2
        exit 1
    }
    local line times
    line=$(grep 'remote requests' <<<"$err")
    times=$(grep '^TIME ' <<<"$err")
    awk -v l="$line" -v t="$times" 'BEGIN {
        n = split(l, w, /[ ,]+/); for (i = 1; i < n; i++) c[w[i]] = w[i + 1];
        split(t, x, " ");
        printf "%.3f %d %d %d %.3f\n", x[2], c["list"], c["get"], c["put"], x[3] + x[4] }'
}

: > "$WORK/backups.txt"
: > "$WORK/deletes.txt"
for b in $(seq 1 "$BACKUPS"); do
    echo "$b $(backup_once "$b")" >> "$WORK/backups.txt"
    if [ "$DELETE" = 1 ] && [ $((b % EVERY)) = 0 ]; then
        start=$(date +%s.%N)
        "${T[@]}" -r "${R[0]}" delete --keep-last "$KEEP" >/dev/null 2>&1 ||
            { echo "delete after backup $b failed" >&2; exit 1; }
        end=$(date +%s.%N)
        echo "$b $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }')" >> "$WORK/deletes.txt"
    fi
    [ $((b % 100)) = 0 ] && echo "bench-history: $b backups" >&2
done
"${T[@]}" -r "${R[0]}" verify >/dev/null 2>&1
VERIFY=$?

mean() { awk -v from="$1" -v to="$2" -v col="$3" '$1 >= from && $1 <= to { s += $col; n++ }
    END { if (n) printf "%.3f", s / n; else print "-" }' "$WORK/backups.txt"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "-" }'; }
CYCLE=$EVERY
[ "$CYCLE" -gt "$BACKUPS" ] && CYCLE=$BACKUPS
LAST_FROM=$((BACKUPS - CYCLE + 1))
{
    echo "## History: $BACKUPS small backups$([ "$DELETE" = 1 ] && echo ", delete --keep-last $KEEP every $EVERY")"
    echo
    echo "| per backup, mean | backups 1-$CYCLE | backups $LAST_FROM-$BACKUPS | ratio |"
    echo "|---|---|---|---|"
    for spec in "wall s:2" "cpu s:6" "lists:3" "gets:4" "puts:5"; do
        name=${spec%%:*} col=${spec##*:}
        a=$(mean 1 "$CYCLE" "$col") b=$(mean "$LAST_FROM" "$BACKUPS" "$col")
        echo "| $name | $a | $b | $(ratio "$a" "$b") |"
    done
    if [ -s "$WORK/deletes.txt" ]; then
        echo
        echo "deletes: $(wc -l < "$WORK/deletes.txt"), wall s first $(head -1 "$WORK/deletes.txt" | cut -d' ' -f2), last $(tail -1 "$WORK/deletes.txt" | cut -d' ' -f2)"
    fi
    echo
    echo "remote 0 afterwards: $(find "${R[0]}" -type f | wc -l) objects ($(find "${R[0]}/heads" -type f | wc -l) heads, $(find "${R[0]}/index" -type f | wc -l) index segments, $(find "${R[0]}/extents" -type f | wc -l) certificates); verify exit $VERIFY"
} | tee ${OUT:+"$OUT"}
