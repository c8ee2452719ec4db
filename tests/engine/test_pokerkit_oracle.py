"""pokerkit 0.7.7 as an independent oracle for no-limit and pot-limit betting.

The random hands agree on every decision (call, whether a raise is allowed, minimum and
maximum raise-to) and on the pots after every round. Where the rules here differ from
pokerkit on purpose, a test below shows both answers side by side.

ENGINE_ORACLE_HANDS sets the number of random hands (default 1,500: a few seconds).
"""

from __future__ import annotations

import os
import random

from pokerkit import Automation, FixedLimitTexasHoldem, NoLimitTexasHoldem

from tdsystem.engine.ruling import adjudicate
from tdsystem.engine.spec import HandSpec, PlayerSpec
from tests.engine._betting_helpers import REFERENCE_HAND, hand, pots
from tests.engine._betting_oracle import OracleStats, play_and_compare, pokerkit_state

HANDS = int(os.environ.get("ENGINE_ORACLE_HANDS", "1500"))
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
)


def pk_holdem(stacks, blinds, ante=0, trimming=True):
    """pokerkit's seats start at the small blind and end with the button."""
    return NoLimitTexasHoldem.create_state(
        AUTOMATIONS, trimming, ante, blinds, blinds[-1], stacks, len(stacks)
    )


def test_it_agrees_with_pokerkit_on_random_hands():
    stats = OracleStats()
    rng = random.Random(20240607)

    for _ in range(HANDS):
        play_and_compare(rng, stats)

    assert stats.hands == HANDS
    assert stats.structures["no-limit"] > HANDS // 3
    assert stats.structures["pot-limit"] > HANDS // 3
    assert stats.raise_checks > 5 * HANDS
    assert stats.pot_checks > HANDS
    assert stats.uncalled_returned > HANDS // 10
    assert stats.showdowns > HANDS // 10 and stats.completes > HANDS // 20
    # The per-player reading of the full-bet rule (below) does come up.
    assert 0 < stats.known_reopen_differences < stats.decisions // 100


# -- where pokerkit differs on purpose ---------------------------------------------------


def test_it_makes_callers_owe_the_full_blind_where_pokerkit_takes_the_short_one():
    pk = pk_holdem([500, 8] + [500] * 8, (4, 8), ante=1)  # Alice: 1 ante, 7 of the blind

    ours = adjudicate(dict(REFERENCE_HAND, actions=[]))["next"]

    assert (pk.checking_or_calling_amount, pk.min_completion_betting_or_raising_to_amount) == (
        7,
        15,
    )
    assert (ours["call"], ours["min_raise_to"]) == (8, 16)


def test_it_counts_a_short_small_blind_in_full_where_pokerkit_counts_the_chips_posted():
    # pokerkit's pot-limit maximum counts only the 40 the small blind could post; here the
    # pot counts the full 100 (TDA 54-B), which is pokerkit's answer with a full small blind.
    def table(small_blind_stack: int) -> HandSpec:
        stacks = [5000, small_blind_stack, 5000, 5000]
        return HandSpec(
            structure="pot-limit",
            blinds=(100, 200),
            players=tuple(PlayerSpec(f"P{i}", stack) for i, stack in enumerate(stacks)),
        )

    pk_short, pk_full = pokerkit_state(table(40)), pokerkit_state(table(5000))

    ours = adjudicate(table(40))["next"]

    assert pk_short.max_completion_betting_or_raising_to_amount == 640
    assert pk_full.max_completion_betting_or_raising_to_amount == 700
    assert (ours["call"], ours["min_raise_to"], ours["max_raise_to"]) == (
        pk_full.checking_or_calling_amount,
        pk_full.min_completion_betting_or_raising_to_amount,
        700,
    )


def test_it_keeps_the_limper_shut_out_where_pokerkit_reopens():
    # Blinds 50/100: A limps, B all-in to 125, C calls, the blinds fold or call.
    pk = pk_holdem([10000, 10000, 10000, 125, 10000, 10000], (50, 100))
    pk.check_or_call()
    pk.complete_bet_or_raise_to(125)
    pk.check_or_call()
    pk.fold()
    pk.fold()
    pk.check_or_call()
    seats = ["E 10000", "SB 10000", "BB 10000", "A 10000", "B 125", "C 10000"]
    moves = ["A call", "B all-in", "C call", "E fold", "SB fold", "BB call"]

    ours = adjudicate(hand(seats, moves, blinds=(50, 100)))["next"]

    assert pk.actor_index == 2 and pk.can_complete_bet_or_raise_to()
    assert (ours["player"], ours["min_raise_to"]) == ("A", None)


def test_it_keeps_a_checker_shut_out_after_a_short_bet_where_pokerkit_reopens():
    pk = pk_holdem([1000, 9, 1000, 1000], (2, 5))
    for _ in range(4):
        pk.check_or_call()
    pk.check_or_call()  # A checks the flop
    pk.complete_bet_or_raise_to(4)  # B all-in for 4, short of the 5 minimum
    pk.check_or_call()
    pk.fold()
    seats = ["D 1000", "A 1000", "B 9", "C 1000"]
    moves = ["C call", "D call", "A call", "B check", "A check", "B all-in", "C call", "D fold"]

    ours = adjudicate(hand(seats, moves, blinds=(2, 5)))["next"]

    assert pk.actor_index == 0 and pk.can_complete_bet_or_raise_to()
    assert (ours["player"], ours["call"], ours["min_raise_to"]) == ("A", 4, None)


