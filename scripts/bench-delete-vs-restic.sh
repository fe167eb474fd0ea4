#!/usr/bin/env bash
# `tangle delete` against `restic forget --prune` on the same history, in one run.
#
#   scripts/bench-delete-vs-restic.sh [--small] [--tree DIR] [--snapshots N] [--delete K]
#                                     [--change PCT] [--out FILE] [--keep]
#
#   --small         the ~200 MiB tree instead of the ~2.1 GiB one
#   --tree DIR      the tree (default /var/tmp/tangle-bench-tree[-small], made by
#                   scripts/make-bench-tree.sh if missing); it is copied, never changed
#   --snapshots N   snapshots in the history (default 10)
#   --delete K      the oldest K are deleted (default 5): `--keep-last N-K`
#   --change PCT    share of the files rewritten between two snapshots (default 2)
#   --out FILE      also write the report (markdown) to FILE
#   --keep          keep the work directory (beside the tree, on the same disk)
#
# Both tools back up the same N states of a copy of the tree (tangle into three local
# remotes, restic into one local repository), then delete the oldest K snapshots and
# reclaim their space: tangle `delete --keep-last N-K`, restic `forget --keep-last N-K
# --prune`. Each delete runs under /usr/bin/time (wall seconds, peak RSS). Bytes freed
# and written are measured on the repositories (files gone or shrunk, files new); bytes
# read are tangle's own count (`delete --json`) and, for restic, the packs its prune
# repacks ("to repack" in its output). Both then restore the newest snapshot, which must
# be identical to the last state of the tree, and tangle's repository must verify clean.
# The issue's target: tangle no slower than restic, and moving no more bytes than restic's
# prune plus the parity updates.
set -uo pipefail

SMALL=0 TREE= N=10 K=5 PCT=2 OUT= KEEP=0
while [ $# -gt 0 ]; do
    case "$1" in
        --small) SMALL=1 ;;
        --tree) TREE=$2; shift ;;
        --snapshots) N=$2; shift ;;
        --delete) K=$2; shift ;;
        --change) PCT=$2; shift ;;
        --out) OUT=$2; shift ;;
        --keep) KEEP=1 ;;
        *) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
    shift
