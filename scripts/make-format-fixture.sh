#!/usr/bin/env bash
# Make tests/data/format-v1.tar.gz: a small repository of today's on-disk format that
# every later build must still open, verify and restore byte-identical
# (tests/e2e/format_fixture.rs). Run it once per format version, never to "refresh" a
# fixture: the point is that the bytes in the tarball were written by an older build.
#
#   scripts/make-format-fixture.sh            (builds target/debug/tangle with --features testing)
#
# What it holds, under tangle-format-v1/ (extracted to /tmp by the test: a remote's URL
# is an absolute path in the config, so the repository opens only where it was made):
#   r0 r1 r2     the three remotes: 64 KiB extents (so a little data makes several data
#                and tree extents), default coding, three snapshots backed up and the
#                middle one deleted (a deletion record, re-encoded codewords, a repack)
#   src-a src-b  the source tree as the first and the last kept snapshot saw it
#   init.json    `init --json` (the owner fingerprint to pin)
#   snapshots.json  `snapshots --json` after the delete
set -euo pipefail
cd "$(dirname "$0")/.."

version=1
name=tangle-format-v$version
root=/tmp/$name
out=tests/data/format-v$version.tar.gz
[ ! -e "$out" ] || { echo "$out exists: a fixture is made once per format version" >&2; exit 1; }

cargo build --features testing
bin=$PWD/target/debug/tangle

rm -rf "$root"
mkdir -p "$root/src" "$root/home"
export HOME=$root/home TANGLE_CACHE_DIR=$root/cache TANGLE_HOST=fixture
export TANGLE_PASSWORD="format fixture v$version" TANGLE_TEST_EXTENT_SIZE=65536

# The source: text that compresses, random bytes that do not (several chunks), an empty
# file, a symlink, a hard link, an executable, odd names, nested directories.
python3 - "$root/src" <<'EOF'
import os, random, sys
root = sys.argv[1]
r = random.Random(20261127)
def put(rel, data, mode=0o644):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        f.write(data)
    os.chmod(p, mode)
words = [w.encode() for w in "tangle keeps every byte it was given and tells you when it cannot".split()]
for i in range(12):
    put(f"notes/day-{i:02}.txt", b" ".join(r.choice(words) for _ in range(400 + 90 * i)) + b"\n")
put("blobs/random.bin", r.randbytes(40_000))
put("blobs/small.bin", r.randbytes(3_000))
put("empty", b"")
put("bin/run.sh", b"#!/bin/sh\necho tangle\n", 0o755)
put("odd names/caf\xc3\xa9 & spaces.txt".encode().decode("utf-8", "surrogateescape"), b"unicode\n")
os.symlink("../notes/day-00.txt", os.path.join(root, "bin", "link"))
os.link(os.path.join(root, "blobs/small.bin"), os.path.join(root, "blobs/small-hardlink.bin"))
EOF
find "$root/src" -exec touch -h -d "2026-01-02 03:04:05.123456789" {} +

t() { "$bin" --no-progress "$@"; }
t --json init --remote "$root/r0" --remote "$root/r1" --remote "$root/r2" > "$root/init.json"
t -r "$root/r0" backup "$root/src"
cp -a "$root/src" "$root/src-a"

echo "changed on day two" >> "$root/src/notes/day-03.txt"
rm "$root/src/notes/day-07.txt"
touch -h -d "2026-01-03 03:04:05" "$root/src/notes/day-03.txt" "$root/src/notes"
t -r "$root/r0" backup "$root/src"
second=$(t -r "$root/r0" --json snapshots | python3 -c 'import json,sys; print(json.load(sys.stdin)[-1]["id"])')

python3 -c 'import random,sys; sys.stdout.buffer.write(random.Random(3).randbytes(20_000))' > "$root/src/blobs/day-three.bin"
touch -h -d "2026-01-04 03:04:05" "$root/src/blobs/day-three.bin" "$root/src/blobs"
t -r "$root/r0" backup "$root/src"
cp -a "$root/src" "$root/src-b"

t -r "$root/r0" delete "$second"
t -r "$root/r0" --json snapshots > "$root/snapshots.json"
t -r "$root/r0" verify --read-data

mkdir -p tests/data
tar --format=posix --sort=name -czf "$out" -C /tmp \
  "$name/r0" "$name/r1" "$name/r2" "$name/src-a" "$name/src-b" "$name/init.json" "$name/snapshots.json"
ls -l "$out"
