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
- clock: the clock JSON's throughput as a ratio of a constant JSON view's (bench_clock.py).
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


def _run(tree: Path, script: str, *args: str) -> tuple[str, float]:
    """What the script printed, and the CPU seconds it and its children took (a figure a
    machine busy with other work changes less than the time on the clock)."""
    python = tree / ".venv" / "bin" / "python"
    cmd = [str(python if python.exists() else sys.executable), f"benchmarks/{script}", *args]
    before = _cpu()
    done = subprocess.run(cmd, cwd=tree, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{tree}: {' '.join(cmd[1:])} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout, _cpu() - before


def results(tree: Path, size: int) -> Figures:
    out, cpu = _run(tree, "bench_results.py", "--sizes", str(size), "--json")
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


def load(tree: Path, scenario: str = "festival") -> Figures:
    out, _ = _run(tree, "bench_load.py", "--seconds", "60", "--scenario", scenario)
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


def clock(tree: Path) -> Figures:
    out, _ = _run(tree, "bench_clock.py")
    match = re.search(r"clock JSON throughput = ([\d.]+) x", out)
    if match is None:
        raise SystemExit(f"{tree}: bench_clock.py printed no ratio:\n{out}")
    return {"clock JSON / constant view (ratio)": float(match[1])}


MEASURES: dict[str, list[Callable[[Path], Figures]]] = {
    "results": [lambda t: results(t, 1000), lambda t: results(t, 10000)],
    "load": [load],
    "floor": [lambda t: load(t, "floor")],
    "clock": [clock],
}
HIGHER_IS_BETTER = {"clock JSON / constant view (ratio)"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the checkout to compare with")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--only", default=",".join(MEASURES), help="results,load,floor,clock")
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": ROOT}
    chosen = [m for name in args.only.split(",") for m in MEASURES[name.strip()]]
    seen: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    for number in range(args.rounds):
        order = ["before", "after"] if number % 2 == 0 else ["after", "before"]
        for measure in chosen:
            for side in order:
                waited = settle()
                started = time.monotonic()
                figures = measure(trees[side])
                took = time.monotonic() - started
                shown = ", ".join(f"{k} {v:g}" for k, v in figures.items())
                print(
                    f"round {number + 1} {side:6s} ({took:.0f} s, settled in {waited:.0f} s):"
                    f" {shown}",
                    flush=True,
                )
                for key, value in figures.items():
                    seen[side].setdefault(key, []).append(value)
    print(f"\n{'figure':44s} {'before':>9s} {'after':>9s} {'change':>8s}")
    for key, values in seen["after"].items():
        before = statistics.median(seen["before"].get(key, [float("nan")]))
        after = statistics.median(values)
        change = (after - before) / before * 100 if before else float("nan")
        if key in HIGHER_IS_BETTER:
            change = -change
        print(f"{key:44s} {before:9.2f} {after:9.2f} {change:+7.1f}%")
    print("(change: + is worse: slower, or a lower throughput ratio)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
