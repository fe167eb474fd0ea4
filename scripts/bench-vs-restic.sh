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
#   --only TOOL      run only `restic`, only `tangle` (local remotes), only `remotes`
#                    or only `links`
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
#                    init, back up, restore, and compare the restore with the source.
#                    Uses the ~200 MiB tree unless --full or --tree is given.
#                    `--only remotes` runs these alone (no restic, no local tangle).
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
# For each tool, with a fresh repository: init, initial backup, unchanged re-backup,
# restore, full read check (restic check --read-data / tangle verify --read-data).
# tangle then loses one of its three remotes (rm -rf of remote 2): `tangle repair`
# rebuilds it (MB/s = bytes it wrote / seconds) and `tangle verify --read-data` must
# then pass again.
# MB/s is 10^6 bytes per second: the tree's (apparent) size over the wall time for the
# backup, restore and read-data phases, the bytes written for repair.
# Each phase runs under /usr/bin/time -f '%e %M' (wall seconds, peak RSS), after
# `sync; echo 3 > /proc/sys/vm/drop_caches` when that is allowed (the report says
# whether it was). Every restore is compared with the source byte for byte
# (diff -r --no-dereference: file contents, file types, symlink targets).
# Passwords: $RESTIC_PASSWORD and $TANGLE_PASSWORD (a fixed benchmark password if unset).
# Exit status: 0 if every phase ran and every restore is identical to the source.
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
FULL=0
REMOTE_KINDS=
LINKS_RATE=
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
case "$ONLY" in ""|restic|tangle) ;;
    remotes) [ -n "$REMOTE_KINDS" ] || REMOTE_KINDS=s3,sftp,mixed ;;
    links) [ -n "$LINKS_RATE" ] || LINKS_RATE=20M ;;
    *) echo "--only takes restic, tangle, remotes or links" >&2; exit 2 ;;
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
run_tangle() { [ "$ONLY" = "" ] || [ "$ONLY" = tangle ]; }
run_remotes() { [ "${#KINDS[@]}" -gt 0 ] && [ "$ONLY" != restic ] && [ "$ONLY" != links ]; }
run_links() { [ -n "$LINKS_RATE" ] && { [ "$ONLY" = "" ] || [ "$ONLY" = links ]; }; }

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