def test_it_shuts_out_a_player_who_called_between_short_all_ins_as_pokerkit_does():
    # Flop: A bets 20, B all-in to 30, D calls, C all-in to 40, E folds, A calls.
    # pokerkit seats: A 0, B 1, D 2, C 3, E 4.
    pk = pk_holdem([1000, 35, 1000, 45, 1000], (2, 5))
    for _ in range(5):
        pk.check_or_call()
    pk.complete_bet_or_raise_to(20)
    pk.complete_bet_or_raise_to(30)
    pk.check_or_call()
    pk.complete_bet_or_raise_to(40)
    pk.fold()
    pk.check_or_call()
    seats = ["E 1000", "A 1000", "B 35", "D 1000", "C 45"]
    moves = ["D call", "C call", "E call", "A call", "B check"]
    moves += ["A bet 20", "B all-in", "D call", "C all-in", "E fold", "A call"]

    ours = adjudicate(hand(seats, moves, blinds=(2, 5)))["next"]

    assert pk.actor_index == 2 and not pk.can_complete_bet_or_raise_to()
    assert (ours["player"], ours["call"], ours["min_raise_to"]) == ("D", 10, None)


def test_it_reopens_for_short_all_ins_adding_up_since_acting_where_pokerkit_does_not():
    # Flop: A bets 20, B calls, C all-in to 30, D all-in to 40 (a full raise together),
    # E all-in to 45. A faces 25 more than when acting: more than a full raise of 20.
    # pokerkit seats: A 0, B 1, C 2, D 3, E 4.
    pk = pk_holdem([1000, 1000, 35, 45, 50], (2, 5))
    for _ in range(5):
        pk.check_or_call()
    pk.complete_bet_or_raise_to(20)
    pk.check_or_call()
    for to in (30, 40, 45):
        pk.complete_bet_or_raise_to(to)
    seats = ["E 50", "A 1000", "B 1000", "C 35", "D 45"]
    moves = ["C call", "D call", "E call", "A call", "B check"]
    moves += ["A bet 20", "B call", "C all-in", "D all-in", "E all-in"]

    ours = adjudicate(hand(seats, moves, blinds=(2, 5)))["next"]

    assert pk.actor_index == 0 and not pk.can_complete_bet_or_raise_to()
    assert (ours["player"], ours["call"], ours["min_raise_to"]) == ("A", 25, 65)


def test_it_posts_the_big_blind_before_the_big_blind_ante_where_pokerkit_antes_first():
    pk = pk_holdem([500, 10, 500, 500], (4, 8), ante={1: 8}, trimming=False)

    ours = adjudicate(hand(["E 500", "B 500", "A 10", "D 500"], ante=8, ante_type="big-blind"))

    assert pk.bets[:2] == [4, 2]  # pokerkit: ante 8 first, 2 left for the blind
    assert pk.checking_or_calling_amount == 4
    assert [p["committed"] for p in ours["players"]][2] == 10
    assert ours["next"]["call"] == 8


def test_it_lifts_the_limit_cap_heads_up_where_pokerkit_keeps_it():
    pk = FixedLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (5, 10), 10, 20, [1000, 1000], 2)
    pk.check_or_call()
    pk.check_or_call()
    wagers = 0
    while pk.can_complete_bet_or_raise_to():
        pk.complete_bet_or_raise_to()
        wagers += 1
    moves = ["X call", "Y check", "Y bet 10", "X raise 20", "Y raise 30", "X raise 40"]
    table = hand(["X 1000", "Y 1000"], moves, structure="fixed-limit", blinds=(5, 10))
    table.update(bets=[10, 20], raise_cap=3)

    ours = adjudicate(table)["next"]

    assert wagers == 4
    assert (ours["player"], ours["min_raise_to"]) == ("Y", 50)


def test_it_keeps_an_uncalled_bet_in_a_pot_where_pokerkit_returns_it():
    pk = pk_holdem([500, 500, 500], (4, 8))
    pk.complete_bet_or_raise_to(100)
    pk.fold()
    pk.fold()

    ours = adjudicate(
        hand(["Btn 500", "SB 500", "BB 500"], ["Btn raise 100", "SB fold", "BB fold"])
    )

    assert [pot.amount for pot in pk.pots] == [12]  # the raise of 100 is back with its owner
    assert pots(ours) == [(112, ["Btn"])]


def test_it_asks_nothing_of_a_player_with_nothing_to_decide():
    pk = pk_holdem([1000, 1000, 6], (4, 8))  # the button has 6
    pk.check_or_call()  # the button calls all-in for 6
    pk.fold()  # the small blind folds

    ours = adjudicate(hand(["Btn 6", "SB 1000", "BB 1000"], ["Btn call", "SB fold"]))

    assert pk.actor_index == 1 and pk.checking_or_calling_amount == 0
    assert not pk.can_complete_bet_or_raise_to()
    assert (ours["street"], ours["next"]) == ("showdown", None)
