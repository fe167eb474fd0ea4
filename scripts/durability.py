#!/usr/bin/env python3
"""Durability harness: how much data survives shard loss, measured through the binary.

For each regime and seed it builds one source history and backs it up, step by step,
into one repository per (remote count, layout) over local remote directories, with a
small test extent size (`--extent-size`, `TANGLE_TEST_EXTENT_SIZE`) so that histories
are hundreds of extents long. Each pristine history is then copied once per damage
scenario; the copy loses shard files at seeded positions (the same positions, by extent
sequence number and shard index, for every layout), and is checked exactly as a user or
a CI job would: password-less `verify --json`, `repair --json`, `verify --read-data
--json` (fresh cache, owner pinned), then snapshots are restored with the password and
compared with the manifest (SHA-256 per file) of the source at that backup: every
snapshot when verify reported lost data, else the newest and a seeded sample
(`--restores`). It records lost data and tree extents and lost data bytes (from verify's
findings), snapshots not restored byte-identical, and whether verify's verdict agreed
with the restores; and compares the default coding with the best plain Reed-Solomon
layout that stores no more bytes (measured).

Run it through scripts/durability.sh (see `--help`). Python 3.11, standard library only.
Documentation: docs/DURABILITY.md.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import math
import os
import random
import resource
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

KIB = 1 << 10
MIB = 1 << 20
BINARY_EXTENT_SIZE = 16 * MIB  # the binary's own extent size (without --extent-size)
PASSWORD = "durability harness password"
CMD_TIMEOUT = 1800  # seconds, per tangle command

# The layouts measured per remote count: init's default coding (`default=`) and the
# plain Reed-Solomon splits of at most 16 shards that store no more than the default
# (nominally), the ones a model found best in some scenario. With 2 remotes the default
# is itself plain 2+2 (rs2+2), so it is not measured twice.
LAYOUTS_FOR_REMOTES = {
    2: "default=,rs8+8=8/8/0,rs1+1=1/1/0",
    3: "default=,rs8+6=8/6/0,rs4+3=4/3/0",
    4: "default=,rs10+6=10/6/0,rs2+1=2/1/0",  # default 15+9, 12 pointers (1.6x)
    5: "default=,rs12+5=12/5/0,rs3+1=3/1/0",  # default 17+7, 11 pointers (1.41x)
}

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

# Issue 33's goals for the default against the best plain layout at equal (measured)
# bytes: its lost extents at most this fraction of the plain layout's...
GOALS = {"random-10%": 0.5, "random-20%": 0.5, "remote+1%": 0.5, "remote+5%": 0.5, "burst": 0.8}
# ...and never more lost extents among the newest 10% than it.
NEWEST_GOAL = 1.0
# A plain layout counts as "no more bytes" when its measured shard bytes per byte of
# extent data are at most the default's times this.
BYTES_TOLERANCE = 1.005

# (a) one large initial backup of full extents, then small dailies; (b) small dailies.
REGIMES = ("full+dailies", "dailies")

# Presets; explicit flags override their values. Sized from measured costs, see
# docs/DURABILITY.md ("Running it").
PRESETS = {
    "smoke": {
        "seeds": 1,
        "remotes": "3",
        "layouts": "default=,rs4+3=4/3/0",
        "scenarios": "random-20%,remote+5%,burst",
        "regimes": "full+dailies,dailies",
        "extent_size": 64 * KIB,
        "full_extents": 5,
        "dailies_a": 2,
        "dailies_b": 6,
        "restores": "on-loss",
        "restore_sample": 2,
    },
    "small": {
        "seeds": 3,
        "remotes": "3",
        "layouts": None,  # LAYOUTS_FOR_REMOTES
        "scenarios": "random-20%,remote+5%,burst",
        "regimes": "full+dailies,dailies",
        "extent_size": 64 * KIB,
        "full_extents": 40,
        "dailies_a": 20,
        "dailies_b": 60,
        "restores": "sample",
        "restore_sample": 5,
    },
    "full": {
        "seeds": 20,
        "remotes": "3",
        "layouts": None,
        "scenarios": ALL_SCENARIOS,
        "regimes": "full+dailies,dailies",
        "extent_size": 64 * KIB,
        "full_extents": 100,
        "dailies_a": 60,
        "dailies_b": 150,
        "restores": "sample",
        "restore_sample": 5,
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
    remote_counts: list[int]
    layouts: dict[int, list[Layout]]  # per remote count
    scenarios: list[str]
    regimes: list[str]
    extent_size: int | None  # None: the binary's own (16 MiB)
    full_extents: int
    dailies_a: int
    dailies_b: int
    burst_extents: int
    restores: str  # "all", "on-loss" or "sample"
    restore_sample: int
    subject: str
    references: list[str] | None  # None: every plain layout but the subject
    jobs: int
    workdir: str
    keep_work: bool
    preset: str
    tamper_manifest: bool = False
    # --binary-env KEY=VALUE: extra environment for every tangle process (the testing
    # build's experiment switches, e.g. TANGLE_TEST_PLACEMENT=skip-one).
    binary_env: dict[str, str] = field(default_factory=dict)
    report: list[str] | None = None  # --report JSON...: only print the report of finished runs

    @property
    def scale(self) -> int:
        """The extent size the source data is scaled to."""
        return self.extent_size or BINARY_EXTENT_SIZE


def parse_size(text: str) -> int:
    """Bytes: a number with an optional K/KiB or M/MiB suffix (powers of two)."""
    t = text.strip().lower().removesuffix("ib").removesuffix("b")
    factor = 1
    if t.endswith("k"):
        factor, t = KIB, t[:-1]
    elif t.endswith("m"):
        factor, t = MIB, t[:-1]
    if not t.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a size in bytes (e.g. 65536, 64K)")
    return int(t) * factor


# Settings that must be equal for the runs of several JSON files to be reported as one.
SAME_IN_MERGED_RUNS = (
    "scenarios", "regimes", "extent_size", "full_extents", "dailies_a", "dailies_b",
    "burst_extents", "restores", "restore_sample",
)  # fmt: skip


def default_workdir() -> str:
    """$TMPDIR if set; else /dev/shm (a tmpfs) if writable: every backup and repair syncs
    each shard file it writes, and on a disk those syncs took half the harness's CPU time
    and more of its wall time, with no bearing on what it measures; else the system's
    temporary directory."""
    if os.environ.get("TMPDIR"):
        return tempfile.gettempdir()
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK | os.X_OK):
        return "/dev/shm"
    return tempfile.gettempdir()


def merged_json(paths: list[str]) -> dict:
    """The JSON of one run, or of several runs of the same settings over other seeds,
    remote counts or layouts (e.g. `--full --seed-base 11 --seeds 10`, one file per
    remote count, or a candidate coding run alone with `--layouts` over the seeds of an
    earlier run: histories and damage are seeded by regime, seed and scenario, so its
    runs pair with the earlier run's) merged into one: their runs, stored bytes, timings
    and findings together. A layout name measured in two files must mean the same
    coding. `subject` and `references` are the first file's unless `--report` is given
    `--subject`/`--reference`."""
    docs = [json.loads(Path(p).read_text()) for p in paths]
    doc = docs[0]
    for path, other in zip(paths[1:], docs[1:]):
        for k in SAME_IN_MERGED_RUNS:
            if other["config"][k] != doc["config"][k]:
                raise SystemExit(
                    f"--report: {path} has {k} {other['config'][k]!r}, {paths[0]} has "
                    f"{doc['config'][k]!r}: only runs of the same settings merge"
                )
        c, o = doc["config"], other["config"]
        c["seeds"] = sorted(set(c["seeds"]) | set(o["seeds"]))
        c["remotes"] = sorted(set(c["remotes"]) | set(o["remotes"]))
        for rc, theirs in o["layouts"].items():
            ours = c["layouts"].setdefault(rc, [])
            for layout in theirs:
                same = [x for x in ours if x["name"] == layout["name"]]
                if same and same[0] != layout:
                    raise SystemExit(
                        f"--report: layout {layout['name']} on {rc} remotes is {layout} in "
                        f"{path} and {same[0]} before it"
                    )
                if not same:
                    ours.append(layout)
        for k in ("runs", "stored", "disagreements", "inconsistencies", "failures"):
            doc[k] = doc[k] + other[k]
        doc["duration_secs"] = doc.get("duration_secs", 0.0) + other.get("duration_secs", 0.0)
        t, u = doc.setdefault("timings", {}), other.get("timings", {})
        for k in ("job_build_seconds", "job_check_seconds"):
            t[k] = t.get(k, []) + u.get(k, [])
        for k in ("cpu_self_seconds", "cpu_children_seconds"):
            t[k] = t.get(k, 0.0) + u.get(k, 0.0)
        commands = t.setdefault("commands", {})
        for name, v in u.get("commands", {}).items():
            w = commands.setdefault(name, {"calls": 0, "wall_seconds": 0.0, "cpu_seconds": 0.0})
            for k in w:
                w[k] += v[k]
    return doc


def config_from_json(paths: list[str], binary: str) -> Config:
    """The configuration a run's JSON records (for --report)."""
    doc = merged_json(paths)
    c = doc["config"]
    return Config(
        binary=doc.get("binary", binary),
        seeds=c["seeds"],
        remote_counts=c["remotes"],
        layouts={int(k): [Layout(**x) for x in v] for k, v in c["layouts"].items()},
        scenarios=list(c["scenarios"]),
        regimes=c["regimes"],
        extent_size=c["extent_size"],
        full_extents=c["full_extents"],
        dailies_a=c["dailies_a"],
        dailies_b=c["dailies_b"],
        burst_extents=c["burst_extents"],
        restores=c["restores"],
        restore_sample=c["restore_sample"],
        subject=c["subject"],
        references=c["references"],
        jobs=c["jobs"],
        workdir="",
        keep_work=False,
        preset=doc.get("preset", "?"),
        report=paths,
    )


def report_from_json(cfg: Config) -> int:
    """--report: the Markdown report of a finished run, from its JSON."""
    doc = merged_json(cfg.report)
    summary = summarize(cfg, doc["runs"], doc["stored"])
    t = doc.get("timings", {})
    commands = {
        k: (v["calls"], v["wall_seconds"], v["cpu_seconds"]) for k, v in t.get("commands", {}).items()
    }
    mean0 = lambda xs: statistics.fmean(xs) if xs else 0.0  # noqa: E731
    cpu_self, cpu_children = t.get("cpu_self_seconds", 0.0), t.get("cpu_children_seconds", 0.0)
    meta = {
        "binary": doc.get("binary", "?"),
        "version": doc.get("version", "?"),
        "duration_secs": doc.get("duration_secs", 0.0),
        "stored_raw": doc["stored"],
        "inconsistencies": doc["inconsistencies"],
        "notes": sum(1 for r in doc["runs"] if r["notes"]),
        "timings": {
            "cpu_self": cpu_self,
            "cpu_children": cpu_children,
            "cpu_total": cpu_self + cpu_children,
            "build_mean": mean0(t.get("job_build_seconds", [])),
            "check_mean": mean0(t.get("job_check_seconds", [])),
            "commands": commands,
        },
    }
    print(markdown(cfg, summary, meta, doc["disagreements"]), end="")
    return 3 if doc["disagreements"] else 1 if doc["failures"] else 0


def parse_args(argv: list[str]) -> tuple[Config, str | None]:
    p = argparse.ArgumentParser(
        prog="scripts/durability.sh",
        description="Durability harness: build histories through the tangle binary, "
        "damage copies of them, verify/repair/restore, and report the losses per layout "
        "and the default coding against the best plain layout at equal measured bytes.",
    )
    size = p.add_mutually_exclusive_group()
    size.add_argument("--smoke", action="store_true", help="tiny run for the integration test")
    size.add_argument("--full", action="store_true", help="20 seeds, all scenarios, long histories")
    p.add_argument("--bin", help="tangle binary (default: $TANGLE_BIN)")
    p.add_argument("--seeds", type=int, help="number of seeds (default 3; --full 20)")
    p.add_argument("--seed-base", type=int, default=1, help="first seed (default 1)")
    p.add_argument(
        "--remotes",
        help="comma-separated remote counts, e.g. 2,3,4,5; each gets its own repositories "
        "of the same source histories (default 3)",
    )
    p.add_argument(
        "--layouts",
        help="comma-separated NAME=DATA/PARITY/POINTERS, NAME= for init's default, used for "
        "every remote count (default per remote count: "
        + "; ".join(f"{r}: {v}" for r, v in LAYOUTS_FOR_REMOTES.items())
        + ")",
    )
    p.add_argument(
        "--subject",
        help="the layout compared with the best plain one (default: `default`, else the "
        "first layout)",
    )
    p.add_argument(
        "--reference",
        help="comma-separated layouts the best plain one is chosen among (default: every "
        "layout with --pointers 0 but the subject)",
    )
    p.add_argument(
        "--scenarios",
        help=f"comma-separated, of {', '.join(SCENARIOS)} "
        f"(default {PRESETS['small']['scenarios']}; --full {ALL_SCENARIOS})".replace("%", "%%"),
    )
    p.add_argument("--regimes", help=f"comma-separated, of {', '.join(REGIMES)} (default both)")
    p.add_argument(
        "--extent-size",
        type=parse_size,
        help="target extent size for init (TANGLE_TEST_EXTENT_SIZE; needs a binary built "
        "with --features testing); the source data scales with it (default 64K; 0: the "
        "binary's own 16 MiB)",
    )
    p.add_argument(
        "--full-extents",
        type=int,
        help="regime full+dailies: initial backup of this many extents' worth of data",
    )
    p.add_argument("--dailies-a", type=int, help="regime full+dailies: small dailies after it")
    p.add_argument("--dailies-b", type=int, help="regime dailies: small dailies")
    p.add_argument(
        "--burst-extents",
        type=int,
        default=30,
        help="burst length (default 30; at most a third of a history's extents)",
    )
    p.add_argument(
        "--restores",
        choices=("all", "on-loss", "sample"),
        help="which snapshots a run restores. all: every one; on-loss: every one when verify "
        "reported lost data, else the newest and --restore-sample seeded others; sample: the "
        "newest and --restore-sample seeded others (lost snapshots estimated from them). "
        "With a sample, every snapshot after all when verify reported no loss and a sampled "
        "restore failed. Default: --smoke on-loss; else sample",
    )
    p.add_argument(
        "--restore-sample",
        type=int,
        help="snapshots restored besides the newest where not all are (default: --smoke 2, "
        "else 5)",
    )
    p.add_argument("--jobs", type=int, default=2, help="histories worked on at once (1 or 2)")
    p.add_argument("--json", dest="json_out", metavar="FILE", help="also write the results as JSON")
    p.add_argument(
        "--report",
        metavar="JSON",
        nargs="+",
        help="run nothing: print the report of a run from the JSON it wrote (with this "
        "version's statistics and verdicts); several files of runs with the same settings "
        "over other seeds or remote counts are reported as one run",
    )
    p.add_argument(
        "--workdir",
        help="where the temporary directory goes (default: $TMPDIR if set, else /dev/shm "
        "if writable, else the system's temporary directory)",
    )
    p.add_argument("--keep-work", action="store_true", help="keep the temporary directory")
    p.add_argument(
        "--binary-env",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="set KEY=VALUE in the environment of every tangle process (repeatable; for "
        "the testing build's experiment switches, e.g. TANGLE_TEST_PLACEMENT=skip-one); "
        "recorded in the JSON",
    )
    p.add_argument(
        "--tamper-manifest",
        action="store_true",
        help="self-test of the harness: expect one wrong file in the newest snapshot, so "
        "that its restore looks different and every run must report a disagreement",
    )
    a = p.parse_args(argv)

    preset = "smoke" if a.smoke else "full" if a.full else "small"
    binary_env = {}
    for item in a.binary_env:
        key, eq, value = item.partition("=")
        if not eq or not key:
            p.error(f"--binary-env {item!r}: expected KEY=VALUE")
        binary_env[key] = value
    d = PRESETS[preset]
    binary = a.bin or os.environ.get("TANGLE_BIN")
    if a.report:
        binary = binary or ""
    elif not binary:
        p.error("no binary: give --bin or set TANGLE_BIN")
    else:
        binary = str(Path(binary).resolve())
        if not os.access(binary, os.X_OK):
            p.error(f"{binary} is not an executable")
    try:
        remote_counts = [int(x) for x in (a.remotes or d["remotes"]).split(",") if x]
    except ValueError:
        p.error(f"--remotes: expected comma-separated numbers, got {a.remotes!r}")
    if not remote_counts or any(r < 2 for r in remote_counts) or len(set(remote_counts)) != len(remote_counts):
        p.error("--remotes: distinct numbers of at least 2")
    layouts: dict[int, list[Layout]] = {}
    for rc in remote_counts:
        spec = a.layouts or d["layouts"] or LAYOUTS_FOR_REMOTES.get(rc)
        if spec is None:
            p.error(f"no preset layouts for {rc} remotes: give --layouts")
        try:
            layouts[rc] = [Layout.parse(s) for s in spec.split(",") if s]
        except ValueError as e:
            p.error(str(e))
        names = [layout.name for layout in layouts[rc]]
        if len(set(names)) != len(names):
            p.error("layout names must differ")
        if a.report:
            continue  # the layouts are the runs' own
        if a.subject is None:
            a.subject = "default" if "default" in names else names[0]
        if a.subject not in names:
            p.error(f"--subject {a.subject!r} is not one of the layouts ({', '.join(names)})")
        if a.reference:
            for ref in a.reference.split(","):
                if ref not in names:
                    p.error(f"reference {ref!r} is not one of the layouts")
    scenarios = [s for s in (a.scenarios or d["scenarios"]).split(",") if s]
    for s in scenarios:
        if s not in SCENARIOS:
            p.error(f"unknown scenario {s!r} (known: {', '.join(SCENARIOS)})")
    regimes = [r for r in (a.regimes or d["regimes"]).split(",") if r]
    for r in regimes:
        if r not in REGIMES:
            p.error(f"unknown regime {r!r} (known: {', '.join(REGIMES)})")
    if not 1 <= a.jobs <= 2:
        p.error("--jobs: 1 or 2 (the machine this was written for has 2 cores)")
    seeds = a.seeds if a.seeds is not None else d["seeds"]
    if seeds < 1:
        p.error("--seeds must be at least 1")
    extent_size = a.extent_size if a.extent_size is not None else d["extent_size"]
    if extent_size and extent_size < 4096:
        p.error("--extent-size: at least 4096 bytes")
    restore_sample = a.restore_sample if a.restore_sample is not None else d["restore_sample"]
    if restore_sample < 0:
        p.error("--restore-sample must not be negative")
    if a.report:
        cfg = config_from_json(a.report, binary)
        if a.subject:
            cfg.subject = a.subject
        if a.reference:
            cfg.references = a.reference.split(",")
        return cfg, None
    cfg = Config(
        binary=binary,
        seeds=list(range(a.seed_base, a.seed_base + seeds)),
        remote_counts=remote_counts,
        layouts=layouts,
        scenarios=scenarios,
        regimes=regimes,
        extent_size=extent_size or None,
        full_extents=a.full_extents if a.full_extents is not None else d["full_extents"],
        dailies_a=a.dailies_a if a.dailies_a is not None else d["dailies_a"],
        dailies_b=a.dailies_b if a.dailies_b is not None else d["dailies_b"],
        burst_extents=a.burst_extents,
        restores=a.restores or d["restores"],
        restore_sample=restore_sample,
        subject=a.subject,
        references=a.reference.split(",") if a.reference else None,
        jobs=a.jobs,
        workdir=a.workdir or default_workdir(),
        keep_work=a.keep_work,
        preset=preset,
        tamper_manifest=a.tamper_manifest,
        binary_env=binary_env,
    )
    return cfg, a.json_out


# --------------------------------------------------------------------------------------
# Running the binary


class Tangle:
    """The binary in a clean environment: only PATH, and HOME under `home`. Counts the
    seconds spent per command (for the timings in the report)."""

    def __init__(
        self,
        binary: str,
        home: Path,
        timings: dict | None = None,
        binary_env: dict[str, str] | None = None,
    ):
        self.binary = binary
        self.binary_env = binary_env or {}
        self.home = home
        self.timings = timings if timings is not None else {}
        home.mkdir(parents=True, exist_ok=True)

    def run(
        self,
        args: list[str],
        *,
        password: bool = False,
        owner: str | None = None,
        cache: Path | None = None,
        env: dict[str, str] | None = None,
        what: str | None = None,
    ) -> subprocess.CompletedProcess:
        environ = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "XDG_CACHE_HOME": str(self.home / "cache"),
            "XDG_CONFIG_HOME": str(self.home / "config"),
            "TMPDIR": str(self.home),
            "TANGLE_HOST": "durability",
            "NO_COLOR": "1",
            "TERM": "dumb",
            **self.binary_env,
            **(env or {}),
        }
        if password:
            environ["TANGLE_PASSWORD"] = PASSWORD
        if owner:
            environ["TANGLE_OWNER"] = owner
        if cache:
            environ["TANGLE_CACHE_DIR"] = str(cache)
        out, wall, cpu = run_measured([self.binary, "--no-progress", *args], environ)
        key = what or next((a for a in args if not a.startswith("-") and "/" not in a), "?")
        n, w, c = self.timings.get(key, (0, 0.0, 0.0))
        self.timings[key] = (n + 1, w + wall, c + cpu)
        return out

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


