#!/usr/bin/env bash
# Time tangle against restic on the same tree, in one run.
#
#   scripts/bench-vs-restic.sh [--small] [--tree DIR] [--out FILE] [options]
#
# Options:
#   --small          use the ~200 MiB tree instead of the ~2.1 GiB one
#   --tree DIR       the tree to back up. Default: /var/tmp/tangle-bench-tree[-small],
#                    built by scripts/make-bench-tree.sh if missing. A DIR that is empty,
#                    missing or made by make-bench-tree.sh is (re)built by it; any other
#                    existing DIR is used as it is.
#   --out FILE       also write the report (markdown) to FILE
#   --workdir DIR    where the repositories and restores go (default: a fresh temporary
#                    directory beside the tree, so on the same disk); removed at the end
#   --keep           keep the work directory
#   --only TOOL      run only `restic` or only `tangle`
#   --no-build       do not run `cargo build --release` (use target/release/tangle, or
#                    $TANGLE_BIN)
#
# For each tool, with a fresh repository: init, initial backup, unchanged re-backup,
# restore, full read check (restic check --read-data / tangle verify --read-data).
# Each phase runs under /usr/bin/time -f '%e %M' (wall seconds, peak RSS), after
# `sync; echo 3 > /proc/sys/vm/drop_caches` when that is allowed (the report says
# whether it was). Both restores are compared with the source byte for byte
# (diff -r --no-dereference: file contents, file types, symlink targets).
# Passwords: $RESTIC_PASSWORD and $TANGLE_PASSWORD (a fixed benchmark password if unset).
# Exit status: 0 if every phase ran and both restores are identical to the source.
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

SMALL=0
TREE=
OUT=
WORKDIR=
KEEP=0
ONLY=
BUILD=1
while [ $# -gt 0 ]; do
    case "$1" in
        --small) SMALL=1 ;;
        --tree) TREE=${2:?--tree needs a directory}; shift ;;
        --tree=*) TREE=${1#*=} ;;
        --out) OUT=${2:?--out needs a file}; shift ;;
        --out=*) OUT=${1#*=} ;;
        --workdir) WORKDIR=${2:?--workdir needs a directory}; shift ;;
        --workdir=*) WORKDIR=${1#*=} ;;
        --keep) KEEP=1 ;;
        --only) ONLY=${2:?--only needs restic or tangle}; shift ;;
        --only=*) ONLY=${1#*=} ;;
        --no-build) BUILD=0 ;;
        -h|--help) usage ;;
        *) echo "unknown argument: $1" >&2; usage ;;
    esac
    shift
done
case "$ONLY" in ""|restic|tangle) ;; *) echo "--only takes restic or tangle" >&2; exit 2 ;; esac
run_restic() { [ "$ONLY" != tangle ]; }
run_tangle() { [ "$ONLY" != restic ]; }

log() { echo "bench: $*" >&2; }

# ---- tools ---------------------------------------------------------------------------
APT_UPDATED=0
apt_install() {
    [ "$(id -u)" = 0 ] || { log "need root to install $*"; return 1; }
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -q --no-install-recommends "$@" >&2; then
        [ "$APT_UPDATED" = 1 ] && return 1
        apt-get update -qq >&2 && APT_UPDATED=1
        apt-get install -y -q --no-install-recommends "$@" >&2
    fi
}
[ -x /usr/bin/time ] || apt_install time || { log "cannot install time"; exit 1; }
if run_restic && ! command -v restic >/dev/null; then
    apt_install restic || { log "cannot install restic"; exit 1; }
fi

TANGLE_STATUS=ok
if run_tangle; then
    if [ "$BUILD" = 1 ]; then
        log "cargo build --release"
        if ! (cd "$ROOT" && cargo build --release --bin tangle >&2); then
            log "cargo build --release FAILED: tangle's phases are skipped"
            TANGLE_STATUS="build failed"
        fi
    fi
    TANGLE=${TANGLE_BIN:-$ROOT/target/release/tangle}
    if [ "$TANGLE_STATUS" = ok ] && [ ! -x "$TANGLE" ]; then
        log "no tangle binary at $TANGLE: tangle's phases are skipped"
        TANGLE_STATUS="no binary"
    fi
fi

# ---- the tree ------------------------------------------------------------------------
if [ "$SMALL" = 1 ]; then MODE=--small; DEFAULT_TREE=/var/tmp/tangle-bench-tree-small
else MODE=--full; DEFAULT_TREE=/var/tmp/tangle-bench-tree; fi
TREE=${TREE:-$DEFAULT_TREE}
if [ ! -d "$TREE" ] || [ -z "$(ls -A "$TREE")" ] || [ -f "$TREE/.tangle-bench-tree" ] \
    || [ -f "$TREE/.tangle-bench-tree.partial" ]; then
    "$HERE/make-bench-tree.sh" "$MODE" "$TREE" || { log "could not build the tree"; exit 1; }
