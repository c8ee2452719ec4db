"""This checkout's figures against another checkout's, measured in one run, in turns.

Run from the project root, with a checkout of the code to compare with (a git worktree of
an earlier commit, its own .venv or this one's):

    git worktree add /tmp/before <commit> && ln -s "$PWD/.venv" /tmp/before/.venv
    python benchmarks/compare.py --before /tmp/before [--rounds 2] [--only results,load,clock]

Each figure is measured by the same benchmark script of each checkout (its own code, its
own fresh database), the two taking turns ("before" then "after", then the other way
round in the next round), so a machine shared with other work slows both alike. Before
each run the machine settles: what the last run wrote is flushed to disk and the run
waits (up to a minute) for two seconds in which the cores are at least 90% idle, so the
second of a pair does not pay for the first one's writes and leftover work. Printed:
each run's figures, then per figure the median over the rounds, before and after, and
the change (+ is slower, or a lower throughput ratio):

- results: one bust-out's median and p95 (ms) over whole tournaments of 1,000 and of
  10,000 players (bench_results.py, simulate_event's path through the services), and the
  CPU seconds of the whole tournament;
- load: the busy minute (bench_load.py's festival scenario): the bust-out endpoint's and
  the clock poll's p50 and p99 (ms) over HTTP; floor: the same figures of the smaller
  floor scenario, which a two-core machine serves without a queue (the busy minute's
  latencies there are mostly the queue's); with each, one request's CPU of the clock JSON,
  the seat lookup and the seats JSON measured alone, and the server's over the run's mix;
- clock: the clock JSON's throughput as a ratio of a constant JSON view's (bench_clock.py);
- mix: the busy minute's requests and bust-outs in one process, without HTTP or a queue:
  one request's CPU of each kind among the others, and over the mix (bench_mix.py; to
  compare with a checkout older than it, copy it into that checkout's benchmarks/);
- instructions: the same mix's instructions a request, counted by callgrind (bench_mix.py
  --instructions; needs valgrind, takes minutes): a figure the machine's speed and load
  do not move, where the others move by a fifth between runs of the same code.

With --paired, the measures that run in one process on one core (results, clock, mix) run both
checkouts at once, one on each core, instead of in turns: a machine whose speed drifts by
a fifth from one minute to the next (a shared virtual machine) then slows both alike, and
each round's change is read from its own pair. The busy minute (load, floor) needs both
cores and always runs in turns. Printed then: each figure's change in each pair, and the
median of those changes.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
Figures = dict[str, float]


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _busy() -> tuple[int, int]:
    """The machine's busy and total CPU ticks so far (/proc/stat), or zeros elsewhere."""
    try:
        with open("/proc/stat") as f:
            ticks = [int(v) for v in f.readline().split()[1:8]]
    except OSError:
        return 0, 0
    return sum(ticks) - ticks[3] - ticks[4], sum(ticks)


def settle(idle: float = 0.9, window: float = 2.0, patience: float = 60.0) -> float:
    """Flush the page cache and wait for a quiet window; the seconds it took."""
    started = time.monotonic()
    os.sync()
    while time.monotonic() - started < patience:
        busy, total = _busy()
        time.sleep(window)
        busy_after, total_after = _busy()
        if total_after == total or (busy_after - busy) / (total_after - total) <= 1 - idle:
            break
    return time.monotonic() - started


def _command(tree: Path, script: str, *args: str) -> list[str]:
    python = tree / ".venv" / "bin" / "python"
    return [str(python if python.exists() else sys.executable), f"benchmarks/{script}", *args]