def run_measured(cmd: list[str], env: dict) -> tuple[subprocess.CompletedProcess, float, float]:
    """Runs a command; returns its result, its wall time and the CPU seconds (user +
    system, all threads) it used: on a machine shared with other work the CPU time is
    what sizes the runs, the wall time what they took."""
    started = time.monotonic()
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
        proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=fo, stderr=fe)
        timer = threading.Timer(CMD_TIMEOUT, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        fo.seek(0)
        fe.seek(0)
        out = subprocess.CompletedProcess(
            cmd,
            proc.returncode,
            fo.read().decode(errors="replace"),
            fe.read().decode(errors="replace"),
        )
    return out, time.monotonic() - started, usage.ru_utime + usage.ru_stime


def add_timings(total: dict, part: dict) -> None:
    for k, (n, wall, cpu) in part.items():
        n0, w0, c0 = total.get(k, (0, 0.0, 0.0))
        total[k] = (n0 + n, w0 + wall, c0 + cpu)


# --------------------------------------------------------------------------------------
# Source histories


def unit(*key) -> float:
    """A uniform number in [0, 1) determined by `key` alone (common random numbers)."""
    digest = hashlib.sha256(repr(key).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def log_uniform(r: random.Random, low: int, high: int) -> int:
    low, high = max(1, low), max(1, high)
    return int(math.exp(r.uniform(math.log(low), math.log(high))))


def history_steps(regime: str, seed: int, cfg: Config) -> list[list[tuple]]:
    """One list of operations per backup: ("write", relpath, size, data seed) or
    ("delete", relpath). Determined by (regime, seed) and the extent size alone, so every
    layout and remote count backs up the same history. Sizes are relative to the extent
    size E (in brackets: E = 16 MiB, the binary's own)."""
    e = cfg.scale
    r = random.Random(f"history/{regime}/{seed}")
    steps = []
    if regime == "full+dailies":
        # Full extents' worth of data in files of E/16 to 1.5 E (1-24 MiB).
        total, ops, i = cfg.full_extents * e, [], 0
        while total > 0:
            size = min(total, r.randint(max(1, e // 16), e * 3 // 2))
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
        # A small daily: E/4096 to E/4 (4 KiB to 4 MiB) of new data, log-uniform, in one
        # to three files...
        budget = log_uniform(r, e // 4096, e // 4)
        n = r.randint(1, 3)
        for k in range(n):
            path = f"daily/{day:04}/{k}.bin"
            ops.append(("write", path, max(1, budget // n), r.getrandbits(64)))
            daily_files.append(path)
        # ...sometimes a changed (E/32768 to E/256: 512 B to 64 KiB) or a removed older
        # file.
        if len(daily_files) > n and r.random() < 0.3:
            path = r.choice(daily_files[:-n])
            ops.append(("write", path, log_uniform(r, e // 32768, e // 256), r.getrandbits(64)))
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
# Extent certificates


def _varint(b: bytes, i: int) -> tuple[int, int]:
    x = shift = 0
    while True:
        c = b[i]
        i += 1
        x |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return x, i


def decode_certificate(raw: bytes) -> dict:
    """The fields the harness needs from an extent certificate file (`extents/<name>`):
    the signed envelope (`TNGL`, kind, version, 2 reserved bytes, payload length u32 LE,
    payload, signature) around the postcard encoding of `extent::Certificate`. Reading
    the files directly spares one `tangle cat certificate` per extent; every history
    checks the decoding against `cat certificate` for its newest extent."""
    if raw[:4] != b"TNGL" or len(raw) < 12:
        raise ValueError("not a tangle object")
    n = int.from_bytes(raw[8:12], "little")
    b = raw[12 : 12 + n]
    i = 32  # repo_id, writer
    seq, i = _varint(b, i)
    i += 33 if b[i] == 1 else 1  # prev: Option<ExtentName>
    i += 64  # start_verifier, verifier
    blocks, i = _varint(b, i)
    for _ in range(blocks):
        _, i = _varint(b, i)
    size, i = _varint(b, i)
    _, i = _varint(b, i)  # timestamp
    data_shards, parity_shards = b[i], b[i + 1]
    i += 2
    shard_size, i = _varint(b, i)
    npointers, i = _varint(b, i)
    pointers = []
    for _ in range(npointers):
        pointers.append((b[i : i + 32].hex(), b[i + 32]))
        i += 33
    nshards, i = _varint(b, i)
    remotes = []
    for _ in range(nshards):
        i += 32  # hash
        remote, i = _varint(b, i)
        remotes.append(remote)
    _, i = _varint(b, i)  # placement
    if i != len(b) or nshards != data_shards + parity_shards:
        raise ValueError("certificate does not decode as expected (format changed?)")
    return {
        "seq": seq,
        "size": size,
        "data_shards": data_shards,
        "parity_shards": parity_shards,
        "shard_size": shard_size,
        "pointers": pointers,
        "remotes": remotes,
    }


# --------------------------------------------------------------------------------------
# Building the histories


# Data and parity shards of a tree extent (`Coding::for_trees` in src/codec/coding.rs).
TREE_CODING = (4, 12)


@dataclass
class Extent:
    seq: int
    name: str
    size: int  # bytes of extent data
    shard_size: int
    data_shards: int
    parity_shards: int
    pointers: int
    remotes: list[int]  # remote index of every own shard (data, then parity)
    tree: bool  # a tree extent (TREE_CODING)


@dataclass
class History:
    """One layout's pristine repository of one (regime, seed, remote count)."""

    layout: Layout
    remotes: int
    live: list[Path]  # where the repository lives (the config names these paths)
    pristine: Path  # the untouched copy of the remotes (pristine/r0, ...)
    fingerprint: str = ""
    coding: dict = field(default_factory=dict)
    snapshots: list[str] = field(default_factory=list)
    extents: list[Extent] = field(default_factory=list)
    stored: dict = field(default_factory=dict)
    extent_size: int = 0

    @property
    def key(self) -> str:
        return f"{self.remotes}r/{self.layout.name}"

    @property
    def data_extents(self) -> list[Extent]:
        return [e for e in self.extents if not e.tree]


def init_repo(t: Tangle, h: History, cfg: Config) -> None:
    args = ["init", *(x for r in h.live for x in ("--remote", str(r))), *h.layout.init_flags()]
    # A trivial key-derivation cost: otherwise Argon2 is most of each command's CPU.
    env = {"TANGLE_TEST_WEAK_KDF": "1"}
    if cfg.extent_size:
        env["TANGLE_TEST_EXTENT_SIZE"] = str(cfg.extent_size)
    _, out = t.json(["--json", *args], password=True, env=env)
    h.fingerprint = out["owner_fingerprint"]
    h.coding = {
        k: out[k]
        for k in ("data_shards", "parity_shards", "pointers", "storage_overhead")
    }
    _, config = t.json(["-r", str(h.live[0]), "--json", "cat", "config"], owner=h.fingerprint)
    h.extent_size = int(config.get("extent_size", 0))
    if cfg.extent_size and h.extent_size != cfg.extent_size:
        raise RuntimeError(
            f"init made extents of {h.extent_size} bytes, not {cfg.extent_size}: the binary "
            "ignores TANGLE_TEST_EXTENT_SIZE (build it with --features testing)"
        )


def read_extents(t: Tangle, h: History) -> None:
    """Every extent's chain position, size and shard placement, from its certificate
    (decoded from the files; the newest one is checked against `cat certificate`)."""
    extents = []
    # A layout coded like trees (rs4+12) could not tell the two apart: every extent
    # would count as a data extent.
    trees_apart = (h.coding["data_shards"], h.coding["parity_shards"]) != TREE_CODING
    for name in sorted(os.listdir(h.live[0] / "extents")):
        c = decode_certificate((h.live[0] / "extents" / name).read_bytes())
        extents.append(
            Extent(
                seq=c["seq"],
                name=name,
                size=c["size"],
                shard_size=c["shard_size"],
                data_shards=c["data_shards"],
                parity_shards=c["parity_shards"],
                pointers=len(c["pointers"]),
                remotes=c["remotes"],
                tree=trees_apart and (c["data_shards"], c["parity_shards"]) == TREE_CODING,
            )
        )
    extents.sort(key=lambda e: e.seq)
    if [e.seq for e in extents] != list(range(len(extents))):
        raise RuntimeError(f"{h.key}: extents are not one chain 0..{len(extents) - 1}")
    # The decoding against the binary's own reading, for the newest extent.
    newest = extents[-1]
    _, c = t.json(
        ["-r", str(h.live[0]), "--json", "cat", "certificate", newest.name], owner=h.fingerprint
    )
    index = {str(r): i for i, r in enumerate(h.live)}
    shards = sorted(c["shards"], key=lambda s: s["index"])
    theirs = (c["seq"], c["size"], c["shard_size"], c["data_shards"], len(c["pointers"]),
              [index[s["remote"]] for s in shards])  # fmt: skip
    mine = (newest.seq, newest.size, newest.shard_size, newest.data_shards, newest.pointers,
            newest.remotes)  # fmt: skip
    if theirs != mine:
        raise RuntimeError(f"{h.key}: certificate decoded as {mine}, cat certificate says {theirs}")
    h.extents = extents


def stored_bytes(remotes: list[Path]) -> tuple[dict, dict[str, int]]:
    """Shard bytes (files under shards/) and all bytes on the remotes; and the shard
    bytes per extent."""
    shard = total = files = 0
    per_extent: dict[str, int] = {}
    for r in remotes:
        for dirpath, _, names in os.walk(r):
            for name in names:
                size = os.lstat(os.path.join(dirpath, name)).st_size
                total += size
                d = Path(dirpath)
                if d.parent.name == "shards" and d.parent.parent == r:
                    shard += size
                    files += 1
                    per_extent[d.name] = per_extent.get(d.name, 0) + size
    return {"shard_bytes": shard, "all_bytes": total, "shard_files": files}, per_extent


def build_histories(
    cfg: Config, regime: str, seed: int, job: Path, timings: dict
) -> tuple[list[History], list[dict[str, str]], Path]:
    """Backs up the (regime, seed) source history into one repository per remote count
    and layout, one step at a time; returns the histories and the manifest of the source
    at each backup."""
    t = Tangle(cfg.binary, job / "home", timings, cfg.binary_env)
    src = (job / "src").resolve()
    src.mkdir()
    histories = []
    for rc in cfg.remote_counts:
        for layout in cfg.layouts[rc]:
            base = job / f"{rc}r-{layout.name}"
            h = History(
                layout=layout,
                remotes=rc,
                live=[base / "live" / f"r{i}" for i in range(rc)],
                pristine=base / "pristine",
            )
            init_repo(t, h, cfg)
            histories.append(h)
    manifests: list[dict[str, str]] = []
    manifest: dict[str, str] = {}
    for ops in history_steps(regime, seed, cfg):
        apply_step(src, ops, manifest)
        manifests.append(dict(manifest))
        for h in histories:
            out = t.run(["-r", str(h.live[0]), "--json", "backup", str(src)], password=True)
            if out.returncode != 0:
                raise RuntimeError(f"backup into {h.key} exited {out.returncode}:\n{out.stderr}")
            summary = [json.loads(x) for x in out.stdout.splitlines() if x.strip()][-1]
            h.snapshots.append(summary["snapshot_id"])
    if cfg.tamper_manifest:
        last = manifests[-1]
        rel = sorted(last)[0]
        last[rel] = "0" * 64  # no restore can match this
    source_bytes = sum((src / rel).stat().st_size for rel in manifests[-1])
    for h in histories:
        read_extents(t, h)
        h.stored, per_extent = stored_bytes(h.live)
        data = h.data_extents
        h.stored |= {
            "extents": len(h.extents),
            "data_extents": len(data),
            "tree_extents": len(h.extents) - len(data),
            "extent_data_bytes": sum(e.size for e in h.extents),
            "data_extent_bytes": sum(e.size for e in data),
            "data_extent_shard_bytes": sum(per_extent.get(e.name, 0) for e in data),
            "source_bytes": source_bytes,
            "nominal_overhead": h.coding["storage_overhead"],
        }
        # What `stats` measures (with the password; it reads every snapshot's trees).
        _, st = t.json(
            ["-r", str(h.live[0]), "--json", "stats"],
            password=True,
            owner=h.fingerprint,
            cache=job / "stats-cache",
        )
        shutil.rmtree(job / "stats-cache", ignore_errors=True)
        usage = st.get("repository", {})
        h.stored["stats_overhead"] = usage.get("storage_overhead")
        h.stored["stats_extent_bytes"] = usage.get("extent_bytes")
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
    shard position lost in one layout is lost in every layout that has it; the wiped
    remote and the burst's remotes depend on the remote count too, and the burst's start
    is the same fraction of every layout's history."""
    spec = SCENARIOS[scenario]
    remotes = h.remotes
    r = random.Random(f"damage/{seed}/{scenario}/{remotes}")
    n = len(h.extents)
    wiped = r.randrange(remotes) if spec["kind"] == "remote" else None
    burst, burst_remotes = range(0), set()
    if spec["kind"] == "burst":
        length = burst_length(cfg, n)
        start = int(unit("burst", seed, scenario) * (n - length + 1))
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


def lost_data_bytes(h: History, data_lost: list, *, trees: bool = False) -> int:
    """Bytes of extent data in the lost data shards of data extents (of tree extents with
    `trees`); padding does not count."""
    by_name = {e.name: e for e in h.extents}
    total = 0
    for name, i in data_lost:
        e = by_name[name]
        if e.tree == trees:
            total += max(0, min(e.shard_size, e.size - i * e.shard_size))
    return total


def restore_one(
    t: Tangle, h: History, via: Path, src: Path, k: int, expected: dict, run_dir: Path
) -> dict:
    """Restores snapshot k and compares it with the source's manifest at that backup."""
    snap = h.snapshots[k]
    target = run_dir / f"target-{k}"
    out = t.run(
        ["-r", str(via), "--json", "restore", snap, "--target", str(target)],
        password=True,
        owner=h.fingerprint,
        cache=run_dir / "restore-cache",
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
    return {
        "index": k,
        "snapshot": snap,
        "exit_code": out.returncode,
        "identical": out.returncode == 0 and not (missing or wrong or extra),
        "files_missing": len(missing),
        "files_wrong": len(wrong),
        "files_extra": len(extra),
        "errors": len(errors),
        "first_error": errors[0][:300] if errors else None,
    }


def restore_sample(cfg: Config, regime: str, seed: int, scenario: str, n: int) -> list[int]:
    """The newest snapshot and `--restore-sample` others, seeded by (regime, seed,
    scenario): the same snapshot positions in every layout."""
    r = random.Random(f"restore/{regime}/{seed}/{scenario}")
    others = r.sample(range(n - 1), min(cfg.restore_sample, n - 1))
    return sorted(others) + [n - 1]


def copy_tree(src: Path, dst: Path) -> None:
    """A copy of the pristine remotes for one damage run, its files hard links to the
    pristine ones (`cp -al`: on the thousands of small shard files of a history several
    times cheaper than copying them). Safe because the local remote never writes a file
    in place: it writes a temporary file and renames it over the name, and deletes by
    unlinking, so a run only ever changes its own directory entries. `pristine_state`
    checks that the pristine files are unchanged after every history's runs. Without
    `cp`, shutil.copytree (a real copy)."""
    try:
        subprocess.run(["cp", "-al", str(src), str(dst)], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(src, dst, symlinks=True)


def pristine_state(root: Path) -> dict[str, tuple[int, int]]:
    """Size and modification time of every file under root."""
    out = {}
    for dirpath, _, names in os.walk(root):
        for name in names:
            st = os.lstat(os.path.join(dirpath, name))
            out[os.path.join(dirpath, name)] = (st.st_size, st.st_mtime_ns)
    return out


def run_scenario(
    cfg: Config,
    regime: str,
    seed: int,
    h: History,
    scenario: str,
    src: Path,
    manifests: list[dict],
    job: Path,
    timings: dict,
) -> dict:
    started = time.monotonic()
    live = h.live[0].parent
    copy_tree(h.pristine, live)
    run_dir = job / f"run-{h.remotes}r-{h.layout.name}-{scenario}"
    run_dir.mkdir()
    t = Tangle(cfg.binary, run_dir / "home", timings, cfg.binary_env)
    n_snap = len(h.snapshots)
    try:
        damage = choose_damage(cfg, h, scenario, seed)
        shards_gone = apply_damage(h, damage)
        # Go through a remote that was not wiped, as a user would.
        via = next(r for i, r in enumerate(h.live) if i != damage["wiped_remote"])
        cache = run_dir / "cache"  # empty: the CI recipe, owner pinned
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
            ["-r", str(via), "--json", "verify", "--read-data"],
            ok,
            owner=h.fingerprint,
            cache=cache,
            what="verify --read-data",
        )
        after = verify_summary(code, v2, h)
        # Restores (--restores): `all` every snapshot; `on-loss` every snapshot when
        # verify reported lost data, else the newest and a seeded sample; `sample` the
        # newest and a seeded sample. With either sample, every snapshot after all when
        # verify reported no loss and a sampled restore failed (a disagreement).
        said_loss = before["says_loss"] or after["says_loss"]
        if cfg.restores == "all" or (cfg.restores == "on-loss" and said_loss):
            order, policy = list(range(n_snap)), "all"
        else:
            order, policy = restore_sample(cfg, regime, seed, scenario, n_snap), "sample"
        restores = [restore_one(t, h, via, src, k, manifests[k], run_dir) for k in order]
        if policy == "sample" and not said_loss and not all(x["identical"] for x in restores):
            done = set(order)
            restores += [
                restore_one(t, h, via, src, k, manifests[k], run_dir)
                for k in range(n_snap)
                if k not in done
            ]
            restores.sort(key=lambda x: x["index"])
            policy = "all (a sampled restore failed)"
    finally:
        shutil.rmtree(live, ignore_errors=True)
        shutil.rmtree(run_dir, ignore_errors=True)

    data = h.data_extents
    newest = {e.name for e in data[len(data) - math.ceil(0.1 * len(data)) :]}
    trees = {e.name for e in h.extents if e.tree}
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
    if after["says_loss"] and restores_fine and len(restores) == n_snap:
        notes.append("verify reports lost data, yet every snapshot restored identical")
    # Lost snapshots: counted when every snapshot was restored; else estimated from the
    # sample: the newest counts for itself, the others for the snapshots before it.
    failed = {x["index"] for x in restores if not x["identical"]}
    if len(restores) == n_snap:
        lost_snapshots: float = len(failed)
    else:
        others = [x["index"] for x in restores if x["index"] != n_snap - 1]
        lost_snapshots = float(n_snap - 1 in failed)
        if others:
            lost_snapshots += sum(1 for k in others if k in failed) / len(others) * (n_snap - 1)
    return {
        "regime": regime,
        "seed": seed,
        "remotes": h.remotes,
        "layout": h.layout.name,
        "scenario": scenario,
        "extents": len(h.extents),
        "data_extents": len(data),
        "tree_extents": len(trees),
        "snapshots": n_snap,
        "shards_gone": shards_gone,
        "damage": {k: v for k, v in damage.items() if k != "shards"},
        "verify_before": before,
        "repair": repair,
        "verify_after": after,
        "lost_extents": len(lost),
        "lost_data_extents": len(lost - trees),
        "lost_tree_extents": len(lost & trees),
        "lost_seqs": sorted(e.seq for e in h.extents if e.name in lost),
        "lost_data_extents_newest_10pct": len(lost & newest),
        "lost_data_bytes": lost_data_bytes(h, after["lost_data_shards"]),
        "lost_tree_bytes": lost_data_bytes(h, after["lost_data_shards"], trees=True),
        "lost_snapshots": lost_snapshots,
        "lost_snapshots_exact": len(restores) == n_snap,
        "restores_failed": len(failed),
        "restore_policy": policy,
        "restored": len(restores),
        "restores": restores,
        "disagreements": [p for p in problems if "restores failed" in p],
        "inconsistencies": [p for p in problems if "restores failed" not in p],
        "notes": notes,
        "seconds": round(time.monotonic() - started, 2),
    }


def run_job(cfg: Config, regime: str, seed: int, root: Path) -> dict:
    """Builds one (regime, seed) history for every remote count and layout and runs every
    scenario on a copy of each."""
    started = time.monotonic()
    job = root / f"{regime}-{seed}"
    job.mkdir()
    build_timings: dict = {}
    check_timings: dict = {}
    try:
        histories, manifests, src = build_histories(cfg, regime, seed, job, build_timings)
        built = time.monotonic() - started
        log(
            f"{regime} seed {seed}: built {len(manifests)} snapshots, "
            + ", ".join(f"{h.key} {len(h.extents)} extents" for h in histories)
            + f" ({built:.0f} s)"
        )
        states = {h.key: pristine_state(h.pristine) for h in histories}
        runs = []
        for scenario in cfg.scenarios:
            for h in histories:
                rec = run_scenario(
                    cfg, regime, seed, h, scenario, src, manifests, job, check_timings
                )
                runs.append(rec)
                flag = " DISAGREEMENT" if rec["disagreements"] else ""
                log(
                    f"{regime} seed {seed} {h.key} {scenario}: "
                    f"{rec['shards_gone']} shards gone, lost {rec['lost_data_extents']} data + "
                    f"{rec['lost_tree_extents']} tree extents, "
                    f"{rec['lost_snapshots']:.4g}/{rec['snapshots']} snapshots lost "
                    f"({rec['restored']} restored, {rec['seconds']:.0f} s){flag}"
                )
        for h in histories:
            if pristine_state(h.pristine) != states[h.key]:
                raise RuntimeError(
                    f"{h.key}: a damage run changed the pristine history through a hard "
                    "link (the binary wrote a file in place?); its results are not valid"
                )
        stored = [
            {
                "regime": regime,
                "seed": seed,
                "remotes": h.remotes,
                "layout": h.layout.name,
                "coding": h.coding,
                "extent_size": h.extent_size,
                **h.stored,
            }
            for h in histories
        ]
        return {
            "runs": runs,
            "stored": stored,
            "build_seconds": built,
            "seconds": time.monotonic() - started,
            "timings": {"build": build_timings, "check": check_timings},
        }
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
    seeds_with_loss = sum(1 for x, y in pairs if x or y)
    if ref == 0:
        return {"ratio": None, "low": None, "high": None, "sum": mine, "reference_sum": ref,
                "seeds_with_loss": seeds_with_loss}  # fmt: skip
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
        return {"ratio": ratio, "low": None, "high": None, "sum": mine, "reference_sum": ref,
                "seeds_with_loss": seeds_with_loss}  # fmt: skip
    return {
        "sum": mine,
        "reference_sum": ref,
        "seeds_with_loss": seeds_with_loss,
        "ratio": ratio,
        "low": samples[int(0.025 * len(samples))],
        "high": samples[min(len(samples) - 1, int(0.975 * len(samples)))],
    }


METRICS = (
    "lost_data_extents",
    "lost_data_extents_newest_10pct",
    "lost_tree_extents",
    "lost_data_bytes",
    "lost_snapshots",
    "lost_extents",
    "restored",
)
# The subject against the best plain layout.
RATIO_METRICS = (
    "lost_data_extents",
    "lost_data_bytes",
    "lost_snapshots",
    "lost_data_extents_newest_10pct",
)


# A verdict is called sure ("(CI)") only when this many seeds lost something in either
# layout: with fewer, the bootstrap interval is narrow because one seed decides it.
CI_MIN_SEEDS = 5


def verdict(r: dict, goal: float) -> str:
    """Whether a ratio meets a goal (ratio ≤ goal); "(CI)" when its whole 95% bootstrap
    interval is on the same side of the goal and at least CI_MIN_SEEDS seeds lost
    something."""
    if r["ratio"] is None:
        return "met (neither lost any)" if r["sum"] == 0 else "not met (plain lost none)"
    sure = r["low"] is not None and r["seeds_with_loss"] >= CI_MIN_SEEDS
    if r["ratio"] <= goal:
        return "met (CI)" if sure and r["high"] <= goal else "met"
    return "not met (CI)" if sure and r["low"] > goal else "not met"


def summarize(cfg: Config, runs: list[dict], stored: list[dict]) -> dict:
    storage = []
    measured: dict[tuple, float] = {}
    for regime in cfg.regimes:
        for rc in cfg.remote_counts:
            for layout in cfg.layouts[rc]:
                mine = [
                    s for s in stored if (s["regime"], s["remotes"], s["layout"]) == (regime, rc, layout.name)
                ]
                if not mine:
                    continue
                entry = {"regime": regime, "remotes": rc, "layout": layout.name, "coding": mine[0]["coding"]}
                for k in (
                    "extents", "data_extents", "tree_extents", "source_bytes",
                    "extent_data_bytes", "shard_bytes", "all_bytes",
                ):  # fmt: skip
                    entry[k] = t_interval([s[k] for s in mine])
                entry["shard_overhead"] = statistics.fmean(
                    s["shard_bytes"] / s["extent_data_bytes"] for s in mine
                )
                entry["data_extent_overhead"] = statistics.fmean(
                    s["data_extent_shard_bytes"] / s["data_extent_bytes"]
                    for s in mine
                    if s["data_extent_bytes"]
                ) if any(s["data_extent_bytes"] for s in mine) else None  # fmt: skip
                entry["nominal_overhead"] = mine[0]["nominal_overhead"]
                st = [s["stats_overhead"] for s in mine if s.get("stats_overhead") is not None]
                entry["stats_overhead"] = statistics.fmean(st) if st else None
                measured[(regime, rc, layout.name)] = entry["shard_overhead"]
                storage.append(entry)
    for entry in storage:
        subject = measured.get((entry["regime"], entry["remotes"], cfg.subject))
        entry["vs_subject"] = entry["shard_overhead"] / subject if subject else None

    rows, comparisons = [], []
    for regime in cfg.regimes:
        for rc in cfg.remote_counts:
            for scenario in cfg.scenarios:
                by_layout = {
                    layout.name: {
                        r["seed"]: r
                        for r in runs
                        if (r["regime"], r["remotes"], r["scenario"], r["layout"])
                        == (regime, rc, scenario, layout.name)
                    }
                    for layout in cfg.layouts[rc]
                }
                for layout in cfg.layouts[rc]:
                    mine = by_layout[layout.name]
                    row = {
                        "regime": regime,
                        "remotes": rc,
                        "scenario": scenario,
                        "layout": layout.name,
                        "runs": len(mine),
                    }
                    for m in METRICS:
                        row[m] = t_interval([mine[s][m] for s in sorted(mine)])
                    for k in ("snapshots", "extents", "data_extents", "tree_extents"):
                        row[k] = statistics.fmean(r[k] for r in mine.values()) if mine else 0
                    row["disagreements"] = sum(len(r["disagreements"]) for r in mine.values())
                    row["inconsistencies"] = sum(len(r["inconsistencies"]) for r in mine.values())
                    rows.append(row)
                subject_plain = any(
                    s["coding"]["pointers"] == 0
                    for s in storage
                    if (s["regime"], s["remotes"], s["layout"]) == (regime, rc, cfg.subject)
                )
                comparisons.append(
                    compare(cfg, regime, rc, scenario, by_layout, measured, subject_plain)
                )
    return {"losses": rows, "storage": storage, "comparisons": comparisons}


def compare(cfg, regime, rc, scenario, by_layout, measured, subject_plain) -> dict:
    """The subject against the best plain layout at no more measured bytes: among the
    plain layouts whose shard bytes per byte of extent data are at most the subject's
    (+0.5%), the one with the fewest lost data extents (mean over seeds; ties: fewer lost
    bytes, then fewer stored bytes)."""
    subject = cfg.subject
    names = [layout.name for layout in cfg.layouts[rc]]
    plain = cfg.references or [
        layout.name for layout in cfg.layouts[rc] if layout.pointers == 0 and layout.name != subject
    ]
    plain = [x for x in plain if x in names and x != subject]
    mine_bytes = measured.get((regime, rc, subject))
    out = {
        "regime": regime,
        "remotes": rc,
        "scenario": scenario,
        "subject": subject,
        "subject_overhead": mine_bytes,
        "candidates": {x: measured.get((regime, rc, x)) for x in plain},
        "eligible": [],
        "best": None,
    }
    if mine_bytes is None:
        return out
    eligible = [
        x for x in plain
        if measured.get((regime, rc, x)) is not None
        and measured[(regime, rc, x)] <= mine_bytes * BYTES_TOLERANCE
        and by_layout[x]
    ]  # fmt: skip
    out["eligible"] = eligible
    if not eligible:
        return out

    def mean(name, m):
        runs = by_layout[name]
        return statistics.fmean(r[m] for r in runs.values())

    best = min(
        eligible,
        key=lambda x: (mean(x, "lost_data_extents"), mean(x, "lost_data_bytes"), measured[(regime, rc, x)]),
    )
    out["best"] = best
    out["best_overhead"] = measured[(regime, rc, best)]
    mine, ref = by_layout[subject], by_layout[best]
    seeds = sorted(set(mine) & set(ref))
    out["seeds"] = len(seeds)
    out["ratios"] = {
        m: bootstrap_ratio([(mine[s][m], ref[s][m]) for s in seeds]) for m in RATIO_METRICS
    }
    goal = GOALS.get(scenario)
    out["goal"] = goal
    if subject_plain:
        # The goals are for entanglement; a plain default (2 remotes) is only compared.
        out["verdict"] = out["newest_verdict"] = "– (the default is plain)"
        return out
    out["verdict"] = verdict(out["ratios"]["lost_data_extents"], goal) if goal else None
    out["newest_verdict"] = verdict(out["ratios"]["lost_data_extents_newest_10pct"], NEWEST_GOAL)
    return out


def fmt_interval(x: dict, scale: float = 1.0, digits: int = 2) -> str:
    if x["n"] == 0:
        return "–"
    mean = x["mean"] / scale
    if x["half"] is None:
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} ± {x['half'] / scale:.{digits}f}"


def fmt_ratio(r: dict) -> str:
    if r["ratio"] is None:
        return "∞ (plain lost none)" if r["sum"] > 0 else "–"
    if r["low"] is None:
        return f"{r['ratio']:.2f}"
    return f"{r['ratio']:.2f} ({r['low']:.2f}–{r['high']:.2f})"


def fmt_size(n: int) -> str:
    return f"{n // MIB} MiB" if n % MIB == 0 else f"{n // KIB} KiB" if n % KIB == 0 else f"{n} B"


def fmt_goal(goal: float | None) -> str:
    return "–" if goal is None else f"≤ {goal:g}"


def fmt_coding(c: dict) -> str:
    return f"{c['data_shards']}+{c['parity_shards']}, {c['pointers']}"


def restore_policy_text(cfg: Config) -> str:
    sample = (
        f"the newest snapshot and {cfg.restore_sample} others drawn uniformly (seeded by "
        "regime, seed and scenario: the same positions in every layout)"
    )
    fallback = (
        " When verify reported no loss and a sampled restore failed (a disagreement), every "
        "snapshot is restored after all. A run where verify reported no loss is thus checked "
        "against the restores of its sample only."
    )
    if cfg.restores == "all":
        return "every snapshot, in every run."
    if cfg.restores == "on-loss":
        return (
            "every snapshot when verify (before repair, or with --read-data after it) "
            f"reported lost data, so lost snapshots are counted exactly; otherwise {sample}."
            + fallback
        )
    return (
        f"{sample}, in every run. Lost snapshots are estimated from them (the newest counts "
        "for itself, the share of the others lost for all older snapshots), except where "
        "every snapshot was restored." + fallback
    )


def markdown(cfg: Config, summary: dict, meta: dict, disagreements: list[dict]) -> str:
    lines = []
    say = lines.append
    say("# Durability harness results\n")
    say(
        f"Binary `{meta['binary']}` ({meta['version']}); preset `{cfg.preset}`; seeds "
        f"{cfg.seeds[0]}–{cfg.seeds[-1]} ({len(cfg.seeds)}); "
        f"{', '.join(map(str, cfg.remote_counts))} local remotes; wall time "
        f"{meta['duration_secs']:.0f} s with {cfg.jobs} job(s) on {os.cpu_count()} cores."
    )
    say("")
    if cfg.binary_env:
        env = " ".join(f"`{k}={v}`" for k, v in sorted(cfg.binary_env.items()))
        say(f"Every tangle process ran with {env} (`--binary-env`).\n")
    if cfg.tamper_manifest:
        say(
            "**SELF-TEST (--tamper-manifest): one file of each newest snapshot's manifest is "
            "wrong on purpose; every run must report a disagreement.**\n"
        )
    extent_sizes = sorted({s["extent_size"] for s in meta["stored_raw"]})
    e = cfg.scale
    say(
        f"Extent size: {', '.join(fmt_size(x) for x in extent_sizes)} (from `cat config`; "
        + ("`TANGLE_TEST_EXTENT_SIZE`" if cfg.extent_size else "the binary's own")
        + "). Histories, with data scaled to the extent size E:"
    )
    if "full+dailies" in cfg.regimes:
        say(
            f"`full+dailies`: one initial backup of {cfg.full_extents} full extents' worth of "
            f"random data ({fmt_size(cfg.full_extents * e)}, files of E/16 to 1.5 E), then "
            f"{cfg.dailies_a} small dailies;"
        )
    if "dailies" in cfg.regimes:
        say(f"`dailies`: {cfg.dailies_b} small dailies.")
    say(
        f"A daily adds E/4096 to E/4 ({fmt_size(max(1, e // 4096))} to {fmt_size(e // 4)}, "
        "log-uniform) in 1–3 files, and sometimes rewrites or removes an older daily file. "
        "Every layout and remote count backs up the same source history per seed."
    )
    say("")
    say("Restores: " + restore_policy_text(cfg))
    say("")
    say(
        "Intervals: mean ± half-width of the 95% Student t-interval over seeds (per run: one "
        "history and one damage pattern). Ratios: the default's losses summed over seeds / the "
        "plain layout's over the same seeds (same history, same damage positions), with a 95% "
        "percentile bootstrap interval (2000 resamples of the seeds); `–` where neither lost "
        "anything. Tree extents (4 data + 12 parity shards) are counted apart from data "
        "extents; the newest 10% are the newest data extents."
    )
    say("")
    say("## Stored bytes\n")
    say(
        "Shard bytes per byte of extent data, three ways: **measured** (the shard files on "
        "the remotes / the extent data in the certificates, data and tree extents), the "
        "same over data extents only, **nominal** `(s+p)/s` (what `init --json` prints) and "
        "what `stats --json` reports (`repository.storage_overhead`). `vs default`: measured "
        f"/ the default's; a plain layout is compared with the default when this is at most "
        f"{BYTES_TOLERANCE:.3f} (0.5% tolerance)."
    )
    say("")
    say(
        "| regime | remotes | layout | coding s+p, t | data extents | tree extents | "
        "extent data MB | shard MB | all MB | measured | data extents only | nominal | "
        "stats | measured / nominal | vs default |"
    )
    say("|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for s in summary["storage"]:
        opt = lambda v, f="{:.3f}": "–" if v is None else f.format(v)  # noqa: E731
        say(
            f"| {s['regime']} | {s['remotes']} | {s['layout']} | {fmt_coding(s['coding'])} | "
            f"{s['data_extents']['mean']:.1f} | {s['tree_extents']['mean']:.1f} | "
            f"{s['extent_data_bytes']['mean'] / 1e6:.2f} | {s['shard_bytes']['mean'] / 1e6:.2f} | "
            f"{s['all_bytes']['mean'] / 1e6:.2f} | {s['shard_overhead']:.3f} | "
            f"{opt(s['data_extent_overhead'])} | {s['nominal_overhead']:.3f} | "
            f"{opt(s['stats_overhead'])} | "
            f"{s['shard_overhead'] / s['nominal_overhead']:.3f} | {opt(s['vs_subject'])} |"
        )
    say("")
    say(f"## `{cfg.subject}` against the best plain layout at no more measured bytes\n")
    say(
        "Per regime, remote count and scenario: among the plain layouts whose measured shard "
        f"bytes per data byte are at most `{cfg.subject}`'s (+0.5%), the one with the fewest "
        f"lost data extents (mean over seeds). Ratios `{cfg.subject}` / that layout. Goals "
        "(issue 33): lost extents ≤ 0.5x under random loss and a lost remote, ≤ 0.8x in the "
        "burst; among the newest 10%, ≤ 1.0x. `(CI)`: the whole 95% interval is on that side "
        f"of the goal, and at least {CI_MIN_SEEDS} seeds lost something in either layout."
    )
    say("")
    say(
        "| regime | remotes | scenario | best plain (measured) | default (measured) | lost "
        "extents | lost bytes | lost snapshots | newest 10% lost | goal | verdict | newest "
        "10% verdict |"
    )
    say("|---|---:|---|---|---:|---:|---:|---:|---:|---:|---|---|")
    for c in summary["comparisons"]:
        head = f"| {c['regime']} | {c['remotes']} | {c['scenario']} | "
        mine = "–" if c["subject_overhead"] is None else f"{c['subject_overhead']:.3f}"
        if not c["best"]:
            cands = ", ".join(
                f"{k} {v:.3f}" for k, v in c["candidates"].items() if v is not None
            ) or "none"
            say(head + f"none at ≤ {cfg.subject}'s bytes ({cands}) | {mine} | – | – | – | – | – | – | – |")
            continue
        r = c["ratios"]
        say(
            head
            + f"{c['best']} ({c['best_overhead']:.3f}) | {mine} | "
            + " | ".join(fmt_ratio(r[m]) for m in RATIO_METRICS)
            + f" | {fmt_goal(c['goal'])} | {c['verdict'] or '–'} | "
            + f"{c['newest_verdict']} |"
        )
    say("")
    say("## Losses per damage scenario\n")
    for regime in cfg.regimes:
        for rc in cfg.remote_counts:
            rows = [r for r in summary["losses"] if (r["regime"], r["remotes"]) == (regime, rc)]
            if not rows:
                continue
            say(f"### {regime}, {rc} remotes\n")
            n_data = statistics.fmean(r["data_extents"] for r in rows)
            n_tree = statistics.fmean(r["tree_extents"] for r in rows)
            n_ext = statistics.fmean(r["extents"] for r in rows)
            n_snap = statistics.fmean(r["snapshots"] for r in rows)
            say(
                f"About {n_data:.0f} data and {n_tree:.0f} tree extents and {n_snap:.0f} "
                f"snapshots per history; the newest 10% are the last {math.ceil(0.1 * n_data)} "
                f"data extents; bursts span {burst_length(cfg, int(n_ext))} extents."
            )
            say("")
            say(
                "| remotes | scenario | layout | runs | lost data extents | of them newest 10% | "
                "lost tree extents | lost data KB | lost snapshots | restores per run | "
                "verify/restore disagreements |"
            )
            say("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
            for r in rows:
                say(
                    f"| {rc} | {r['scenario']} | {r['layout']} | {r['runs']} | "
                    f"{fmt_interval(r['lost_data_extents'])} | "
                    f"{fmt_interval(r['lost_data_extents_newest_10pct'])} | "
                    f"{fmt_interval(r['lost_tree_extents'])} | "
                    f"{fmt_interval(r['lost_data_bytes'], 1e3, 1)} | "
                    f"{fmt_interval(r['lost_snapshots'])} | {r['restored']['mean']:.1f} | "
                    f"{r['disagreements']} |"
                )
            say("")
    say("## Verify and restores\n")
    if disagreements:
        say(f"**VERIFY AND RESTORES DISAGREED in {len(disagreements)} run(s):**\n")
        for d in disagreements:
            say(
                f"* {d['regime']} seed {d['seed']} {d['remotes']} remotes {d['layout']} "
                f"{d['scenario']}: {'; '.join(d['what'])}"
            )
    else:
        say(
            "No disagreement: in every run where a restore failed or differed, verify (before "
            "repair, and with --read-data after it) had reported lost data."
        )
    inconsistent = meta["inconsistencies"]
    if inconsistent:
        say(f"\nOther inconsistencies ({len(inconsistent)} run(s)):\n")
        for d in inconsistent:
            say(
                f"* {d['regime']} seed {d['seed']} {d['remotes']} remotes {d['layout']} "
                f"{d['scenario']}: {'; '.join(d['what'])}"
            )
    if meta["notes"]:
        say(f"\nRuns where verify reported lost data but every snapshot restored identical: {meta['notes']}.")
    say("\n## Timings\n")
    tm = meta["timings"]
    say(
        f"Wall time {meta['duration_secs']:.0f} s; CPU time {tm['cpu_total']:.0f} s "
        f"({tm['cpu_children']:.0f} s in tangle, {tm['cpu_self']:.0f} s in the harness: "
        "source data, hashes, copies). Per history (one regime and seed, every remote count "
        f"and layout): built in {tm['build_mean']:.0f} s, checked in {tm['check_mean']:.0f} s "
        "(wall, mean). Per command (on a machine shared with other work the wall time "
        "includes waiting for a core; the CPU time is user + system of the process):"
    )
    say("")
    say("| command | calls | mean wall s | mean CPU s | total CPU s |")
    say("|---|---:|---:|---:|---:|")
    for k, (n, wall, cpu) in sorted(tm["commands"].items(), key=lambda kv: -kv[1][2]):
        say(f"| {k} | {n} | {wall / n:.3f} | {cpu / n:.3f} | {cpu:.0f} |")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    cfg, json_out = parse_args(argv)
    if cfg.report:
        return report_from_json(cfg)
    started = time.monotonic()
    version = subprocess.run([cfg.binary, "--version"], capture_output=True, text=True).stdout.strip()
    root = Path(tempfile.mkdtemp(prefix="tangle-durability-", dir=cfg.workdir))
    n_layouts = sum(len(cfg.layouts[rc]) for rc in cfg.remote_counts)
    log(
        f"{len(cfg.regimes)} regime(s) x {len(cfg.seeds)} seed(s) x {n_layouts} repositories "
        f"({', '.join(str(rc) for rc in cfg.remote_counts)} remotes) x {len(cfg.scenarios)} "
        f"scenario(s), {cfg.jobs} job(s), work in {root}"
    )
    jobs = [(regime, seed) for seed in cfg.seeds for regime in cfg.regimes]
    runs, stored, failures = [], [], []
    timings: dict = {}
    job_seconds: dict = {"build": [], "check": []}
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
                    add_timings(timings, res["timings"]["build"])
                    add_timings(timings, res["timings"]["check"])
                    job_seconds["build"].append(res["build_seconds"])
                    job_seconds["check"].append(res["seconds"] - res["build_seconds"])
    finally:
        if cfg.keep_work:
            log(f"work directory kept: {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    runs.sort(key=lambda r: (r["regime"], r["seed"], r["remotes"], r["scenario"], r["layout"]))
    summary = summarize(cfg, runs, stored)
    pick = lambda key: [  # noqa: E731
        {k: r[k] for k in ("regime", "seed", "remotes", "layout", "scenario")} | {"what": r[key]}
        for r in runs
        if r[key]
    ]
    disagreements = pick("disagreements")
    inconsistencies = pick("inconsistencies")
    notes = sum(1 for r in runs if r["notes"])
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_self = own.ru_utime + own.ru_stime
    cpu_children = children.ru_utime + children.ru_stime
    mean0 = lambda xs: statistics.fmean(xs) if xs else 0.0  # noqa: E731
    meta = {
        "binary": cfg.binary,
        "version": version,
        "duration_secs": time.monotonic() - started,
        "stored_raw": stored,
        "inconsistencies": inconsistencies,
        "notes": notes,
        "timings": {
            "cpu_self": cpu_self,
            "cpu_children": cpu_children,
            "cpu_total": cpu_self + cpu_children,
            "build_mean": mean0(job_seconds["build"]),
            "check_mean": mean0(job_seconds["check"]),
            "commands": timings,
        },
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
                "remotes": cfg.remote_counts,
                "layouts": {str(rc): [vars(x) for x in cfg.layouts[rc]] for rc in cfg.remote_counts},
                "subject": cfg.subject,
                "references": cfg.references,
                "scenarios": {s: SCENARIOS[s] for s in cfg.scenarios},
                "regimes": cfg.regimes,
                "extent_size": cfg.extent_size,
                "full_extents": cfg.full_extents,
                "dailies_a": cfg.dailies_a,
                "dailies_b": cfg.dailies_b,
                "burst_extents": cfg.burst_extents,
                "restores": cfg.restores,
                "restore_sample": cfg.restore_sample,
                "jobs": cfg.jobs,
                "binary_env": cfg.binary_env,
                "goals": GOALS,
                "newest_goal": NEWEST_GOAL,
                "bytes_tolerance": BYTES_TOLERANCE,
                "interval": "95% Student t over seeds; ratios: paired percentile bootstrap over seeds",
            },
            "duration_secs": meta["duration_secs"],
            "timings": {
                "job_build_seconds": job_seconds["build"],
                "job_check_seconds": job_seconds["check"],
                "cpu_self_seconds": cpu_self,
                "cpu_children_seconds": cpu_children,
                "commands": {
                    k: {"calls": n, "wall_seconds": w, "cpu_seconds": c}
                    for k, (n, w, c) in timings.items()
                },
            },
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
