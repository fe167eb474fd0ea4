#!/usr/bin/env python3
"""The report of scripts/bench-vs-restic.sh, from the samples file the runner writes.

    scripts/bench_report.py SAMPLES.tsv > report.md

The runner (bash) installs the tools, starts and stops the servers and proxies, times every
phase under /usr/bin/time and compares the restores; every thing it measures is one line of
$W/samples.tsv in its work directory (kept with --keep). This program reads that file and
prints the markdown report: the medians, min–max and paired per-round ratios against the
targets of issue 14, the storage, the restore verification and the notes. Standard library
only; scripts/test_bench_report.py tests it.

The samples file: one record a line, fields separated by tabs (the runner turns tabs and
newlines inside a field into spaces), the record's type first:

    setting  NAME VALUE                       the run's settings (the last value wins)
    kind     KIND LABEL                       a --remote-kinds configuration and its row's tool
    sample   TOOL PHASE ROUND WALL USER SYS RSS_KIB OTHER_CPU BYTES
                                              a phase that ran (exit 0): seconds, peak RSS in
                                              KiB, the machine's other CPU seconds meanwhile,
                                              the bytes for MB/s (may be empty)
    bytes    TOOL PHASE ROUND BYTES           the bytes for that sample's MB/s, known only after
                                              the phase (repair: bytes written)
    failed   TOOL PHASE ROUND EXIT            a phase that failed
    na       TOOL PHASE TEXT                  a phase that could not run ("n/a (...)")
    verified TOOL ROUND pass|fail [DETAIL]    a restore compared with the source
    metadata TOOL ROUND MODES MTIMES          entries whose mode / mtime differ (information)
    size     ROUND TOOL WHAT BYTES            storage used
    repair   ROUND BYTES_BEFORE WRITTEN READ SECONDS BYTES_AFTER
                                              tangle repair of remote 2
    links    LABEL PHASE SECONDS DOWN UP BUSY  bytes each link carried (DOWN, UP: one number a
                                              link, comma-separated) and the proxy's busy line
    speedup  OWN SHARED RESTIC VERIFY_OWN VERIFY_SHARED
                                              --links restore (and verify) seconds
    note     TEXT                             a note, as it is

Rows keep the order in which their tool and phase first appear; notes keep the file's order.
The numbers follow the runner's former awk code exactly: a median is the middle value or the
mean of the two middle ones, rounded to 6 decimals before it is printed with 2.
"""

import re
import sys
from collections import OrderedDict

A_READ = "read (cat)"
A_HASH = "hash (b3sum)"
A_COMPRESS = "compress (tar, zstd -3 -T0)"
A_WRITE = "write (tar -x)"

ANCHORS_NOTE = (
    "anchors: on the same tree, with their outputs in the work directory (the repositories' "
    "disk), each timed like a phase; read: `find TREE -type f -print0 | xargs -0 cat > /dev/null` "
    "(one file at a time); hash: the same with `b3sum`; both read the tree's files, whereas "
    "verify --read-data reads the repository's shards (1.75x the compressed data, in few large "
    "files), so those two ratios compare the work done, not like with like; compress: "
    "`tar -C TREE -cf - . | zstd -3 -T0 > W/anchor.tar.zst` (zstd on all cores); write: "
    "`tar -C W/anchor-x -xf W/anchor.tar`, from an uncompressed tar of the tree made once per "
    "run (not timed; read back from disk, as a restore reads its repository), without `sync`: "
    "tangle restore does not sync either, and the sync before the next phase's cache drop is "
    "not timed")

FIELDS = ("wall", "user", "sys", "rss", "others", "bytes")


# ---- numbers ---------------------------------------------------------------------------

