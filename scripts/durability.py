#!/usr/bin/env python3
"""Durability harness: how much data survives shard loss, measured through the binary.

For each regime and seed it builds one source history and backs it up, step by step,
into one repository per layout (coding) over local remote directories. Each pristine
history is then copied once per damage scenario; the copy loses shard files at seeded
positions (the same positions, by extent sequence number and shard index, for every
layout), and is checked exactly as a user or a CI job would: password-less
`verify --json`, `repair --json`, `verify --read-data --json` (fresh cache, owner pinned
with --owner), then every snapshot is restored with the password and compared with the
manifest (SHA-256 per file) of the source at that backup. It records lost extents and
lost data bytes (from verify's `data-lost` findings), snapshots not restored
byte-identical, and whether verify's verdict agreed with the restores.

Run it through scripts/durability.sh (see `--help`). Python 3.11, standard library only.
Documentation and a measured table: docs/DURABILITY.md.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

MIB = 1 << 20
PASSWORD = "durability harness password"
CMD_TIMEOUT = 1800  # seconds, per tangle command

# name=DATA/PARITY/POINTERS; an empty coding is `init`'s default for the remotes.
DEFAULT_LAYOUTS = "default=,rs4+3=4/3/0,rs7+6=7/6/0"

# Damage scenarios. random: every shard file is lost with probability q. remote: one
# whole remote directory is wiped (a dead disk replaced by an empty one), plus q on the
# other shards. burst: a run of consecutive extents loses its shards on two remotes, plus
# q everywhere. none: no damage (a control: everything must verify and restore).
SCENARIOS = {
    "random-10%": {"kind": "random", "q": 0.10},
    "random-20%": {"kind": "random", "q": 0.20},
    "remote+1%": {"kind": "remote", "q": 0.01},
    "remote+5%": {"kind": "remote", "q": 0.05},
    "burst": {"kind": "burst", "q": 0.01},
    "none": {"kind": "none", "q": 0.0},
}
ALL_SCENARIOS = "random-10%,random-20%,remote+1%,remote+5%,burst"

# (a) one large initial backup of full extents, then small dailies; (b) small dailies.
REGIMES = ("full+dailies", "dailies")

# Presets; explicit flags override their values.
PRESETS = {
    "smoke": {
        "seeds": 1,
        "layouts": "default=,rs4+3=4/3/0",
        "scenarios": "random-20%,remote+5%,burst",
        "regimes": "full+dailies,dailies",
        "full_extents": 2,
        "dailies_a": 2,
        "dailies_b": 6,
    },
    "small": {
        "seeds": 3,
        "layouts": "default=,rs7+6=7/6/0",
        "scenarios": "random-20%,remote+5%",
        "regimes": "full+dailies,dailies",
        "full_extents": 5,
        "dailies_a": 5,
        "dailies_b": 16,
    },
    "full": {
        "seeds": 20,
        "layouts": DEFAULT_LAYOUTS,
        "scenarios": ALL_SCENARIOS,
        "regimes": "full+dailies,dailies",
        "full_extents": 12,
        "dailies_a": 8,
        "dailies_b": 40,
    },
}


def log(msg: str) -> None:
    print(f"durability: {msg}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------
# Configuration


@dataclass
class Layout:
    name: str
    data: int | None = None
    parity: int | None = None
    pointers: int | None = None

    @staticmethod
    def parse(spec: str) -> "Layout":
        name, _, coding = spec.partition("=")
        if not name:
            raise ValueError(f"layout {spec!r}: expected NAME=DATA/PARITY/POINTERS or NAME=")
        if not coding:
            return Layout(name)
        parts = coding.split("/")
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            raise ValueError(f"layout {spec!r}: expected NAME=DATA/PARITY/POINTERS")
        return Layout(name, *map(int, parts))

    def init_flags(self) -> list[str]:
        flags = []
        for flag, value in (
            ("--data-shards", self.data),
            ("--parity-shards", self.parity),
            ("--pointers", self.pointers),
        ):
            if value is not None:
                flags += [flag, str(value)]
        return flags


@dataclass
class Config:
    binary: str
    seeds: list[int]
    layouts: list[Layout]
    scenarios: list[str]
    regimes: list[str]
    remotes: int
    full_extents: int
    dailies_a: int
    dailies_b: int
    burst_extents: int
    references: list[str]
    jobs: int
    workdir: str
    keep_work: bool
    preset: str
    tamper_manifest: bool = False


def parse_args(argv: list[str]) -> tuple[Config, str | None]:
    p = argparse.ArgumentParser(
        prog="scripts/durability.sh",
        description="Durability harness: build histories through the tangle binary, "
        "damage copies of them, verify/repair/restore, and report the losses per layout.",
    )
    size = p.add_mutually_exclusive_group()
    size.add_argument("--smoke", action="store_true", help="tiny run for the integration test")
    size.add_argument("--full", action="store_true", help=">= 20 seeds, all layouts and scenarios")
    p.add_argument("--bin", help="tangle binary (default: $TANGLE_BIN)")
    p.add_argument("--seeds", type=int, help="number of seeds (default 3; --full 20)")
    p.add_argument("--seed-base", type=int, default=1, help="first seed (default 1)")
    p.add_argument(
        "--layouts",
        help="comma-separated NAME=DATA/PARITY/POINTERS, NAME= for init's default "
        f"(default {PRESETS['small']['layouts']}; --full {DEFAULT_LAYOUTS})",
    )
    p.add_argument(
        "--reference",
        help="comma-separated layouts the ratios are against (default: every layout with "
        "--pointers 0)",
    )
    p.add_argument(
        "--scenarios",
        help=f"comma-separated, of {', '.join(SCENARIOS)} "
        f"(default {PRESETS['small']['scenarios']}; --full {ALL_SCENARIOS})",
    )
    p.add_argument("--regimes", help=f"comma-separated, of {', '.join(REGIMES)} (default both)")
    p.add_argument("--remotes", type=int, default=3, help="local remotes per repository (default 3)")
    p.add_argument(
        "--full-extents",
        type=int,
        help="regime full+dailies: initial backup of this many full extents' worth of data",
    )
    p.add_argument("--dailies-a", type=int, help="regime full+dailies: small dailies after it")
    p.add_argument("--dailies-b", type=int, help="regime dailies: small dailies")
    p.add_argument(
        "--burst-extents",
        type=int,
        default=30,
        help="burst length (default 30; at most a third of a history's extents)",
    )
    p.add_argument("--jobs", type=int, default=2, help="histories worked on at once (1 or 2)")
    p.add_argument("--json", dest="json_out", metavar="FILE", help="also write the results as JSON")
    p.add_argument("--workdir", help="where the temporary directory goes (default $TMPDIR)")
    p.add_argument("--keep-work", action="store_true", help="keep the temporary directory")
    p.add_argument(
        "--tamper-manifest",
        action="store_true",
        help="self-test of the harness: expect one wrong file in the newest snapshot, so "
        "that its restore looks different and every run must report a disagreement",
    )
    a = p.parse_args(argv)

    preset = "smoke" if a.smoke else "full" if a.full else "small"
    d = PRESETS[preset]
    binary = a.bin or os.environ.get("TANGLE_BIN")
    if not binary:
        p.error("no binary: give --bin or set TANGLE_BIN")
    binary = str(Path(binary).resolve())
    if not os.access(binary, os.X_OK):
        p.error(f"{binary} is not an executable")
    try:
        layouts = [Layout.parse(s) for s in (a.layouts or d["layouts"]).split(",") if s]
    except ValueError as e:
        p.error(str(e))
    names = [layout.name for layout in layouts]
    if len(set(names)) != len(names):
        p.error("layout names must differ")
    scenarios = [s for s in (a.scenarios or d["scenarios"]).split(",") if s]
    for s in scenarios:
        if s not in SCENARIOS:
            p.error(f"unknown scenario {s!r} (known: {', '.join(SCENARIOS)})")
    regimes = [r for r in (a.regimes or d["regimes"]).split(",") if r]
    for r in regimes:
        if r not in REGIMES:
            p.error(f"unknown regime {r!r} (known: {', '.join(REGIMES)})")
    if a.reference:
        references = a.reference.split(",")
    else:
        references = [layout.name for layout in layouts if layout.pointers == 0] or names[-1:]
    for ref in references:
        if ref not in names:
            p.error(f"reference {ref!r} is not one of the layouts")
    if not 1 <= a.jobs <= 2:
        p.error("--jobs: 1 or 2 (the machine this was written for has 2 cores)")
    seeds = a.seeds if a.seeds is not None else d["seeds"]
    if seeds < 1:
        p.error("--seeds must be at least 1")
    cfg = Config(
        binary=binary,
        seeds=list(range(a.seed_base, a.seed_base + seeds)),
        layouts=layouts,
        scenarios=scenarios,
        regimes=regimes,
        remotes=a.remotes,
        full_extents=a.full_extents if a.full_extents is not None else d["full_extents"],
        dailies_a=a.dailies_a if a.dailies_a is not None else d["dailies_a"],
        dailies_b=a.dailies_b if a.dailies_b is not None else d["dailies_b"],
        burst_extents=a.burst_extents,
        references=references,
        jobs=a.jobs,
        workdir=a.workdir or tempfile.gettempdir(),
        keep_work=a.keep_work,
        preset=preset,
        tamper_manifest=a.tamper_manifest,
    )
    return cfg, a.json_out


# --------------------------------------------------------------------------------------
# Running the binary


class Tangle:
    """The binary in a clean environment: only PATH, and HOME under `home`."""

    def __init__(self, binary: str, home: Path):
        self.binary = binary
        self.home = home
        home.mkdir(parents=True, exist_ok=True)

    def run(
        self,
        args: list[str],
        *,
        password: bool = False,
        owner: str | None = None,
        cache: Path | None = None,
    ) -> subprocess.CompletedProcess:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "XDG_CACHE_HOME": str(self.home / "cache"),
            "XDG_CONFIG_HOME": str(self.home / "config"),
            "TMPDIR": str(self.home),
            "TANGLE_HOST": "durability",
            "NO_COLOR": "1",
            "TERM": "dumb",
        }
        if password:
            env["TANGLE_PASSWORD"] = PASSWORD
        if owner:
            env["TANGLE_OWNER"] = owner
        if cache:
            env["TANGLE_CACHE_DIR"] = str(cache)
        return subprocess.run(
            [self.binary, "--no-progress", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=CMD_TIMEOUT,
        )

    def run_ok(self, args: list[str], **kw) -> subprocess.CompletedProcess:
        out = self.run(args, **kw)
        if out.returncode != 0:
            raise RuntimeError(
                f"tangle {' '.join(args)} exited {out.returncode}:\n{out.stderr.strip()}"
            )
        return out

    def json(self, args: list[str], ok_codes=(0,), **kw) -> tuple[int, dict]:
        out = self.run(args, **kw)
        if out.returncode not in ok_codes:
            raise RuntimeError(
                f"tangle {' '.join(args)} exited {out.returncode}:\n{out.stderr.strip()}"
            )
        try:
            return out.returncode, json.loads(out.stdout)
        except json.JSONDecodeError as e:
            raise RuntimeError(
                f"tangle {' '.join(args)}: no JSON on stdout ({e}); stderr:\n{out.stderr.strip()}"
            ) from e


# --------------------------------------------------------------------------------------
# Source histories


def unit(*key) -> float:
    """A uniform number in [0, 1) determined by `key` alone (common random numbers)."""
    digest = hashlib.sha256(repr(key).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def log_uniform(r: random.Random, low: int, high: int) -> int:
    return int(math.exp(r.uniform(math.log(low), math.log(high))))


def history_steps(regime: str, seed: int, cfg: Config) -> list[list[tuple]]:
    """One list of operations per backup: ("write", relpath, size, data seed) or
    ("delete", relpath). Determined by (regime, seed) alone, so every layout backs up the
    same history."""
    r = random.Random(f"history/{regime}/{seed}")
    steps = []
    if regime == "full+dailies":
        total, ops, i = cfg.full_extents * 16 * MIB, [], 0
        while total > 0:
            size = min(total, r.randint(1 * MIB, 24 * MIB))
            ops.append(("write", f"full/{i:04}.bin", size, r.getrandbits(64)))
            total -= size
            i += 1
        steps.append(ops)
        dailies = cfg.dailies_a
    else:
        dailies = cfg.dailies_b
    daily_files: list[str] = []
    for day in range(dailies):
        ops = []
        # A small daily: 4 KiB to 4 MiB of new data in one to three files...
        budget = log_uniform(r, 4 * 1024, 4 * MIB)
        n = r.randint(1, 3)
        for k in range(n):
            path = f"daily/{day:04}/{k}.bin"
            ops.append(("write", path, max(1, budget // n), r.getrandbits(64)))
            daily_files.append(path)
        # ...sometimes a changed or a removed older file.
        if len(daily_files) > n and r.random() < 0.3:
            path = r.choice(daily_files[:-n])
            ops.append(("write", path, log_uniform(r, 512, 64 * 1024), r.getrandbits(64)))
        if len(daily_files) > n and r.random() < 0.1:
            path = r.choice(daily_files[:-n])
            daily_files.remove(path)
            ops.append(("delete", path))
        steps.append(ops)
    return steps


def apply_step(src: Path, ops: list[tuple], manifest: dict[str, str]) -> None:
    """Applies one step's operations to the source tree and to its manifest
    (relative path -> SHA-256 of the contents)."""
    for op in ops:
        path = src / op[1]
        if op[0] == "write":
            _, rel, size, data_seed = op
            data = random.Random(data_seed).randbytes(size)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            manifest[rel] = hashlib.sha256(data).hexdigest()
        else:
            path.unlink()
            manifest.pop(op[1], None)


def tree_manifest(root: Path) -> dict[str, str]:
    """Relative path -> SHA-256 of every regular file under root."""
    out = {}
    for dirpath, _, files in os.walk(root):
        for name in files:
            p = Path(dirpath) / name
            h = hashlib.sha256()
            with open(p, "rb") as f:
                while chunk := f.read(4 * MIB):
                    h.update(chunk)
            out[str(p.relative_to(root))] = h.hexdigest()
    return out


# --------------------------------------------------------------------------------------
# Building the histories


@dataclass
class Extent:
    seq: int
    name: str
    size: int  # bytes of extent data
    shard_size: int
    data_shards: int
    pointers: int
    remotes: list[int]  # remote index of every own shard (data, then parity)


@dataclass
class History:
    """One layout's pristine repository of one (regime, seed)."""

    layout: Layout
    live: list[Path]  # where the repository lives (the config names these paths)
    pristine: Path  # the untouched copy of the remotes (pristine/r0, ...)
    fingerprint: str = ""
    coding: dict = field(default_factory=dict)
    snapshots: list[str] = field(default_factory=list)
    extents: list[Extent] = field(default_factory=list)
    stored: dict = field(default_factory=dict)
    extent_size: int = 0


