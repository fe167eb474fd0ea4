#!/usr/bin/env bash
# Time backup and restore of the benchmark tree over S3 and SFTP with several codings in
# one run, and count the objects each stores (issue 33: wider codewords mean more objects
# per GiB, and more requests). Rounds interleave the codings (the order rotates each
# round), so a slow drift of the machine hits every coding alike.
#
#   scripts/bench-codings.sh [--small] [--rounds N] [--kinds s3,sftp,local,s3-far]
#                            [--delay 30ms] [--out FILE] NAME=S/P/T...
#   e.g. scripts/bench-codings.sh --rounds 3 before=8/6/4 after=12/9/6
#        scripts/bench-codings.sh --kinds sftp old=12/9/6@/tmp/tangle-old new=12/9/6
#   (NAME=S/P/T@BINARY runs that coding with another tangle binary: two builds in one run)
#        scripts/bench-codings.sh --kinds local,s3,s3-far --delay 30ms default=12/9/6
#
# Kinds: three remotes each of s3 (s3s-fs), sftp (OpenSSH), local (directories on this
# machine's disk), or s3-far: the same S3 server reached through
# scripts/throttle-proxy.py, which adds a round trip of --delay (default 30ms) to every
# connection and limits no bandwidth: three S3 remotes far away.
#
# Each round, for each kind and coding: init three remotes of that kind (fresh names),
# back up the tree, restore it to a fresh directory and compare it (sizes and contents,
# `cmp`), count the objects on the remotes (`remote list --json`), delete the remotes.
# Uses target/release/tangle (built if missing, or TANGLE_BIN), the tree of
# scripts/make-bench-tree.sh, and private test servers (scripts/test-servers.sh: s3s-fs
# and OpenSSH on 127.0.0.1, under the work directory). Prints a markdown report: per
# kind, coding and phase the median wall time with its range over the rounds, MiB/s,
# objects per GiB of the tree, and each coding's median against the first one's.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")