def num(text):
    """A field as awk reads a number: its leading number, 0 if it has none."""
    m = re.match(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", text or "")
    return float(m.group(0)) if m else 0.0


def six(x):
    """x as the runner's awk passed it on: printed with 6 decimals, read back."""
    return float("%.6f" % x)


def stats(values):
    """(median, min, max, count) of the values given (strings or numbers; empty strings are
    skipped), each rounded to 6 decimals; None if there are none. The median of an even
    count is the mean of the two middle values."""
    a = sorted(num(v) if isinstance(v, str) else float(v)
               for v in values if not isinstance(v, str) or v.strip())
    n = len(a)
    if not n:
        return None
    med = a[(n - 1) // 2] if n % 2 else (a[n // 2 - 1] + a[n // 2]) / 2
    return six(med), six(a[0]), six(a[-1]), n


def f2(x):
    """Two decimals, "-" for no value."""
    return "-" if x is None or x == "" else "%.2f" % x


def mbps(nbytes, secs):
    """10^6 bytes per second with one decimal: "-" if either is not a plain number, "inf"
    for no time."""
    b, s = str(nbytes if nbytes is not None else ""), str(secs if secs is not None else "")
    if not re.fullmatch(r"[0-9.]+", b) or not re.fullmatch(r"[0-9.]+", s):
        return "-"
    if num(s) <= 0:
        return "inf"
    return "%.1f" % (num(b) / num(s) / 1e6)


def plain(x):
    """A number as the runner printed one with %.6f: for mbps()."""
    return None if x is None else "%.6f" % x


def met(value, target):
    """Whether value, rounded to 2 decimals as printed, is within target."""
    return "met" if float("%.2f" % value) <= num(target) else "NOT met"


def speedup(a, b):
    """b / a as "1.23x", "-" unless both are positive."""
    return "%.2fx" % (num(b) / num(a)) if num(a) > 0 and num(b) > 0 else "-"


# ---- the samples file ------------------------------------------------------------------

class Run:
    """Everything a samples file says."""

    def __init__(self):
        self.settings = {}
        self.kinds = []            # (kind, label)
        self.rows = OrderedDict()  # (tool, phase) -> note text ("" if none)
        self.ok_rounds = {}        # (tool, phase) -> rounds with a sample, in order
        self.samples = {}          # ((tool, phase), round) -> {field: text}
        self.verify = OrderedDict()  # tool -> {"pass": n, "fail": [texts], "meta": [texts]}
        self.sizes = []            # (tool, what, bytes) of round 1
        self.notes = []

    def setting(self, name, default=""):
        return self.settings.get(name, default)

    @property
    def rounds(self):
        return self.setting("rounds", "1")

    def in_round(self, rnd):
        return "" if self.rounds == "1" else " in round %s" % rnd

    def row(self, tool, phase):
        return self.rows.setdefault((tool, phase), "")

    def tool_verify(self, tool):
        return self.verify.setdefault(tool, {"pass": 0, "fail": [], "meta": []})

    # Reading -----------------------------------------------------------------------------
    def add(self, rec):
        kind, f = rec[0], rec[1:] + [""] * 10
        if kind == "setting":
            self.settings[f[0]] = f[1]
        elif kind == "kind":
            self.kinds.append((f[0], f[1]))
        elif kind == "sample":
            key, rnd = (f[0], f[1]), f[2]
            self.row(*key)
            self.ok_rounds.setdefault(key, []).append(rnd)
            self.samples[(key, rnd)] = dict(zip(FIELDS, f[3:9]))
        elif kind == "bytes":
            key = (f[0], f[1])
            if (key, f[2]) in self.samples:
                self.samples[(key, f[2])]["bytes"] = f[3]
        elif kind == "failed":
            key = (f[0], f[1])
            note = self.row(*key)
            text = "FAILED (exit %s)%s" % (f[3], self.in_round(f[2]))
            self.rows[key] = note + "; " + text if note else text
        elif kind == "na":
            self.row(f[0], f[1])
            self.rows[(f[0], f[1])] = f[2]
        elif kind == "verified":
            v = self.tool_verify(f[0])
            if f[2] == "pass":
                v["pass"] += 1
            else:
                v["fail"].append(("" if self.rounds == "1" else "round %s: " % f[1]) + f[3])
        elif kind == "metadata":
            v = self.tool_verify(f[0])
            m = "%s entries with another mode, %s with another mtime" % (f[2], f[3])
            if m not in v["meta"]:
                v["meta"].append(m)
        elif kind == "size":
            if f[0] == "1":
                self.sizes.append((f[1], f[2], f[3]))
        elif kind == "repair":
            if f[0] == "1":
                self.notes.append(
                    "tangle repair after `rm -rf` of remote 2 (%s bytes before)%s: wrote %s bytes, "
                    "read %s bytes in %s s; remote 2 now holds %s bytes"
                    % (f[1], "" if self.rounds == "1" else ", round 1", f[2] or "?", f[3] or "?",
                       f[4], f[5]))
        elif kind == "links":
            label, phase, secs, down, up, busy = f[:6]
            down_b = [num(b) for b in down.split(",") if b]
            up_b = [num(b) for b in up.split(",") if b]
            self.notes.append(
                "%s, %s: links carried %s MB down and %s MB up; %s MB/s down over the whole phase; "
                "0.25 s ticks with traffic, by links busy at once (over a tenth of the rate): %s"
                % (label, phase, " + ".join("%.1f" % (b / 1e6) for b in down_b),
                   " + ".join("%.1f" % (b / 1e6) for b in up_b), mbps("%d" % sum(down_b), secs), busy))
        elif kind == "speedup":
            own, shared, restic, vown, vshared = f[:5]
            self.notes.append(
                "restore speed-up of tangle over 3 own links (3x the bandwidth of one): %s against "
                "the same remotes behind 1 shared link, %s against restic over 1 link; for verify "
                "--read-data (the control): %s against 1 shared link"
                % (speedup(own, shared), speedup(own, restic), speedup(vown, vshared)))
        elif kind == "note":
            self.notes.append(f[0])
        else:
            raise ValueError("unknown record type %r" % kind)

    # Statistics ----------------------------------------------------------------------------
    def has(self, key):
        return bool(self.ok_rounds.get(key))

    def values(self, key, field):
        """One value a round with a sample (a round listed twice gives its value twice)."""
        return [self.samples[(key, r)][field] for r in self.ok_rounds.get(key, [])]

    def median(self, key, field):
        s = stats(self.values(key, field))
        return s[0] if s else None

    def paired(self, a, b, field):
        """stats() of A/B over the rounds in which both ran (rounds where B is 0 skipped)."""
        q = []
        for r in self.ok_rounds.get(a, []):
            if (b, r) not in self.samples:
                continue
            y = num(self.samples[(b, r)][field])
            if y > 0:
                q.append(six(num(self.samples[(a, r)][field]) / y))
        return stats(q)

    def spread(self, key):
        """max/min of the wall times, with 2 decimals; None with fewer than 2 samples."""
        s = stats(self.values(key, "wall"))
        if not s or s[3] < 2 or not s[1] > 0:
            return None
        return "%.2f" % (s[2] / s[1])

    def row_cells(self, key):
        """median s | min–max s | user s | sys s | other CPU s | MB/s | peak RSS MiB | rounds."""
        med, mn, mx, n = stats(self.values(key, "wall"))
        rng = "%s–%s" % (f2(mn), f2(mx)) if n > 1 else "-"
        b = stats(self.values(key, "bytes"))
        rss = self.median(key, "rss")
        return " | ".join([
            f2(med), rng, f2(self.median(key, "user")), f2(self.median(key, "sys")),
            f2(self.median(key, "others")), mbps(plain(b[0]), plain(med)) if b else "-",
            "%.1f" % ((rss or 0) / 1024), str(n)])

    def ratio_rows(self):
        """The rows of the ratio table: (label, median, min–max, rounds, target)."""
        rows = []

        def ratio_row(label, a, b, field, target):
            if not (self.has(a) and self.has(b)):
                return
            s = self.paired(a, b, field)
            if s is None:
                rows.append((label, "-", "-", "0", "-"))
                return
            med, mn, mx, n = s
            t = "-" if target is None else "≤ %s: %s" % (target, met(med, target))
            rows.append((label, f2(med), "%s–%s" % (f2(mn), f2(mx)) if n > 1 else "-", str(n), t))

        tr, tb = ("tangle", "restore"), ("tangle", "backup (initial)")
        tv, rb = ("tangle", "verify --read-data"), ("restic", "backup (initial)")
        ratio_row("tangle backup (initial) / anchor compress (tar, zstd -3 -T0)", tb,
                  ("anchor", A_COMPRESS), "wall", "1.4")
        ratio_row("tangle restore / anchor write (tar -x)", tr, ("anchor", A_WRITE), "wall", "1.15")
        ratio_row("tangle verify --read-data / anchor read (cat)", tv, ("anchor", A_READ), "wall", None)
        ratio_row("tangle verify --read-data / anchor hash (b3sum)", tv, ("anchor", A_HASH), "wall", None)
        # Issue 37's many-files tree (--many): at most half of restic's time in every
        # phase, and ahead of rustic in every phase.
        many = bool(self.setting("many", ""))
        tu = ("tangle", "backup (unchanged)")
        phases = ((tb, "backup (initial)"), (tu, "backup (unchanged)"), (tr, "restore"))
        for peer, target in (("restic", "0.5"), ("rustic", "0.99")):
            for key, phase in phases:
                ratio_row("tangle / %s: %s" % (peer, phase), key, (peer, phase), "wall",
                          target if many else None)
            if peer == "restic":
                ratio_row("tangle / restic: peak RSS, backup (initial)", tb, rb, "rss", "0.75")
                ratio_row("tangle / restic: system CPU, backup (initial)", tb, rb, "sys", "1.0")
            else:
                ratio_row("tangle / rustic: peak RSS, backup (initial)", tb,
                          ("rustic", "backup (initial)"), "rss", None)
        self.remote_ratios = False
        if self.has(tr):
            local = self.median(tr, "wall")
            cores = self.setting("cores", "1")
            for _, label in self.kinds:
                kk = (label, "restore")
                if not self.has(kk) or not local > 0:
                    continue
                m = six(self.median(kk, "wall") / local)
                counts = "%d, %d" % (len(self.ok_rounds[kk]), len(self.ok_rounds[tr]))
                rows.append(("%s restore / local restore (medians, not paired)" % label, f2(m), "-",
                             counts, "≤ 1.2: %s" % met(m, "1.2")))
                # The least this restore could take here: all the CPU the machine spent on it
                # (tangle's, the test servers', the kernel's) spread over every core.
                cpu = sum(self.median(kk, f) or 0 for f in ("user", "sys", "others"))
                floor = six(cpu / num(cores) / local)
                rows.append(("%s restore's CPU floor (all CPU used ÷ %s cores) / local restore"
                             % (label, cores), f2(floor), "-", counts,
                             "- (the least ratio this machine allows)"))
                self.remote_ratios = True
        return rows


def read(lines):
    """A Run from the lines of a samples file: the settings first (the runner writes them
    last), then every other record in the file's order."""
    records = [line.rstrip("\n").split("\t") for line in lines if line.strip("\n")]
    run = Run()
    for rec in records:
        if rec[0] == "setting":
            run.add(rec)
    for rec in records:
        if rec[0] != "setting":
            run.add(rec)
    return run


# ---- the report ------------------------------------------------------------------------

def report(run):
    """The markdown report, as a string ending in a newline."""
    s = run.setting
    rounds = run.rounds
    order = [o for o in s("order").split(",") if o]
    out = []
    w = out.append
    tree_bytes = s("tree_bytes", "0")
    w("## tangle vs restic")
    w("")
    w("- date: %s; host: %s cores, %.1f GiB RAM"
      % (s("date"), s("cores"), num(s("mem_kib")) / 1048576))
    w("- restic version: %s" % s("restic_version", "(not run)"))
    w("- rustic version: %s" % s("rustic_version", "(not run)"))
    w("- tangle --version: %s" % s("tangle_version", "(not run)"))
    w("- tree: %s: %s bytes (%.1f MiB), %s files, %s symlinks"
      % (s("tree"), tree_bytes, num(tree_bytes) / 1048576, s("tree_files"), s("tree_links")))
    w("- repositories under %s; same disk as the tree: %s" % (s("workdir"), s("same_disk")))
    w("- page cache dropped between phases: %s" % s("cache_note"))
    w("- restore targets: %s" % s("target_note"))
    if rounds == "1":
        w("- rounds: 1 (one run of every phase)")
    elif not order:
        w("- rounds: %s: one init and backup per remote kind, then %s restores; medians, min–max "
          "of the wall times" % (rounds, rounds))
    else:
        w("- rounds: %s, interleaved (each round: %s, with fresh repositories); medians over the "
          "rounds, min–max of the wall times%s"
          % (rounds, ", ".join(order), "" if not run.kinds else
             "; remote kinds: one init and backup each, then %s restores, after all local "
             "rounds" % rounds))
    if s("local") == "1":
        w("- tangle: 3 local remotes; restic, rustic: one local repository each (their default "
          "compression)")
    w("- tangle coding: %s" % (s("coding") or "init's default"))
    if s("servers_note"):
        w("- test servers: %s" % s("servers_note"))
    if s("links_note"):
        w("- links (--links): %s" % s("links_note"))
    w("- MB/s: 10^6 bytes per second; the tree's apparent size over the median wall time for "
      "backup, restore, read-data and anchor phases (for an unchanged re-backup: scan rate), "
      "bytes written for repair")
    w("- user s, sys s: CPU seconds in user space and in the kernel, summed over the command's "
      "processes (both ends of a pipe); other CPU s: what the rest of the machine spent meanwhile "
      "(test servers, kernel threads such as writeback and the loop device; from /proc/stat); "
      "peak RSS: the largest single process")
    w("")
    w("| tool | phase | median s | min–max s | user s | sys s | other CPU s | MB/s | peak RSS MiB | rounds |")
    w("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for key, note in run.rows.items():
        tool, phase = key
        if run.has(key):
            w("| %s | %s%s | %s |" % (tool, phase, " (%s)" % note if note else "", run.row_cells(key)))
        else:
            w("| %s | %s | %s | - | - | - | - | - | - | 0 |" % (tool, phase, note or "not run"))
    ratios = run.ratio_rows()
    if ratios:
        w("")
        w("| tangle's ratio | median | min–max | rounds | target (issue 14; with --many, issue 37) |")
        w("| --- | ---: | ---: | ---: | --- |")
        for r in ratios:
            w("| %s |" % " | ".join(r))
        w("")
        w("Ratios: each round's tangle phase over the same round's anchor or restic phase; the "
          "median and the min–max of those per-round ratios (wall time unless the row says "
          "otherwise).")
        tr, aw = ("tangle", "restore"), ("anchor", A_WRITE)
        if run.has(tr) and run.has(aw):
            st, sw = run.spread(tr), run.spread(aw)
            if st is not None and sw is not None:
                ok = "met" if float(st) <= float(sw) + 0.15 + 1e-9 else "NOT met"
                w("Restore steadiness, max/min of the wall times over the rounds: tangle restore %s, "
                  "tar -x %s (issue 14: tangle's at most tar -x's + 0.15: %s)." % (st, sw, ok))
            else:
                w("Restore steadiness (max/min over the rounds): needs --rounds 2 or more.")
        if run.remote_ratios and s("small") == "1":
            w("The remote/local restore ratios are from the small tree: its restores take a few "
              "seconds, within the noise; issue 14's 1.2x is for the full tree (--full).")
    if run.sizes:
        w("")
        w("| tool | storage after both backups%s | bytes | MiB |"
          % ("" if rounds == "1" or not order else " (round 1)"))
        w("| --- | --- | ---: | ---: |")
        for tool, what, nbytes in run.sizes:
            w("| %s | %s | %s | %.1f |" % (tool, what, nbytes, num(nbytes) / 1048576))
    w("")
    w("Restore verification:")
    w("")
    if not run.verify:
        w("- (no restore was verified)")
    for tool, v in run.verify.items():
        p, f = v["pass"], len(v["fail"])
        meta = "; ".join(v["meta"]) or "not compared"
        if f == 0:
            w("- %s: PASS%s: restored tree is byte-identical to the source (diff -r "
              "--no-dereference); metadata (informational): %s"
              % (tool, "" if p + f <= 1 else " (%d of %d restores)" % (p, p + f), meta))
        else:
            w("- %s: FAIL%s: %s; metadata (informational): %s"
              % (tool, "" if p + f <= 1 else " (%d of %d restores)" % (f, p + f),
                 "; ".join(v["fail"]), meta))
    notes = list(run.notes)
    if any(tool == "anchor" for tool, _ in run.rows):
        notes.append(ANCHORS_NOTE)
    notes += [n for n in (s("hash_skip"), s("compress_skip")) if n]
    if notes:
        w("")
        w("Notes:")
        w("")
        for n in notes:
            w("- %s" % n)
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    if argv[1] == "-":
        run = read(sys.stdin)
    else:
        with open(argv[1], encoding="utf-8") as f:
            run = read(f)
    sys.stdout.write(report(run))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