done
[ "$K" -lt "$N" ] || { echo "--delete must be below --snapshots" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
log() { echo "bench-delete: $*" >&2; }

if ! command -v restic >/dev/null; then
    log "installing restic"
    { apt-get update -qq && apt-get install -y -qq restic; } >/dev/null 2>&1 ||
        { log "restic is missing and could not be installed"; exit 1; }
fi
if [ -z "${TANGLE_BIN:-}" ]; then
    (cd "$ROOT" && cargo build --release -q) || exit 1
    TANGLE_BIN=$ROOT/target/release/tangle
fi
if [ -z "$TREE" ]; then
    TREE=/var/tmp/tangle-bench-tree$([ "$SMALL" = 1 ] && echo -small)
    "$ROOT/scripts/make-bench-tree.sh" $([ "$SMALL" = 1 ] && echo --small) "$TREE" >&2 || exit 1
fi
W=$(mktemp -d "$(dirname "$TREE")/tangle-bench-delete.XXXXXX")
[ "$KEEP" = 1 ] || trap 'rm -rf "$W"' EXIT
log "work directory $W"
SRC=$W/src
cp -a "$TREE" "$SRC"
export RESTIC_PASSWORD=bench RESTIC_REPOSITORY=$W/restic RESTIC_CACHE_DIR=$W/restic-cache
export TANGLE_PASSWORD=bench XDG_CACHE_HOME=$W/xdg-cache XDG_CONFIG_HOME=$W/xdg-config
T=("$TANGLE_BIN" -r "$W/t0")
restic init -q || exit 1
"$TANGLE_BIN" init --remote "$W/t0" --remote "$W/t1" --remote "$W/t2" >/dev/null || exit 1

# The files, in a fixed order; snapshot i rewrites the PCT% of them picked by i.
find "$SRC" -type f -size +0 | LC_ALL=C sort > "$W/files"
FILES=$(wc -l < "$W/files")
STEP=$(( 100 / PCT ))
change() {
    awk -v s="$STEP" -v i="$1" 'NR % s == i % s' "$W/files" | while read -r f; do
        # Rewrite the first 64 KiB (or the whole file): new content, same size.
        n=$(stat -c %s "$f"); [ "$n" -gt 65536 ] && n=65536
        head -c "$n" /dev/urandom | dd of="$f" conv=notrunc status=none
    done
}
for i in $(seq 1 "$N"); do
    [ "$i" = 1 ] || change "$i"
    log "snapshot $i of $N"
    restic backup -q "$SRC" >/dev/null || { log "restic backup $i failed"; exit 1; }
    "${T[@]}" backup --no-progress "$SRC" >/dev/null || { log "tangle backup $i failed"; exit 1; }
done

# measure NAME DIR... -- CMD...: run CMD under time; then freed/written from the listings.
declare -A WALL RSS FREED WRITTEN
snapshot_sizes() { find "$@" -type f -printf '%i %s %p\n' | LC_ALL=C sort -k3; }
measure() {
    local name=$1; shift
    local dirs=()
    while [ "$1" != -- ]; do dirs+=("$1"); shift; done
    shift
    snapshot_sizes "${dirs[@]}" > "$W/$name.before"
    sync
    /usr/bin/time -f '%e %M' -o "$W/$name.time" "$@" > "$W/$name.out" 2>&1 ||
        { log "$name failed:"; tail -5 "$W/$name.out" >&2; exit 1; }
    snapshot_sizes "${dirs[@]}" > "$W/$name.after"
    read -r WALL[$name] RSS[$name] < "$W/$name.time"
    # A file is new if its path or inode is new (rewritten in place counts as new).
    WRITTEN[$name]=$(awk 'NR == FNR { seen[$1 " " $3] = 1; next } !(($1 " " $3) in seen) { s += $2 } END { print s + 0 }' "$W/$name.before" "$W/$name.after")
    local before after
    before=$(awk '{ s += $2 } END { print s + 0 }' "$W/$name.before")
    after=$(awk '{ s += $2 } END { print s + 0 }' "$W/$name.after")
    FREED[$name]=$(( before - after + WRITTEN[$name] ))
}
KEEP_LAST=$(( N - K ))
log "restic forget --prune"
measure restic "$W/restic" -- restic forget --keep-last "$KEEP_LAST" --prune
log "tangle delete"
measure tangle "$W/t0" "$W/t1" "$W/t2" -- "${T[@]}" delete --keep-last "$KEEP_LAST" --json

mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
per() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'; }
RESTIC_READ=$(sed -n 's/^to repack: .* \/ \([0-9.]*\) \([KMGT]\?i\?B\).*/\1 \2/p' "$W/restic.out" |
    awk '{ m = ($2 ~ /^K/) ? 1024 : ($2 ~ /^M/) ? 1048576 : ($2 ~ /^G/) ? 1073741824 : ($2 ~ /^T/) ? 1099511627776 : 1; printf "%d", $1 * m }')
RESTIC_READ=${RESTIC_READ:-0}
json_num() { sed -n "s/.*\"$1\": *\([0-9]*\).*/\1/p" "$W/tangle.out" | head -1; }
TANGLE_READ=$(json_num bytes_read)
REENC_READ=$(json_num reencode_bytes_read); REENC_READ=${REENC_READ:-0}
REENC_WRITTEN=$(json_num reencode_bytes_written); REENC_WRITTEN=${REENC_WRITTEN:-0}

# Both must still restore the newest state, and tangle must verify clean.
restic restore -q latest --target "$W/restic-restore" >/dev/null 2>&1
"${T[@]}" restore latest --target "$W/tangle-restore" >/dev/null 2>&1
RESTIC_OK=FAIL TANGLE_OK=FAIL
diff -r --no-dereference -q "$SRC" "$W/restic-restore$SRC" >/dev/null 2>&1 && RESTIC_OK=identical
diff -r --no-dereference -q "$SRC" "$W/tangle-restore$SRC" >/dev/null 2>&1 && TANGLE_OK=identical
"${T[@]}" verify >/dev/null 2>&1
VERIFY=$?

{
    echo "## Delete the oldest $K of $N snapshots ($(du -sh "$TREE" | cut -f1) tree, $FILES files, ${PCT}% rewritten per snapshot)"
    echo
    echo "| tool | wall s | peak RSS MiB | freed MiB | written MiB | read MiB | written / freed | read / freed |"
    echo "|---|---|---|---|---|---|---|---|"
    for t in restic tangle; do
        r=$([ "$t" = restic ] && echo "$RESTIC_READ" || echo "${TANGLE_READ:-0}")
        echo "| $t | ${WALL[$t]} | $(mib $(( RSS[$t] * 1024 ))) | $(mib "${FREED[$t]}") | $(mib "${WRITTEN[$t]}") | $(mib "$r") | $(per "${WRITTEN[$t]}" "${FREED[$t]}") | $(per "$r" "${FREED[$t]}") |"
    done
    echo
    RESTIC_MOVED=$(( WRITTEN[restic] + RESTIC_READ ))
    PARITY=$(( REENC_READ + REENC_WRITTEN ))
    TANGLE_MOVED=$(( WRITTEN[tangle] + ${TANGLE_READ:-0} ))
    echo "Bytes moved (read + written): restic $(mib "$RESTIC_MOVED") MiB; tangle $(mib "$TANGLE_MOVED") MiB, of which parity updates (re-encoding: $(mib "$REENC_READ") MiB read, $(mib "$REENC_WRITTEN") MiB written) $(mib "$PARITY") MiB and the rest (repacking, index, record) $(mib $(( TANGLE_MOVED - PARITY ))) MiB."
    echo "Target (issue 12): tangle no slower than restic: $(awk -v t="${WALL[tangle]}" -v r="${WALL[restic]}" 'BEGIN { print (t <= r) ? "met" : "NOT met" }'); tangle's bytes moved at most restic's plus the parity updates: $([ $(( TANGLE_MOVED - PARITY )) -le "$RESTIC_MOVED" ] && echo met || echo "NOT met")."
    echo
    echo "tangle/restic wall: $(per "${WALL[tangle]}" "${WALL[restic]}"). Newest snapshot after the delete: restic $RESTIC_OK, tangle $TANGLE_OK; tangle verify exit $VERIFY."
    echo "restic $(restic version | cut -d' ' -f2); $("$TANGLE_BIN" --version). tangle writes three remotes (data plus parity), restic one."
} | tee ${OUT:+"$OUT"}
[ "$RESTIC_OK" = identical ] && [ "$TANGLE_OK" = identical ] && [ "$VERIFY" = 0 ]
