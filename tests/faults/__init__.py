"""Fault tests: parts of the system killed and restarted while it runs.

The clock JSON is checked against the timeline a test expects: at the server time each
answer names, the level shown and its end must be the ones the stored start (or the last
director action) implies, whatever the worker or the broker is doing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timedelta


def expected_level(
    anchor_index: int, anchor_ends: datetime, durations: list[int], at: datetime
) -> tuple[int, datetime]:
    """The level running at `at` and its end, given that level `anchor_index` ends at
    `anchor_ends` and the clock runs on from there."""
    index, ends = anchor_index, anchor_ends
    while at >= ends and index + 1 < len(durations):
        index += 1
        ends += timedelta(seconds=durations[index])
    return index, ends


def watch_clock(
    fetch: Callable[[], dict],
    *,
    anchor: tuple[int, datetime],
    durations: list[int],
    until: datetime,
    every: float = 0.2,
) -> list[tuple[datetime, int]]:
    """Poll the clock JSON until `until`; assert each answer is right; (time, level) seen."""
    seen = []
    while True:
        body = fetch()
        at = datetime.fromisoformat(body["server_time"])
        index, ends = expected_level(*anchor, durations, at)
        assert body["status"] == "running", body
        assert body["level_index"] == index, (at, body["level_index"], index)
        assert datetime.fromisoformat(body["level_ends_at"]) == ends, (at, body, ends)
        seen.append((at, index))
        if at >= until:
            return seen
        time.sleep(every)
