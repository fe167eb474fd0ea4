#!/usr/bin/env bash
# Time tangle against restic and against the machine's own limits on the same tree, in
# one run.
#
#   scripts/bench-vs-restic.sh [--small] [--rounds N] [--tree DIR] [--out FILE] [options]
#
# Options:
#   --small          use the ~200 MiB tree instead of the ~2.1 GiB one
#   --many N         use a tree of N small files instead (scripts/make_many_files.py:
#                    the same bytes on every machine, mean ~1.1 KB a file), made in
#                    /var/tmp/tangle-bench-many-N if missing (issue 37: N = 1000000)
#   --no-rustic      do not run rustic (by default it runs beside restic; installed with
#                    `cargo install --locked rustic-rs@$RUSTIC_VERSION` into
#                    ~/.cache/tangle-bench/rustic the first time, about 17 minutes here,
#                    when no `rustic` is on the PATH or in $RUSTIC_BIN)
#   --rounds N       run every timed phase N times (default 3), each round with fresh
#                    repositories and restore targets; the tables give medians and the
#                    min–max over the rounds. Rounds are interleaved: round 1 runs the
#                    anchors, then restic, then tangle, round 2 the same again, ... so a
#                    slow drift of the machine hits every tool alike. --rounds 1 is a
#                    single pass, as before. With --remote-kinds, the restore over each
#                    remote kind is also run N times (after all local rounds, from one
#                    init and backup per kind); --links always runs once.
#   --no-anchors     do not time the physical anchors (see below)
#   --tree DIR       the tree to back up. Default: /var/tmp/tangle-bench-tree[-small],
#                    built by scripts/make-bench-tree.sh if missing. A DIR that is empty,
#                    missing or made by make-bench-tree.sh is (re)built by it; any other
#                    existing DIR is used as it is.
#   --out FILE       also write the report (markdown) to FILE
#   --workdir DIR    where the repositories and restores go (default: a fresh temporary
#                    directory beside the tree, so on the same disk); removed at the end
#   --keep           keep the work directory (with the last round's repositories)
#   --coding S/P/T   init tangle's repositories with S data shards, P parity shards and
#                    T pointers instead of init's default (e.g. 4/3/2, the 3-remote
#                    default before 2026-11-27), to time one coding against another
#   --only TOOL      run only `restic`, only `rustic`, only `tangle` (local remotes), only `remotes`
#                    or only `links` (the anchors run with restic and with tangle)
#   --no-build       do not run `cargo build --release` (use target/release/tangle, or
#                    $TANGLE_BIN)
#   --remote-kinds[=LIST]  (also --remotes) also time tangle over real remote kinds:
#                    start private test servers (scripts/test-servers.sh: s3s-fs and
#                    sshd on 127.0.0.1, state under the work directory, stopped at exit)
#                    and, for each configuration in LIST (default s3,sftp,mixed):
#                      s3     three S3 remotes  s3://$TANGLE_TEST_S3_BUCKET/bench-N-s3-{a,b,c}
#                      sftp   three SFTP remotes  $TANGLE_TEST_SFTP_URL/bench-N-sftp-{a,b,c}
#                      mixed  a local directory, s3://.../bench-N-mixed-b, sftp://.../bench-N-mixed-c
#                    (N: a per-run id).
#                    init, back up, restore (--rounds times), and compare each restore
#                    with the source; the ratio table gives each kind's median restore
#                    over the median local restore (issue 14: within 1.2x on the full
#                    tree). Uses the ~200 MiB tree unless --full or --tree is given.
#                    `--only remotes` runs these alone (no restic, no local tangle, so
#                    no local restore to compare with).
#   --full           the ~2.1 GiB tree even with --remote-kinds or --links
#   --links[=RATE]   restore from several remotes over modelled network links: the test
#                    servers' sshd reached through scripts/throttle-proxy.py, every link
#                    limited to RATE bytes/s each way (default 20M; K, M, G: powers of
#                    1000, Ki, Mi, Gi: of 1024):
#                      1. tangle: init, backup and restore with three SFTP remotes, each
#                         through its own link (sftp://USER@127.0.0.1:PROXYPORT/...);
#                      2. tangle: restore of that repository with the three links
#                         sharing ONE bandwidth budget (same ports, proxy in --shared mode);
#                      3. restic: init, backup and restore of one SFTP repository through
#                         one link (-o sftp.command=...): the single-remote baseline.
#                    plus, as a control, tangle verify --read-data after each tangle restore
#                    (it fetches all shards of an extent at once: what a parallel reader
#                    gets from the same links).
#                    Every restore is compared with the source; the notes give the bytes
#                    each link carried and how often several links were busy at once.
#                    Uses the ~200 MiB tree unless --full or --tree is given.
#                    `--only links` runs these alone.
#
# Each round, for each tool, with a fresh repository: init, initial backup, unchanged
# re-backup, restore, full read check (restic/rustic check --read-data / tangle verify
# --read-data). tangle then loses one of its three remotes (rm -rf of remote 2):
# `tangle repair` rebuilds it (MB/s = bytes it wrote / seconds) and `tangle verify
# --read-data` must then pass again.
# Anchors (what the disk and CPUs can do on the same tree, with the outputs in the work
# directory, so on the same disk as the repositories), each timed like a phase, before
# restic and tangle in every round:
#   read      find TREE -type f -print0 | xargs -0 cat > /dev/null
#   hash      find TREE -type f -print0 | xargs -0 b3sum > /dev/null   (Debian package
#             b3sum, installed if missing; skipped, with a note, if it cannot be)
#   compress  tar -C TREE -cf - . | zstd -3 -T0 > W/anchor.tar.zst
#   write     tar -C W/anchor-x -xf W/anchor.tar: W/anchor.tar is an uncompressed tar of
#             the tree made once per run (not timed); no sync (tangle restore does not
#             sync either; the sync before the next phase's cache drop is not timed)
# Their outputs are removed after each round. A second table gives tangle's ratios to
# the anchors and to restic (the median of the per-round paired ratios and their
# min–max) against the targets of issue 14, and tangle's restore max/min against
# tar -x's.
# MB/s is 10^6 bytes per second: the tree's (apparent) size over the median wall time for
# the backup, restore, read-data and anchor phases, the bytes written for repair.
# Each phase runs under /usr/bin/time -f '%e %U %S %M' (wall seconds, user and system CPU
# seconds of the process and the children it waited for, peak RSS of the largest single
# process), after `sync; echo 3 > /proc/sys/vm/drop_caches` when that is allowed (the
# report says whether it was). Every restore is compared with the source byte for byte
# (diff -r --no-dereference: file contents, file types, symlink targets).
# Passwords: $RESTIC_PASSWORD and $TANGLE_PASSWORD (a fixed benchmark password if unset).
# Exit status: 0 if every phase ran and every restore is identical to the source.
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

