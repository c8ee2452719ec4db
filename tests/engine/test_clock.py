"""The level clock's pure rules: every control and edge, with time passed in."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tdsystem.engine import clock as c

T0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
DUR = [600, 600, 300, 600]  # level, level, break, level (seconds)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def started() -> c.ClockState:
    return c.start(c.initial(DUR), DUR, T0)


def test_it_starts_with_the_full_first_level():
    s = started()
    assert s.status == c.RUNNING and s.level_index == 0
    assert s.ends_at == at(600)
    assert c.remaining_ms(s, at(10)) == 590_000
    assert s.version == 1


def test_it_refuses_to_start_twice():
    with pytest.raises(c.ClockError, match="already"):
        c.start(started(), DUR, at(1))


def test_it_pauses_and_resumes_keeping_the_time_left():
    s = c.pause(started(), DUR, at(100))
    assert s.status == c.PAUSED and s.remaining_ms == 500_000 and s.ends_at is None
    assert c.remaining_ms(s, at(10_000)) == 500_000
    r = c.resume(s, DUR, at(1000))
    assert r.ends_at == at(1500)


def test_it_settles_every_missed_level_at_its_scheduled_time():
    s, transitions = c.settle(started(), DUR, at(1600))
    assert [t.to_index for t in transitions] == [1, 2, 3]
    assert [t.at for t in transitions] == [at(600), at(1200), at(1500)]
    assert s.level_index == 3 and s.ends_at == at(2100)
    assert s.version == 2  # one write, however many levels it caught up


def test_settling_twice_changes_nothing():
    s, _ = c.settle(started(), DUR, at(700))
    again, transitions = c.settle(s, DUR, at(700))
    assert transitions == [] and again == s


def test_it_stops_at_zero_when_the_last_level_runs_out():
    s, transitions = c.settle(started(), DUR, at(5000))
    assert transitions[-1].to_index is None and transitions[-1].at == at(2100)
    assert s.status == c.PAUSED and s.remaining_ms == 0 and s.level_index == 3
    with pytest.raises(c.ClockError, match="no time is left"):
        c.resume(s, DUR, at(5001))


def test_pause_during_a_break_keeps_the_break():
    s, _ = c.settle(started(), DUR, at(1250))
    assert s.level_index == 2
    p = c.pause(s, DUR, at(1250))
    assert p.level_index == 2 and p.remaining_ms == 250_000


def test_previous_level_at_the_first_level_is_refused():
    with pytest.raises(c.ClockError, match="first level"):
        c.previous_level(started(), DUR, at(5))


def test_next_and_previous_restart_the_level_in_full():
    s = c.next_level(started(), DUR, at(100))
    assert s.level_index == 1 and s.ends_at == at(700)
    p = c.previous_level(s, DUR, at(200))
    assert p.level_index == 0 and p.ends_at == at(800)


def test_next_level_at_the_last_level_is_refused():
    s = c.ClockState(c.RUNNING, 3, at(600), None, 5)
    with pytest.raises(c.ClockError, match="last level"):
        c.next_level(s, DUR, at(1))


def test_add_time_may_go_past_the_level_length():
    s = c.add_time(started(), DUR, at(0), 900)
    assert c.remaining_ms(s, at(0)) == 1_500_000


def test_removing_more_time_than_is_left_is_refused():
    with pytest.raises(c.ClockError, match="only 100 s"):
        c.add_time(started(), DUR, at(500), -200)


def test_add_time_while_paused_changes_the_remaining_time():
    s = c.add_time(c.pause(started(), DUR, at(0)), DUR, at(5), -60)
    assert s.remaining_ms == 540_000


def test_set_remaining_time():
    s = c.set_remaining(started(), DUR, at(10), 42)
    assert s.ends_at == at(52)
    with pytest.raises(c.ClockError):
        c.set_remaining(started(), DUR, at(10), 0)


def test_it_sets_a_whole_day_but_refuses_a_second_more():
    s = c.set_remaining(started(), DUR, at(0), c.MAX_LEFT_SECONDS)
    assert s.ends_at == at(24 * 3600)
    with pytest.raises(c.ClockError, match="at most 24 hours"):
        c.set_remaining(started(), DUR, at(0), 24 * 3600 + 1)


def test_it_refuses_to_add_or_remove_more_than_a_day_at_once():
    for seconds in (24 * 3600 + 1, -(24 * 3600 + 1)):
        with pytest.raises(c.ClockError, match="at most 24 hours"):
            c.add_time(started(), DUR, at(0), seconds)


def test_added_time_never_leaves_more_than_a_day():
    # Added a day at a time, an end would otherwise drift past the years a clock is stored in.
    s = c.add_time(started(), DUR, at(0), c.MAX_LEFT_SECONDS - 600)
    assert s.ends_at == at(24 * 3600)
    for state in (s, c.pause(s, DUR, at(0))):
        with pytest.raises(c.ClockError, match="at most 24 hours: 86400 s are left"):
            c.add_time(state, DUR, at(0), 1)
    assert c.add_time(s, DUR, at(10), 10).ends_at == at(24 * 3600 + 10)


def test_every_change_bumps_the_version():
    s0 = started()
    s1 = c.pause(s0, DUR, at(1))
    s2 = c.add_time(s1, DUR, at(2), 60)
    assert s0.version < s1.version < s2.version


def test_late_registration_closes_at_the_end_of_the_named_level_not_counting_breaks():
    #          L1    L2    break  L3    L4
    levels = [True, True, False, True, True]
    assert c.late_registration_end(levels, 3) == 3
    assert c.late_registration_end(levels, 1) == 0
    assert c.late_registration_end(levels, 0) is None  # none: entries until the start
    assert c.late_registration_end(levels, 5) is None  # past the schedule: never closes
