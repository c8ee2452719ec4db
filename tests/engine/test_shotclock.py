"""The shot clock's rules: the policy checked, when it is on, each player's extensions after
any sequence of uses, moves, days and reset points, and a running clock read at any time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tdsystem.engine import rulesets
from tdsystem.engine import shotclock as sc

T0 = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)

policies = st.builds(
    sc.Policy,
    starts=st.sampled_from(sc.STARTS[1:]),
    starts_at=st.integers(2, 100),
    seconds=st.one_of(
        st.tuples(st.integers(15, 120)), st.tuples(*[st.integers(15, 120)] * len(sc.STREETS))
    ),
    facing_raise=st.one_of(st.just(0), st.integers(15, 120)),
    warnings=st.lists(st.integers(1, 14), max_size=3, unique=True).map(tuple),
    extension_seconds=st.integers(5, 120),
    extensions=st.integers(0, 10),
    reset_day=st.sampled_from(sc.DAY_RULES),
    reset_players=st.integers(0, 300),
    reset_final_table=st.booleans(),
    at_zero=st.sampled_from(sc.AT_ZERO),
)


@st.composite
def progressions(draw) -> list[sc.Progress]:
    """A tournament moving on: days and levels up, the field down, the final table last."""
    rows, day, level, left = [], 1, draw(st.integers(0, 5)), draw(st.integers(20, 400))
    for _ in range(draw(st.integers(0, 8))):
        day += draw(st.integers(0, 1))
        level += draw(st.integers(0, 3))
        left = max(2, left - draw(st.integers(0, 120)))
        rows.append(sc.Progress(level, left, 40, 9, final_table=left <= 9, day=day))
    return rows


@st.composite
def histories(draw) -> tuple[sc.Progress, list[sc.Step]]:
    """A player's evening: their first progress, then uses, moves and the field moving on,
    interleaved in any order (the field's own order kept)."""
    reaches = [sc.Reach(p) for p in draw(progressions())]
    start = sc.Progress(0, 500, 40, 9, final_table=False, day=1)
    others = draw(
        st.lists(
            st.one_of(
                st.just(sc.Use()), st.builds(sc.Move, st.integers(1, 50), st.integers(1, 10))
            ),
            max_size=20,
        )
    )
    steps: list[sc.Step] = []
    for step in others:
        if reaches and draw(st.booleans()):
            steps.append(reaches.pop(0))
        steps.append(step)
    return start, steps + reaches


# The policy -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"starts": "sometimes"}, "starts"),
        ({"starts": sc.STARTS_AT_LEVEL, "starts_at": 0}, "starts_at"),
        ({"seconds": (30, 30)}, "seconds"),
        ({"seconds": (4,), "warnings": ()}, "seconds"),
        ({"warnings": (30,)}, "warnings"),
        ({"warnings": (5, 5)}, "warnings"),
        ({"warnings": (9, 5, 3, 1)}, "warnings"),
        ({"extensions": 51}, "extensions"),
        ({"extension_seconds": True}, "extension_seconds"),
        ({"at_zero": "fold"}, "at_zero"),
        ({"reset_final_table": 1}, "reset_final_table"),
    ],
)
def test_it_refuses_a_bad_policy_naming_the_field(bad, field):
    with pytest.raises(sc.ShotClockError) as refused:
        sc.Policy(**bad)
    assert refused.value.field == field and str(refused.value).startswith(field)


