"""Run every benchmark in this folder and print its figures (make bench).

Each bench_*.py is a script that prints its own figures; this runner runs them one after
another with the project's Python and reports any that failed, without stopping the rest.
Set BENCH=name1,name2 to run only some (e.g. BENCH=engine,clock).

`--soak` runs the festival-day soak instead (benchmarks/soak.py: two web nodes, workers,
beat, PostgreSQL and Redis of its own, faults on a schedule), for `--minutes` (15); any
other option is passed on to it (`--scale 0.1`, `--entries 1500`...). It is not a
bench_*.py script, so the plain run never starts it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    if "--soak" in argv:
        rest = [a for a in argv if a != "--soak"]
        soak = [sys.executable, str(HERE / "soak.py"), *rest]
        return subprocess.run(soak, cwd=HERE.parent, check=False).returncode
    only = {n.strip() for n in os.environ.get("BENCH", "").split(",") if n.strip()}
    scripts = sorted(HERE.glob("bench_*.py"))
    if only:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in only]
    failed = []
    for script in scripts:
        print(f"\n=== {script.stem.removeprefix('bench_')} ({script.name}) ===", flush=True)
        started = time.monotonic()
        result = subprocess.run([sys.executable, str(script)], cwd=HERE.parent, check=False)
        print(f"--- {script.name}: {time.monotonic() - started:.1f} s", flush=True)
        if result.returncode:
            failed.append(script.name)
    if failed:
        print(f"\nFailed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