SMALL=0
MANY=
RUSTIC_WANTED=1
RUSTIC_VERSION=0.11.2
TREE=
OUT=
WORKDIR=
KEEP=0
ONLY=
ROUNDS=3
ANCHORS=1
BUILD=1
FULL=0
REMOTE_KINDS=
LINKS_RATE=
CODING_ARGS=()
while [ $# -gt 0 ]; do
    case "$1" in
        --small) SMALL=1 ;;
        --many) MANY=${2:?--many needs a number of files}; shift ;;
        --many=*) MANY=${1#*=} ;;
        --no-rustic) RUSTIC_WANTED=0 ;;
        --tree) TREE=${2:?--tree needs a directory}; shift ;;
        --tree=*) TREE=${1#*=} ;;
        --out) OUT=${2:?--out needs a file}; shift ;;
        --out=*) OUT=${1#*=} ;;
        --workdir) WORKDIR=${2:?--workdir needs a directory}; shift ;;
        --workdir=*) WORKDIR=${1#*=} ;;
        --keep) KEEP=1 ;;
        --coding|--coding=*)
            if [ "$1" = --coding ]; then c=${2:?--coding needs S/P/T}; shift; else c=${1#*=}; fi
            IFS=/ read -r cs cp ct <<<"$c"
            CODING_ARGS=(--data-shards "$cs" --parity-shards "$cp" --pointers "${ct:?--coding needs S/P/T}")
            ;;
        --rounds) ROUNDS=${2:?--rounds needs a number}; shift ;;
        --rounds=*) ROUNDS=${1#*=} ;;
        --no-anchors) ANCHORS=0 ;;
        --only) ONLY=${2:?--only needs restic, tangle or remotes}; shift ;;
        --only=*) ONLY=${1#*=} ;;
        --no-build) BUILD=0 ;;
        --full) FULL=1 ;;
        --remote-kinds|--remotes) REMOTE_KINDS=s3,sftp,mixed ;;
        --remote-kinds=*|--remotes=*) REMOTE_KINDS=${1#*=} ;;
        --links) LINKS_RATE=20M ;;
        --links=*) LINKS_RATE=${1#*=} ;;
        -h|--help) usage ;;
        *) echo "unknown argument: $1" >&2; usage ;;
    esac
    shift
done
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "--rounds takes a whole number of at least 1" >&2; exit 2; }
if [ -n "$MANY" ]; then
    [[ "$MANY" =~ ^[1-9][0-9]*$ ]] || { echo "--many takes a whole number of at least 1" >&2; exit 2; }
    [ "$SMALL" = 0 ] && [ -z "$TREE" ] || { echo "--many excludes --small and --tree" >&2; exit 2; }
fi
case "$ONLY" in ""|restic|rustic|tangle) ;;
    remotes) [ -n "$REMOTE_KINDS" ] || REMOTE_KINDS=s3,sftp,mixed ;;
    links) [ -n "$LINKS_RATE" ] || LINKS_RATE=20M ;;
    *) echo "--only takes restic, rustic, tangle, remotes or links" >&2; exit 2 ;;
esac
if [ -n "$LINKS_RATE" ]; then
    [[ "$LINKS_RATE" =~ ^[0-9]+(\.[0-9]+)?([kKmMgG]i?)?B?$ ]] \
        || { echo "--links: bad rate $LINKS_RATE (e.g. 20M, 5.5M, 512Ki)" >&2; exit 2; }
    [ "$FULL" = 1 ] || [ -n "$TREE" ] || SMALL=1
fi
KINDS=()
if [ -n "$REMOTE_KINDS" ]; then
    IFS=', ' read -r -a KINDS <<< "$REMOTE_KINDS"
    for k in "${KINDS[@]}"; do
        case "$k" in s3|sftp|mixed) ;; *) echo "--remote-kinds: unknown kind $k (s3, sftp, mixed)" >&2; exit 2 ;; esac
    done
    # Loopback S3/SFTP is much slower than a local disk: the small tree by default.
    [ "$FULL" = 1 ] || [ -n "$TREE" ] || SMALL=1
fi
[ "$SMALL" = 1 ] && [ "$FULL" = 1 ] && { echo "--small and --full exclude each other" >&2; exit 2; }
run_restic() { [ "$ONLY" = "" ] || [ "$ONLY" = restic ]; }
run_rustic() { [ "$RUSTIC_WANTED" = 1 ] && { [ "$ONLY" = "" ] || [ "$ONLY" = rustic ]; }; }
run_tangle() { [ "$ONLY" = "" ] || [ "$ONLY" = tangle ]; }
run_remotes() { [ "${#KINDS[@]}" -gt 0 ] && [ "$ONLY" != restic ] && [ "$ONLY" != links ]; }
run_links() { [ -n "$LINKS_RATE" ] && { [ "$ONLY" = "" ] || [ "$ONLY" = links ]; }; }
run_anchors() { [ "$ANCHORS" = 1 ] && { run_restic || run_rustic || run_tangle; }; }

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
if { run_restic || run_links; } && ! command -v restic >/dev/null; then
    apt_install restic || { log "cannot install restic"; exit 1; }
fi

# rustic: from the PATH, $RUSTIC_BIN, or built once into a cache of its own.
RUSTIC=
RUSTIC_STATUS=ok
if run_rustic; then
    RUSTIC_ROOT=${RUSTIC_ROOT:-$HOME/.cache/tangle-bench/rustic-$RUSTIC_VERSION}
    if [ -n "${RUSTIC_BIN:-}" ]; then RUSTIC=$RUSTIC_BIN
    elif command -v rustic >/dev/null; then RUSTIC=$(command -v rustic)
    elif [ -x "$RUSTIC_ROOT/bin/rustic" ]; then RUSTIC=$RUSTIC_ROOT/bin/rustic
    else
        log "installing rustic-rs $RUSTIC_VERSION into $RUSTIC_ROOT (cargo install, once; about 17 minutes on 2 cores)"
        if cargo install --locked "rustic-rs@$RUSTIC_VERSION" --root "$RUSTIC_ROOT" >&2; then
            RUSTIC=$RUSTIC_ROOT/bin/rustic
        else
            log "could not install rustic: its phases are skipped"
            RUSTIC_STATUS="install failed"
        fi
    fi
fi

