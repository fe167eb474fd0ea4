#!/usr/bin/env python3
"""Check that the library's layers depend downwards only (src/lib.rs, docs/DEVELOPING.md).

    scripts/check_layers.py [SRC_DIR]

Reads every .rs file of the library under SRC_DIR (default: the crate's src/; the
binary's main.rs and cli/ are outside the library and not checked) and finds the crate
modules it names: `crate::NAME`, `crate::{NAME, ...}` and `super::` paths that reach the
crate root, comments left out (doc links are not dependencies) and `pub(in crate::...)`
visibilities too. A module may use its own layer's module and the layers below it, never
one beside or above it. Prints each violation as `FILE:LINE: LAYER uses MODULE` and exits
1 if there is any. scripts/test.sh runs it; scripts/test_check_layers.py tests it.

A new top-level module must be given a layer below (an unknown one is an error).
Standard library only.
"""

import os
import re
import sys

# Bottom up: a module may use the modules of lower ranks (and its own), nothing else.
LAYERS = [
    ["error", "util", "debug"],  # foundation: nothing of the crate
    ["crypto", "pathmatch"],
    ["remote", "codec"],  # side by side: neither uses the other
    ["extent"],
    ["content"],
    ["repo"],
    ["ops"],
    ["testing"],  # the `testing` feature's fuzz entry points
]
RANK = {m: r for r, ms in enumerate(LAYERS) for m in ms}
# Names at the crate root that are re-exports (src/lib.rs).
ALIASES = {"Error": "error", "Kind": "error", "Result": "error"}
# The remote layer lives in repo/remote/ (so that only `repo` can write to remotes,
# `WriteAccess`) and is re-exported as `crate::remote`.
REMOTE_DIR = ("repo", "remote")

# Comments, string and character literals, blanked (same length, newlines kept) before
# anything is read: a doc link is no dependency, a "{" in a format string is no block.
SCRUB = re.compile(r"//[^\n]*|/\*[\s\S]*?\*/|"
                   r'b?r(#*)"[\s\S]*?"\1|b?"(?:\\[\s\S]|[^"\\])*"|b?\'(?:\\u\{[0-9a-fA-F]+\}|\\.|[^\\\'])\'')
INLINE_MOD = re.compile(r"\bmod\s+\w+\s*$")
VISIBILITY = re.compile(r"pub\s*\(\s*in\s+[\w:]+\s*\)")
CRATE_PATH = re.compile(r"\bcrate\s*::\s*(\{|\w+(?:\s*::\s*\w+)?)")
SUPER_PATH = re.compile(r"\b((?:super\s*::\s*)+)(\{|\w+(?:\s*::\s*\w+)?)")


def module_path(rel):
    """`repo/reader/fast.rs` -> ["repo", "reader", "fast"]; mod.rs names its folder."""
    parts = rel[: -len(".rs")].split("/")
    if parts[-1] == "mod":
        parts.pop()
    return parts


def layer_of(parts):
    if tuple(parts[:2]) == REMOTE_DIR:
        return "remote"
    return parts[0]


def target(item):
    """The top-level module a path below the crate root names ("repo::remote" -> remote)."""
    names = [n.strip() for n in item.split("::")]
    first = ALIASES.get(names[0], names[0])
    if first == "repo" and len(names) > 1 and names[1] == "remote":
        return "remote"
    return first


def group_items(text, start):
    """The items of the `{...}` group opening at `start`, each with its offset."""
    depth, item, items, at = 0, "", [], start + 1
    for i in range(start, len(text)):
        c = text[i]
        if c == "{":
            depth += 1
            if depth == 1:
                continue
        elif c == "}":
            depth -= 1
            if depth == 0:
                items.append((item, at))
                break
        if depth == 1 and c == ",":
            items.append((item, at))
            item, at = "", i + 1
        else:
            item += c
    return [(it.strip(), off + len(it) - len(it.lstrip())) for it, off in items if it.strip()]


def blank(m):
    return re.sub(r"[^\n]", " ", m.group(0))


def inline_depths(text):
    """For each `{`-block: (start, end, inline module depth inside it)."""
    stack, blocks, last = [], [], 0
    for i, c in enumerate(text):
        if c in ";{}":
            if c == "{":
                is_mod = bool(INLINE_MOD.search(text[last:i]))
                depth = (stack[-1][1] if stack else 0) + is_mod
                stack.append((i, depth))
            elif c == "}" and stack:
                start, depth = stack.pop()
                blocks.append((start, i, depth))
            last = i + 1
    return blocks


def depth_at(blocks, offset):
    return max((d for s, e, d in blocks if s < offset < e), default=0)


def references(text, parts):
    """(offset, module) for every crate module the code names."""
    out = []
    blocks = inline_depths(text)

    def add(item, offset):
        if item.startswith("self") or not item:
            return
        out.append((offset, target(re.sub(r"\{.*", "", item, flags=re.S))))

    def at_root(m, path_start):
        if m.group(path_start) == "{":
            for item, off in group_items(text, m.start(path_start)):
                add(item, off)
        else:
            add(m.group(path_start), m.start())

    for m in CRATE_PATH.finditer(text):
        at_root(m, 1)
    for m in SUPER_PATH.finditer(text):
        ups = m.group(1).count("super")
        if ups >= len(parts) + depth_at(blocks, m.start()):  # reaches the crate root
            at_root(m, 2)
    return out


def check(src):
    violations = []
    for root, _dirs, files in os.walk(src):
        for f in sorted(files):
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(root, f), src).replace(os.sep, "/")
            if rel in ("lib.rs", "main.rs") or rel.startswith("cli/"):
                continue
            parts = module_path(rel)
            layer = layer_of(parts)
            if layer not in RANK:
                violations.append(f"{rel}: module `{layer}` has no layer in {sys.argv[0]}")
                continue
            with open(os.path.join(root, f), encoding="utf-8") as fh:
                text = VISIBILITY.sub(blank, SCRUB.sub(blank, fh.read()))
            for offset, used in references(text, parts):
                line = text.count("\n", 0, offset) + 1
                if used not in RANK:
                    violations.append(f"src/{rel}:{line}: {layer} uses unknown `crate::{used}`")
                elif used != layer and RANK[used] >= RANK[layer]:
                    violations.append(f"src/{rel}:{line}: {layer} uses {used}")
    return sorted(set(violations))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "src")
    violations = check(src)
    if violations:
        print("check_layers: a layer uses one beside or above it:", file=sys.stderr)
        for v in violations:
            print(f"  {v}", file=sys.stderr)
        print("The layers, bottom up (each may use those before it):", file=sys.stderr)
        for ms in LAYERS:
            print(f"  {', '.join(ms)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
