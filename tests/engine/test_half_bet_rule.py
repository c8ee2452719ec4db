"""The half-bet rule's amounts (D9), each example from the passage it comes from, and the
same hands in pokerkit 0.7.7, which plays a short all-in's amounts as the half-bet rule does.

Under the half-bet rule an all-in of at least half a bet counts as a bet or raise and reopens
the betting; the players behind call the all-in amount and raise a full bet over it. In the
raise cap it counts at its own amount.
"""

from __future__ import annotations

from pokerkit import Automation, FixedLimitTexasHoldem

from tdsystem.engine.ruling import adjudicate, rule_on
from tests.engine._betting_helpers import hand, pots

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
)


def turn(seats, moves, **settings):
    """The turn of a 10/20 fixed-limit game, a 20 round: everyone calls 10 before the flop
    and checks the flop. ``seats`` from the button; the stacks are those before the hand."""
    names = [seat.rsplit(" ", 1)[0] for seat in seats]
    order = names[3:] + names[:3] if len(names) > 3 else names
    pre = [f"{name} call" for name in order[:-1]] + [f"{order[-1]} check"]
    flop_order = names[1:] + names[:1]
    checks = [f"{name} check" for name in flop_order]
    rules = {"structure": "fixed-limit", "blinds": (5, 10), "bets": [10, 20], **settings}
    return hand(seats, [*pre, *checks, *moves], **rules)


def option(result):
    nxt = result["next"]
    return nxt["player"], nxt["call"], nxt["min_raise_to"], nxt["max_raise_to"]


# Wikipedia, "Betting in poker", all-in section (the Japanese source, 002, the full-bet and
# half-bet example): A opens for 20, B is all-in for 30 in all; "the third player calls $30";
# under the half-bet rule the raise counts and A may re-raise.
SOURCE_SEATS = ["D 1000", "SB 1000", "BB 1000", "A 1000", "B 40", "C 1000"]
SOURCE_OPEN = ["SB check", "BB check", "A bet 20", "B all-in"]
SOURCE_BACK_TO_A = [*SOURCE_OPEN, "C call", "D fold", "SB fold", "BB fold"]


def test_it_has_the_third_player_call_the_all_in_amount_under_the_half_bet_rule():
    table = turn(SOURCE_SEATS, SOURCE_OPEN, incomplete_raise="half-bet")

    assert option(adjudicate(table)) == ("C", 30, 50, 50)


def test_it_lets_the_opener_reraise_a_full_bet_over_the_all_in():
    result = adjudicate(turn(SOURCE_SEATS, SOURCE_BACK_TO_A, incomplete_raise="half-bet"))

    assert option(result) == ("A", 10, 50, 50)


def test_it_lets_the_opener_only_call_under_the_full_bet_rule():
    result = adjudicate(turn(SOURCE_SEATS, SOURCE_BACK_TO_A))

    assert option(result) == ("A", 10, None, None)


def test_it_says_what_the_players_behind_call_and_raise_to():
    ruling = rule_on(turn(SOURCE_SEATS, SOURCE_OPEN, incomplete_raise="half-bet"))

    assert [n.text for n in ruling.notes if n.rule == "D9"] == [
        "B's all-in for 30 is at least half a bet: it counts as a raise and reopens the "
        "betting; players behind call 30 or raise a full bet over it, to 50"
    ]


def test_the_pots_follow_the_all_in_amount():
    moves = [*SOURCE_BACK_TO_A, "A raise 50", "C call"]

    result = adjudicate(turn(SOURCE_SEATS, moves, incomplete_raise="half-bet"))

    # 60 from before the turn and 30 each from A, B and C; then 20 each more from A and C.
    assert pots(result) == [(150, ["A", "B", "C"]), (40, ["A", "C"])]
    assert result["street"] == "river"