# An anchor whose tool is missing is skipped with a note, not the whole run.
HASH_SKIP=
COMPRESS_SKIP=
if run_anchors; then
    if ! command -v b3sum >/dev/null && ! apt_install b3sum; then
        HASH_SKIP="b3sum is not installed and could not be installed (Debian package b3sum): the hash anchor is skipped"
        log "$HASH_SKIP"
    fi
    if ! command -v zstd >/dev/null && ! apt_install zstd; then
        COMPRESS_SKIP="zstd is not installed and could not be installed: the compress anchor is skipped"
        log "$COMPRESS_SKIP"
    fi
fi

# The report is scripts/bench_report.py's (and --links needs throttle-proxy.py).
if ! command -v python3 >/dev/null; then
    apt_install python3 || { log "cannot install python3 (for bench_report.py)"; exit 1; }
fi

TANGLE_STATUS=ok
if run_tangle || run_remotes || run_links; then
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
if [ -n "$MANY" ]; then
    TREE=/var/tmp/tangle-bench-many-$MANY
    python3 "$HERE/make_many_files.py" "$MANY" "$TREE" || { log "could not build the tree"; exit 1; }
fi
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
SERVERS_STARTED=0
PROXY_PID=
stop_servers() {
    [ "$SERVERS_STARTED" = 1 ] || return 0
    TANGLE_TEST_STATE="$W/servers" "$HERE/test-servers.sh" stop >&2 || log "could not stop the test servers"
    SERVERS_STARTED=0
}
cleanup() {
    [ -z "$PROXY_PID" ] || { kill "$PROXY_PID" 2>/dev/null; wait "$PROXY_PID" 2>/dev/null; }
    stop_servers
    targets_down
    if [ "$KEEP" = 1 ]; then log "kept $W"; else rm -rf "$W"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$W/logs"
# Everything the run measures, one record a line (see scripts/bench_report.py, which makes
# the report from it): every phase's sample, failures, restore verifications, storage,
# notes, and at the end the run's settings. Kept with --keep.
DATA="$W/samples.tsv"
: > "$DATA"
# record TYPE FIELD...: append a record (tabs and newlines in a field become spaces).
record() {
    local f line=$1
    shift
    for f in "$@"; do
        f=${f//$'\t'/ }
        line+=$'\t'${f//$'\n'/ }
    done
    printf '%s\n' "$line" >> "$DATA"
}
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

# ---- restore targets ------------------------------------------------------------------
# Every restore (and tar -x) writes into a fresh ext4 file system, made in an image file
# in the work directory (so on the same disk) and loop-mounted. Why: ext4 skips inodes
# freed in the last 5 minutes (300 s while their inode-table block is dirty) when it
# allocates new ones (recently_deleted() in fs/ext4/ialloc.c), so writing 80,000 files
# right after `rm -rf` of another 80,000 costs several seconds of kernel time more, and
# how much depends on when the last phase's tree was removed: timings swung 7-14 s for
# the same tar -x. A fresh file system makes every phase start from the same state.
# Without root or mkfs.ext4, targets are plain directories (and the report says so).
FRESH_FS=0
if [ "$(id -u)" = 0 ] && command -v mkfs.ext4 >/dev/null && command -v mount >/dev/null; then
    FRESH_FS=1
fi
MOUNTED_TARGETS=()
# target_up DIR: make DIR an empty restore target (a fresh file system when possible).
target_up() {
    local dir=$1 img
    target_down "$dir"
    mkdir -p "$dir"
    [ "$FRESH_FS" = 1 ] || return 0
    img="$dir.img"
    # Room for the tree three times over (restic and tar -x need 1x; slack for metadata),
    # or for a block a file, and an inode for every file and directory.
    local bytes=$(( TREE_BYTES * 3 )) inodes=$(( TREE_FILES * 2 + 65536 ))
    [ "$bytes" -ge $(( TREE_FILES * 8192 )) ] || bytes=$(( TREE_FILES * 8192 ))
    if truncate -s "$(( bytes + (1 << 30) ))" "$img" \
        && mkfs.ext4 -q -F -E nodiscard -N "$inodes" "$img" >/dev/null 2>&1 \
        && mount -o loop "$img" "$dir" 2>/dev/null; then
        MOUNTED_TARGETS+=("$dir")
    else
        log "could not mount a fresh file system at $dir; using a plain directory"
        rm -f "$img"
        FRESH_FS=0
        TARGET_NOTE="plain directories in the work directory (making a fresh file system failed)"
    fi
}
# target_down DIR: remove a restore target (unmount its file system).
target_down() {
    local dir=$1 i
    if mountpoint -q "$dir" 2>/dev/null; then
        umount "$dir" 2>/dev/null || umount -l "$dir" 2>/dev/null
        for i in "${!MOUNTED_TARGETS[@]}"; do
            [ "${MOUNTED_TARGETS[$i]}" = "$dir" ] && unset 'MOUNTED_TARGETS[i]'
        done
    fi
    rm -rf "$dir" "$dir.img"
}
targets_down() {
    local d
    for d in "${MOUNTED_TARGETS[@]}"; do target_down "$d"; done
}
if [ "$FRESH_FS" = 1 ]; then
    TARGET_NOTE="each restore and tar -x writes into a fresh ext4 file system (an image file in the work directory, loop-mounted), so no phase pays for the inodes the last one freed"
else
    TARGET_NOTE="plain directories in the work directory (not root, or no mkfs.ext4): a phase right after another's \`rm -rf\` pays for ext4's recently-deleted inodes, so timings are noisier"
fi

# ---- running phases -------------------------------------------------------------------
# Every timed run is one sample of a row ("tool", "phase"): a `sample` record with its
# round, wall, user and sys seconds, peak RSS (KiB), the other CPU seconds of the machine
# and the bytes for MB/s; a `failed` or `na` record when it did not run. The report's rows
# keep the order in which they first appear.
ROUND=1
FAILED=0
LAST_SECS=
LAST_TOOL=
LAST_PHASE=
LAST_OK=0
# na_row TOOL PHASE TEXT: a row that could not run at all.
na_row() { record na "$1" "$2" "$3"; }
# in_round: " in round N" when there is more than one round.
in_round() { [ "$ROUNDS" = 1 ] || echo " in round $ROUND"; }
# run_phase TOOL PHASE [--bytes N] [--stdout FILE] [--tolerate-missing] CMD...: time CMD
# as this round's sample of the row (MB/s from N bytes if given). CMD's output goes to
# $W/logs/ (its standard output to FILE instead with --stdout). Returns CMD's exit
# status; the wall seconds are left in $LAST_SECS.
# machine_busy: CPU seconds all cores spent on anything but idling since boot (user, nice,
# system, irq, softirq, steal in /proc/stat): what every process on the machine used,
# the test servers' and the kernel's threads included.
CLK_TCK=$(getconf CLK_TCK 2>/dev/null || echo 100)
machine_busy() {
    awk -v hz="$CLK_TCK" '$1 == "cpu" { printf "%.2f", ($2 + $3 + $4 + $7 + $8 + $9) / hz; exit }' /proc/stat
}
run_phase() {
    local tool=$1 phase=$2 tolerate=0 bytes='' out=''
    shift 2
    while :; do
        case "${1:-}" in
            --tolerate-missing) tolerate=1; shift ;;
            --bytes) bytes=$2; shift 2 ;;
            --stdout) out=$2; shift 2 ;;
            *) break ;;
        esac
    done
    local tag logf
    LAST_TOOL=$tool LAST_PHASE=$phase LAST_OK=0
    tag=$(echo "$tool-$phase-r$ROUND" | tr -c 'a-zA-Z0-9\n-' '_')
    logf="$W/logs/$tag.log"
    [ -n "$out" ] || out=$logf
    [ "$CAN_DROP" = 1 ] && drop_caches
    log "$tool: $phase$(in_round)"
    local busy0
    busy0=$(machine_busy)
    if [ "$out" = "$logf" ]; then
        /usr/bin/time -f '%e %U %S %M' -o "$W/time.out" "$@" > "$logf" 2>&1
    else
        /usr/bin/time -f '%e %U %S %M' -o "$W/time.out" "$@" > "$out" 2> "$logf"
    fi
    local rc=$?
    local secs usr sys rss busy1
    busy1=$(machine_busy)
    read -r secs usr sys rss < <(tail -n 1 "$W/time.out")
    LAST_SECS=$secs
    if [ "$rc" = 0 ]; then
        record sample "$tool" "$phase" "$ROUND" "$secs" "$usr" "$sys" "$rss" \
            "$(awk -v b0="$busy0" -v b1="$busy1" -v u="$usr" -v s="$sys" \
                'BEGIN { o = b1 - b0 - u - s; printf "%.2f", (o > 0 ? o : 0) }')" "$bytes"
        LAST_OK=1
    elif [ "$tolerate" = 1 ] && grep -qiE "unrecognized subcommand|unexpected argument|unknown (command|subcommand)|invalid subcommand|unrecognized (argument|option)|not (yet )?implemented" "$logf"; then
        log "$tool: $phase is not available yet: n/a"
        record na "$tool" "$phase" "n/a"
        return 0
    else
        log "$tool: $phase FAILED (exit $rc)$(in_round); last lines of its output:"
        { tail -n 15 "$logf"; [ "$out" = "$logf" ] || tail -n 5 "$out"; } | sed 's/^/    /' >&2
        record failed "$tool" "$phase" "$ROUND" "$rc"
        FAILED=1
    fi
    return "$rc"
}
# set_last_mbps BYTES: the bytes of the last sample's MB/s (known only after the phase).
set_last_mbps() {
    if [ "$LAST_OK" = 1 ]; then record bytes "$LAST_TOOL" "$LAST_PHASE" "$ROUND" "$1"; fi
}

