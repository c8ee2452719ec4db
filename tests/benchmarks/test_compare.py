"""compare.py's pairs (benchmarks/compare.py): both checkouts' scripts run at once, each
side's figures and CPU its own, and each pair's change read from that pair."""

from __future__ import annotations

import textwrap
from pathlib import Path

import compare
import pytest

BUSY = textwrap.dedent(
    """
    import sys, time
    print("ran from", time.time())
    end = time.process_time() + float(sys.argv[1])
    while time.process_time() < end:
        pass
    print("ran to", time.time())
    print(f"  clock JSON   6,000 requests   {sys.argv[2]} ms")
    print(f"  the mix      8,034 requests   {sys.argv[3]} ms of CPU a request")
    """
)


def checkout(root: Path, name: str) -> Path:
    """A checkout with one script, benchmarks/bench_busy.py, and no .venv of its own (the
    running Python is used)."""
    tree = root / name
    (tree / "benchmarks").mkdir(parents=True)
    (tree / "benchmarks" / "bench_busy.py").write_text(BUSY)
    return tree


def test_both_sides_run_at_once_each_with_its_own_figures_and_cpu(tmp_path):
    trees = {"before": checkout(tmp_path, "before"), "after": checkout(tmp_path, "after")}
    ran = compare._run_both(
        {
            "before": (trees["before"], "bench_busy.py", ("0.6", "0.61", "1.30")),
            "after": (trees["after"], "bench_busy.py", ("0.3", "0.75", "1.42")),
        }
    )
    assert compare.mix(trees["before"], ran["before"]) == {
        "mix, one clock JSON, CPU ms": 0.61,
        "mix, a request over the mix, CPU ms": 1.30,
    }
    assert compare.mix(trees["after"], ran["after"])["mix, one clock JSON, CPU ms"] == 0.75
    # Each side's CPU is its own process's, not the two together.
    assert 0.55 < ran["before"][1] < 1.5 and 0.25 < ran["after"][1] < ran["before"][1]
    # At once: each started before the other ended.
    spans = {side: span(out) for side, (out, _) in ran.items()}
    assert spans["before"][0] < spans["after"][1] and spans["after"][0] < spans["before"][1]


def span(out: str) -> tuple[float, float]:
    times = dict(line.rsplit(" ", 1) for line in out.splitlines() if line.startswith("ran "))
    return float(times["ran from"]), float(times["ran to"])


def test_a_side_that_fails_stops_the_comparison_with_its_output(tmp_path):
    tree = checkout(tmp_path, "broken")
    (tree / "benchmarks" / "bench_busy.py").write_text("print('half'); raise SystemExit(3)")
    with pytest.raises(SystemExit, match="half"):
        compare._run_both({"before": (tree, "bench_busy.py", ())})


def test_each_pair_s_change_is_read_from_that_pair(monkeypatch, tmp_path):
    """Three rounds whose speed drifts by a half: each pair says +10%, and so does the
    median of the pairs, whatever the medians of each side say."""
    speeds = iter([1.0, 1.5, 0.8])

    def run_both(runs):
        speed = next(speeds)
        return {side: (f"{side} {speed}", 0.0) for side in runs}

    def read(tree: Path, ran: tuple[str, float]) -> dict[str, float]:
        side, speed = ran[0].split()
        return {"figure ms": float(speed) * (1.1 if side == "after" else 1.0)}

    monkeypatch.setattr(compare, "_run_both", run_both)
    monkeypatch.setattr(compare, "settle", lambda: 0.0)
    measure = compare.Measure(("bench_busy.py",), read, one_core=True)
    trees = {"before": tmp_path, "after": tmp_path}
    changes = []
    for _ in range(3):
        done = compare._measured(measure, trees, ["before", "after"], paired=True)
        before, after = done["before"][0]["figure ms"], done["after"][0]["figure ms"]
        changes.append(compare._change("figure ms", before, after))
    assert changes == pytest.approx([10.0, 10.0, 10.0])