def test_the_tours_policies_read_from_the_rule_sets_settings():
    wynn = rulesets.shot_clock(
        rulesets.effective(
            rulesets.TDA_2024,
            {
                "shot_clock_starts": sc.STARTS_AT_LEVEL,
                "shot_clock_starts_at": 16,
                "shot_clock_seconds": [15],
                "shot_clock_facing_raise": 30,
                "shot_clock_extensions": 4,
                "shot_clock_reset_day": sc.DAY_ADD,
                "shot_clock_at_zero": sc.AT_ZERO_DEAD,
            },
        )
    )
    assert wynn.seconds_for(sc.PREFLOP, sc.FACING_BET) == 15
    assert wynn.seconds_for(sc.TURN, sc.FACING_RAISE) == 30
    pokerdream = sc.Policy(starts=sc.STARTS_AT_START, seconds=(15, 20, 30, 30), warnings=(10,))
    assert [pokerdream.seconds_for(s, sc.FACING_NONE) for s in sc.STREETS] == [15, 20, 30, 30]
    # Every published set leaves it off: TDA 29's floor clock is the only one.
    for code in rulesets.RULE_SETS:
        assert not rulesets.shot_clock(rulesets.rule_set(code).settings).on_ever
    assert rulesets.rule_set(rulesets.TDA_2024).cite("shot_clock") == "TDA 29"


def test_a_policy_refused_together_names_the_setting():
    with pytest.raises(rulesets.RuleSetError, match="shot_clock_warnings"):
        rulesets.effective(rulesets.TDA_2024, {"shot_clock_seconds": [8]})
    with pytest.raises(rulesets.RuleSetError, match="shot_clock_seconds"):
        rulesets.effective(rulesets.TDA_2024, {"shot_clock_seconds": [20, 30]})


# When it is on ----------------------------------------------------------------------------


def at(level=1, left=100, paid=15, final=False, day=1) -> sc.Progress:
    return sc.Progress(level, left, paid, 9, final, day)


def test_it_starts_where_the_policy_says():
    assert not sc.is_on(sc.Policy(), at(level=99, left=2))
    assert sc.is_on(sc.Policy(starts=sc.STARTS_AT_START), at(level=0))
    level = sc.Policy(starts=sc.STARTS_AT_LEVEL, starts_at=16)
    assert (sc.is_on(level, at(level=15)), sc.is_on(level, at(level=16))) == (False, True)
    money = sc.Policy(starts=sc.STARTS_OFF_MONEY, starts_at=1)  # one table off the money
    assert [sc.is_on(money, at(left=n)) for n in (25, 24, 15)] == [False, True, True]
    assert not sc.is_on(money, at(left=5, paid=0))  # no payouts known: not yet
    players = sc.Policy(starts=sc.STARTS_AT_PLAYERS, starts_at=180)
    assert (sc.is_on(players, at(left=181)), sc.is_on(players, at(left=180))) == (False, True)


@given(policies, progressions())
def test_once_on_it_stays_on_as_the_tournament_moves_on(policy, steps):
    seen = False
    for progress in steps:
        now = sc.is_on(policy, progress)
        assert now or not seen
        seen = now


# Extensions ---------------------------------------------------------------------------------


@given(policies, histories())
def test_extensions_are_never_negative_and_a_use_is_refused_only_at_none(policy, history):
    start, steps = history
    allowance = sc.allowance_new(policy, start)
    for step in steps:
        if isinstance(step, sc.Use):
            if allowance.left == 0:
                with pytest.raises(sc.ShotClockError):
                    sc.allowance_use(allowance)
            else:
                allowance = sc.allowance_use(allowance)
        elif isinstance(step, sc.Reach):
            allowance = sc.allowance_at(policy, allowance, step.progress)
        assert allowance.left >= 0
    assert sc.extensions_left(policy, start, steps)[0] == allowance.left


@given(policies, histories())
def test_moves_never_change_a_players_extensions(policy, history):
    start, steps = history
    without_moves = [s for s in steps if not isinstance(s, sc.Move)]
    assert sc.extensions_left(policy, start, steps) == sc.extensions_left(
        policy, start, without_moves
    )


@given(policies, histories())
def test_without_top_ups_each_use_takes_one_until_none(policy, history):
    start, steps = history
    plain = sc.Policy(
        starts=policy.starts, starts_at=policy.starts_at, extensions=policy.extensions
    )
    uses = sum(isinstance(s, sc.Use) for s in steps)
    left, refused = sc.extensions_left(plain, start, steps)
    assert left == max(plain.extensions - uses, 0)
    assert refused == max(uses - plain.extensions, 0)


