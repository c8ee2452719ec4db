"""The soak's schedule and checks (benchmarks/soak_checks.py) on small made-up runs: what
the soak reports as held or failed is what happened."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from soak_checks import (
    Fault,
    LevelChange,
    figures,
    level_check,
    schedule,
    write_check,
)
from soak_http import Answer


@dataclass
class W:
    path: str
    body: dict
    key: str
    status: int = 201
    tries: int = 1
    replayed: bool = False
    answer: dict = field(default_factory=dict)


def test_it_spreads_the_faults_over_a_full_run_without_overlap():
    faults = schedule(900, level_seconds=90)
    assert [f.name.split()[0] for f in faults] == ["kill", "kill", "kill", "Redis", "PostgreSQL"]
    assert faults[0].at == 90 and faults[-1].at <= 0.8 * 900
    for one, next_one in itertools.pairwise(faults):
        assert one.at + one.down + 30 < next_one.at  # a quiet spell between two faults
    beat = next(f for f in faults if "beat" in f.name)
    assert beat.down > 90  # a level ends while the ticker is gone


def test_it_injects_only_the_faults_asked_for():
    assert schedule(180, level_seconds=30, faults=()) == []
    (beat,) = schedule(180, level_seconds=90, faults=("beat",))
    assert beat.at == 18 and beat.down == 135


def test_it_counts_errors_inside_and_outside_the_windows_apart():
    window = Fault("Redis down", at=10, down=30, start=10, end=50)
    answers = [
        Answer(at=5, ms=3, status=200, size=100),
        Answer(at=12, ms=4, status=503, size=50),
        Answer(at=20, ms=4000, status=0, size=0),
        Answer(at=60, ms=5, status=500, size=50),
        Answer(at=61, ms=2, status=304, size=20),
        Answer(at=62, ms=2, status=404, size=20),
    ]
    got = figures("clock JSON", answers, [window])
    assert got.requests == 5  # the answer that never came is no request served
    assert (got.server_errors_inside, got.server_errors_outside) == (1, 1)
    assert (got.no_answer_inside, got.no_answer_outside) == (1, 0)
    assert (got.not_modified, got.other_errors) == (1, 1)
    assert got.bytes_per_answer == 48.0


def test_an_answer_in_flight_when_the_fault_came_is_the_faults():
    restart = Fault("PostgreSQL restart", at=24, down=0, start=24, end=34.4)
    answers = [
        Answer(at=23.95, ms=80, status=503, size=50),  # asked before, answered in it
        Answer(at=23.5, ms=300, status=500, size=50),  # answered before it came
        Answer(at=34.5, ms=5, status=503, size=50),  # asked after it
    ]
    got = figures("clock JSON", answers, [restart])
    assert (got.server_errors_inside, got.server_errors_outside) == (1, 2)
    assert got.outside == [(23.5, 300.0, 500), (34.5, 5.0, 503)]


def test_it_finds_level_changes_doubled_missing_and_late():
    beat = Fault("kill -9 beat", at=100, down=135, start=100, end=245)
    changes = [
        LevelChange(to=1, scheduled=90, stored=90.2, late_ms=150),
        LevelChange(to=2, scheduled=180, stored=215, late_ms=35000),
        LevelChange(to=2, scheduled=180, stored=216, late_ms=36000),
        LevelChange(to=4, scheduled=360, stored=360.1, late_ms=100),
    ]
    got = level_check(changes, first=0, last=4, faults=[beat])
    assert got.doubled == [2] and got.missing == [3]
    assert [(late["to"], late["during"]) for late in got.late] == [
        (2, ["kill -9 beat"]),
        (2, ["kill -9 beat"]),
    ]
    assert not got.ok
    on_time = level_check(changes[:2][:1], first=0, last=1, faults=[])
    assert on_time.ok


def test_it_holds_each_acknowledged_write_to_one_record_and_its_key():
    writes = [
        W("/bustouts", {"entries": [1]}, "a"),
        W("/bustouts", {"entries": [2]}, "b", tries=3, replayed=True),
        W("/bustouts", {"entries": [3]}, "c"),
        W("/bustouts", {"entries": [4]}, "d"),
        W("/bustouts", {"entries": [5]}, "e", status=0, tries=9),  # given up
        W("/moves/7/ack", {}, "f", status=409, answer={"error": "no"}),
    ]
    got = write_check(writes, {"a": 1, "b": 1, "c": 0, "d": 2, "e": 1}, kept={"a", "b", "c"})
    assert got.acknowledged == 4 and got.retried == 2 and got.replayed == 1
    assert got.missing == ["/bustouts {'entries': [3]}"]
    assert got.doubled == ["/bustouts {'entries': [4]}: 2 records"]
    assert got.keys_missing == ["/bustouts {'entries': [4]}: key d"]
    assert got.gave_up == 1 and got.unacknowledged_but_stored == 1
    assert len(got.refused) == 1
    assert not got.ok
    assert write_check(writes[:2], {"a": 1, "b": 1}, kept={"a", "b"}).ok