# Robert's Rules of Poker (quoted in D9): "an example of a full raise is on a $20 betting
# round, raising a $15 all-in bet to $35".
ROBERT_SEATS = ["D 1000", "SB 1000", "BB 1000", "Shorty 25", "E 1000"]
ROBERT_BET = ["SB check", "BB check", "Shorty all-in"]


def test_it_raises_a_15_all_in_bet_to_35_on_a_20_round():
    table = turn(ROBERT_SEATS, ROBERT_BET, incomplete_raise="half-bet")

    assert option(adjudicate(table)) == ("E", 15, 35, 35)


def test_it_reopens_the_betting_for_the_players_who_checked_to_the_15():
    moves = [*ROBERT_BET, "E call", "D call"]

    result = adjudicate(turn(ROBERT_SEATS, moves, incomplete_raise="half-bet"))

    assert option(result) == ("SB", 15, 35, 35)


# D9, the half-bet rule in the raise cap: a half-bet all-in raise counts at its own amount
# (a 70 all-in as the third raise caps the round at 70, not 80). C has 70 on the turn.
def capped(c_stack: int) -> dict:
    seats = ["D 1000", "SB 1000", "BB 1000", "A 1000", "B 1000", "E 1000", f"C {c_stack}"]
    moves = ["SB check", "BB check", "A bet 20", "B raise 40", "E raise 60", "C all-in"]
    return turn(seats, moves, incomplete_raise="half-bet", raise_cap=3)


def test_it_caps_the_round_at_a_half_bet_all_in_that_is_the_third_raise():
    ruling = rule_on(capped(80))

    nxt = ruling.next
    assert (nxt.player, nxt.call, nxt.min_raise_to) == ("D", 70, None)
    assert [n.text for n in ruling.notes if n.rule == "D5"] == [
        "the betting is capped at one bet and 3 raises"
    ]
    assert [r.text for r in nxt.reasons if r.rule == "D5"] == [
        "the betting is capped at one bet and 3 raises"
    ]


def test_it_leaves_the_cap_open_when_the_all_in_is_short_of_half_a_bet():
    # 4 over the 60: not a raise; D may call 64 or complete the raise to 80.
    assert option(adjudicate(capped(74))) == ("D", 64, 80, 80)


# -- the same amounts in pokerkit --------------------------------------------------------


def pk_turn(stacks):
    """pokerkit's table for ``turn``: its seats start at the small blind (ours from the
    button), 10/20 fixed limit, played to the turn the same way."""
    n = len(stacks)
    seats = stacks[1:] + stacks[:1]
    state = FixedLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (5, 10), 10, 20, seats, n)
    while state.street_index == 0:
        state.check_or_call()
    while state.street_index == 1:
        state.check_or_call()
    return state


def test_pokerkit_has_the_third_player_call_30_or_raise_to_50():
    pk = pk_turn([1000, 1000, 1000, 1000, 40, 1000])
    pk.check_or_call()  # SB
    pk.check_or_call()  # BB
    pk.complete_bet_or_raise_to(20)  # A
    pk.complete_bet_or_raise_to(30)  # B, all-in
    third = (pk.checking_or_calling_amount, pk.min_completion_betting_or_raising_to_amount)
    pk.check_or_call()  # C
    for _ in range(3):
        pk.fold()  # D, SB, BB

    assert third == (30, 50)
    # pokerkit reopens the betting by the full-bet rule only, so A, who opened, may call the
    # 10 but not raise: the half-bet rule reopening is this engine's (docs/engine.md).
    assert pk.checking_or_calling_amount == 10
    assert not pk.can_complete_bet_or_raise_to()


def test_pokerkit_raises_a_15_all_in_bet_to_35():
    pk = pk_turn([1000, 1000, 1000, 25, 1000])
    pk.check_or_call()  # SB
    pk.check_or_call()  # BB
    pk.complete_bet_or_raise_to(15)  # Shorty, all-in

    assert (pk.checking_or_calling_amount, pk.min_completion_betting_or_raising_to_amount) == (
        15,
        35,
    )
