"""Seating engine timings: the seat draw and the planning after each bust-out.

Run from the project root: python benchmarks/bench_seating.py [--eliminations N]
Figures, not pass/fail: the budget is well under a second for a 10,000-entry draw and
well under 5 ms for one plan_after_elimination at 1,112 tables.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tdsystem.engine.seating import Table, initial_draw, plan_after_elimination

SEATS = 9


def empty_tables(entries: int) -> list[Table]:
    return [Table(number, SEATS) for number in range(1, -(-entries // SEATS) + 1)]


def time_draw(entries: int, runs: int) -> list[float]:
    timings = []
    for run in range(runs):
        tables = empty_tables(entries)
        started = time.perf_counter()
        initial_draw(tables, range(entries), random.Random(run))
        timings.append(time.perf_counter() - started)
    return timings


def time_eliminations(entries: int, eliminations: int) -> tuple[list[float], int, int]:
    """Bust random players one at a time, planning and applying after each."""
    rng = random.Random(1)
    tables = list(initial_draw(empty_tables(entries), range(entries), rng).tables)
    break_order = [table.number for table in reversed(tables)]
    timings, breaks, moves = [], 0, 0
    for _ in range(eliminations):
        index = rng.randrange(len(tables))
        while not tables[index].occupants:
            index = rng.randrange(len(tables))
        table = tables[index]
        tables[index] = table.without_entry(rng.choice(table.entries))
        started = time.perf_counter()
        plan = plan_after_elimination(tables, break_order=break_order, rng=rng)
        timings.append(time.perf_counter() - started)
        breaks += len(plan.broken)
        moves += len(plan.moves)
        tables = list(plan.tables)
    return timings, breaks, moves


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--eliminations", type=int, default=2000)
    args = parser.parse_args()

    for entries in (1_000, 10_000):
        timings = time_draw(entries, runs=5)
        print(
            f"initial_draw {entries:>6,} entries ({-(-entries // SEATS):,} tables of {SEATS}): "
            f"median {ms(statistics.median(timings))}, max {ms(max(timings))} (5 runs)"
        )

    timings, breaks, moves = time_eliminations(10_000, args.eliminations)
    timings.sort()
    print(
        f"plan_after_elimination from 10,000 entries, {len(timings):,} bust-outs "
        f"({breaks} breaks, {moves:,} moves): median {ms(statistics.median(timings))}, "
        f"p95 {ms(timings[int(len(timings) * 0.95)])}, max {ms(timings[-1])}"
    )


if __name__ == "__main__":
    main()
