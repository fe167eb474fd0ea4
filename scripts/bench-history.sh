#!/usr/bin/env bash
# Does history stay cheap? Many small backups, with a delete every so often, and the
# cost of the last backups compared with the first ones (a fresh repository).
#
#   scripts/bench-history.sh [--backups N] [--every K] [--keep K] [--no-delete] [--out FILE] [--dir DIR] [--keep-work]
#
#   --backups N   backups to run (default 1000)
#   --every K     run `tangle delete --keep-last KEEP` after every K backups (default 50)
#   --keep K      snapshots each delete keeps (default 10)
#   --no-delete   never delete (shows the growth delete is there to stop)
#   --out FILE    also write the report (markdown) to FILE
#   --dir DIR     where the work directory goes (default /var/tmp; e.g. /dev/shm for a
#                 tmpfs, to take the disk's file system out of the comparison)
#   --keep-work   keep the work directory (the tree, the remotes, the cache, the per-backup
#                 numbers in backups.txt) to measure its end state
#
# Each backup changes one small file of a 200-file tree, into three local remotes (in a
# temporary directory, removed at the end). The report compares the last cycle of EVERY
# backups with the first one, and with a fresh repository (same tree) whose first EVERY
# backups run in turn with that last cycle, so that both are timed under the same load
# (the machine drifts over a run of minutes). Per backup: the mean and median wall and CPU
# time (user, system) and remote requests (lists, gets, puts: counted by the binary
# itself, TANGLE_DEBUG_REQUESTS), and their ratios (the issue's target: at most 1.2x).
# It also times each delete.
set -uo pipefail

BACKUPS=1000
EVERY=50
KEEP=10
DELETE=1
OUT=""
KEEP_WORK=0
DIR=/var/tmp
while [ $# -gt 0 ]; do
    case "$1" in
        --backups) BACKUPS=$2; shift ;;
        --every) EVERY=$2; shift ;;
        --keep) KEEP=$2; shift ;;
        --no-delete) DELETE=0 ;;
        --out) OUT=$2; shift ;;
        --keep-work) KEEP_WORK=1 ;;
        --dir) DIR=$2; shift ;;
        *) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
    shift
done

cd "$(dirname "$0")/.."
if [ -z "${TANGLE_BIN:-}" ]; then
    cargo build --release -q || exit 1
    TANGLE_BIN=$PWD/target/release/tangle
fi
WORK=$(mktemp -d "$DIR/tangle-history.XXXXXX")
if [ "$KEEP_WORK" = 1 ]; then echo "bench-history: work directory $WORK" >&2; else trap 'rm -rf "$WORK"' EXIT; fi
mkdir -p "$WORK/src"
for i in $(seq 1 200); do head -c 4096 /dev/urandom > "$WORK/src/f$i"; done
echo "bench" > "$WORK/pw"
export TANGLE_DEBUG_REQUESTS=1
T=("$TANGLE_BIN" --password-file "$WORK/pw" --cache-dir "$WORK/cache")
R=("$WORK/r0" "$WORK/r1" "$WORK/r2")
"${T[@]}" init --remote "${R[0]}" --remote "${R[1]}" --remote "${R[2]}" >/dev/null 2>&1 || { echo "init failed" >&2; exit 1; }

# backup_once N REPO: backup number N of REPO ("" for the long history, "fresh" for the
# fresh repository of the last cycle; each has its own tree, cache and remotes). Prints
# "seconds lists gets puts cpu-seconds user system" (cpu: user + system, which other
# work on the machine disturbs less than wall time).
backup_once() {
    local src=$WORK/src${2:-} cache=$WORK/cache${2:-} remote=$WORK/r0${2:-}
    head -c 512 /dev/urandom >> "$src/f$(( ($1 % 200) + 1 ))"
    # bash's `time` (milliseconds; /usr/bin/time rounds CPU time to 10 ms).
    local times line TIMEFORMAT='TIME %3R %3U %3S'
    times=$( { time "$TANGLE_BIN" --password-file "$WORK/pw" --cache-dir "$cache" \
        -r "$remote" backup "$src" --json >/dev/null 2>"$WORK/stderr"; } 2>&1 ) || {
        echo "backup $1 of ${2:-the history} failed: $(cat "$WORK/stderr")" >&2
        exit 1
    }
    line=$(grep 'remote requests' "$WORK/stderr")
    awk -v l="$line" -v t="$times" 'BEGIN {
        n = split(l, w, /[ ,]+/); for (i = 1; i < n; i++) c[w[i]] = w[i + 1];
        split(t, x, " ");
        printf "%.3f %d %d %d %.3f %.3f %.3f\n", x[2], c["list"], c["get"], c["put"], x[3] + x[4], x[3], x[4] }'
}