# compare_trees TOOL SRC RESTORED: byte-for-byte contents, types and symlink targets.
# Also counts (for information) entries whose mode or mtime differ. Each result is a
# `verified` record (pass or fail, with this round) and a `metadata` record.
# verify_fail TOOL TEXT
verify_fail() {
    record verified "$1" "$ROUND" fail "$2"
    FAILED=1
}
compare_trees() {
    local tool=$1 src=$2 got=$3
    if [ ! -d "$got" ]; then
        verify_fail "$tool" "restored tree $got does not exist"
        return
    fi
    local dl
    dl="$W/logs/$(echo "$tool-r$ROUND" | tr -c 'a-zA-Z0-9\n-' '_')-diff.log"
    if diff -r --no-dereference -q "$src" "$got" > "$dl" 2>&1; then
        record verified "$tool" "$ROUND" pass
    else
        verify_fail "$tool" "restore differs from the source in $(wc -l < "$dl") places; first ones: $(head -n 3 "$dl" | tr '\n' ';')"
    fi
    # Metadata, for information only.
    local m t
    ( cd "$src" && find . -printf '%p %m\n' | LC_ALL=C sort ) > "$W/src.modes"
    ( cd "$got" && find . -printf '%p %m\n' | LC_ALL=C sort ) > "$W/got.modes"
    m=$(LC_ALL=C comm -23 "$W/src.modes" "$W/got.modes" | wc -l)
    ( cd "$src" && find . ! -type l -printf '%p %T@\n' | LC_ALL=C sort ) > "$W/src.mtimes"
    ( cd "$got" && find . ! -type l -printf '%p %T@\n' | LC_ALL=C sort ) > "$W/got.mtimes"
    t=$(LC_ALL=C comm -23 "$W/src.mtimes" "$W/got.mtimes" | wc -l)
    record metadata "$tool" "$ROUND" "$m" "$t"
}

# dir_bytes DIR...: the bytes they hold together (a `size` record takes it).
dir_bytes() { du -sb "$@" 2>/dev/null | awk '{ s += $1 } END { printf "%.0f\n", s }'; }

# ---- anchors: what this disk and these CPUs do with the same tree --------------------
A_READ="read (cat)"
A_HASH="hash (b3sum)"
A_COMPRESS="compress (tar, zstd -3 -T0)"
A_WRITE="write (tar -x)"
# The pipelines get the paths as arguments: the single quotes are meant.
# shellcheck disable=SC2016
anchors_round() {
    run_phase anchor "$A_READ" --bytes "$TREE_BYTES" \
        bash -c 'set -o pipefail; find "$1" -type f -print0 | xargs -0 cat > /dev/null' _ "$TREE"
    if [ -z "$HASH_SKIP" ]; then
        run_phase anchor "$A_HASH" --bytes "$TREE_BYTES" \
            bash -c 'set -o pipefail; find "$1" -type f -print0 | xargs -0 b3sum > /dev/null' _ "$TREE"
    fi
    if [ -z "$COMPRESS_SKIP" ]; then
        run_phase anchor "$A_COMPRESS" --bytes "$TREE_BYTES" \
            bash -c 'set -o pipefail; tar -C "$1" -cf - . | zstd -3 -T0 -q > "$2"' _ "$TREE" "$W/anchor.tar.zst" \
            && record size "$ROUND" anchor "tar of the tree, zstd -3" "$(dir_bytes "$W/anchor.tar.zst")"
        rm -f "$W/anchor.tar.zst"
    fi
    if [ -f "$W/anchor.tar" ]; then
        target_up "$W/anchor-x"
        run_phase anchor "$A_WRITE" --bytes "$TREE_BYTES" tar -C "$W/anchor-x" -xf "$W/anchor.tar"
        target_down "$W/anchor-x"
    fi
}