def init_repo(t: Tangle, h: History) -> None:
    args = ["init", *(x for r in h.live for x in ("--remote", str(r))), *h.layout.init_flags()]
    _, out = t.json(["--json", *args], password=True)
    h.fingerprint = out["owner_fingerprint"]
    h.coding = {
        k: out[k]
        for k in ("data_shards", "parity_shards", "pointers", "storage_overhead")
    }


def read_extents(t: Tangle, h: History) -> None:
    """Every extent's chain position, size and shard placement, from its certificate."""
    index = {str(r): i for i, r in enumerate(h.live)}
    extents = []
    for name in sorted(os.listdir(h.live[0] / "extents")):
        _, c = t.json(
            ["-r", str(h.live[0]), "--json", "cat", "certificate", name], owner=h.fingerprint
        )
        shards = sorted(c["shards"], key=lambda s: s["index"])
        extents.append(
            Extent(
                seq=c["seq"],
                name=name,
                size=c["size"],
                shard_size=c["shard_size"],
                data_shards=c["data_shards"],
                pointers=len(c["pointers"]),
                remotes=[index[s["remote"]] for s in shards],
            )
        )
    extents.sort(key=lambda e: e.seq)
    if [e.seq for e in extents] != list(range(len(extents))):
        raise RuntimeError(f"{h.layout.name}: extents are not one chain 0..{len(extents) - 1}")
    h.extents = extents
    _, config = t.json(["-r", str(h.live[0]), "--json", "cat", "config"], owner=h.fingerprint)
    h.extent_size = int(config.get("extent_size", 0))