fi
TREE=$(cd "$TREE" && pwd)
TREE_BYTES=$(du -sb --apparent-size "$TREE" | cut -f1)
TREE_FILES=$(find "$TREE" -type f | wc -l)
TREE_LINKS=$(find "$TREE" -type l | wc -l)

# ---- the work directory --------------------------------------------------------------
if [ -n "$WORKDIR" ]; then
    mkdir -p "$WORKDIR" && W=$(mktemp -d "$WORKDIR/tangle-bench-run.XXXXXX")
else
    W=$(mktemp -d "$(dirname "$TREE")/tangle-bench-run.XXXXXX")
fi
[ -d "$W" ] || { log "cannot make a work directory"; exit 1; }
cleanup() { if [ "$KEEP" = 1 ]; then log "kept $W"; else rm -rf "$W"; fi; }
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$W/logs"
SAME_DISK=yes
[ "$(stat -c %d "$W")" = "$(stat -c %d "$TREE")" ] || SAME_DISK="no (tree and repositories are on different filesystems)"

# ---- page cache ----------------------------------------------------------------------
drop_caches() { sync; { echo 3 > /proc/sys/vm/drop_caches; } 2>/dev/null; }
if drop_caches; then
    CACHE_NOTE="yes: page cache dropped (sync; echo 3 > /proc/sys/vm/drop_caches) before every phase"
    CAN_DROP=1
else
    CACHE_NOTE="NO: could not drop the page cache (not root, or /proc/sys read-only); phases after the first run with a warm cache"
    CAN_DROP=0
fi

# ---- running phases -------------------------------------------------------------------
ROWS=()          # "tool|phase|seconds|rss"
FAILED=0
# run_phase TOOL PHASE [--tolerate-missing] CMD...: time CMD, add a table row.
# Returns CMD's exit status. The output of CMD is in $W/logs/.
run_phase() {
    local tool=$1 phase=$2 tolerate=0
    shift 2
    if [ "${1:-}" = --tolerate-missing ]; then tolerate=1; shift; fi
    local tag logf
    tag=$(echo "$tool-$phase" | tr -c 'a-zA-Z0-9\n-' '_')
    logf="$W/logs/$tag.log"
    [ "$CAN_DROP" = 1 ] && drop_caches
    log "$tool: $phase"
    /usr/bin/time -f '%e %M' -o "$W/time.out" "$@" > "$logf" 2>&1
    local rc=$?
    local secs rss
    read -r secs rss < <(tail -n 1 "$W/time.out")
    if [ "$rc" = 0 ]; then
        ROWS+=("$tool|$phase|$secs|$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')")
    elif [ "$tolerate" = 1 ] && grep -qiE "unrecognized subcommand|unexpected argument|unknown (command|subcommand)|invalid subcommand|unrecognized (argument|option)|not (yet )?implemented" "$logf"; then
        log "$tool: $phase is not available yet: n/a"
        ROWS+=("$tool|$phase|n/a|n/a")
        return 0
    else
        log "$tool: $phase FAILED (exit $rc); last lines of its output:"
        tail -n 15 "$logf" | sed 's/^/    /' >&2
        ROWS+=("$tool|$phase|FAILED (exit $rc)|-")
        FAILED=1
    fi
    return "$rc"
}

# compare SRC RESTORED: byte-for-byte contents, types and symlink targets. Also counts
# (for information) entries whose mode or mtime differ.
VERIFY=()
compare_trees() {
    local tool=$1 src=$2 got=$3
    if [ ! -d "$got" ]; then
        VERIFY+=("$tool: FAIL: restored tree $got does not exist")
        FAILED=1
        return
    fi
    local d
    if diff -r --no-dereference -q "$src" "$got" > "$W/logs/$tool-diff.log" 2>&1; then
        d="$tool: PASS: restored tree is byte-identical to the source (diff -r --no-dereference)"
    else
        d="$tool: FAIL: restore differs from the source in $(wc -l < "$W/logs/$tool-diff.log") places; first ones: $(head -n 3 "$W/logs/$tool-diff.log" | tr '\n' ';')"
        FAILED=1
    fi
    # Metadata, for information only.
    local m t
    ( cd "$src" && find . -printf '%p %m\n' | LC_ALL=C sort ) > "$W/src.modes"
    ( cd "$got" && find . -printf '%p %m\n' | LC_ALL=C sort ) > "$W/got.modes"
    m=$(LC_ALL=C comm -23 "$W/src.modes" "$W/got.modes" | wc -l)
    ( cd "$src" && find . ! -type l -printf '%p %T@\n' | LC_ALL=C sort ) > "$W/src.mtimes"
    ( cd "$got" && find . ! -type l -printf '%p %T@\n' | LC_ALL=C sort ) > "$W/got.mtimes"
    t=$(LC_ALL=C comm -23 "$W/src.mtimes" "$W/got.mtimes" | wc -l)
    d="$d; metadata (informational): $m entries with another mode, $t with another mtime"
    VERIFY+=("$d")
}

dir_bytes() { du -sb "$@" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }
SIZES=()