if run_links && ! command -v python3 >/dev/null; then
    apt_install python3 || { log "cannot install python3 (for throttle-proxy.py)"; exit 1; }
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
    if [ "$KEEP" = 1 ]; then log "kept $W"; else rm -rf "$W"; fi
}
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
ROWS=()          # "tool|phase|seconds|MB/s|rss"
FAILED=0
LAST_SECS=
# mbps BYTES SECONDS: 10^6 bytes per second, one decimal ("-" if not computable).
mbps() {
    awk -v b="${1:-}" -v s="${2:-}" 'BEGIN {
        if (b !~ /^[0-9]+$/ || s !~ /^[0-9.]+$/) { print "-"; exit }
        if (s + 0 <= 0) { print "inf"; exit }
        printf "%.1f", b / s / 1e6 }'
}
# run_phase TOOL PHASE [--bytes N] [--stdout FILE] [--tolerate-missing] CMD...: time CMD,
# add a table row (MB/s from N bytes if given). CMD's output goes to $W/logs/ (its
# standard output to FILE instead with --stdout). Returns CMD's exit status; the wall
# seconds are left in $LAST_SECS.
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
    tag=$(echo "$tool-$phase" | tr -c 'a-zA-Z0-9\n-' '_')
    logf="$W/logs/$tag.log"
    [ -n "$out" ] || out=$logf
    [ "$CAN_DROP" = 1 ] && drop_caches
    log "$tool: $phase"
    if [ "$out" = "$logf" ]; then
        /usr/bin/time -f '%e %M' -o "$W/time.out" "$@" > "$logf" 2>&1
    else
        /usr/bin/time -f '%e %M' -o "$W/time.out" "$@" > "$out" 2> "$logf"
    fi
    local rc=$?
    local secs rss
    read -r secs rss < <(tail -n 1 "$W/time.out")
    LAST_SECS=$secs
    if [ "$rc" = 0 ]; then
        ROWS+=("$tool|$phase|$secs|$(if [ -n "$bytes" ]; then mbps "$bytes" "$secs"; else echo -; fi)|$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')")
    elif [ "$tolerate" = 1 ] && grep -qiE "unrecognized subcommand|unexpected argument|unknown (command|subcommand)|invalid subcommand|unrecognized (argument|option)|not (yet )?implemented" "$logf"; then
        log "$tool: $phase is not available yet: n/a"
        ROWS+=("$tool|$phase|n/a|-|n/a")
        return 0
    else
        log "$tool: $phase FAILED (exit $rc); last lines of its output:"
        { tail -n 15 "$logf"; [ "$out" = "$logf" ] || tail -n 5 "$out"; } | sed 's/^/    /' >&2
        ROWS+=("$tool|$phase|FAILED (exit $rc)|-|-")
        FAILED=1
    fi
    return "$rc"
}
# set_last_mbps BYTES: fill in the MB/s of the last row (known only after the phase).
set_last_mbps() {
    local i=$((${#ROWS[@]} - 1)) a b c d e
    IFS='|' read -r a b c d e <<< "${ROWS[$i]}"
    case "$c" in ""|n/a*|FAILED*) return ;; esac
    ROWS[i]="$a|$b|$c|$(mbps "$1" "$c")|$e"
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
    local d dl
    dl="$W/logs/$(echo "$tool" | tr -c 'a-zA-Z0-9\n-' '_')-diff.log"
    if diff -r --no-dereference -q "$src" "$got" > "$dl" 2>&1; then
        d="$tool: PASS: restored tree is byte-identical to the source (diff -r --no-dereference)"
    else
        d="$tool: FAIL: restore differs from the source in $(wc -l < "$dl") places; first ones: $(head -n 3 "$dl" | tr '\n' ';')"
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
        run_phase restic "backup (initial)" --bytes "$TREE_BYTES" restic backup "$TREE"
        run_phase restic "backup (unchanged)" --bytes "$TREE_BYTES" restic backup "$TREE"
        if run_phase restic restore --bytes "$TREE_BYTES" restic restore latest --target "$W/restic-restore"; then
            compare_trees restic "$TREE" "$W/restic-restore$TREE"
        else
            VERIFY+=("restic: FAIL: restore failed")
        fi
        run_phase restic "check --read-data" --bytes "$TREE_BYTES" restic check --read-data
        SIZES+=("restic|repository|$(dir_bytes "$W/restic-repo")")
    fi
    rm -rf "$W/restic-restore"   # free the space before tangle runs
fi

# ---- tangle --------------------------------------------------------------------------
TANGLE_VERSION="(not run)"
NOTES=()
if [ "$TANGLE_STATUS" = ok ] && { run_tangle || run_remotes || run_links; }; then
    TANGLE_VERSION=$("$TANGLE" --version 2>&1 | head -n 1)
    export TANGLE_PASSWORD=${TANGLE_PASSWORD:-tangle-bench-password}
    # Keep any local cache or config of tangle inside the work directory.
    export XDG_CACHE_HOME="$W/tangle-xdg-cache" XDG_CONFIG_HOME="$W/tangle-xdg-config"
fi
# json_field FILE NAME: the first integer value of "NAME" in a JSON file.
json_field() { sed -n "s/.*\"$2\": *\([0-9][0-9]*\).*/\1/p" "$1" | head -n 1; }
if run_tangle; then
    if [ "$TANGLE_STATUS" = ok ]; then
        R1="$W/tangle-r1" R2="$W/tangle-r2" R3="$W/tangle-r3"
        mkdir -p "$R1" "$R2" "$R3"
        if run_phase tangle init "$TANGLE" init --remote "$R1" --remote "$R2" --remote "$R3"; then
            run_phase tangle "backup (initial)" --bytes "$TREE_BYTES" "$TANGLE" -r "$R1" backup "$TREE" --no-progress
            run_phase tangle "backup (unchanged)" --bytes "$TREE_BYTES" "$TANGLE" -r "$R1" backup "$TREE" --no-progress
            if run_phase tangle restore --bytes "$TREE_BYTES" "$TANGLE" -r "$R1" restore latest --target "$W/tangle-restore" --no-progress; then
                compare_trees tangle "$TREE" "$W/tangle-restore$TREE"
            else
                VERIFY+=("tangle: FAIL: restore failed")
            fi
            rm -rf "$W/tangle-restore"
            run_phase tangle "verify --read-data" --bytes "$TREE_BYTES" "$TANGLE" -r "$R1" verify --read-data --no-progress
            SIZES+=("tangle|3 remotes together|$(dir_bytes "$R1" "$R2" "$R3")")
            SIZES+=("tangle|remote 1|$(dir_bytes "$R1")")
            # Lose a whole remote, rebuild it, check everything again.
            R2_BYTES=$(dir_bytes "$R2")
            rm -rf "$R2"
            if run_phase tangle "repair (remote 2 deleted)" --stdout "$W/logs/tangle-repair.json" \
                "$TANGLE" -r "$R1" --json repair --no-progress; then
                written=$(json_field "$W/logs/tangle-repair.json" bytes_written)
                read_b=$(json_field "$W/logs/tangle-repair.json" bytes_read)
                set_last_mbps "$written"
                NOTES+=("tangle repair after \`rm -rf\` of remote 2 ($R2_BYTES bytes before): wrote ${written:-?} bytes, read ${read_b:-?} bytes in $LAST_SECS s; remote 2 now holds $(dir_bytes "$R2") bytes")
            fi
            run_phase tangle "verify --read-data (after repair)" --bytes "$TREE_BYTES" "$TANGLE" -r "$R1" verify --read-data --no-progress
        fi
    else
        TANGLE_VERSION="($TANGLE_STATUS)"
        for p in init "backup (initial)" "backup (unchanged)" restore "verify --read-data" \
            "repair (remote 2 deleted)" "verify --read-data (after repair)"; do
            ROWS+=("tangle|$p|n/a ($TANGLE_STATUS)|-|-")
        done
        FAILED=1
    fi
fi

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
                ROWS+=("$(kind_label "$k")|$p|n/a ($TANGLE_STATUS)|-|-")
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
                if run_phase "$label" init "$TANGLE" init "${init_args[@]}"; then
                    if run_phase "$label" "backup (initial)" --bytes "$TREE_BYTES" "$TANGLE" -r "${urls[0]}" backup "$TREE" --no-progress \
                        && run_phase "$label" restore --bytes "$TREE_BYTES" "$TANGLE" -r "${urls[0]}" restore latest --target "$target" --no-progress; then
                        compare_trees "$label" "$TREE" "$target$TREE"
                    else
                        VERIFY+=("$label: FAIL: backup or restore failed")
                    fi
                fi
                NOTES+=("$label: remotes ${urls[*]}")
                rm -rf "$target"
            done
            SIZES+=("tangle|S3 bucket (all configurations)|$(dir_bytes "$W/servers/s3")")
            SIZES+=("tangle|SFTP directory (all configurations)|$(dir_bytes "$W/servers/sftp")")
        else
            for k in "${KINDS[@]}"; do
                ROWS+=("$(kind_label "$k")|backup (initial)|n/a (no servers)|-|-")
                ROWS+=("$(kind_label "$k")|restore|n/a (no servers)|-|-")
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
# link_bytes LOG WAY: from a proxy's summary, the MB each link carried one way (down:
# server to client, up: client to server) as "a + b + c", then "|" and the total bytes.
link_bytes() {
    awk -v way="$2" '/ bytes down,/ { gsub(",", ""); for (i = 1; i < NF; i++) if ($(i + 1) == "bytes" && $(i + 2) == way) {
        printf "%s%.1f", (n++ ? " + " : ""), $i / 1e6; s += $i } } END { print "|" s + 0 }' "$1"
}
# link_note LABEL PHASE LOG SECONDS: what the links carried during a phase, as a note.
link_note() {
    local down up busy
    up=$(link_bytes "$3" up)
    down=$(link_bytes "$3" down)
    busy=$(sed -n 's/.*by links busy at once: //p' "$3")
    NOTES+=("$1, $2: links carried ${down%|*} MB down and ${up%|*} MB up; $(mbps "${down##*|}" "$4") MB/s down over the whole phase; 0.25 s ticks with traffic, by links busy at once (over a tenth of the rate): $busy")
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
        for l in "$TL" "$TS" "$RL"; do ROWS+=("$l|restore|n/a (no servers)|-|-"); done
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
            for l in "$TL" "$TS"; do ROWS+=("$l|restore|n/a ($TANGLE_STATUS)|-|-"); done
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
            NOTES+=("$TL: remotes ${urls[*]}")
            ok=0
            if run_phase "$TL" init "$TANGLE" init "${init_args[@]}"; then
                proxy_stop
                proxy_start "$L/proxy-tangle-backup.log" "${LPORTS[@]}" \
                    && run_phase "$TL" "backup (initial)" --bytes "$TREE_BYTES" "$TANGLE" -r "${urls[0]}" backup "$TREE" --no-progress \
                    && ok=1
                proxy_stop
                [ "$ok" = 1 ] && link_note "$TL" "backup" "$L/proxy-tangle-backup.log" "$LAST_SECS"
            fi
            proxy_stop
            SIZES+=("tangle|3 SFTP remotes (--links)|$(dir_bytes "$W/servers/sftp/$base"-{0,1,2})")
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
                        VERIFY+=("$label: FAIL: restore failed")
                        FAILED=1
                    fi
                    rm -rf "$target"
                    # Control: verify reads all shards of an extent at once, so it shows
                    # what these links allow a reader that uses them in parallel.
                    if ! proxy_start "$L/proxy-tangle-verify-$mode.log" "${extra[@]}" "${LPORTS[@]}"; then
                        ROWS+=("$label|verify --read-data|n/a (no proxy)|-|-")
                        FAILED=1
                    elif run_phase "$label" "verify --read-data" --bytes "$TREE_BYTES" "$TANGLE" -r "${urls[0]}" verify --read-data --no-progress; then
                        proxy_stop
                        link_note "$label" "verify --read-data" "$L/proxy-tangle-verify-$mode.log" "$LAST_SECS"
                        if [ "$mode" = own ]; then VSECS_OWN=$LAST_SECS; else VSECS_SHARED=$LAST_SECS; fi
                    fi
                    proxy_stop
                done
            else
                VERIFY+=("$TL: FAIL: init or backup failed")
                ROWS+=("$TS|restore|n/a (no backup)|-|-")
                FAILED=1
            fi
        else
            for l in "$TL" "$TS"; do ROWS+=("$l|restore|n/a (no proxy)|-|-"); done
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
            NOTES+=("$RL: repository $rrepo through 127.0.0.1:$RPORT")
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
            SIZES+=("restic|SFTP repository (--links)|$(dir_bytes "$W/servers/sftp/$base-restic")")
            target="$L/restore-restic"
            if [ "$ok" = 1 ] && proxy_start "$L/proxy-restic-restore.log" "$RPORT" \
                && run_phase "$RL" restore --bytes "$TREE_BYTES" restic "${ropts[@]}" restore latest --target "$target"; then
                proxy_stop
                link_note "$RL" restore "$L/proxy-restic-restore.log" "$LAST_SECS"
                SECS_RESTIC=$LAST_SECS
                compare_trees "$RL" "$TREE" "$target$TREE"
            else
                proxy_stop
                VERIFY+=("$RL: FAIL: init, backup or restore failed")
                FAILED=1
            fi
            rm -rf "$target"
        else
            ROWS+=("$RL|restore|n/a (no proxy)|-|-")
            FAILED=1
        fi
        ratio() { awk -v a="${1:-}" -v b="${2:-}" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2fx", b / a; else print "-" }'; }
        NOTES+=("restore speed-up of tangle over 3 own links (3x the bandwidth of one): $(ratio "${SECS_OWN:-}" "${SECS_SHARED:-}") against the same remotes behind 1 shared link, $(ratio "${SECS_OWN:-}" "${SECS_RESTIC:-}") against restic over 1 link; for verify --read-data (the control): $(ratio "${VSECS_OWN:-}" "${VSECS_SHARED:-}") against 1 shared link")
    fi
fi
stop_servers

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
    if run_tangle || run_restic; then echo "- tangle: 3 local remotes; restic: one local repository (restic's default compression)"; fi
    [ -z "$SERVERS_NOTE" ] || echo "- test servers: $SERVERS_NOTE"
    [ -z "$LINKS_NOTE" ] || echo "- links (--links): $LINKS_NOTE"
    echo "- MB/s: 10^6 bytes per second; the tree's apparent size over the wall time for backup, restore and read-data phases (for an unchanged re-backup: scan rate), bytes written for repair"
    echo
    echo "| tool | phase | seconds | MB/s | peak RSS MiB |"
    echo "| --- | --- | ---: | ---: | ---: |"
    for r in "${ROWS[@]}"; do
        IFS='|' read -r a b c d e <<< "$r"
        echo "| $a | $b | $c | $d | $e |"
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
    if [ "${#NOTES[@]}" -gt 0 ]; then
        echo
        echo "Notes:"
        echo
        for v in "${NOTES[@]}"; do echo "- $v"; done
    fi
} > "$REPORT"
cat "$REPORT"
if [ -n "$OUT" ]; then
    cp "$REPORT" "$OUT" && log "report written to $OUT"
fi
[ "$FAILED" = 0 ]