def stored_bytes(remotes: list[Path]) -> dict:
    """Shard bytes (files under shards/) and all bytes on the remotes."""
    shard = total = files = 0
    for r in remotes:
        for dirpath, _, names in os.walk(r):
            for name in names:
                size = os.lstat(os.path.join(dirpath, name)).st_size
                total += size
                if Path(dirpath).parent.name == "shards" and Path(dirpath).parent.parent == r:
                    shard += size
                    files += 1
    return {"shard_bytes": shard, "all_bytes": total, "shard_files": files}


def build_histories(
    cfg: Config, regime: str, seed: int, job: Path
) -> tuple[list[History], list[dict[str, str]], Path]:
    """Backs up the (regime, seed) source history into one repository per layout, one
    step at a time; returns the histories and the manifest of the source at each
    backup."""
    t = Tangle(cfg.binary, job / "home")
    src = (job / "src").resolve()
    src.mkdir()
    histories = []
    for layout in cfg.layouts:
        base = job / layout.name
        h = History(
            layout=layout,
            live=[base / "live" / f"r{i}" for i in range(cfg.remotes)],
            pristine=base / "pristine",
        )
        init_repo(t, h)
        histories.append(h)
    manifests: list[dict[str, str]] = []
    manifest: dict[str, str] = {}
    for ops in history_steps(regime, seed, cfg):
        apply_step(src, ops, manifest)
        manifests.append(dict(manifest))
        for h in histories:
            out = t.run(["-r", str(h.live[0]), "--json", "backup", str(src)], password=True)
            if out.returncode != 0:
                raise RuntimeError(f"backup into {h.layout.name} exited {out.returncode}:\n{out.stderr}")
            summary = [json.loads(x) for x in out.stdout.splitlines() if x.strip()][-1]
            h.snapshots.append(summary["snapshot_id"])
    if cfg.tamper_manifest:
        last = manifests[-1]
        rel = sorted(last)[0]
        last[rel] = "0" * 64  # no restore can match this
    for h in histories:
        read_extents(t, h)
        h.stored = stored_bytes(h.live)
        h.stored["extent_data_bytes"] = sum(e.size for e in h.extents)
        h.stored["extents"] = len(h.extents)
        h.stored["source_bytes"] = sum((src / rel).stat().st_size for rel in manifests[-1])
        # The repository stays at its live paths (the config names them); each damage
        # run gets a fresh copy there.
        h.live[0].parent.rename(h.pristine)
    return histories, manifests, src