# ---- restic --------------------------------------------------------------------------
RESTIC_VERSION="(not run)"
if run_restic; then
    RESTIC_VERSION=$(restic version 2>&1 | head -n 1)
    export RESTIC_PASSWORD=${RESTIC_PASSWORD:-tangle-bench-password}
    export RESTIC_REPOSITORY="$W/restic-repo"
    export RESTIC_CACHE_DIR="$W/restic-cache"
fi
restic_round() {
    # A fresh repository and cache each round (the last round's stay for --keep).
    rm -rf "$RESTIC_REPOSITORY" "$RESTIC_CACHE_DIR"
    if run_phase restic init restic init; then
        run_phase restic "backup (initial)" --bytes "$TREE_BYTES" restic backup "$TREE"
        run_phase restic "backup (unchanged)" --bytes "$TREE_BYTES" restic backup "$TREE"
        target_up "$W/restic-restore"
        if run_phase restic restore --bytes "$TREE_BYTES" restic restore latest --target "$W/restic-restore"; then
            compare_trees restic "$TREE" "$W/restic-restore$TREE"
        else
            verify_fail restic "restore failed"
        fi
        target_down "$W/restic-restore"   # free the space before tangle runs
        run_phase restic "check --read-data" --bytes "$TREE_BYTES" restic check --read-data
        record size "$ROUND" restic repository "$(dir_bytes "$RESTIC_REPOSITORY")"
    fi
    target_down "$W/restic-restore"
}

# ---- rustic --------------------------------------------------------------------------
RUSTIC_VERSION_LINE="(not run)"
if run_rustic && [ "$RUSTIC_STATUS" = ok ]; then
    RUSTIC_VERSION_LINE=$("$RUSTIC" --version 2>&1 | head -n 1)
fi
RUSTIC_REPO="$W/rustic-repo"
# rustic with this run's repository, password and cache, and no config profile of the
# user's (its config directory is in the work directory). An array, not a function:
# /usr/bin/time runs it.
RUSTIC_RUN=(env "RUSTIC_PASSWORD=${RESTIC_PASSWORD:-tangle-bench-password}"
    "XDG_CONFIG_HOME=$W/rustic-config" "$RUSTIC" -r "$RUSTIC_REPO"
    --cache-dir "$W/rustic-cache" --no-progress)
rustic_round() {
    rm -rf "$RUSTIC_REPO" "$W/rustic-cache"
    if run_phase rustic init "${RUSTIC_RUN[@]}" init; then
        run_phase rustic "backup (initial)" --bytes "$TREE_BYTES" "${RUSTIC_RUN[@]}" backup "$TREE"
        run_phase rustic "backup (unchanged)" --bytes "$TREE_BYTES" "${RUSTIC_RUN[@]}" backup "$TREE"
        target_up "$W/rustic-restore"
        if run_phase rustic restore --bytes "$TREE_BYTES" "${RUSTIC_RUN[@]}" restore latest "$W/rustic-restore"; then
            # rustic keeps the backed-up path below the target, as restic does, or not.
            if [ -d "$W/rustic-restore$TREE" ]; then
                compare_trees rustic "$TREE" "$W/rustic-restore$TREE"
            else
                compare_trees rustic "$TREE" "$W/rustic-restore"
            fi
        else
            verify_fail rustic "restore failed"
        fi
        target_down "$W/rustic-restore"
        run_phase rustic "check --read-data" --bytes "$TREE_BYTES" "${RUSTIC_RUN[@]}" check --read-data
        record size "$ROUND" rustic repository "$(dir_bytes "$RUSTIC_REPO")"
    fi
    target_down "$W/rustic-restore"
}
if run_rustic && [ "$RUSTIC_STATUS" != ok ]; then
    RUSTIC_VERSION_LINE="($RUSTIC_STATUS)"
    na_row rustic "backup (initial)" "n/a ($RUSTIC_STATUS)"
    FAILED=1
fi

# ---- tangle --------------------------------------------------------------------------
TANGLE_VERSION="(not run)"
if [ "$TANGLE_STATUS" = ok ] && { run_tangle || run_remotes || run_links; }; then
    TANGLE_VERSION=$("$TANGLE" --version 2>&1 | head -n 1)
    export TANGLE_PASSWORD=${TANGLE_PASSWORD:-tangle-bench-password}
    # Keep any local cache or config of tangle inside the work directory.
    export XDG_CACHE_HOME="$W/tangle-xdg-cache" XDG_CONFIG_HOME="$W/tangle-xdg-config"
fi
# json_field FILE NAME: the first integer value of "NAME" in a JSON file.
json_field() { sed -n "s/.*\"$2\": *\([0-9][0-9]*\).*/\1/p" "$1" | head -n 1; }
R1="$W/tangle-r1" R2="$W/tangle-r2" R3="$W/tangle-r3"
tangle_round() {
    # Fresh remotes and local cache each round (the last round's stay for --keep).
    rm -rf "$R1" "$R2" "$R3" "$XDG_CACHE_HOME"
    mkdir -p "$R1" "$R2" "$R3"
    if run_phase tangle init "$TANGLE" init --remote "$R1" --remote "$R2" --remote "$R3" ${CODING_ARGS[@]+"${CODING_ARGS[@]}"}; then
        run_phase tangle "backup (initial)" --bytes "$TREE_BYTES" "$TANGLE" -r "$R1" backup "$TREE" --no-progress
        run_phase tangle "backup (unchanged)" --bytes "$TREE_BYTES" "$TANGLE" -r "$R1" backup "$TREE" --no-progress
        target_up "$W/tangle-restore"
        if run_phase tangle restore --bytes "$TREE_BYTES" "$TANGLE" -r "$R1" restore latest --target "$W/tangle-restore" --no-progress; then
            compare_trees tangle "$TREE" "$W/tangle-restore$TREE"
        else
            verify_fail tangle "restore failed"
        fi
        target_down "$W/tangle-restore"
        run_phase tangle "verify --read-data" --bytes "$TREE_BYTES" "$TANGLE" -r "$R1" verify --read-data --no-progress
        record size "$ROUND" tangle "3 remotes together" "$(dir_bytes "$R1" "$R2" "$R3")"
        record size "$ROUND" tangle "remote 1" "$(dir_bytes "$R1")"
        # Lose a whole remote, rebuild it, check everything again.
        local r2_bytes written read_b json="$W/logs/tangle-repair-r$ROUND.json"
        r2_bytes=$(dir_bytes "$R2")
        rm -rf "$R2"
        if run_phase tangle "repair (remote 2 deleted)" --stdout "$json" \
            "$TANGLE" -r "$R1" --json repair --no-progress; then
            written=$(json_field "$json" bytes_written)
            read_b=$(json_field "$json" bytes_read)
            set_last_mbps "$written"
            record repair "$ROUND" "$r2_bytes" "$written" "$read_b" "$LAST_SECS" "$(dir_bytes "$R2")"
        fi
        run_phase tangle "verify --read-data (after repair)" --bytes "$TREE_BYTES" "$TANGLE" -r "$R1" verify --read-data --no-progress
    fi
}
if run_tangle && [ "$TANGLE_STATUS" != ok ]; then
    TANGLE_VERSION="($TANGLE_STATUS)"
    for p in init "backup (initial)" "backup (unchanged)" restore "verify --read-data" \
        "repair (remote 2 deleted)" "verify --read-data (after repair)"; do
        na_row tangle "$p" "n/a ($TANGLE_STATUS)"
    done
    FAILED=1