@given(policies, histories())
def test_a_reset_point_tops_up_once_and_applying_it_again_changes_nothing(policy, history):
    start, steps = history
    allowance = sc.allowance_new(policy, start)
    for step in steps:
        if isinstance(step, sc.Reach):
            before = allowance
            allowance = sc.allowance_at(policy, allowance, step.progress)
            assert sc.allowance_at(policy, allowance, step.progress) == allowance
            fresh = (
                (policy.reset_final_table and step.progress.final_table and not before.final_reset)
                or (
                    policy.reset_players
                    and step.progress.players_left <= policy.reset_players
                    and not before.players_reset
                )
                or (policy.reset_day != sc.DAY_KEEP and step.progress.day > before.day)
            )
            if fresh:
                assert allowance.left >= policy.extensions
            elif step.progress.day == before.day:
                assert allowance.left == before.left
        elif isinstance(step, sc.Use) and allowance.left:
            allowance = sc.allowance_use(allowance)


def test_wynn_adds_each_day_and_apt_tops_up_at_the_final_table():
    wynn = sc.Policy(starts=sc.STARTS_AT_START, extensions=4, reset_day=sc.DAY_ADD)
    steps = [sc.Use(), sc.Use(), sc.Reach(at(day=2)), sc.Move(3, 4), sc.Reach(at(day=3))]
    assert sc.extensions_left(wynn, at(), steps) == (10, 0)
    apt = sc.Policy(starts=sc.STARTS_AT_START, extensions=2, reset_final_table=True)
    steps = [sc.Use(), sc.Use(), sc.Use(), sc.Reach(at(left=9, final=True)), sc.Use()]
    assert sc.extensions_left(apt, at(), steps) == (1, 1)


# A running clock ------------------------------------------------------------------------------


@given(
    policies,
    st.sampled_from(sc.STREETS),
    st.sampled_from(sc.FACING),
    st.integers(0, 3),
    st.floats(0, 600, allow_nan=False),
)
def test_a_running_clock_counts_down_warns_and_expires_past_zero(
    policy, street, facing, extensions, elapsed
):
    run = sc.run_start(policy, street=street, facing=facing, now=T0)
    for _ in range(extensions):
        run = sc.run_extend(policy, run, T0)
    now = T0 + timedelta(seconds=elapsed)
    read = sc.reading(run, now)
    total = policy.seconds_for(street, facing) + extensions * policy.extension_seconds
    assert read.remaining == pytest.approx(max(total - elapsed, 0), abs=1e-5)
    assert read.expired == (now > T0 + timedelta(seconds=total))
    if read.warning is not None:
        assert read.warning in policy.warnings and read.remaining <= read.warning
    assert (read.warning is None) == all(read.remaining > w for w in policy.warnings)
    # At zero: dead facing a bet or a raise; else checked, unless the policy says dead.
    want = sc.OUTCOME_CHECKED if facing == sc.FACING_NONE else sc.OUTCOME_DEAD
    if policy.at_zero == sc.AT_ZERO_DEAD:
        want = sc.OUTCOME_DEAD
    assert sc.outcome(policy, run) == want


def test_the_floors_clock_is_25_and_5_whatever_the_policy_and_a_tie_goes_to_the_player():
    run = sc.run_start(
        sc.Policy(at_zero=sc.AT_ZERO_DEAD),
        street=sc.RIVER,
        facing=sc.FACING_NONE,
        now=T0,
        floor=True,
    )
    assert (run.kind, run.total, run.warnings) == (sc.KIND_FLOOR, 30, (5,))
    assert sc.reading(run, T0 + timedelta(seconds=25)).warning == 5
    assert not sc.reading(run, T0 + timedelta(seconds=30)).expired  # a tie
    assert sc.reading(run, T0 + timedelta(seconds=30.01)).expired
    assert sc.outcome(sc.Policy(at_zero=sc.AT_ZERO_DEAD), run) == sc.OUTCOME_CHECKED
    with pytest.raises(sc.ShotClockError, match="too late"):
        sc.run_extend(sc.Policy(), run, T0 + timedelta(seconds=31))