# --------------------------------------------------------------------------------------
# Damage


def burst_length(cfg: Config, n: int) -> int:
    return max(1, min(cfg.burst_extents, n // 3))


def choose_damage(cfg: Config, h: History, scenario: str, seed: int) -> dict:
    """The shard files to delete, as (sequence number, shard index), and the remote to
    wipe. Positions depend on (seed, scenario, sequence number, shard index) only, so a
    shard position lost in one layout is lost in every layout that has it."""
    spec = SCENARIOS[scenario]
    r = random.Random(f"damage/{seed}/{scenario}")
    n, remotes = len(h.extents), cfg.remotes
    wiped = r.randrange(remotes) if spec["kind"] == "remote" else None
    burst, burst_remotes = range(0), set()
    if spec["kind"] == "burst":
        length = burst_length(cfg, n)
        start = r.randrange(n - length + 1)
        kept = r.randrange(remotes)
        burst = range(start, start + length)
        burst_remotes = {(kept + 1) % remotes, (kept + 2) % remotes}
    lost = []
    for e in h.extents:
        for i, remote in enumerate(e.remotes):
            if remote == wiped:
                continue  # the whole remote goes anyway
            if (e.seq in burst and remote in burst_remotes) or unit(
                "shard", seed, scenario, e.seq, i
            ) < spec["q"]:
                lost.append((e.seq, i))
    return {
        "shards": lost,
        "wiped_remote": wiped,
        "burst": [burst.start, burst.stop] if spec["kind"] == "burst" else None,
        "burst_remotes": sorted(burst_remotes),
    }


def apply_damage(h: History, damage: dict) -> int:
    """Deletes the chosen shard files and wipes the chosen remote (its directory stays,
    empty); returns the shard files that were deleted or wiped."""
    gone = 0
    for seq, i in damage["shards"]:
        e = h.extents[seq]
        (h.live[e.remotes[i]] / "shards" / e.name / str(i)).unlink()
        gone += 1
    if damage["wiped_remote"] is not None:
        root = h.live[damage["wiped_remote"]]
        gone += sum(1 for e in h.extents for r in e.remotes if r == damage["wiped_remote"])
        for child in root.iterdir():
            shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
    return gone


# --------------------------------------------------------------------------------------
# Checking: verify, repair, verify --read-data, restores


def verify_summary(code: int, report: dict, h: History) -> dict:
    """What one `verify --json` said: its exit code, how many findings of each kind, the
    extents it reports data lost in (`data-lost`, one per extent), and the data shards it
    cannot rebuild (`lost-shard` findings whose shard index is a data shard's)."""
    findings = report.get("findings", [])
    kinds: dict[str, int] = {}
    for f in findings:
        kinds[f["kind"]] = kinds.get(f["kind"], 0) + 1
    by_name = {e.name: e for e in h.extents}
    lost_extents = sorted({f.get("extent", "?") for f in findings if f["kind"] == "data-lost"})
    data_lost = sorted(
        {
            (f["extent"], f["shard"])
            for f in findings
            if f["kind"] == "lost-shard"
            and f.get("extent") in by_name
            and f.get("shard", 255) < by_name[f["extent"]].data_shards
        }
    )
    return {
        "exit_code": code,
        "kinds": kinds,
        "lost_extents": lost_extents,
        "lost_data_shards": [list(x) for x in data_lost],
        "says_loss": code == 21 or bool(lost_extents),
    }


def lost_data_bytes(h: History, data_lost: list) -> int:
    """Bytes of extent data in the lost data shards (padding does not count)."""
    by_name = {e.name: e for e in h.extents}
    total = 0
    for name, i in data_lost:
        e = by_name[name]
        total += max(0, min(e.shard_size, e.size - i * e.shard_size))
    return total


def restore_all(
    t: Tangle, h: History, via: Path, src: Path, manifests: list[dict], run_dir: Path
) -> list[dict]:
    """Restores every snapshot and compares it with the source's manifest at that
    backup."""
    results = []
    cache = run_dir / "restore-cache"
    for k, (snap, expected) in enumerate(zip(h.snapshots, manifests)):
        target = run_dir / f"target-{k}"
        out = t.run(
            ["-r", str(via), "--json", "restore", snap, "--target", str(target)],
            password=True,
            owner=h.fingerprint,
            cache=cache,
        )
        restored_root = target / src.relative_to(src.anchor)
        got = tree_manifest(restored_root) if restored_root.is_dir() else {}
        missing = [p for p in expected if p not in got]
        wrong = [p for p in expected if p in got and got[p] != expected[p]]
        extra = [p for p in got if p not in expected]
        shutil.rmtree(target, ignore_errors=True)
        try:
            errors = json.loads(out.stdout).get("errors", [])
        except json.JSONDecodeError:
            errors = [out.stderr.strip()] if out.returncode != 0 else []
        results.append(
            {
                "snapshot": snap,
                "exit_code": out.returncode,
                "identical": out.returncode == 0 and not (missing or wrong or extra),
                "files_missing": len(missing),
                "files_wrong": len(wrong),
                "files_extra": len(extra),
                "errors": len(errors),
                "first_error": errors[0][:300] if errors else None,
            }
        )
    return results


def run_scenario(
    cfg: Config,
    regime: str,
    seed: int,
    h: History,
    scenario: str,
    src: Path,
    manifests: list[dict],
    job: Path,
) -> dict:
    started = time.monotonic()
    live = h.live[0].parent
    shutil.copytree(h.pristine, live, symlinks=True)
    run_dir = job / f"run-{h.layout.name}-{scenario}"
    run_dir.mkdir()
    t = Tangle(cfg.binary, run_dir / "home")
    try:
        damage = choose_damage(cfg, h, scenario, seed)
        shards_gone = apply_damage(h, damage)
        # Go through a remote that was not wiped, as a user would.
        via = next(r for i, r in enumerate(h.live) if i != damage["wiped_remote"])
        cache = run_dir / "cache"  # empty: the CI recipe, owner pinned with --owner
        ok = (0, 20, 21, 22)
        code, v1 = t.json(["-r", str(via), "--json", "verify"], ok, owner=h.fingerprint, cache=cache)
        before = verify_summary(code, v1, h)
        code, rep = t.json(["-r", str(via), "--json", "repair"], ok, owner=h.fingerprint, cache=cache)
        repair = {
            "exit_code": code,
            "actions": len(rep.get("actions", [])),
            "unrepaired": len(rep.get("unrepaired", [])),
            "pending": len(rep.get("pending", [])),
        }
        code, v2 = t.json(
            ["-r", str(via), "--json", "verify", "--read-data"], ok, owner=h.fingerprint, cache=cache
        )
        after = verify_summary(code, v2, h)
        restores = restore_all(t, h, via, src, manifests, run_dir)
    finally:
        shutil.rmtree(live, ignore_errors=True)
        shutil.rmtree(run_dir, ignore_errors=True)

    n = len(h.extents)
    newest = {e.name for e in h.extents[n - math.ceil(0.1 * n) :]}
    lost = set(after["lost_extents"])
    restores_fine = all(x["identical"] for x in restores)
    problems = []
    # The one that must never happen: verify says nothing is lost, a restore says otherwise.
    if not restores_fine and not before["says_loss"]:
        problems.append("verify before repair reported no loss, but restores failed")
    if not restores_fine and not after["says_loss"]:
        problems.append("verify --read-data after repair reported no loss, but restores failed")
    if before["says_loss"] != after["says_loss"] or set(before["lost_extents"]) != lost:
        problems.append(
            "verify before repair and verify --read-data after it disagree on the lost extents"
        )
    if (repair["exit_code"] == 21) != after["says_loss"]:
        problems.append("repair's exit code and verify --read-data after it disagree")
    if {x[0] for x in after["lost_data_shards"]} != lost:
        problems.append("the data-lost extents and the extents with lost data shards differ")
    if after["kinds"].keys() - {"data-lost", "lost-shard", "at-risk", "leftover"}:
        problems.append(f"unexpected findings after repair: {sorted(after['kinds'])}")
    notes = []
    if after["says_loss"] and restores_fine:
        notes.append("verify reports lost data, yet every snapshot restored identical")
    return {
        "regime": regime,
        "seed": seed,
        "layout": h.layout.name,
        "scenario": scenario,
        "extents": n,
        "snapshots": len(h.snapshots),
        "shards_gone": shards_gone,
        "damage": {k: v for k, v in damage.items() if k != "shards"},
        "verify_before": before,
        "repair": repair,
        "verify_after": after,
        "lost_extents": len(lost),
        "lost_seqs": sorted(e.seq for e in h.extents if e.name in lost),
        "lost_extents_newest_10pct": len(lost & newest),
        "lost_data_bytes": lost_data_bytes(h, after["lost_data_shards"]),
        "lost_snapshots": sum(1 for x in restores if not x["identical"]),
        "restores": restores,
        "disagreements": [p for p in problems if "restores failed" in p],
        "inconsistencies": [p for p in problems if "restores failed" not in p],
        "notes": notes,
        "seconds": round(time.monotonic() - started, 2),
    }


def run_job(cfg: Config, regime: str, seed: int, root: Path) -> dict:
    """Builds one (regime, seed) history for every layout and runs every scenario on a
    copy of each."""
    started = time.monotonic()
    job = root / f"{regime}-{seed}"
    job.mkdir()
    try:
        histories, manifests, src = build_histories(cfg, regime, seed, job)
        built = time.monotonic() - started
        log(
            f"{regime} seed {seed}: built {len(manifests)} snapshots, "
            + ", ".join(f"{h.layout.name} {len(h.extents)} extents" for h in histories)
            + f" ({built:.0f} s)"
        )
        runs = []
        for scenario in cfg.scenarios:
            for h in histories:
                rec = run_scenario(cfg, regime, seed, h, scenario, src, manifests, job)
                runs.append(rec)
                flag = " DISAGREEMENT" if rec["disagreements"] else ""
                log(
                    f"{regime} seed {seed} {h.layout.name} {scenario}: "
                    f"{rec['shards_gone']} shards gone, lost {rec['lost_extents']} extents, "
                    f"{rec['lost_snapshots']}/{rec['snapshots']} snapshots not restored "
                    f"({rec['seconds']:.0f} s){flag}"
                )
        stored = [
            {
                "regime": regime,
                "seed": seed,
                "layout": h.layout.name,
                "coding": h.coding,
                "extent_size": h.extent_size,
                **h.stored,
            }
            for h in histories
        ]
        return {"runs": runs, "stored": stored, "build_seconds": built}
    finally:
        if not cfg.keep_work:
            shutil.rmtree(job, ignore_errors=True)


# --------------------------------------------------------------------------------------
# Statistics and the report

# Two-sided 95% quantiles of Student's t, df = 1..30.
T975 = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
]  # fmt: skip


def t975(df: int) -> float:
    if df <= 30:
        return T975[df - 1]
    z = 1.959964  # Cornish-Fisher expansion around the normal beyond the table
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def t_interval(xs: list[float]) -> dict:
    """Mean and the half-width of its 95% t-interval (null with fewer than 2 values)."""
    m = statistics.fmean(xs) if xs else float("nan")
    half = t975(len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else None
    return {"mean": m, "half": half, "n": len(xs)}


def bootstrap_ratio(pairs: list[tuple[float, float]], seed: int = 1, b: int = 2000) -> dict:
    """Ratio of means (layout / reference) over paired seeds, with a 95% percentile
    bootstrap interval (resampling seeds). The ratio is null when the reference lost
    nothing (the sums say whether the layout did)."""
    mine, ref = sum(x for x, _ in pairs), sum(y for _, y in pairs)
    if ref == 0:
        return {"ratio": None, "low": None, "high": None, "sum": mine, "reference_sum": ref}
    ratio = mine / ref
    r = random.Random(seed)
    samples = []
    for _ in range(b):
        draw = [pairs[r.randrange(len(pairs))] for _ in pairs]
        denominator = sum(y for _, y in draw)
        if denominator > 0:
            samples.append(sum(x for x, _ in draw) / denominator)
    samples.sort()
    if len(samples) < b // 2:
        return {"ratio": ratio, "low": None, "high": None, "sum": mine, "reference_sum": ref}
    return {
        "sum": mine,
        "reference_sum": ref,
        "ratio": ratio,
        "low": samples[int(0.025 * len(samples))],
        "high": samples[min(len(samples) - 1, int(0.975 * len(samples)))],
    }


METRICS = ("lost_extents", "lost_extents_newest_10pct", "lost_data_bytes", "lost_snapshots")


def summarize(cfg: Config, runs: list[dict], stored: list[dict]) -> dict:
    rows = []
    for regime in cfg.regimes:
        for scenario in cfg.scenarios:
            by_layout = {
                layout.name: {
                    r["seed"]: r
                    for r in runs
                    if (r["regime"], r["scenario"], r["layout"]) == (regime, scenario, layout.name)
                }
                for layout in cfg.layouts
            }
            for layout in cfg.layouts:
                mine = by_layout[layout.name]
                row = {"regime": regime, "scenario": scenario, "layout": layout.name, "runs": len(mine)}
                for m in METRICS:
                    row[m] = t_interval([mine[s][m] for s in sorted(mine)])
                row["snapshots"] = statistics.fmean(r["snapshots"] for r in mine.values()) if mine else 0
                row["extents"] = statistics.fmean(r["extents"] for r in mine.values()) if mine else 0
                row["ratios"] = {}
                for ref_name in cfg.references:
                    ref = by_layout[ref_name]
                    seeds = sorted(set(mine) & set(ref))
                    row["ratios"][ref_name] = {
                        m: bootstrap_ratio([(mine[s][m], ref[s][m]) for s in seeds])
                        for m in ("lost_extents", "lost_data_bytes")
                    }
                row["disagreements"] = sum(len(r["disagreements"]) for r in mine.values())
                row["inconsistencies"] = sum(len(r["inconsistencies"]) for r in mine.values())
                rows.append(row)
    storage = []
    for regime in cfg.regimes:
        for layout in cfg.layouts:
            mine = [s for s in stored if (s["regime"], s["layout"]) == (regime, layout.name)]
            if not mine:
                continue
            entry = {"regime": regime, "layout": layout.name, "coding": mine[0]["coding"]}
            for k in ("extents", "source_bytes", "extent_data_bytes", "shard_bytes", "all_bytes"):
                entry[k] = t_interval([s[k] for s in mine])
            entry["shard_overhead"] = statistics.fmean(
                s["shard_bytes"] / s["extent_data_bytes"] for s in mine
            )
            entry["shard_bytes_vs"] = {}
            for ref_name in cfg.references:
                ref = [s for s in stored if (s["regime"], s["layout"]) == (regime, ref_name)]
                if ref:
                    entry["shard_bytes_vs"][ref_name] = sum(s["shard_bytes"] for s in mine) / sum(
                        s["shard_bytes"] for s in ref
                    )
            storage.append(entry)
    return {"losses": rows, "storage": storage}


def fmt_interval(x: dict, scale: float = 1.0, digits: int = 2) -> str:
    if x["n"] == 0:
        return "–"
    mean = x["mean"] / scale
    if x["half"] is None:
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} ± {x['half'] / scale:.{digits}f}"


def fmt_ratio(r: dict) -> str:
    if r["ratio"] is None:
        return "∞ (plain lost nothing)" if r["sum"] > 0 else "–"
    if r["low"] is None:
        return f"{r['ratio']:.2f}"
    return f"{r['ratio']:.2f} ({r['low']:.2f}–{r['high']:.2f})"


def markdown(cfg: Config, summary: dict, meta: dict, disagreements: list[dict]) -> str:
    lines = []
    say = lines.append
    say("# Durability harness results\n")
    say(
        f"Binary `{meta['binary']}` ({meta['version']}); preset `{cfg.preset}`; seeds "
        f"{cfg.seeds[0]}–{cfg.seeds[-1]} ({len(cfg.seeds)}); {cfg.remotes} local remotes; "
        f"wall time {meta['duration_secs']:.0f} s with {cfg.jobs} job(s) on {os.cpu_count()} cores."
    )
    say("")
    if cfg.tamper_manifest:
        say(
            "**SELF-TEST (--tamper-manifest): one file of each newest snapshot's manifest is "
            "wrong on purpose; every run must report a disagreement.**\n"
        )
    extent_sizes = sorted({s["extent_size"] for s in meta["stored_raw"]})
    say(
        f"Extent size: {', '.join(f'{x / MIB:g} MiB' for x in extent_sizes)} "
        "(from `cat config`). The binary has no test-only smaller extent size, so every full "
        "extent costs that much source data and the histories are short (extents per history "
        "below). That affects every figure here: absolute lost extents and bytes grow with "
        "history length, pointers can only reach the few older extents there are, the burst "
        "is capped, and the newest 10% are only a few extents. Compare layouts by the ratios "
        "of paired runs, not absolute numbers with the simulation in ENTANGLEMENT.md."
    )
    say("")
    hist = []
    if "full+dailies" in cfg.regimes:
        hist.append(
            f"`full+dailies`: one initial backup of {cfg.full_extents} full extents' worth of "
            f"random data ({cfg.full_extents * 16} MiB), then {cfg.dailies_a} small dailies"
        )
    if "dailies" in cfg.regimes:
        hist.append(f"`dailies`: {cfg.dailies_b} small dailies")
    say(
        "Histories: "
        + "; ".join(hist)
        + " (a daily adds 4 KiB–4 MiB, log-uniform, in 1–3 files, sometimes rewrites or "
        "removes an older daily file). Every layout backs up the same source history per seed."
    )
    say("")
    say(
        "Intervals: mean ± half-width of the 95% Student t-interval over seeds (per run: one "
        "history and one damage pattern). Ratios: the layout's losses summed over seeds / the "
        "plain layout's over the same seeds (same history, same damage positions), with a 95% "
        "percentile bootstrap interval (2000 resamples of the seeds); `–` where neither lost "
        "anything."
    )
    say("")
    say("## Stored bytes\n")
    refs = cfg.references
    say(
        "| regime | layout | coding s+p, t | extents | extent data MB | shard MB | all MB | "
        "shard bytes / data bytes | "
        + " | ".join(f"shard bytes / `{x}`" for x in refs)
        + " |"
    )
    say("|---|---|---|---:|---:|---:|---:|---:|" + "---:|" * len(refs))
    for s in summary["storage"]:
        c = s["coding"]
        vs = [s["shard_bytes_vs"].get(x) for x in refs]
        say(
            f"| {s['regime']} | {s['layout']} | {c['data_shards']}+{c['parity_shards']}, "
            f"{c['pointers']} | {s['extents']['mean']:.1f} | "
            f"{s['extent_data_bytes']['mean'] / 1e6:.1f} | {s['shard_bytes']['mean'] / 1e6:.1f} | "
            f"{s['all_bytes']['mean'] / 1e6:.1f} | {s['shard_overhead']:.3f} | "
            + " | ".join("–" if v is None else f"{v:.3f}" for v in vs)
            + " |"
        )
    say("")
    say("## Losses per damage scenario\n")
    for regime in cfg.regimes:
        rows = [r for r in summary["losses"] if r["regime"] == regime]
        if not rows:
            continue
        say(f"### {regime}\n")
        n_ext = statistics.fmean(r["extents"] for r in rows)
        n_snap = statistics.fmean(r["snapshots"] for r in rows)
        say(
            f"About {n_ext:.0f} extents and {n_snap:.0f} snapshots per history; the newest 10% "
            f"are the last {math.ceil(0.1 * n_ext)} extents; bursts span "
            f"{burst_length(cfg, int(n_ext))} extents."
        )
        say("")
        say(
            "| scenario | layout | runs | lost extents | of them newest 10% | lost data MB | "
            "lost snapshots | "
            + " | ".join(f"lost extents / `{x}` | lost bytes / `{x}`" for x in refs)
            + " | verify/restore disagreements |"
        )
        say("|---|---|---:|---:|---:|---:|---:|" + "---:|---:|" * len(refs) + "---:|")
        for r in rows:
            ratios = []
            for x in refs:
                if r["layout"] == x:
                    ratios += ["(itself)", "(itself)"]
                else:
                    ratios += [fmt_ratio(r["ratios"][x][m]) for m in ("lost_extents", "lost_data_bytes")]
            say(
                f"| {r['scenario']} | {r['layout']} | {r['runs']} | "
                f"{fmt_interval(r['lost_extents'])} | {fmt_interval(r['lost_extents_newest_10pct'])} | "
                f"{fmt_interval(r['lost_data_bytes'], 1e6)} | {fmt_interval(r['lost_snapshots'])} | "
                + " | ".join(ratios)
                + f" | {r['disagreements']} |"
            )
        say("")
    say("## Verify and restores\n")
    if disagreements:
        say(f"**VERIFY AND RESTORES DISAGREED in {len(disagreements)} run(s):**\n")
        for d in disagreements:
            say(f"* {d['regime']} seed {d['seed']} {d['layout']} {d['scenario']}: {'; '.join(d['what'])}")
    else:
        say(
            "No disagreement: in every run where a restore failed or differed, verify (before "
            "repair, and with --read-data after it) had reported lost data."
        )
    inconsistent = meta["inconsistencies"]
    if inconsistent:
        say(f"\nOther inconsistencies ({len(inconsistent)} run(s)):\n")
        for d in inconsistent:
            say(f"* {d['regime']} seed {d['seed']} {d['layout']} {d['scenario']}: {'; '.join(d['what'])}")
    if meta["notes"]:
        say(f"\nRuns where verify reported lost data but every snapshot restored identical: {meta['notes']}.")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    cfg, json_out = parse_args(argv)
    started = time.monotonic()
    version = subprocess.run([cfg.binary, "--version"], capture_output=True, text=True).stdout.strip()
    root = Path(tempfile.mkdtemp(prefix="tangle-durability-", dir=cfg.workdir))
    log(
        f"{len(cfg.regimes)} regime(s) x {len(cfg.seeds)} seed(s) x {len(cfg.layouts)} layout(s) "
        f"x {len(cfg.scenarios)} scenario(s), {cfg.jobs} job(s), work in {root}"
    )
    jobs = [(regime, seed) for seed in cfg.seeds for regime in cfg.regimes]
    runs, stored, failures = [], [], []
    lock = threading.Lock()
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=cfg.jobs) as pool:
            futures = {pool.submit(run_job, cfg, rg, sd, root): (rg, sd) for rg, sd in jobs}
            for fut in concurrent.futures.as_completed(futures):
                rg, sd = futures[fut]
                try:
                    res = fut.result()
                except Exception as e:  # noqa: BLE001 - report and go on with the others
                    log(f"{rg} seed {sd} FAILED: {e!r}\n{traceback.format_exc()}")
                    failures.append({"regime": rg, "seed": sd, "error": repr(e)})
                    continue
                with lock:
                    runs += res["runs"]
                    stored += res["stored"]
    finally:
        if cfg.keep_work:
            log(f"work directory kept: {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    runs.sort(key=lambda r: (r["regime"], r["seed"], r["scenario"], r["layout"]))
    summary = summarize(cfg, runs, stored)
    pick = lambda key: [  # noqa: E731
        {k: r[k] for k in ("regime", "seed", "layout", "scenario")} | {"what": r[key]}
        for r in runs
        if r[key]
    ]
    disagreements = pick("disagreements")
    inconsistencies = pick("inconsistencies")
    notes = sum(1 for r in runs if r["notes"])
    meta = {
        "binary": cfg.binary,
        "version": version,
        "duration_secs": time.monotonic() - started,
        "stored_raw": stored,
        "inconsistencies": inconsistencies,
        "notes": notes,
    }
    print(markdown(cfg, summary, meta, disagreements), end="")
    if failures:
        print(f"\n**{len(failures)} histories failed:** " + "; ".join(
            f"{f['regime']} seed {f['seed']}: {f['error'].splitlines()[0]}" for f in failures
        ))
    if json_out:
        doc = {
            "binary": cfg.binary,
            "version": version,
            "preset": cfg.preset,
            "config": {
                "seeds": cfg.seeds,
                "layouts": [vars(x) for x in cfg.layouts],
                "references": cfg.references,
                "scenarios": {s: SCENARIOS[s] for s in cfg.scenarios},
                "regimes": cfg.regimes,
                "remotes": cfg.remotes,
                "full_extents": cfg.full_extents,
                "dailies_a": cfg.dailies_a,
                "dailies_b": cfg.dailies_b,
                "burst_extents": cfg.burst_extents,
                "jobs": cfg.jobs,
                "interval": "95% Student t over seeds; ratios: paired percentile bootstrap over seeds",
            },
            "duration_secs": meta["duration_secs"],
            "summary": summary,
            "stored": stored,
            "runs": runs,
            "disagreements": disagreements,
            "inconsistencies": inconsistencies,
            "failures": failures,
        }
        Path(json_out).write_text(json.dumps(doc, indent=1) + "\n")
    if disagreements:
        log(f"VERIFY AND RESTORES DISAGREED in {len(disagreements)} run(s); see the report")
        return 3
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
