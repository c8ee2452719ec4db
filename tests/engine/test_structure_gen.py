"""The structure generator: proposals the import validation accepts, rounded to the chips in
play, colour-ups only at breaks, and a projection that follows the stated model."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tdsystem.engine.errors import RuleError
from tdsystem.engine.structure_gen import (
    ANTE_TYPES,
    GeneratorInputs,
    Proposal,
    Row,
    projected_finish,
    structure_generate,
)

CHIPS = (25, 100, 500, 1000, 5000, 25000)


def worked_example(**changes) -> Proposal:
    args = dict(
        starting_stack=20_000,
        entries=120,
        target_minutes=8 * 60,
        level_minutes=30,
        ante_type="each",
        chips=CHIPS,
    )
    return structure_generate(GeneratorInputs(**(args | changes)))


def blinds(proposal: Proposal) -> list[tuple[int, int, int]]:
    return [(lv.small_blind, lv.big_blind, lv.ante) for lv in proposal.levels]


def validate(proposal: Proposal):
    """The structures app's own validation, the one an import goes through; None when the
    engine's tests run without Django (`-p no:django`)."""
    from django.conf import settings as django_settings

    if not django_settings.configured:
        return None
    from tdsystem.structures.generator import level_rows
    from tdsystem.structures.services import check_levels

    return check_levels(level_rows(proposal))


def test_it_proposes_the_worked_example_of_the_docs():
    proposal = worked_example()

    assert blinds(proposal)[:8] == [
        (100, 200, 25),
        (150, 300, 50),
        (250, 500, 75),
        (400, 800, 100),
        (600, 1200, 200),
        (1000, 2000, 300),
        (1600, 3200, 400),
        (2400, 4800, 600),
    ]
    breaks = [row for row in proposal.rows if row.kind == "break"]
    assert [row.starts_at for row in breaks][:3] == [120, 255, 390]
    assert [row.colour_up for row in breaks][:3] == [(25,), (100,), (500, 1000)]


def test_the_projection_is_the_level_where_the_last_two_hold_under_20_big_blinds():
    proposal = worked_example()

    # 120 x 20,000 = 2,400,000 chips: the last two average 1,200,000, which is under 20 big
    # blinds once the big blind is over 60,000. Level 13 is 25,000/50,000 (24 BB each),
    # level 14 is 40,000/80,000 (15 BB): the end of level 14 is 14 x 30 minutes of play
    # and three 15-minute breaks, 7 h 45 min.
    assert proposal.total_chips == 2_400_000
    assert proposal.levels[12].big_blind == 50_000
    assert proposal.levels[13].big_blind == 80_000
    assert (proposal.final_level, proposal.projected_minutes) == (14, 465)
    assert proposal.projected_minutes <= proposal.target_minutes


def test_projected_finish_reads_hand_made_rows():
    rows = [
        Row("level", 1, 20, 0, 25, 50, 100, 0),
        Row("level", 2, 20, 20, 25, 100, 200, 0),
        Row("break", 0, 10, 40, 100),
        Row("level", 3, 20, 50, 100, 200, 400, 0),
    ]
    # 8,000 chips: the last two average 4,000, under 20 BB once the big blind is over 200.
    assert projected_finish(rows, total_chips=8_000, finish_big_blinds=20) == (3, 70)
    assert projected_finish(rows, total_chips=7_999, finish_big_blinds=20) == (2, 40)
    # Nobody ever gets that short: the last level is as far as it goes.
    assert projected_finish(rows, total_chips=10**9, finish_big_blinds=20) == (3, 70)


def test_it_validates_through_the_import_validation():
    checked = validate(worked_example())
    if checked is None:
        pytest.skip("the structures app's validation needs Django")

    assert checked.errors == []
    assert checked.warnings == []


def test_a_big_blind_or_button_ante_is_the_big_blind():
    for ante_type in ("big-blind", "button", "big-blind-ante-first"):
        assert all(lv.ante == lv.big_blind for lv in worked_example(ante_type=ante_type).levels)
    assert all(lv.ante == 0 for lv in worked_example(ante_type="none").levels)


def test_a_longer_target_gives_a_slower_climb_and_a_later_finish():
    short, long = worked_example(target_minutes=6 * 60), worked_example(target_minutes=10 * 60)

    assert short.ratio > long.ratio
    assert short.projected_minutes < long.projected_minutes


def test_it_says_when_the_target_cannot_be_met():
    assert worked_example(target_minutes=60).ratio_limited == "fastest"
    assert worked_example(target_minutes=48 * 60, entries=2).ratio_limited == "slowest"
    assert worked_example().ratio_limited == ""


