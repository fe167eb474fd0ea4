#!/usr/bin/env bash
# Build a realistic benchmark tree for tangle (and restic comparisons).
#
#   scripts/make-bench-tree.sh [--small] DIR
#
# Full (default, ~2.1 GiB): the whole Linux kernel source from Debian's
#   linux-source-6.1 package (or the newest linux-source-X.Y available), extracted,
#   plus real binaries (/usr/bin, /usr/lib/x86_64-linux-gnu, ...) until the tree holds
#   about 2.1 GiB.
# --small (~200 MiB): a subset of the kernel source (fs/ kernel/ mm/ lib/ ipc/ ...)
#   plus binaries until about 200 MiB.
#
# Layout: DIR/linux-source-X.Y/...  and  DIR/bin/usr/...
# The binaries part holds regular files and symlinks (symlinks are copied as links,
# some absolute, some dangling: a backup tool must keep them as they are).
#
# Idempotent: a complete tree has DIR/.tangle-bench-tree (mode, size); if it is there
# and matches the mode asked for, nothing is done. A tree of the other mode, or one
# left half-built, is removed and rebuilt, but only if it was built by this script.
# Needs root only to install the linux-source package if it is missing.
set -euo pipefail

usage() { echo "usage: $0 [--small] DIR" >&2; exit 2; }

MODE=full
DIR=
while [ $# -gt 0 ]; do
    case "$1" in
        --small) MODE=small ;;
        --full) MODE=full ;;
        -h|--help) usage ;;
        -*) echo "unknown option: $1" >&2; usage ;;
        *) [ -z "$DIR" ] || usage; DIR=$1 ;;
    esac
    shift
done
[ -n "$DIR" ] || usage

if [ "$MODE" = full ]; then
    TARGET_BYTES=$((2150 * 1024 * 1024))   # ~2.1 GiB
else
    TARGET_BYTES=$((200 * 1024 * 1024))    # ~200 MiB
fi
# Kernel directories that make up the small tree's source part (~150 MiB).
SMALL_KERNEL_DIRS="fs kernel mm lib ipc block init security crypto scripts net include arch/x86"

MARKER=.tangle-bench-tree
PARTIAL=.tangle-bench-tree.partial

log() { echo "make-bench-tree: $*" >&2; }

mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

if [ -f "$DIR/$MARKER" ]; then
    if grep -qx "mode=$MODE" "$DIR/$MARKER"; then
        log "$DIR is already a complete $MODE tree ($(grep '^bytes=' "$DIR/$MARKER" | cut -d= -f2) bytes); nothing to do"
        exit 0
    fi
    log "$DIR holds a tree of another mode; rebuilding it as $MODE"
    find "$DIR" -mindepth 1 -delete
elif [ -f "$DIR/$PARTIAL" ]; then
    log "$DIR holds a half-built tree; rebuilding it"
    find "$DIR" -mindepth 1 -delete
elif [ -n "$(ls -A "$DIR")" ]; then
    echo "make-bench-tree: $DIR is not empty and was not made by this script; refusing to touch it" >&2
    exit 1
fi
touch "$DIR/$PARTIAL"

# ---- 1. the kernel source -------------------------------------------------------------
find_tarball() {
    find /usr/src -maxdepth 1 -name "linux-source-*.tar.xz" 2>/dev/null | sort -V | tail -n 1
}
TARBALL=$(find_tarball || true)
if [ -z "$TARBALL" ]; then
    [ "$(id -u)" = 0 ] || { echo "make-bench-tree: need root to apt-get install linux-source" >&2; exit 1; }
    export DEBIAN_FRONTEND=noninteractive
    PKG=
    # Whether a package has an install candidate. The output is read whole first: with
    # pipefail, `apt-cache policy | grep -q` fails when grep quits early (SIGPIPE).
    has_candidate() { local out; out=$(apt-cache policy "$1" 2>/dev/null) || return 1; grep -q 'Candidate: [0-9]' <<<"$out"; }
    has_candidate linux-source-6.1 || apt-get update -qq
    if has_candidate linux-source-6.1; then
        PKG=linux-source-6.1
    else
        # Another version: the newest linux-source-X.Y that has an install candidate.
        for p in $(apt-cache search --names-only '^linux-source-[0-9.]+$' | awk '{print $1}' | sort -V -r); do
            if has_candidate "$p"; then PKG=$p; break; fi
        done
    fi
    [ -n "$PKG" ] || { echo "make-bench-tree: no linux-source package available" >&2; exit 1; }
    log "installing $PKG"
    apt-get install -y -q --no-install-recommends "$PKG" >&2
    TARBALL=$(find_tarball)
fi
PREFIX=$(basename "$TARBALL" .tar.xz)   # e.g. linux-source-6.1
log "extracting $TARBALL ($MODE)"
if [ "$MODE" = full ]; then
    tar -C "$DIR" -xJf "$TARBALL"
else
    members=()
    for d in $SMALL_KERNEL_DIRS; do members+=("$PREFIX/$d"); done
    tar -C "$DIR" -xJf "$TARBALL" "${members[@]}"
fi

tree_bytes() { du -sb --apparent-size "$DIR" | cut -f1; }
HAVE=$(tree_bytes)
log "kernel source: $HAVE bytes"

# ---- 2. binaries until the target size ----------------------------------------------
NEED=$((TARGET_BYTES - HAVE))
if [ "$NEED" -gt 0 ]; then
    TAB=$(printf '\t')
    LIST=$(mktemp)
    trap 'rm -f "$LIST"' EXIT
    # Paths relative to /, in a fixed order, each at most once; regular files count
    # towards the budget (one that would overshoot it is skipped), symlinks are free and
    # come along with their directory's files.
    # Stop when the budget is spent (awk reads on to the end: no SIGPIPE under pipefail).
    {
        for src in usr/bin usr/sbin usr/lib/x86_64-linux-gnu usr/libexec usr/lib; do
            [ -d "/$src" ] || continue
            (cd / && find "$src" \( -type f -o -type l \) -printf '%y\t%s\t%p\n' | LC_ALL=C sort -t "$TAB" -k3)
        done
    } | awk -F '\t' -v need="$NEED" '
        done || seen[$3]++ { next }
        $1 == "f" { if (total + $2 > need) { if (total > need - 1048576) done = 1; next }; total += $2 }
        { printf "%s%c", $3, 0 }
    ' > "$LIST"
    mkdir -p "$DIR/bin"
    # Files that vanish or cannot be read are skipped, not fatal.
    (cd / && { tar --no-recursion --null -T "$LIST" -cf - 2>/dev/null || true; }) | tar -C "$DIR/bin" -xf -
    rm -f "$LIST"
fi

BYTES=$(tree_bytes)
FILES=$(find "$DIR" -type f | wc -l)
rm -f "$DIR/$PARTIAL"
printf 'mode=%s\nbytes=%s\nfiles=%s\nsource=%s\n' "$MODE" "$BYTES" "$FILES" "$PREFIX" > "$DIR/$MARKER"
log "done: $DIR ($MODE): $BYTES bytes ($((BYTES / 1024 / 1024)) MiB) in $FILES files"
