#!/usr/bin/env python3
"""Make a tree of many small files, the same bytes on every machine (issue 37's
"10^6 small files, generated deterministically").

    scripts/make_many_files.py N DIR

N files in directories of 100 entries (DIR/d00/d00/f00.txt, ...; as many levels as N
needs). Sizes follow a log-normal law (median about 660 bytes, mean about 1.1 KB, none
above 64 KiB), like a source tree or a mail spool. Each file starts with its own path
(so no two are alike and no tool can dedup one against another) and goes on with
hexadecimal text from a PRNG seeded with N, which compresses about 2:1.

Idempotent: a complete tree has DIR/.tangle-many-files holding N; if it is there,
nothing is done. A DIR that is neither empty nor such a tree is refused.
"""
import os
import random
import shutil
import sys

MARKER = ".tangle-many-files"
FANOUT = 100
MAX_SIZE = 64 * 1024


def layout(n):
    """The number of directory levels above the files for N files."""
    levels, capacity = 0, FANOUT
    while capacity < n:
        levels += 1
        capacity *= FANOUT
    return levels


def path_of(i, levels):
    """The relative path of file I: one directory level per two decimal digits above."""
    parts = []
    rest = i // FANOUT
    for _ in range(levels):
        parts.append("d%02d" % (rest % FANOUT))
        rest //= FANOUT
    parts.reverse()
    parts.append("f%02d.txt" % (i % FANOUT))
    return os.path.join(*parts)


def make(n, root):
    rng = random.Random(n)
    levels = layout(n)
    made = set()
    total = 0
    for i in range(n):
        rel = path_of(i, levels)
        d = os.path.dirname(rel)
        if d and d not in made:
            os.makedirs(os.path.join(root, d), exist_ok=True)
            made.add(d)
        size = min(int(rng.lognormvariate(6.5, 1.0)), MAX_SIZE)
        header = (rel + "\n").encode()
        body = rng.randbytes((size + 1) // 2).hex().encode()[: max(size - len(header), 0)]
        with open(os.path.join(root, rel), "wb") as f:
            f.write(header + body)
        total += len(header) + len(body)
    return total


def main(argv):
    if len(argv) != 3 or not argv[1].isdigit() or int(argv[1]) < 1:
        sys.stderr.write("usage: make_many_files.py N DIR (N at least 1)\n")
        return 2
    n, root = int(argv[1]), argv[2]
    marker = os.path.join(root, MARKER)
    if os.path.isfile(marker):
        with open(marker) as f:
            if f.read().strip() == str(n):
                sys.stderr.write("make_many_files: %s already holds %d files\n" % (root, n))
                return 0
        shutil.rmtree(root)
    elif os.path.isdir(root) and os.listdir(root):
        sys.stderr.write("make_many_files: %s is neither empty nor a tree of this script\n" % root)
        return 1
    os.makedirs(root, exist_ok=True)
    total = make(n, root)
    with open(marker, "w") as f:
        f.write("%d\n" % n)
    sys.stderr.write("make_many_files: %d files, %d bytes in %s\n" % (n, total, root))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