small=
rounds=3
kinds=s3,sftp
delay=30ms
out=
codings=()
while [ $# -gt 0 ]; do
    case "$1" in
        --small) small=--small ;;
        --rounds) rounds=${2:?--rounds needs N}; shift ;;
        --kinds) kinds=${2:?--kinds needs a list}; shift ;;
        --delay) delay=${2:?--delay needs a time, e.g. 30ms}; shift ;;
        --out) out=${2:?--out needs FILE}; shift ;;
        -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
        *=*/*/*) codings+=("$1") ;;
        *) echo "bench-codings: unknown argument $1 (want NAME=S/P/T)" >&2; exit 2 ;;
    esac
    shift
done
[ ${#codings[@]} -ge 1 ] || { echo "bench-codings: give at least one NAME=S/P/T" >&2; exit 2; }
IFS=, read -r -a KINDS <<< "$kinds"

bin=${TANGLE_BIN:-$ROOT/target/release/tangle}
if [ -z "${TANGLE_BIN:-}" ] && [ ! -x "$bin" ]; then
    (cd "$ROOT" && cargo build --release --locked)
fi
tree=/var/tmp/tangle-bench-tree${small:+-small}
"$HERE/make-bench-tree.sh" $small "$tree" >&2
tree_bytes=$(du -sb --apparent-size "$tree" | cut -f1)

W=$(mktemp -d "${TMPDIR:-/tmp}/tangle-bench-codings.XXXXXX")
cleanup() {
    [ -z "${proxy_pid:-}" ] || kill "$proxy_pid" 2>/dev/null || true
    TANGLE_TEST_STATE="$W/servers" "$HERE/test-servers.sh" stop >/dev/null 2>&1 || true
    rm -rf "$W"
}
trap cleanup EXIT
TANGLE_TEST_STATE="$W/servers" "$HERE/test-servers.sh" start > "$W/servers.log" 2>&1 \
    || { cat "$W/servers.log" >&2; exit 1; }
eval "$(TANGLE_TEST_STATE="$W/servers" "$HERE/test-servers.sh" env)"
proxy_pid=
near_endpoint=$AWS_ENDPOINT far_endpoint=
if [[ ",$kinds," == *,s3-far,* ]]; then
    # shellcheck source=scripts/delay-proxy.sh
    . "$HERE/delay-proxy.sh"
    start_delay_proxy "$delay" "${AWS_ENDPOINT#http://}" "$W" || exit 1
    proxy_pid=$DELAY_PROXY_PID far_endpoint=$DELAY_PROXY_URL
fi
export TANGLE_PASSWORD=bench-codings TANGLE_CACHE_DIR=$W/cache
results=$W/results.tsv   # kind coding round phase seconds objects
: > "$results"

# settle: write back what earlier phases left dirty and drop the page cache (where that is
# allowed), so that one phase does not pay for the last one's writeback: without it a
# restore right after a backup took 7.6 s in one round and 46 s in the next.
settle() { sync; { echo 3 > /proc/sys/vm/drop_caches; } 2>/dev/null || true; }

# timed SECONDS_VAR CMD...: settle, run CMD, its wall time in seconds into SECONDS_VAR.
timed() {
    local var=$1; shift
    local t0 t1
    settle
    t0=$(date +%s.%N)
    "$@" > "$W/last.log" 2>&1 || { echo "bench-codings: failed: $*" >&2; tail -n 20 "$W/last.log" >&2; exit 1; }
    t1=$(date +%s.%N)
    printf -v "$var" '%s' "$(echo "$t1 - $t0" | bc)"
}

n=${#codings[@]}
for ((round = 1; round <= rounds; round++)); do
    for kind in "${KINDS[@]}"; do
        for ((i = 0; i < n; i++)); do
            spec=${codings[$(((i + round - 1) % n))]}
            run_bin=$bin
            if [[ $spec == *@* ]]; then run_bin=${spec#*@}; spec=${spec%%@*}; fi
            name=${spec%%=*}
            IFS=/ read -r s p t <<< "${spec#*=}"
            base=bench-$round-$kind-$name
            export AWS_ENDPOINT=$near_endpoint
            case "$kind" in
                s3) urls=(s3://"$TANGLE_TEST_S3_BUCKET"/"$base"-{a,b,c}) ;;
                s3-far) urls=(s3://"$TANGLE_TEST_S3_BUCKET"/"$base"-{a,b,c})
                        export AWS_ENDPOINT=$far_endpoint ;;
                sftp) urls=("$TANGLE_TEST_SFTP_URL"/"$base"-{a,b,c}) ;;
                local) urls=("$W/local/$base"-{a,b,c}) ;;
                *) echo "bench-codings: unknown kind $kind (s3, sftp, local, s3-far)" >&2; exit 2 ;;
            esac
            args=()
            for u in "${urls[@]}"; do args+=(--remote "$u"); done
            rm -rf "$TANGLE_CACHE_DIR"
            "$run_bin" --no-progress -q init "${args[@]}" --data-shards "$s" --parity-shards "$p" --pointers "$t"
            echo "round $round, $kind, $name ($s+$p, $t pointers): backup" >&2
            timed backup "$run_bin" --no-progress -q -r "${urls[0]}" backup "$tree"
            objects=$("$run_bin" --no-progress -r "${urls[0]}" --json remote list |
                python3 -c 'import json,sys; print(sum(r.get("objects") or 0 for r in json.load(sys.stdin)))')
            rm -rf "$TANGLE_CACHE_DIR" "$W/target"
            echo "round $round, $kind, $name: restore" >&2
            timed restore "$run_bin" --no-progress -q -r "${urls[0]}" restore latest --target "$W/target"
            # The restore must be the tree: same files, same bytes.
            (cd "$tree" && find . -type f -print0 | sort -z) > "$W/want"
            (cd "$W/target$tree" && find . -type f -print0 | sort -z) > "$W/got"
            cmp -s "$W/want" "$W/got" || { echo "bench-codings: restore of $name over $kind lacks files" >&2; exit 1; }
            (cd "$tree" && xargs -0 -n 200 sh -c 'for f; do cmp -s "$f" "$0/$f" || { echo "differs: $f"; exit 1; }; done' "$W/target$tree" < "$W/want") \
                || { echo "bench-codings: restore of $name over $kind differs" >&2; exit 1; }
            rm -rf "$W/target"
            printf '%s\t%s\t%s\tbackup\t%s\t%s\n' "$kind" "$name" "$round" "$backup" "$objects" >> "$results"
            printf '%s\t%s\t%s\trestore\t%s\t%s\n' "$kind" "$name" "$round" "$restore" "$objects" >> "$results"
            # Free the servers' disk before the next coding.
            case "$kind" in
                s3|s3-far) rm -rf "$W/servers/s3/$TANGLE_TEST_S3_BUCKET/$base"-* ;;
                sftp) rm -rf "$W/servers/sftp/$base"-* ;;
                local) rm -rf "$W/local/$base"-* ;;
            esac
        done
    done
done

far=; [ -z "$far_endpoint" ] || far=$delay
report=$(python3 - "$results" "$tree_bytes" "$tree" "$rounds" "$("$bin" --version)" "$far" "${codings[@]}" <<'EOF'
import statistics, sys
path, tree_bytes, tree, rounds, version, delay, *codings = sys.argv[1:]
tree_bytes = int(tree_bytes)
names = [c.split("=")[0] for c in codings]
rows = [l.rstrip("\n").split("\t") for l in open(path) if l.strip()]
by = {}
for kind, name, rnd, phase, secs, objects in rows:
    by.setdefault((kind, name, phase), []).append((float(secs), int(objects)))
gib = tree_bytes / 2**30
print(f"# Codings over S3 and SFTP\n")
print(f"{version}; tree {tree} ({tree_bytes / 2**20:.0f} MiB); {rounds} rounds, codings interleaved; "
      "three remotes of one kind on 127.0.0.1 (s3s-fs, OpenSSH, or local directories), one machine; "
      + (f"s3-far: the S3 server through scripts/throttle-proxy.py, which adds a {delay} round trip to every connection; " if delay else "")
      + "`sync` (and the page cache dropped, where allowed) before every phase.\n")
print("| kind | coding | phase | median s | range s | MiB/s | objects | objects per GiB | median / first coding's |")
print("|---|---|---|---:|---|---:|---:|---:|---:|")
for kind in sorted({k for k, _, _ in by}):
    for phase in ("backup", "restore"):
        first = None
        for c, name in zip(codings, names):
            v = by.get((kind, name, phase))
            if not v:
                continue
            t = [x for x, _ in v]
            med = statistics.median(t)
            first = first or med
            objs = v[0][1]
            print(f"| {kind} | {c} | {phase} | {med:.1f} | {min(t):.1f}–{max(t):.1f} | "
                  f"{tree_bytes / 2**20 / med:.0f} | {objs} | {objs / gib:.0f} | {med / first:.2f} |")
EOF
)
echo "$report"
[ -z "$out" ] || echo "$report" > "$out"