CYCLE=$EVERY
[ "$CYCLE" -gt "$BACKUPS" ] && CYCLE=$BACKUPS
LAST_FROM=$((BACKUPS - CYCLE + 1))
: > "$WORK/backups.txt"
: > "$WORK/fresh.txt"
: > "$WORK/deletes.txt"
for b in $(seq 1 "$BACKUPS"); do
    if [ "$b" = "$LAST_FROM" ] && [ "$LAST_FROM" -gt 1 ]; then
        # A fresh repository (same tree, same state of it), backed up in turn with the
        # history's last cycle: both are timed under the same load, so a drift of the
        # machine over the long run cannot pass for a cost of history.
        cp -a "$WORK/src" "$WORK/srcfresh"
        "$TANGLE_BIN" --password-file "$WORK/pw" --cache-dir "$WORK/cachefresh" init \
            --remote "$WORK/r0fresh" --remote "$WORK/r1fresh" --remote "$WORK/r2fresh" \
            >/dev/null 2>&1 || { echo "init of the fresh repository failed" >&2; exit 1; }
    fi
    if [ "$b" -ge "$LAST_FROM" ] && [ "$LAST_FROM" -gt 1 ]; then
        k=$((b - LAST_FROM + 1))
        # Alternate which goes first, so neither always runs on a warmer machine.
        if [ $((k % 2)) = 0 ]; then
            echo "$k $(backup_once "$k" fresh)" >> "$WORK/fresh.txt"
            echo "$b $(backup_once "$b")" >> "$WORK/backups.txt"
        else
            echo "$b $(backup_once "$b")" >> "$WORK/backups.txt"
            echo "$k $(backup_once "$k" fresh)" >> "$WORK/fresh.txt"
        fi
    else
        echo "$b $(backup_once "$b")" >> "$WORK/backups.txt"
    fi
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

# summary FILE FROM TO COL: "mean median" of column COL over the rows numbered FROM..TO.
summary() { awk -v from="$2" -v to="$3" -v col="$4" '$1 >= from && $1 <= to { v[n++] = $col; s += $col }
    END { if (!n) { print "- -"; exit }
          for (i = 1; i < n; i++) for (j = i; j > 0 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
          m = (n % 2) ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2
          printf "%.3f %.3f", s / n, m }' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0) printf "%.2f", b / a; else print "-" }'; }
{
    echo "## History: $BACKUPS small backups$([ "$DELETE" = 1 ] && echo ", delete --keep-last $KEEP every $EVERY")"
    echo
    echo "Per backup, mean (median). The fresh repository is backed up in turn with the"
    echo "history's last cycle, so the two share the machine's state at that time."
    echo
    echo "| per backup | history, backups 1-$CYCLE | history, backups $LAST_FROM-$BACKUPS | fresh repository, backups 1-$CYCLE, alongside | last / first cycle | last cycle / fresh alongside |"
    echo "|---|---|---|---|---|---|"
    for spec in "wall s:2" "cpu s:6" "user s:7" "system s:8" "lists:3" "gets:4" "puts:5"; do
        name=${spec%%:*} col=${spec##*:}
        read -r a am <<<"$(summary "$WORK/backups.txt" 1 "$CYCLE" "$col")"
        read -r b bm <<<"$(summary "$WORK/backups.txt" "$LAST_FROM" "$BACKUPS" "$col")"
        read -r f fm <<<"$(summary "$WORK/fresh.txt" 1 "$CYCLE" "$col")"
        echo "| $name | $a ($am) | $b ($bm) | $f ($fm) | $(ratio "$a" "$b") ($(ratio "$am" "$bm")) | $(ratio "$f" "$b") ($(ratio "$fm" "$bm")) |"
    done
    if [ -s "$WORK/deletes.txt" ]; then
        echo
        echo "deletes: $(wc -l < "$WORK/deletes.txt"), wall s first $(head -1 "$WORK/deletes.txt" | cut -d' ' -f2), last $(tail -1 "$WORK/deletes.txt" | cut -d' ' -f2)"
    fi
    echo
    echo "remote 0 afterwards: $(find "${R[0]}" -type f | wc -l) objects ($(find "${R[0]}/heads" -type f | wc -l) heads, $(find "${R[0]}/index" -type f | wc -l) index segments, $(find "${R[0]}/extents" -type f | wc -l) certificates); verify exit $VERIFY"
} | tee ${OUT:+"$OUT"}