fi

# ---- the rounds: anchors, restic, tangle, then again ----------------------------------
if run_anchors; then
    # The write anchor's input: made once, not timed, on the work disk.
    log "anchor: tar of the tree to $W/anchor.tar (not timed)"
    if ! tar -C "$TREE" -cf "$W/anchor.tar" . 2> "$W/logs/anchor-tar.log"; then
        log "could not make $W/anchor.tar: the write anchor is skipped"
        rm -f "$W/anchor.tar"
        na_row anchor "$A_WRITE" "n/a (could not make the tar)"
        FAILED=1
    fi
fi
for ((ROUND = 1; ROUND <= ROUNDS; ROUND++)); do
    [ "$ROUNDS" = 1 ] || log "---- round $ROUND of $ROUNDS"
    if run_anchors; then anchors_round; fi
    if run_restic; then restic_round; fi
    if run_rustic && [ "$RUSTIC_STATUS" = ok ]; then rustic_round; fi
    if run_tangle && [ "$TANGLE_STATUS" = ok ]; then tangle_round; fi
done
ROUND=1
[ "$KEEP" = 1 ] || rm -f "$W/anchor.tar"

# ---- tangle over S3 and SFTP remotes (--remote-kinds) --------------------------------
kind_label() {
    case "$1" in
        s3) echo "tangle (3× S3)" ;;
        sftp) echo "tangle (3× SFTP)" ;;
        mixed) echo "tangle (local+S3+SFTP)" ;;
    esac
}
SERVERS_NOTE=
SERVERS_OK=
# servers_up: start the private test servers once (own state directory, so servers other
# runs use are untouched) and import their environment; fails if they cannot start.
servers_up() {
    [ -z "$SERVERS_OK" ] || return "$SERVERS_OK"
    log "starting the test servers (scripts/test-servers.sh start)"
    SERVERS_STARTED=1
    if TANGLE_TEST_STATE="$W/servers" "$HERE/test-servers.sh" start > "$W/logs/servers-start.log" 2>&1 \
        && servers_env=$(TANGLE_TEST_STATE="$W/servers" "$HERE/test-servers.sh" env) \
        && eval "$servers_env"; then
        SERVERS_NOTE="S3: s3s-fs at $AWS_ENDPOINT (bucket $TANGLE_TEST_S3_BUCKET); SFTP: OpenSSH sshd at $TANGLE_TEST_SFTP_URL; both on 127.0.0.1, data under $W/servers (same disk as the local remotes)"
        SERVERS_OK=0
    else
        log "could not start the test servers; see $W/logs/servers-start.log:"
        tail -n 15 "$W/logs/servers-start.log" | sed 's/^/    /' >&2
        SERVERS_NOTE="FAILED to start (scripts/test-servers.sh start): $(tail -n 1 "$W/logs/servers-start.log")"
        SERVERS_OK=1
    fi
    return "$SERVERS_OK"
}
RUN_ID="$(date +%s)-$$"
if run_remotes; then
    if [ "$TANGLE_STATUS" != ok ]; then
        for k in "${KINDS[@]}"; do
            for p in init "backup (initial)" restore; do
                na_row "$(kind_label "$k")" "$p" "n/a ($TANGLE_STATUS)"
            done
        done
        FAILED=1
    else
        if servers_up; then
            for k in "${KINDS[@]}"; do
                label=$(kind_label "$k")
                # One name per configuration, so they never share a remote.
                base="bench-$RUN_ID-$k"
                s3=(s3://"$TANGLE_TEST_S3_BUCKET"/"$base"-{a,b,c})
                sftp=("$TANGLE_TEST_SFTP_URL"/"$base"-{a,b,c})
                case "$k" in
                    s3) urls=("${s3[@]}") ;;
                    sftp) urls=("${sftp[@]}") ;;
                    mixed) mkdir -p "$W/$base-a"; urls=("$W/$base-a" "${s3[1]}" "${sftp[2]}") ;;
                esac
                init_args=()
                for u in "${urls[@]}"; do init_args+=(--remote "$u"); done
                target="$W/restore-$k"
                if run_phase "$label" init "$TANGLE" init "${init_args[@]}" ${CODING_ARGS[@]+"${CODING_ARGS[@]}"}; then
                    if run_phase "$label" "backup (initial)" --bytes "$TREE_BYTES" "$TANGLE" -r "${urls[0]}" backup "$TREE" --no-progress; then
                        # One backup, then --rounds restores of it (same cache state each).
                        for ((ROUND = 1; ROUND <= ROUNDS; ROUND++)); do
                            target_up "$target"
                            if run_phase "$label" restore --bytes "$TREE_BYTES" "$TANGLE" -r "${urls[0]}" restore latest --target "$target" --no-progress; then
                                compare_trees "$label" "$TREE" "$target$TREE"
                            else
                                verify_fail "$label" "restore failed"
                            fi
                            target_down "$target"
                        done
                        ROUND=1
                    else
                        verify_fail "$label" "backup failed"
                    fi
                fi
                record note "$label: remotes ${urls[*]}"
                rm -rf "$target"
            done
            record size "$ROUND" tangle "S3 bucket (all configurations)" "$(dir_bytes "$W/servers/s3")"
            record size "$ROUND" tangle "SFTP directory (all configurations)" "$(dir_bytes "$W/servers/sftp")"
        else
            for k in "${KINDS[@]}"; do
                na_row "$(kind_label "$k")" "backup (initial)" "n/a (no servers)"
                na_row "$(kind_label "$k")" restore "n/a (no servers)"
            done
            FAILED=1
        fi
    fi
