"""Bust-outs over whole tournaments: simulate_event at 1,000 and 10,000 players.

Run from the project root: python benchmarks/bench_results.py [--sizes 1000 10000] [--seed 1]

Each size plays a tournament from registration to the winner through the real services
(bust-outs with balancing and table breaks, hand-for-hand at the bubble, the final table,
heads-up), checking the invariants after every step, on a fresh database of its own
(BENCH_DATABASE_URL to use PostgreSQL). Figures, not pass/fail: the time and queries of
one bust-out (the balancing included), and the whole run.
"""

from __future__ import annotations

import argparse
import json

from _setup import bench_env, django_setup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the full summaries")
    args = parser.parse_args()
    env = bench_env("bench-results")
    django_setup(env)
    from tdsystem.simulation.event import Simulation

    print(f"database: {env['DATABASE_URL'].split('://')[0]}")
    header = (
        f"{'players':>8} {'bust-outs':>9} {'moves':>6} {'broken':>6} {'hfh':>4} "
        f"{'ms med':>7} {'ms p95':>7} {'q med':>6} {'q p95':>6} {'q max':>6} {'total s':>8}"
    )
    print(header)
    medians, totals = {}, {}
    for size in args.sizes:
        s = Simulation(players=size, seed=args.seed).run()
        medians[size], totals[size] = s["bustout_ms"]["median"], s["total_seconds"]
        ms, q = s["bustout_ms"], s["bustout_queries"]
        print(
            f"{size:>8} {s['bustouts']:>9} {s['moves']:>6} {s['tables_broken']:>6} "
            f"{s['hand_for_hand_hands']:>4} {ms['median']:>7} {ms['p95']:>7} "
            f"{q['median']:>6} {q['p95']:>6} {q['max']:>6} {s['total_seconds']:>8}",
            flush=True,
        )
        if args.json:
            print(json.dumps(s, indent=2))
    small, large = min(medians), max(medians)
    if small != large and medians[small]:
        # The issue "Festivals": the median at 10,000 within 1.3 times that at 1,000.
        print(
            f"median bust-out at {large:,} / at {small:,}: "
            f"{medians[large] / medians[small]:.2f}x (target 1.3x)"
        )
    if 10000 in totals:
        print(f"10,000-player run: {totals[10000]:.0f} s (target under 180 s on SQLite)")


if __name__ == "__main__":
    main()
