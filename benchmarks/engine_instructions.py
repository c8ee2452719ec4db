"""Instructions a hand for ``adjudicate`` and for pokerkit, counted with callgrind.

    python benchmarks/engine_instructions.py [--hands 400] [--seed 7] [--engine-only]

Needs valgrind. Wall-clock figures on a shared machine move by half between runs; the
instructions counted do not. The hands are bench_engine.py's (the first ``--hands`` that
pokerkit accepts), saved as JSON; each side runs under ``valgrind --tool=callgrind`` twice,
once replaying the hands and once only reading them, and the difference divided by the
hands is its count a hand. Figures, not a pass/fail; it takes a few minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def _child(side: str, run: bool, path: str) -> None:
    import bench_engine  # both sides load pokerkit, so its import cancels out

    from tdsystem.engine.ruling import adjudicate
    from tdsystem.engine.spec import parse_hand

    dicts = json.loads(Path(path).read_text())
    if side == "engine":
        if run:
            for hand in dicts:
                adjudicate(hand)
    else:
        specs = [parse_hand(hand) for hand in dicts]
        if run:
            for spec in specs:
                bench_engine.pokerkit_replay(spec)


def _count(side: str, run: bool, path: str) -> int:
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--child",
        side,
        "run" if run else "read",
        path,
    ]
    # One hash seed for every run: sets and dicts laid out alike from run to run.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    return int(re.search(r"Collected : (\d+)", done.stderr).group(1))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--engine-only", action="store_true")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        side, run, path = args.child
        _child(side, run == "run", path)
        return
    import bench_engine

    rng = random.Random(args.seed)
    hands = []
    while len(hands) < args.hands:
        spec = bench_engine.random_hand(rng)
        try:
            bench_engine.pokerkit_replay(spec)
        except ValueError:
            continue  # as the benchmark: a hand pokerkit reads differently is left out
        hands.append(bench_engine.as_dict(spec))
    with tempfile.NamedTemporaryFile("w", suffix=".json") as file:
        json.dump(hands, file)
        file.flush()
        counts = {}
        for side in ("engine",) if args.engine_only else ("engine", "pokerkit"):
            total = _count(side, True, file.name) - _count(side, False, file.name)
            counts[side] = total // args.hands
            print(f"{side}: {counts[side]:,} instructions a hand")
    if "pokerkit" in counts:
        print(f"ratio: {counts['pokerkit'] / counts['engine']:.1f}x")


if __name__ == "__main__":
    main()
