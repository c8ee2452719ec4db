"""A longer run of the API fuzz (tests/api/test_fuzz.py) than CI's: figures, not pass/fail.

Runs the schema-driven fuzz of every route with API_FUZZ_EXAMPLES (default here 200 per
route) on the test database and prints the examples sent, the routes, the answers by
status, the server errors and the time taken. A server error also fails the run.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import time
from collections import Counter

EXAMPLES = os.environ.get("API_FUZZ_EXAMPLES", "200")
LINE = re.compile(r"(GET|POST) (\S+): by status (\{[^}]*\})")


def main() -> int:
    started = time.monotonic()
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-s",
            "-p",
            "no:cacheprovider",
            "tests/api/test_fuzz.py::test_random_requests_never_fail_and_refusals_change_nothing",
        ],
        env=dict(os.environ, API_FUZZ_EXAMPLES=EXAMPLES),
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.monotonic() - started
    statuses: Counter = Counter()
    routes = 0
    for _method, _path, counts in LINE.findall(run.stdout):
        routes += 1
        statuses.update(ast.literal_eval(counts))
    failed = len(re.findall(r"^FAILED ", run.stdout, re.MULTILINE))
    server_errors = sum(n for status, n in statuses.items() if status >= 500) + failed
    print(f"examples per route asked: {EXAMPLES}")
    print(f"operations fuzzed:        {routes}")
    print(f"requests sent:            {sum(statuses.values())}")
    print(f"answers by status:        {dict(sorted(statuses.items()))}")
    print(f"server errors:            {server_errors}")
    print(f"seconds:                  {seconds:.1f}")
    if run.returncode:
        print(run.stdout[-4000:], run.stderr[-2000:], sep="\n")
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