def test_no_breaks_means_no_colour_up():
    proposal = worked_example(break_every=0)

    assert all(row.kind == "level" for row in proposal.rows)
    assert {lv.smallest_chip for lv in proposal.levels} == {25}
    assert all(lv.big_blind % 25 == 0 for lv in proposal.levels)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"chips": (25, 60)}, "chips: 60 is not a multiple of 25"),
        ({"chips": ()}, "chips: name the chips in play"),
        ({"starting_stack": 10_010}, "is not a multiple of the smallest chip 25"),
        ({"entries": 1}, "entries: a whole number of at least 2"),
        ({"ante_type": "straddle"}, "ante_type: one of"),
        ({"level_minutes": 0}, "level_minutes"),
        ({"starting_stack": True}, "starting_stack"),
    ],
)
def test_it_refuses_input_it_cannot_read(changes, message):
    with pytest.raises(RuleError, match=message):
        worked_example(**changes)


def test_the_inputs_are_one_value_that_cannot_change():
    inputs = GeneratorInputs(
        starting_stack=20_000,
        entries=120,
        target_minutes=480,
        level_minutes=30,
        ante_type="each",
        chips=[100, 25],
    )
    assert inputs.chips == (100, 25) and inputs.chain == (25, 100)
    assert inputs == replace(inputs) and hash(inputs) == hash(replace(inputs))
    with pytest.raises(FrozenInstanceError):
        inputs.entries = 200  # type: ignore[misc]
    # A change is a new value, checked as the first was.
    assert structure_generate(replace(inputs, entries=200)).total_chips == 4_000_000
    with pytest.raises(RuleError, match="entries"):
        replace(inputs, entries=1)


chip_sets = st.sampled_from(
    [
        (25, 100, 500, 1000, 5000, 25000),
        (1, 5, 25, 100, 500),
        (5, 25, 100, 500, 1000, 5000),
        (100, 500, 1000, 5000, 25000, 100000),
        (25,),
        (1000, 5000, 25000),
    ]
)


@st.composite
def inputs(draw):
    chips = draw(chip_sets)
    stack = chips[0] * draw(st.integers(min_value=1, max_value=4000))
    return dict(
        starting_stack=stack,
        entries=draw(st.integers(min_value=2, max_value=20_000)),
        target_minutes=draw(st.integers(min_value=30, max_value=24 * 60)),
        level_minutes=draw(st.sampled_from([10, 15, 20, 30, 40, 60])),
        ante_type=draw(st.sampled_from(ANTE_TYPES)),
        chips=chips,
        break_every=draw(st.integers(min_value=0, max_value=8)),
        break_minutes=draw(st.sampled_from([5, 10, 15, 20])),
        start_big_blinds=draw(st.integers(min_value=10, max_value=400)),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(inputs())
def test_every_proposal_keeps_the_rules(args):
    proposal = structure_generate(GeneratorInputs(**args))
    chips = args["chips"]

    checked = validate(proposal)
    if checked is not None:
        assert checked.errors == []
        assert checked.warnings == []

    smallest = None
    after_break = False
    clock = 0
    previous = None
    for row in proposal.rows:
        assert row.starts_at == clock
        clock += row.minutes
        if row.kind == "break":
            assert row.colour_up == tuple(c for c in chips if smallest <= c < row.smallest_chip)
            after_break = True
            smallest = row.smallest_chip
            continue
        if smallest is not None and not after_break:
            assert row.smallest_chip == smallest  # the smallest chip changes at a break only
        smallest, after_break = row.smallest_chip, False
        assert row.smallest_chip in chips
        for value in (row.small_blind, row.big_blind, row.ante):
            assert value % row.smallest_chip == 0
        assert row.big_blind == 2 * row.small_blind
        if previous is not None:
            assert row.small_blind > previous.small_blind
            assert row.ante >= previous.ante
        if args["ante_type"] == "none":
            assert row.ante == 0
        elif args["ante_type"] == "each":
            assert row.ante <= row.big_blind
        else:
            assert row.ante == row.big_blind
        previous = row

    # The model, recomputed: the first level whose big blind leaves the last two players
    # under 20 big blinds on average; the projection is the end of it.
    total = args["starting_stack"] * args["entries"]
    assert proposal.total_chips == total
    levels = proposal.levels
    final = next((lv for lv in levels if total / 2 < 20 * lv.big_blind), levels[-1])
    assert proposal.final_level == final.number
    assert proposal.projected_minutes == final.starts_at + final.minutes