# ---- restic --------------------------------------------------------------------------
RESTIC_VERSION="(not run)"
if run_restic; then
    RESTIC_VERSION=$(restic version 2>&1 | head -n 1)
    export RESTIC_PASSWORD=${RESTIC_PASSWORD:-tangle-bench-password}
    export RESTIC_REPOSITORY="$W/restic-repo"
    export RESTIC_CACHE_DIR="$W/restic-cache"
    if run_phase restic init restic init; then
        run_phase restic "backup (initial)" restic backup "$TREE"
        run_phase restic "backup (unchanged)" restic backup "$TREE"
        if run_phase restic restore restic restore latest --target "$W/restic-restore"; then
            compare_trees restic "$TREE" "$W/restic-restore$TREE"
        else
            VERIFY+=("restic: FAIL: restore failed")
        fi
        run_phase restic "check --read-data" restic check --read-data
        SIZES+=("restic|repository|$(dir_bytes "$W/restic-repo")")
    fi
    rm -rf "$W/restic-restore"   # free the space before tangle runs
fi

# ---- tangle --------------------------------------------------------------------------
TANGLE_VERSION="(not run)"
if run_tangle; then
    if [ "$TANGLE_STATUS" = ok ]; then
        TANGLE_VERSION=$("$TANGLE" --version 2>&1 | head -n 1)
        export TANGLE_PASSWORD=${TANGLE_PASSWORD:-tangle-bench-password}
        # Keep any local cache or config of tangle inside the work directory.
        export XDG_CACHE_HOME="$W/tangle-xdg-cache" XDG_CONFIG_HOME="$W/tangle-xdg-config"
        R1="$W/tangle-r1" R2="$W/tangle-r2" R3="$W/tangle-r3"
        mkdir -p "$R1" "$R2" "$R3"
        if run_phase tangle init "$TANGLE" init --remote "$R1" --remote "$R2" --remote "$R3"; then
            run_phase tangle "backup (initial)" "$TANGLE" -r "$R1" backup "$TREE" --no-progress
            run_phase tangle "backup (unchanged)" "$TANGLE" -r "$R1" backup "$TREE" --no-progress
            if run_phase tangle restore "$TANGLE" -r "$R1" restore latest --target "$W/tangle-restore" --no-progress; then
                compare_trees tangle "$TREE" "$W/tangle-restore$TREE"
            else
                VERIFY+=("tangle: FAIL: restore failed")
            fi
            run_phase tangle "verify --read-data" --tolerate-missing "$TANGLE" -r "$R1" verify --read-data
            SIZES+=("tangle|3 remotes together|$(dir_bytes "$R1" "$R2" "$R3")")
            SIZES+=("tangle|remote 1|$(dir_bytes "$R1")")
        fi
        rm -rf "$W/tangle-restore"
    else
        TANGLE_VERSION="($TANGLE_STATUS)"
        for p in init "backup (initial)" "backup (unchanged)" restore "verify --read-data"; do
            ROWS+=("tangle|$p|n/a ($TANGLE_STATUS)|-")
        done
        FAILED=1
    fi
fi

# ---- report --------------------------------------------------------------------------
REPORT="$W/report.md"
{
    echo "## tangle vs restic"
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); host: $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) RAM"
    echo "- restic version: $RESTIC_VERSION"
    echo "- tangle --version: $TANGLE_VERSION"
    echo "- tree: $TREE: $TREE_BYTES bytes ($(awk -v b="$TREE_BYTES" 'BEGIN { printf "%.1f MiB", b / 1048576 }')), $TREE_FILES files, $TREE_LINKS symlinks"
    echo "- repositories under $W; same disk as the tree: $SAME_DISK"
    echo "- page cache dropped between phases: $CACHE_NOTE"
    echo "- tangle: 3 local remotes; restic: one local repository (restic's default compression)"
    echo
    echo "| tool | phase | seconds | peak RSS MiB |"
    echo "| --- | --- | ---: | ---: |"
    for r in "${ROWS[@]}"; do
        IFS='|' read -r a b c d <<< "$r"
        echo "| $a | $b | $c | $d |"
    done
    if [ "${#SIZES[@]}" -gt 0 ]; then
        echo
        echo "| tool | storage after both backups | bytes | MiB |"
        echo "| --- | --- | ---: | ---: |"
        for r in "${SIZES[@]}"; do
            IFS='|' read -r a b c <<< "$r"
            echo "| $a | $b | $c | $(awk -v b="$c" 'BEGIN { printf "%.1f", b / 1048576 }') |"
        done
    fi
    echo
    echo "Restore verification:"
    echo
    if [ "${#VERIFY[@]}" -eq 0 ]; then echo "- (no restore was verified)"; fi
    for v in "${VERIFY[@]}"; do echo "- $v"; done
} > "$REPORT"
cat "$REPORT"
if [ -n "$OUT" ]; then
    cp "$REPORT" "$OUT" && log "report written to $OUT"
fi
[ "$FAILED" = 0 ]
