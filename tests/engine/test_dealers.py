"""The dealers' rotation: examples, then properties over any evening of tables opening and
breaking and pushes (hypothesis)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdsystem.engine import dealers as rot
from tdsystem.engine.dealers import DEALING, FREE, RESTING, Rotation, RotationError, Rules

T0 = datetime(2026, 12, 6, 18, 0, tzinfo=UTC)
RULES = Rules(down=timedelta(minutes=30), break_every=2, break_length=timedelta(minutes=30))


def evening(dealers: int, tables: list[int], rules: Rules = RULES) -> Rotation:
    rotation = Rotation()
    for table in tables:
        rotation = rot.table_open(rotation, rules, table, T0)
    for dealer in range(1, dealers + 1):
        rotation = rot.clock_in(rotation, rules, dealer, T0)
    return rotation


def places(rotation: Rotation) -> dict[int, tuple[str, int | None]]:
    return {d.id: (d.status, d.table) for d in rotation.dealers}


def test_it_gives_each_table_a_dealer_and_moves_them_on_at_a_push():
    rotation = evening(3, [1, 2, 3])
    assert places(rotation) == {1: (DEALING, 1), 2: (DEALING, 2), 3: (DEALING, 3)}
    pushed = rot.push(rotation, RULES, T0 + RULES.down)
    assert places(pushed) == {1: (DEALING, 2), 2: (DEALING, 3), 3: (DEALING, 1)}
    assert {d.downs for d in pushed.dealers} == {1}


def test_it_rests_those_with_the_most_downs_and_the_rested_fill_in():
    rotation = evening(4, [1, 2, 3])
    at = T0
    for _ in range(2):
        at += RULES.down
        rotation = rot.push(rotation, RULES, at)
    # Three dealt two downs: one rests (the fourth covers), the lowest id on a tie.
    assert places(rotation)[1] == (RESTING, None)
    assert places(rotation)[4][0] == DEALING
    assert rot.problems(rotation, RULES, at) == []


def test_a_table_that_breaks_sends_its_dealer_to_a_table_waiting():
    rotation = evening(2, [1, 2])
    rotation = rot.table_open(rotation, RULES, 3, T0)
    assert rotation.waiting() == (3,)
    rotation = rot.table_break(rotation, RULES, 1, T0 + timedelta(minutes=5))
    assert places(rotation)[1] == (DEALING, 3)
    assert rotation.waiting() == ()


def test_a_due_dealer_of_a_broken_table_goes_on_a_break():
    rotation = evening(2, [1, 2])
    rotation = rot.push(rotation, RULES, T0 + RULES.down)
    rotation = rot.push(rotation, RULES, T0 + 2 * RULES.down)
    dealer = rotation.at_tables()[1]
    broken = rot.table_break(rotation, RULES, 1, T0 + 2 * RULES.down + timedelta(minutes=1))
    assert broken.dealer(dealer.id).status == RESTING
    assert broken.dealer(dealer.id).breaks == 1


def test_the_kept_final_table_keeps_its_dealer():
    rotation = evening(3, [1, 2])
    rotation = rot.keep(rotation, 1, True)
    first = rotation.at_tables()[1].id
    at = T0
    for _ in range(5):
        at += RULES.down
        rotation = rot.push(rotation, RULES, at)
        assert rotation.at_tables()[1].id == first


def test_no_push_in_the_minute_around_a_level_change():
    change = T0 + timedelta(minutes=30)
    assert rot.push_time(change - timedelta(seconds=30), [change]) == change + timedelta(minutes=1)
    assert rot.push_time(change + timedelta(seconds=59), [change]) == change + timedelta(minutes=1)
    assert rot.push_time(change - timedelta(minutes=1), [change]) == change - timedelta(minutes=1)
    times = rot.push_times(T0 + timedelta(minutes=30), RULES, [change], 2)
    assert times == [change + timedelta(minutes=1), change + timedelta(minutes=31)]


def test_it_forecasts_a_dealers_next_table_and_break():
    rotation = evening(3, [1, 2])
    times = rot.push_times(T0 + RULES.down, RULES, [], 4)
    steps = rot.forecast(rotation, RULES, 1, times)
    assert steps[0].status == DEALING and steps[0].table == 2
    assert any(step.status == RESTING for step in steps)


def test_it_refuses_what_cannot_be():
    rotation = evening(1, [1])
    with pytest.raises(RotationError):
        rot.table_open(rotation, RULES, 1, T0)
    with pytest.raises(RotationError):
        rot.table_break(rotation, RULES, 9, T0)
    with pytest.raises(RotationError):
        rot.clock_in(rotation, RULES, 1, T0)
    with pytest.raises(RotationError):
        rot.clock_out(rotation, RULES, 7, T0)
    with pytest.raises(RotationError):
        Rules(break_every=0)


# Properties ------------------------------------------------------------------------------

steps = st.lists(
    st.one_of(
        st.tuples(st.just("push"), st.integers(0, 0)),
        st.tuples(st.just("open"), st.integers(1, 12)),
        st.tuples(st.just("break"), st.integers(1, 12)),
        st.tuples(st.just("wait"), st.integers(1, 40)),
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(
    dealers=st.integers(1, 14),
    tables=st.sets(st.integers(1, 12), max_size=10),
    every=st.integers(1, 4),
    down=st.integers(20, 30),
    rest=st.integers(10, 45),
    script=steps,
)
def test_any_evening_keeps_the_rotation_whole_and_fair(dealers, tables, every, down, rest, script):
    rules = Rules(
        down=timedelta(minutes=down), break_every=every, break_length=timedelta(minutes=rest)
    )
    rotation = evening(dealers, sorted(tables), rules)
    now = T0
    for kind, value in script:
        if kind == "push":
            now += rules.down
            rotation = rot.push(rotation, rules, now)
        elif kind == "open" and value not in rotation.tables:
            rotation = rot.table_open(rotation, rules, value, now)
        elif kind == "break" and value in rotation.tables:
            rotation = rot.table_break(rotation, rules, value, now)
        elif kind == "wait":
            now += timedelta(minutes=value)
            rotation = rot.fill(rotation, rules, now)
        # Every table in play has a dealer when one is free; nobody is in two places.
        assert rot.problems(rotation, rules, now) == []
        assert len(rotation.dealers) == dealers
        breaks = [d.breaks for d in rotation.dealers]
        # The rested-most and the rested-least differ by one break at most.
        assert max(breaks) - min(breaks) <= 1, (
            dealers,
            tables,
            every,
            down,
            rest,
            script,
            places(rotation),
            breaks,
        )
        assert all(d.status in (DEALING, RESTING, FREE) for d in rotation.dealers)
