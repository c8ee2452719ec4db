"""Spread limit, half-pot limit and cap limit (D5), each example of the source documents
naming its passage (the reference article "Betting in poker", source 002 in Japanese and 000
in Arabic), the contract's refusals of the new fields, and cap limit against pokerkit."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tdsystem.engine.betting import SHOWDOWN, HandState
from tdsystem.engine.errors import RuleError
from tdsystem.engine.ruling import adjudicate, rule_on
from tdsystem.engine.spec import HandSpec, PlayerSpec
from tests.engine._betting_helpers import hand, run_cli
from tests.engine._betting_oracle import OracleStats, play_and_compare, random_spec
from tests.engine.test_properties_betting import SETTINGS, check_invariants, legal_actions, tables

FOUR = ["D 100", "S 100", "B 100", "U 100"]
PREFLOP_CALLS = ["U call", "D call", "S call", "B check"]
CHECKS = ["S check", "B check", "U check", "D check"]


def option(table) -> tuple:
    nxt = adjudicate(table)["next"]
    return nxt["player"], nxt["call"], nxt["min_raise_to"], nxt["max_raise_to"]


def spread(moves, **settings):
    # "a game called '1 to 5, 10 on the end' allows bets from $1 to $5 on the first betting
    # rounds and from $1 to $10 on the last" (the spread-limit passage).
    rules = {"structure": "spread-limit", "spread": [1, 5, 10], "blinds": (1, 2), **settings}
    return hand(FOUR, moves, **rules)


# -- spread limit ----------------------------------------------------------------------------


def test_spread_limit_bets_from_1_to_5_on_the_first_rounds():
    assert option(spread([*PREFLOP_CALLS])) == ("S", 0, 1, 5)  # the flop: 1 to 5


def test_spread_limit_bets_from_1_to_10_on_the_last_round():
    moves = [*PREFLOP_CALLS, *CHECKS, *CHECKS]  # flop and turn checked: the river

    assert option(spread(moves)) == ("S", 0, 1, 10)


def test_spread_limit_raises_by_at_least_the_last_bet_and_at_most_the_spread():
    # "subject to other betting rules": a raise is at least the bet or raise before (D3).
    assert option(spread([*PREFLOP_CALLS, "S bet 3"])) == ("B", 3, 6, 8)
    assert option(spread(["U raise 4"])) == ("D", 4, 6, 9)  # preflop: the big blind is the bet


def test_spread_limit_refuses_a_bet_beyond_the_spread():
    with pytest.raises(RuleError) as refused:
        adjudicate(spread([*PREFLOP_CALLS, "S bet 6"]))

    assert str(refused.value) == "action 4: S may not bet 6: the spread-limit maximum is 5 (D5)"


def test_spread_limit_counts_raises_toward_a_cap():
    # "in fixed-limit and spread-limit games, most casinos limit the number of raises in a
    # round (usually 3 or 4 besides the opening bet)".
    moves = [*PREFLOP_CALLS, "S bet 2", "B raise 4", "U raise 6", "D raise 8"]

    assert option(spread(moves, raise_cap=3)) == ("S", 6, None, None)


def test_spread_limit_explains_the_range():
    ruling = rule_on(spread([*PREFLOP_CALLS]))

    assert [r.text for r in ruling.next.reasons] == [
        "spread limit: the least bet is 1",
        "spread limit: a bet or raise adds at most 5, so to at most 5",
    ]


# -- half-pot limit ------------------------------------------------------------------------


def half_pot(moves):
    # "In a half-pot-limit game, no player may raise more than half the size of the pot."
    seats = ["D 1000", "A 1000", "B 1000", "C 1000"]
    calls = ["C call", "D call", "A call", "B check"]  # 20 in the pot at the flop
    return hand(seats, [*calls, *moves], structure="half-pot-limit", blinds=(2, 5))


def test_half_pot_limit_bets_at_most_half_the_pot():
    assert option(half_pot([])) == ("A", 0, 5, 10)


def test_half_pot_limit_raises_by_at_most_half_the_pot_after_the_call():
    # A bets 5: the pot after B's call is 30, so B may raise by 15, to 20 (pot limit: 35).
    assert option(half_pot(["A bet 5"])) == ("B", 5, 10, 20)


def test_half_pot_limit_refuses_more():
    with pytest.raises(RuleError, match="the half-pot-limit maximum is 20 \\(D4\\)"):
        adjudicate(half_pot(["A bet 5", "B raise 21"]))


# -- cap limit -------------------------------------------------------------------------------


def capped(moves, **settings):
    # "$1/$2 no-limit hold'em with a $60 cap: player A bets $2, B raises to $10; C may raise to
    # at most $60, and A and B can call $60 (58 and 50 more). No more betting: the winner
    # gets $180." A posts a single $2 blind here, so nothing else is in the pot.
    return hand(["C 500", "A 500", "B 500"], moves, blinds=[2], cap=60, **settings)


def test_cap_limit_raises_at_most_to_the_cap():
    assert option(capped(["B raise 10"])) == ("C", 10, 18, 60)


def test_cap_limit_players_at_the_cap_count_as_all_in_and_the_winner_gets_180():
    result = adjudicate(capped(["B raise 10", "C raise 60", "A call", "B call"]))

    assert result["street"] == "showdown" and result["next"] is None
    assert result["pots"] == [{"amount": 180, "eligible": ["C", "A", "B"]}]
    assert [(p["stack"], p["status"]) for p in result["players"]] == [(440, "all-in")] * 3


def test_cap_limit_says_so():
    ruling = rule_on(capped(["B raise 10", "C raise 60"]))

    assert (
        "C has put in the cap of 60: C counts as all-in for the rest of the hand, with 440 kept "
        "back (cap limit)"
    ) in [n.text for n in ruling.notes]


def test_cap_limit_with_pot_limit_is_the_smaller_of_the_two():
    table = capped(["B raise 6"], structure="pot-limit")

    assert option(table) == ("C", 6, 10, 20)  # the pot (2 + 6 + 6 = 14) + 6 = 20 < 60


def test_cap_limit_keeps_every_chip():
    result = adjudicate(capped(["B raise 10", "C raise 60", "A fold", "B call"]))

    chips = sum(p["amount"] for p in result["pots"]) + sum(p["stack"] for p in result["players"])
    assert chips == 1500


# -- the contract --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"structure": "spread-limit"}, "spread: a spread-limit game needs its range"),
        ({"structure": "spread-limit", "spread": [5, 1]}, "spread: the least 5 must not be"),
        ({"structure": "spread-limit", "spread": [1, 2, 3, 4]}, "spread: [least, most]"),
        ({"structure": "spread-limit", "spread": "1-5"}, "spread: [least, most]"),
        ({"structure": "spread-limit", "spread": [1, 4]}, "the big blind 8 is above the most"),
        ({"spread": [1, 5]}, "spread: only a spread-limit game has a range of bets"),
        ({"cap": 4}, "cap: the most each player may put in this hand"),
        ({"cap": "60"}, "cap: the most each player may put in this hand"),
        ({"structure": "fixed-limit", "cap": 60}, "cap: a cap-limit game plays no limit"),
        ({"structure": "half-pot-limit", "raise_cap": 3}, "raise_cap: only a fixed-limit game"),
    ],
)
def test_the_command_line_refuses_a_bad_structure_naming_the_field(change, message):
    done = run_cli({**hand(["A 100", "B 100", "C 100"], []), **change})

    assert done.returncode == 2
    assert message in json.loads(done.stdout)["error"]


def test_a_spread_limit_game_takes_the_half_bet_rule_and_a_raise_cap():
    table = spread(["U raise 4"], incomplete_raise="half-bet", raise_cap=4)

    assert adjudicate(table)["next"]["player"] == "D"


# -- cap limit against pokerkit: no limit with every stack cut at the cap ----------------------


def test_cap_limit_agrees_with_pokerkit_on_stacks_cut_at_the_cap():
    rng = random.Random(60)
    stats = OracleStats()
    for _ in range(300):
        base = random_spec(rng, rng.choice(("no-limit", "pot-limit")))
        cap = rng.randint(base.big_blind, 40 * base.big_blind)
        ours = HandSpec(
            structure=base.structure,
            blinds=base.blinds,
            ante=base.ante,
            players=base.players,
            cap=cap,
        )
        theirs = HandSpec(
            structure=base.structure,
            blinds=base.blinds,
            ante=base.ante,
            players=tuple(PlayerSpec(p.name, min(p.stack, cap + base.ante)) for p in base.players),
        )
        play_and_compare(rng, stats, spec=ours, pk_spec=theirs)
    assert stats.hands == 300 and stats.raise_checks > 300 and stats.pot_checks > 300


# -- properties: never an illegal amount offered ---------------------------------------------


@SETTINGS
@given(
    spec=tables().filter(lambda t: t.structure in ("spread-limit", "half-pot-limit") or t.cap),
    data=st.data(),
)
def test_the_range_offered_is_the_structures_own(spec, data):
    state = HandState(spec)
    for index in range(60):
        if state.street >= SHOWDOWN:
            break
        nxt = state.next_action()
        seat = state.seat_of[nxt.player]
        total = state.bet[seat] + state.stack[seat]
        if nxt.min_raise_to is not None and nxt.max_raise_to < total:
            adds = nxt.max_raise_to - state.level
            if spec.structure == "spread-limit":
                assert adds == state.spread_most()  # never more than the spread allows
                assert nxt.min_raise_to - state.level >= min(spec.spread[0], state.increment)
            elif spec.structure == "half-pot-limit":
                assert (
                    adds <= state.pot_after_call(seat) // 2
                    or adds == nxt.min_raise_to - state.level
                )
        if spec.cap is not None:  # never more than the cap beyond the ante
            assert state.committed[seat] + state.stack[seat] <= spec.cap + spec.ante
        menu = legal_actions(state, data)
        state.act(menu[data.draw(st.integers(0, len(menu) - 1))], index)
        check_invariants(spec, state)