def _run_both(runs: dict[str, tuple[Path, str, tuple[str, ...]]]) -> dict[str, tuple[str, float]]:
    """Each side's script, all at once: what it printed, and the CPU seconds it and its
    children took, read from its own exit (os.wait4); a figure a machine busy with other
    work changes less than the time on the clock."""
    procs = {}
    for side, (tree, script, args) in runs.items():
        procs[side] = subprocess.Popen(
            _command(tree, script, *args),
            cwd=tree,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    out = {}
    for side, proc in procs.items():
        stdout, stderr = proc.stdout.read(), proc.stderr.read()  # type: ignore[union-attr]
        _, status, used = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            raise SystemExit(
                f"{runs[side][0]}: {' '.join(proc.args[1:])} failed:\n{stdout}\n{stderr}"
            )
        out[side] = (stdout, used.ru_utime + used.ru_stime)
    return out


def results(tree: Path, ran: tuple[str, float], size: int) -> Figures:
    out, cpu = ran
    summary = json.loads(out[out.index("\n{") + 1 : out.rindex("}") + 1])
    ms = summary["bustout_ms"]
    return {
        f"bust-out {size:,} median ms": ms["median"],
        f"bust-out {size:,} p95 ms": ms["p95"],
        f"tournament {size:,} CPU s": cpu,
    }


ROW = re.compile(r"^(?P<name>\S.*?)\s+(\d+)\s+([\d.]+)\s+(?P<p50>[\d.]+)\s+(?P<p99>[\d.]+)\s+")
# One request's CPU in the benchmark's own process (Django's test client, before the run),
# and the server's over the run's mix: figures a queue does not lengthen.
COST = re.compile(r"^  (?P<name>clock JSON|seat lookup page|seats JSON)\s+(?P<ms>[\d.]+) ms of CPU")
MIX = re.compile(r"the server (?P<ms>[\d.]+) ms of CPU a request over the mix")


def load(tree: Path, ran: tuple[str, float], scenario: str) -> Figures:
    out, _ = ran
    minute = "busy minute" if scenario == "festival" else f"{scenario} minute"
    figures = {}
    for line in out.splitlines():
        match = ROW.match(line)
        if match and match["name"] in ("bust-out POST", "clock JSON", "total"):
            name = match["name"]
            figures[f"{minute} {name} p50 ms"] = float(match["p50"])
            figures[f"{minute} {name} p99 ms"] = float(match["p99"])
        if cost := COST.match(line):
            figures[f"{minute} {cost['name']} CPU ms (alone)"] = float(cost["ms"])
        if mix := MIX.search(line):
            figures[f"{minute} server CPU ms a request (mix)"] = float(mix["ms"])
    if not figures:
        raise SystemExit(f"{tree}: bench_load.py printed no endpoint rows:\n{out}")
    return figures


MIX_ROW = re.compile(r"^  (?P<name>\S.*?)\s+[\d,]+ requests\s+(?P<ms>[\d.]+) ms")


def mix(tree: Path, ran: tuple[str, float]) -> Figures:
    out, _ = ran
    figures = {
        f"mix, one {row['name']}, CPU ms"
        if row["name"] != "the mix"
        else "mix, a request over the mix, CPU ms": float(row["ms"])
        for row in map(MIX_ROW.match, out.splitlines())
        if row
    }
    if not figures:
        raise SystemExit(f"{tree}: bench_mix.py printed no rows:\n{out}")
    return figures


def instructions(tree: Path, ran: tuple[str, float]) -> Figures:
    out, _ = ran
    match = re.search(r"([\d.]+) M instructions a request", out)
    if match is None:
        raise SystemExit(f"{tree}: bench_mix.py --instructions printed no count:\n{out}")
    return {"mix, a request, M instructions": float(match[1])}


def clock(tree: Path, ran: tuple[str, float]) -> Figures:
    out, _ = ran
    match = re.search(r"clock JSON throughput = ([\d.]+) x", out)
    if match is None:
        raise SystemExit(f"{tree}: bench_clock.py printed no ratio:\n{out}")
    return {"clock JSON / constant view (ratio)": float(match[1])}


@dataclass(frozen=True)
class Measure:
    """A benchmark script with its arguments, and how its figures are read from what it
    printed. `one_core`: it runs in one process on one core, so both sides may run at
    once (--paired)."""

    script: tuple[str, ...]
    read: Callable[[Path, tuple[str, float]], Figures]
    one_core: bool = False


def _results(size: int) -> Measure:
    script = ("bench_results.py", "--sizes", str(size), "--json")
    return Measure(script, lambda t, ran: results(t, ran, size), one_core=True)


def _load(scenario: str) -> Measure:
    script = ("bench_load.py", "--seconds", "60", "--scenario", scenario)
    return Measure(script, lambda t, ran: load(t, ran, scenario))


MEASURES: dict[str, list[Measure]] = {
    "results": [_results(1000), _results(10000)],
    "load": [_load("festival")],
    "floor": [_load("floor")],
    "clock": [Measure(("bench_clock.py",), clock, one_core=True)],
    "mix": [Measure(("bench_mix.py",), mix, one_core=True)],
    # Counted, not timed: both sides may run at once whatever else the machine does.
    "instructions": [
        Measure(("bench_mix.py", "--instructions", "--seconds", "6"), instructions, one_core=True)
    ],
}
HIGHER_IS_BETTER = {"clock JSON / constant view (ratio)"}


def _change(key: str, before: float, after: float) -> float:
    change = (after - before) / before * 100 if before else float("nan")
    return -change if key in HIGHER_IS_BETTER else change


def _measured(
    measure: Measure, trees: dict[str, Path], order: list[str], paired: bool
) -> dict[str, tuple[Figures, float, float]]:
    """Each side's figures, the seconds the run took and the seconds it waited to settle:
    both sides at once when paired and the measure allows it, else one after the other."""
    at_once = [order] if paired and measure.one_core else [[side] for side in order]
    done = {}
    for sides in at_once:
        waited = settle()
        started = time.monotonic()
        script, *args = measure.script
        ran = _run_both({side: (trees[side], script, tuple(args)) for side in sides})
        took = time.monotonic() - started
        for side in sides:
            done[side] = (measure.read(trees[side], ran[side]), took, waited)
    return done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the checkout to compare with")
    parser.add_argument("--rounds", type=int, default=1)
    # instructions only when asked: it needs valgrind.
    default = ",".join(name for name in MEASURES if name != "instructions")
    parser.add_argument("--only", default=default, help=",".join(MEASURES))
    parser.add_argument(
        "--paired", action="store_true", help="run results, clock and mix of both sides at once"
    )
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": ROOT}
    chosen = [m for name in args.only.split(",") for m in MEASURES[name.strip()]]
    seen: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    pairs: dict[str, list[float]] = {}  # each pair's change, for the measures run at once
    for number in range(args.rounds):
        order = ["before", "after"] if number % 2 == 0 else ["after", "before"]
        for measure in chosen:
            done = _measured(measure, trees, order, args.paired)
            for side, (figures, took, waited) in done.items():
                shown = ", ".join(f"{k} {v:g}" for k, v in figures.items())
                at_once = " at once" if args.paired and measure.one_core else ""
                print(
                    f"round {number + 1} {side:6s} ({took:.0f} s{at_once}, settled in "
                    f"{waited:.0f} s): {shown}",
                    flush=True,
                )
                for key, value in figures.items():
                    seen[side].setdefault(key, []).append(value)
            if args.paired and measure.one_core:
                for key, value in done["after"][0].items():
                    before = done["before"][0].get(key, float("nan"))
                    pairs.setdefault(key, []).append(_change(key, before, value))
    print(f"\n{'figure':44s} {'before':>9s} {'after':>9s} {'change':>8s} {'pairs':>8s}")
    for key, values in seen["after"].items():
        before = statistics.median(seen["before"].get(key, [float("nan")]))
        after = statistics.median(values)
        paired = f"{statistics.median(pairs[key]):+7.1f}%" if key in pairs else ""
        print(
            f"{key:44s} {before:9.2f} {after:9.2f} "
            f"{_change(key, before, after):+7.1f}% {paired:>8s}"
        )
    print(
        "(change: + is worse: slower, or a lower throughput ratio; pairs: the median of each "
        "pair's change, for the measures run at once)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