fi

# ---- restore from several remotes over throttled links (--links) ---------------------
LINKS_NOTE=
PROXY_PORTS=()
# proxy_start LOG [--shared] PORT...: run throttle-proxy.py with one link of $LINKS_RATE
# per PORT on 127.0.0.1 (0: let it pick) to the test sshd; the ports in PROXY_PORTS.
proxy_start() {
    local log=$1 a n=0 args=(--rate "$LINKS_RATE")
    shift
    for a in "$@"; do
        case "$a" in
            --*) args+=("$a") ;;
            *) args+=(--listen "127.0.0.1:$a" --to "127.0.0.1:$SSH_PORT"); n=$((n + 1)) ;;
        esac
    done
    : > "$L/ports"
    python3 "$HERE/throttle-proxy.py" "${args[@]}" > "$L/ports" 2> "$log" &
    PROXY_PID=$!
    local deadline=$((SECONDS + 10))
    while [ "$(wc -l < "$L/ports")" -lt "$n" ]; do
        if ! kill -0 "$PROXY_PID" 2>/dev/null || [ $SECONDS -ge $deadline ]; then
            log "throttle-proxy.py did not start: $(tail -n 3 "$log")"
            proxy_stop
            return 1
        fi
        sleep 0.1
    done
    mapfile -t PROXY_PORTS < <(awk '{ n = split($3, a, ":"); print a[n] }' "$L/ports")
}
# proxy_stop: stop the proxy (it then writes its summary to its log).
proxy_stop() {
    [ -n "$PROXY_PID" ] || return 0
    kill "$PROXY_PID" 2>/dev/null
    wait "$PROXY_PID" 2>/dev/null
    PROXY_PID=
}
# link_bytes LOG WAY: from a proxy's summary, the bytes each link carried one way (down:
# server to client, up: client to server), comma-separated.
link_bytes() {
    awk -v way="$2" '/ bytes down,/ { gsub(",", ""); for (i = 1; i < NF; i++) if ($(i + 1) == "bytes" && $(i + 2) == way) {
        printf "%s%s", (n++ ? "," : ""), $i } } END { print "" }' "$1"
}
# link_note LABEL PHASE LOG SECONDS: what the links carried during a phase (a `links`
# record, a note of the report).
link_note() {
    record links "$1" "$2" "$4" "$(link_bytes "$3" down)" "$(link_bytes "$3" up)" \
        "$(sed -n 's/.*by links busy at once: //p' "$3")"
}
# add_known_hosts PORT...: the sshd's host key, for connections through these ports.
add_known_hosts() {
    local p
    for p in "$@"; do printf '[127.0.0.1]:%s %s\n' "$p" "$HOST_KEY"; done >> "$L/known_hosts"
}
TL="tangle (3× SFTP, 3 links)"
TS="tangle (3× SFTP, 1 shared link)"
RL="restic (SFTP, 1 link)"
if run_links; then
    if [ "$RESTIC_VERSION" = "(not run)" ]; then RESTIC_VERSION=$(restic version 2>&1 | head -n 1); fi
    if ! servers_up; then
        for l in "$TL" "$TS" "$RL"; do na_row "$l" "restore" "n/a (no servers)"; done
        FAILED=1
    else
        L="$W/links"
        mkdir -p "$L"
        # TANGLE_TEST_SFTP_URL is sftp://USER@127.0.0.1:PORT/DIR.
        rest=${TANGLE_TEST_SFTP_URL#sftp://}
        SSH_USER=${rest%%@*}
        SSH_PORT=${rest#*:}; SSH_PORT=${SSH_PORT%%/*}
        SFTP_DIR=/${rest#*/}
        # Same ssh setup as the tests, plus known_hosts entries for the proxies' ports.
        kh=$(ssh -F "$TANGLE_TEST_SSH_CONFIG" -G 127.0.0.1 | awk '$1 == "userknownhostsfile" { print $2; exit }')
        HOST_KEY=$(awk 'NR == 1 { print $2, $3 }' "$kh")
        SSH_CMD="ssh -F $TANGLE_TEST_SSH_CONFIG -o UserKnownHostsFile=$L/known_hosts"
        export TANGLE_SSH_COMMAND="$SSH_CMD"
        LINKS_NOTE="$LINKS_RATE bytes/s each way per link (scripts/throttle-proxy.py, full duplex, one token bucket per direction); every link goes to the same OpenSSH sshd on 127.0.0.1 (data on the same disk); CPU is shared by tangle or restic, ssh, sshd and the proxy"

        # 1. tangle, three remotes, each through its own link.
        base="bench-$RUN_ID-links"
        if [ "$TANGLE_STATUS" != ok ]; then
            for l in "$TL" "$TS"; do na_row "$l" "restore" "n/a ($TANGLE_STATUS)"; done
            FAILED=1
        elif proxy_start "$L/proxy-tangle-init.log" 0 0 0; then
            LPORTS=("${PROXY_PORTS[@]}")
            add_known_hosts "${LPORTS[@]}"
            urls=()
            init_args=()
            for i in 0 1 2; do
                urls+=("sftp://$SSH_USER@127.0.0.1:${LPORTS[$i]}$SFTP_DIR/$base-$i")
                init_args+=(--remote "${urls[$i]}")
            done
            record note "$TL: remotes ${urls[*]}"
            ok=0
            if run_phase "$TL" init "$TANGLE" init "${init_args[@]}" ${CODING_ARGS[@]+"${CODING_ARGS[@]}"}; then
                proxy_stop
                proxy_start "$L/proxy-tangle-backup.log" "${LPORTS[@]}" \
                    && run_phase "$TL" "backup (initial)" --bytes "$TREE_BYTES" "$TANGLE" -r "${urls[0]}" backup "$TREE" --no-progress \
                    && ok=1
                proxy_stop
                [ "$ok" = 1 ] && link_note "$TL" "backup" "$L/proxy-tangle-backup.log" "$LAST_SECS"
            fi
            proxy_stop
            record size "$ROUND" tangle "3 SFTP remotes (--links)" "$(dir_bytes "$W/servers/sftp/$base"-{0,1,2})"
            if [ "$ok" = 1 ]; then
                # Restores: own links, then the same ports sharing one bucket.
                for mode in own shared; do
                    if [ "$mode" = own ]; then label=$TL; extra=(); else label=$TS; extra=(--shared); fi
                    target="$L/restore-$mode"
                    if proxy_start "$L/proxy-tangle-restore-$mode.log" "${extra[@]}" "${LPORTS[@]}" \
                        && run_phase "$label" restore --bytes "$TREE_BYTES" "$TANGLE" -r "${urls[0]}" restore latest --target "$target" --no-progress; then
                        proxy_stop
                        link_note "$label" restore "$L/proxy-tangle-restore-$mode.log" "$LAST_SECS"
                        if [ "$mode" = own ]; then SECS_OWN=$LAST_SECS; else SECS_SHARED=$LAST_SECS; fi
                        compare_trees "$label" "$TREE" "$target$TREE"
                    else
                        proxy_stop
                        verify_fail "$label" "restore failed"
                        FAILED=1
                    fi
                    rm -rf "$target"
                    # Control: verify reads all shards of an extent at once, so it shows
                    # what these links allow a reader that uses them in parallel.
                    if ! proxy_start "$L/proxy-tangle-verify-$mode.log" "${extra[@]}" "${LPORTS[@]}"; then
                        na_row "$label" "verify --read-data" "n/a (no proxy)"
                        FAILED=1
                    elif run_phase "$label" "verify --read-data" --bytes "$TREE_BYTES" "$TANGLE" -r "${urls[0]}" verify --read-data --no-progress; then
                        proxy_stop
                        link_note "$label" "verify --read-data" "$L/proxy-tangle-verify-$mode.log" "$LAST_SECS"
                        if [ "$mode" = own ]; then VSECS_OWN=$LAST_SECS; else VSECS_SHARED=$LAST_SECS; fi
                    fi
                    proxy_stop
                done
            else
                verify_fail "$TL" "init or backup failed"
                na_row "$TS" "restore" "n/a (no backup)"
                FAILED=1
            fi
        else
            for l in "$TL" "$TS"; do na_row "$l" "restore" "n/a (no proxy)"; done
            FAILED=1
        fi

        # 3. restic, one SFTP repository through one link.
        export RESTIC_PASSWORD=${RESTIC_PASSWORD:-tangle-bench-password}
        export RESTIC_CACHE_DIR="$L/restic-cache"
        if proxy_start "$L/proxy-restic-init.log" 0; then
            RPORT=${PROXY_PORTS[0]}
            add_known_hosts "$RPORT"
            rrepo="sftp:$SSH_USER@127.0.0.1:$SFTP_DIR/$base-restic"
            ropts=(-r "$rrepo" -o "sftp.command=$SSH_CMD -p $RPORT $SSH_USER@127.0.0.1 -s sftp")
            record note "$RL: repository $rrepo through 127.0.0.1:$RPORT"
            ok=0
            if run_phase "$RL" init restic "${ropts[@]}" init; then
                proxy_stop
                proxy_start "$L/proxy-restic-backup.log" "$RPORT" \
                    && run_phase "$RL" "backup (initial)" --bytes "$TREE_BYTES" restic "${ropts[@]}" backup "$TREE" \
                    && ok=1
                proxy_stop
                [ "$ok" = 1 ] && link_note "$RL" backup "$L/proxy-restic-backup.log" "$LAST_SECS"
            fi
            proxy_stop
            record size "$ROUND" restic "SFTP repository (--links)" "$(dir_bytes "$W/servers/sftp/$base-restic")"
            target="$L/restore-restic"
            if [ "$ok" = 1 ] && proxy_start "$L/proxy-restic-restore.log" "$RPORT" \
                && run_phase "$RL" restore --bytes "$TREE_BYTES" restic "${ropts[@]}" restore latest --target "$target"; then
                proxy_stop
                link_note "$RL" restore "$L/proxy-restic-restore.log" "$LAST_SECS"
                SECS_RESTIC=$LAST_SECS
                compare_trees "$RL" "$TREE" "$target$TREE"
            else
                proxy_stop
                verify_fail "$RL" "init, backup or restore failed"
                FAILED=1
            fi
            rm -rf "$target"
        else
            na_row "$RL" "restore" "n/a (no proxy)"
            FAILED=1
        fi
        # The restores' (and the verifies') seconds: the report gives their speed-ups.
        record speedup "${SECS_OWN:-}" "${SECS_SHARED:-}" "${SECS_RESTIC:-}" "${VSECS_OWN:-}" "${VSECS_SHARED:-}"
    fi
fi
stop_servers

# ---- report --------------------------------------------------------------------------
# The run's settings, then the report from the samples file.
record setting date "$(date -u '+%Y-%m-%d %H:%M UTC')"
record setting cores "$(nproc)"
record setting mem_kib "$(awk '/MemTotal/ { print $2 }' /proc/meminfo)"
record setting restic_version "$RESTIC_VERSION"
record setting rustic_version "$RUSTIC_VERSION_LINE"
record setting many "$MANY"
record setting tangle_version "$TANGLE_VERSION"
record setting tree "$TREE"
record setting tree_bytes "$TREE_BYTES"
record setting tree_files "$TREE_FILES"
record setting tree_links "$TREE_LINKS"
record setting small "$SMALL"
record setting workdir "$W"
record setting same_disk "$SAME_DISK"
record setting cache_note "$CACHE_NOTE"
record setting target_note "$TARGET_NOTE"
record setting rounds "$ROUNDS"
record setting order "$( { if run_anchors; then echo anchors; fi; if run_restic; then echo restic; fi; if run_rustic; then echo rustic; fi; if run_tangle; then echo tangle; fi; } | paste -sd,)"
record setting local "$(if run_tangle || run_restic || run_rustic; then echo 1; else echo 0; fi)"
record setting coding "${CODING_ARGS[*]}"
record setting servers_note "$SERVERS_NOTE"
record setting links_note "$LINKS_NOTE"
record setting hash_skip "$HASH_SKIP"
record setting compress_skip "$COMPRESS_SKIP"
for k in "${KINDS[@]}"; do record kind "$k" "$(kind_label "$k")"; done

REPORT="$W/report.md"
if ! python3 "$HERE/bench_report.py" "$DATA" > "$REPORT"; then
    log "scripts/bench_report.py could not make the report from $DATA"
    KEEP=1
    FAILED=1
fi
cat "$REPORT"
if [ -n "$OUT" ]; then
    cp "$REPORT" "$OUT" && log "report written to $OUT"
fi
[ "$KEEP" = 0 ] || log "samples in $DATA (scripts/bench_report.py $DATA remakes the report)"
[ "$FAILED" = 0 ]
