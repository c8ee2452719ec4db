"""The raise cap of a limit game when the betting is heads-up (D5), by the three readings of
the sources, and the rule set's choice.

- "at-start" (Wikipedia's "Betting in poker", the Japanese source 002: unlimited raising "when
  the pot is heads-up (only two players at the start of the betting round)"): the engine's
  reading before, and still its default without a rule set.
- "until-capped" (Robert's Rules; the Vietnamese page 003: "for this rule to take effect the
  heads-up must begin before the raises are capped; if the raising is capped and the pot then
  becomes heads-up by a fold, the cap stays").
- "kept" (TDA 2024 rule 48: "in limit play, there is a limit to raises even when heads-up
  until the event is down to 2 players").
"""

from __future__ import annotations

import pytest
from pokerkit import Automation, FixedLimitTexasHoldem

from tdsystem.engine.ruling import adjudicate, rule_on
from tests.engine._betting_helpers import hand

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
)
PREFLOP_THREE = ["A call", "B call", "C check"]  # A button, B small blind, C big blind


def flop(moves, seats=("A 1000", "B 1000", "C 1000"), preflop=PREFLOP_THREE, **settings):
    """The flop of a 10/20 fixed-limit game (a 10 round), raise cap 1 raise after the bet."""
    rules = {"structure": "fixed-limit", "blinds": (5, 10), "bets": [10, 20], "raise_cap": 1}
    return hand(list(seats), [*preflop, *moves], **{**rules, **settings})


def may_raise(table) -> bool:
    return adjudicate(table)["next"]["min_raise_to"] is not None


# Three in the pot at the start of the flop; B bets, C folds (heads-up now), A raises: the
# cap (one raise) is reached heads-up.
HEADS_UP_BEFORE_THE_CAP = ["B bet 10", "C fold", "A raise 20"]
# B bets, C raises (the cap, three in the pot), A folds: heads-up after the cap.
HEADS_UP_AFTER_THE_CAP = ["B bet 10", "C raise 20", "A fold"]


@pytest.mark.parametrize(
    ("reading", "reraise"),
    [(None, False), ("at-start", False), ("until-capped", True), ("kept", False)],
)
def test_heads_up_before_the_cap_lifts_it_only_until_capped(reading, reraise):
    settings = {} if reading is None else {"raise_cap_heads_up": reading}

    assert may_raise(flop(HEADS_UP_BEFORE_THE_CAP, **settings)) is reraise


@pytest.mark.parametrize("reading", [None, "at-start", "until-capped", "kept"])
def test_heads_up_after_the_cap_keeps_it_by_every_reading(reading):
    settings = {} if reading is None else {"raise_cap_heads_up": reading}

    assert may_raise(flop(HEADS_UP_AFTER_THE_CAP, **settings)) is False


@pytest.mark.parametrize(
    ("reading", "reraise"),
    [(None, True), ("at-start", True), ("until-capped", True), ("kept", False)],
)
def test_a_round_that_starts_heads_up_is_capped_only_when_kept(reading, reraise):
    # B folds before the flop: A and C see it heads-up. Flop order C, A.
    settings = {} if reading is None else {"raise_cap_heads_up": reading}
    table = flop(["C bet 10", "A raise 20"], preflop=["A call", "B fold", "C check"], **settings)

    assert may_raise(table) is reraise


def test_it_says_when_the_cap_is_lifted_heads_up():
    ruling = rule_on(flop(HEADS_UP_BEFORE_THE_CAP, raise_cap_heads_up="until-capped"))

    assert [n.text for n in ruling.notes if n.rule == "D5"] == [
        "only two players are left in the pot and the betting was not capped before: they may "
        "raise each other without a cap"
    ]
    assert (ruling.next.player, ruling.next.min_raise_to) == ("B", 30)


@pytest.mark.parametrize(
    ("rule_set", "reraise"),
    [("tda-2024", False), ("tda-2026", False), ("wsop-2026", True)],
)
def test_a_rule_set_chooses_the_reading(rule_set, reraise):
    assert may_raise(flop(HEADS_UP_BEFORE_THE_CAP, rule_set=rule_set)) is reraise


def test_the_hand_overrides_its_rule_set():
    table = flop(HEADS_UP_BEFORE_THE_CAP, rule_set="tda-2024", raise_cap_heads_up="until-capped")

    assert may_raise(table) is True


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"raise_cap_heads_up": "sometimes"},
            "raise_cap_heads_up: must be one of at-start, until-capped, kept, got 'sometimes'",
        ),
        (
            {
                "structure": "no-limit",
                "bets": None,
                "raise_cap": None,
                "raise_cap_heads_up": "kept",
            },
            "raise_cap_heads_up: only a fixed-limit game caps the raises (D5)",
        ),
        (
            {"rule_set": "tda-1999"},
            "rule_set: must be one of tda-2024, tda-2026, wsop-2026, got 'tda-1999'",
        ),
    ],
)
def test_it_refuses_bad_rule_fields(change, message):
    from tdsystem.engine.errors import RuleError

    with pytest.raises(RuleError) as refused:
        adjudicate({**flop([]), **change})

    assert str(refused.value) == message


def test_pokerkit_keeps_the_cap_heads_up_as_tda_48_does():
    # pokerkit's fixed limit caps a street at the bet and three raises, heads-up too. Flop:
    # pokerkit's seat 0 is the big blind heads-up... the big blind acts first after the flop.
    pk = FixedLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (5, 10), 10, 20, 1000, 2)
    pk.check_or_call()  # the button (small blind) calls
    pk.check_or_call()  # the big blind checks
    for to in (10, 20, 30, 40):
        pk.complete_bet_or_raise_to(to)
    ours = hand(
        ["A 1000", "C 1000"],
        ["A call", "C check", "C bet 10", "A raise 20", "C raise 30", "A raise 40"],
        structure="fixed-limit",
        blinds=(5, 10),
        bets=[10, 20],
        raise_cap=3,
        raise_cap_heads_up="kept",
    )

    assert not pk.can_complete_bet_or_raise_to()
    assert adjudicate(ours)["next"]["min_raise_to"] is None
