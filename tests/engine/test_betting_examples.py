"""Every worked example of the rules (D3-D10) and the reference case, as data."""

from __future__ import annotations

import json

import pytest

from tdsystem.engine.errors import RuleError
from tdsystem.engine.ruling import adjudicate
from tests.engine._betting_helpers import (
    REFERENCE_HAND,
    REFERENCE_POTS,
    hand,
    player,
    pots,
    run_cli,
)

# A flop with 20 in the pot: D (button), A (small blind), B (big blind), C; blinds 2/5,
# everyone calls before the flop. The flop is then acted on in the order A, B, C, D.
FOUR_SEATS = ["D 1000", "A 1000", "B 1000", "C 1000"]
PREFLOP_CALLS = ["C call", "D call", "A call", "B check"]


def flop(moves, seats=FOUR_SEATS, **settings):
    settings.setdefault("blinds", (2, 5))
    return hand(seats, [*PREFLOP_CALLS, *moves], **settings)


# -- the reference case (D8) -----------------------------------------------------------


def test_it_rules_on_the_reference_case():
    result = adjudicate(REFERENCE_HAND)

    assert result["street"] == "showdown"
    assert result["next"] is None
    assert pots(result) == REFERENCE_POTS
    assert player(result, "Alice") == {
        "name": "Alice",
        "stack": 0,
        "committed": 8,
        "status": "all-in",
    }
    assert player(result, "Carol") == {
        "name": "Carol",
        "stack": 483,
        "committed": 17,
        "status": "active",
    }


def test_it_makes_the_next_player_call_the_full_big_blind_in_the_reference_case():
    start = dict(REFERENCE_HAND, actions=[])

    nxt = adjudicate(start)["next"]

    assert nxt == {
        "player": "Dianne",
        "check": False,
        "call": 8,
        "min_raise_to": 16,
        "max_raise_to": 499,
    }


def test_it_gives_the_reference_case_through_the_command_line():
    done = run_cli(REFERENCE_HAND)

    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    out = json.loads(done.stdout)
    assert out["street"] == "showdown"
    assert out["next"] is None
    assert out["pots"] == [
        {"amount": 35, "eligible": ["Alice", "Carol"]},
        {"amount": 10, "eligible": ["Carol"]},
    ]
    assert [p["name"] for p in out["players"]] == [p["name"] for p in REFERENCE_HAND["players"]]
    assert set(out) == {"street", "next", "pots", "players"}
    assert all(set(p) == {"name", "stack", "committed", "status"} for p in out["players"])


# -- D3: minimum bet and raise ---------------------------------------------------------


def test_it_makes_a_raise_over_a_bet_of_5_at_least_10():
    assert adjudicate(flop(["A bet 5"]))["next"]["min_raise_to"] == 10


def test_it_makes_the_raise_after_a_raise_of_7_at_least_19():
    nxt = adjudicate(flop(["A bet 5", "B raise 12"]))["next"]

    assert nxt["player"] == "C"
    assert nxt["min_raise_to"] == 19


def test_it_lets_the_next_player_call_4_or_raise_to_9_after_an_all_in_for_4():
    # A has 4 left after the preflop call; the minimum bet is 5.
    seats = ["D 1000", "A 9", "B 1000", "C 1000"]

    nxt = adjudicate(flop(["A all-in"], seats=seats))["next"]

    assert (nxt["player"], nxt["call"], nxt["min_raise_to"]) == ("B", 4, 9)


def test_it_rejects_a_raise_below_the_minimum_with_the_rule():
    with pytest.raises(RuleError) as caught:
        adjudicate(flop(["A bet 5", "B raise 12", "C raise 18"]))

    assert str(caught.value) == "action 6: C may not raise to 18: the minimum raise is to 19 (D3)"


def test_it_lets_a_short_stack_go_all_in_below_the_minimum_raise():
    seats = ["D 1000", "A 1000", "B 1000", "C 20"]  # C has 15 after the preflop call

    nxt = adjudicate(flop(["A bet 5", "B raise 12"], seats=seats))["next"]
    result = adjudicate(flop(["A bet 5", "B raise 12", "C all-in"], seats=seats))

    assert (nxt["min_raise_to"], nxt["max_raise_to"]) == (15, 15)
    assert player(result, "C")["status"] == "all-in"


# -- D4: pot-limit maximum -------------------------------------------------------------


def test_it_lets_b_pot_to_35_in_the_worked_line():
    nxt = adjudicate(flop(["A bet 5"], structure="pot-limit"))["next"]

    assert (nxt["player"], nxt["max_raise_to"]) == ("B", 35)


def test_it_lets_d_pot_to_165_in_the_worked_line():
    nxt = adjudicate(flop(["A bet 5", "B raise 35", "C call"], structure="pot-limit"))["next"]

    assert (nxt["player"], nxt["max_raise_to"]) == ("D", 165)


def test_it_rejects_a_raise_above_the_pot():
    with pytest.raises(RuleError) as caught:
        adjudicate(flop(["A bet 5", "B raise 35", "C call", "D raise 166"], structure="pot-limit"))

    assert (
        str(caught.value) == "action 7: D may not raise to 166: the pot-limit maximum is 165 (D4)"
    )


@pytest.mark.parametrize(("blinds", "most"), [((1, 2), 7), ((5, 10), 35), ((50, 100), 350)])
def test_it_caps_the_first_preflop_raise_at_7_small_blinds_with_the_true_pot(blinds, most):
    seats = [f"P{i} 100000" for i in range(9)]

    assert (
        adjudicate(hand(seats, structure="pot-limit", blinds=blinds))["next"]["max_raise_to"]
        == most
    )


def test_it_caps_the_first_raise_at_4_big_blinds_with_the_assumed_call():
    seats = [f"P{i} 1000" for i in range(6)]
    table = hand(seats, structure="pot-limit", blinds=(2, 5), pot_limit_preflop="assumed-call")

    assert adjudicate(table)["next"]["max_raise_to"] == 20


def test_it_counts_the_antes_in_the_pot():
    seats = [f"P{i} 1000" for i in range(9)]
    table = hand(seats, structure="pot-limit", blinds=(1, 2), ante=1)

    assert adjudicate(table)["next"]["max_raise_to"] == 7 + 9


def test_it_counts_a_short_big_blind_in_full_in_the_pot():
    # TDA 54-B: Alice's 7 of 8 counts as 8: 8 + (10 antes + 4 + 8 + 8 to call) = 38.
    table = dict(REFERENCE_HAND, structure="pot-limit", actions=[])

    assert adjudicate(table)["next"]["max_raise_to"] == 38


SHORT_SMALL_BLIND = ["Btn 5000", "Sb 40", "Bb 5000", "Utg 5000"]


def test_it_counts_a_short_small_blind_in_full_in_the_pot():
    # TDA 54-B at 100/200: Sb's 40 of 100 counts as 100: 200 + (100 + 200 + 200) = 700.
    table = hand(SHORT_SMALL_BLIND, structure="pot-limit", blinds=(100, 200))

    result = adjudicate(table)

    assert result["next"]["max_raise_to"] == 700
    assert pots(result) == [(80, ["Btn", "Sb", "Bb", "Utg"]), (160, ["Btn", "Bb", "Utg"])]


def test_it_counts_a_missing_small_blind_in_full_in_the_pot():
    # Sb is all-in for the 25 ante and posts no blind: 200 + (100 antes + 100 + 200 + 200).
    seats = ["Btn 5000", "Sb 25", "Bb 5000", "Utg 5000"]
    table = hand(seats, structure="pot-limit", blinds=(100, 200), ante=25)

    result = adjudicate(table)

    assert result["next"]["max_raise_to"] == 800
    assert sum(amount for amount, _ in pots(result)) == 4 * 25 + 200


def test_it_counts_both_short_blinds_in_full_in_the_pot():
    # Sb in for 40 of 100, Bb for 150 of 200: the pot counts 300; the call is the full 200.
    seats = ["Btn 5000", "Sb 40", "Bb 150", "Utg 5000"]
    table = hand(seats, structure="pot-limit", blinds=(100, 200))

    nxt = adjudicate(table)["next"]

    assert (nxt["call"], nxt["max_raise_to"]) == (200, 700)


def test_it_keeps_counting_a_short_small_blind_in_full_after_a_raise():
    # Utg pots to 700; Btn faces 700 with 40 + 200 + 700 in and 100 + 200 counted:
    # 700 + (100 + 200 + 700 + 700) = 2400.
    moves = ["Utg raise 700"]
    table = hand(SHORT_SMALL_BLIND, moves, structure="pot-limit", blinds=(100, 200))

    assert adjudicate(table)["next"]["max_raise_to"] == 2400


def test_it_counts_chips_really_put_in_once_the_first_round_is_over():
    # The flop pot is what was put in: 40 + 3 x 200 = 640, so the most is a bet of 640.
    moves = ["Utg call", "Btn call", "Bb check"]
    table = hand(SHORT_SMALL_BLIND, moves, structure="pot-limit", blinds=(100, 200))

    result = adjudicate(table)

    assert result["street"] == "flop"
    assert result["next"]["max_raise_to"] == 640


# -- D5: fixed limit -------------------------------------------------------------------

LIMIT = {"structure": "fixed-limit", "blinds": (2, 5), "bets": [5, 10], "raise_cap": 3}


def test_it_caps_the_betting_after_a_bet_and_three_raises():
    nxt = adjudicate(flop(["A bet 5", "B raise 10", "C raise 15", "D raise 20"], **LIMIT))["next"]

    assert (nxt["player"], nxt["call"], nxt["min_raise_to"]) == ("A", 15, None)


def test_it_rejects_a_fourth_raise():
    moves = ["A bet 5", "B raise 10", "C raise 15", "D raise 20", "A raise 25"]

    with pytest.raises(RuleError) as caught:
        adjudicate(flop(moves, **LIMIT))

    assert caught.value.rule == "D5"
    assert caught.value.action_index == 8


def test_it_lifts_the_cap_when_the_round_starts_heads_up():
    table = hand(
        FOUR_SEATS,
        [
            "C fold",
            "D fold",
            "A call",
            "B check",
            "A bet 5",
            "B raise 10",
            "A raise 15",
            "B raise 20",
        ],
        **LIMIT,
    )

    nxt = adjudicate(table)["next"]

    assert (nxt["player"], nxt["min_raise_to"], nxt["max_raise_to"]) == ("A", 25, 25)


def test_it_keeps_the_cap_when_the_pot_turns_heads_up_after_it_was_reached():
    moves = ["C call", "D fold", "A call", "B check"]  # three players see the flop
    moves += ["A bet 5", "B raise 10", "C raise 15", "A raise 20", "B fold"]

    nxt = adjudicate(hand(FOUR_SEATS, moves, **LIMIT))["next"]

    assert (nxt["player"], nxt["call"], nxt["min_raise_to"]) == ("C", 5, None)


def test_it_uses_the_big_bet_on_the_turn_and_river():
    moves = ["A check", "B check", "C check", "D check", "A bet 10"]

    result = adjudicate(flop(moves, **LIMIT))

    assert result["street"] == "turn"
    assert result["next"]["min_raise_to"] == 20


def test_it_completes_a_big_blind_smaller_than_the_small_bet():
    # Blinds 2/5 with bets of 10/20: the first raise completes to 10 and counts as the bet,
    # so a cap of one raise still allows the raise to 20 after it.
    table = hand(FOUR_SEATS, structure="fixed-limit", blinds=(2, 5), bets=[10, 20], raise_cap=1)
    first = adjudicate(table)["next"]
    table["actions"] = hand([], ["C raise 10"])["actions"]
    second = adjudicate(table)["next"]
    table["actions"] += hand([], ["D raise 20"])["actions"]
    third = adjudicate(table)["next"]

    assert (first["call"], first["min_raise_to"], first["max_raise_to"]) == (5, 10, 10)
    assert (second["player"], second["min_raise_to"]) == ("D", 20)
    assert (third["player"], third["call"], third["min_raise_to"]) == ("A", 18, None)


def test_it_rejects_a_limit_bet_of_the_wrong_size():
    with pytest.raises(RuleError) as caught:
        adjudicate(flop(["A bet 7"], **LIMIT))

    assert str(caught.value) == "action 4: A may not bet 7: in fixed limit the bet is 5 (D5)"


# -- D8: short stacks on the forced bets -----------------------------------------------


def test_it_puts_a_partial_ante_from_every_player_in_the_main_pot():
    table = hand(["E 500", "B 500", "A 500", "S 6"], ["E fold", "B fold"], blinds=(20, 40), ante=10)

    result = adjudicate(table)

    assert result["street"] == "showdown"
    assert pots(result) == [(24, ["A", "S"]), (72, ["A"])]


def test_it_makes_callers_owe_the_full_big_blind_when_the_blind_is_all_in_for_the_ante():
    table = hand(["E 500", "B 500", "A 1", "D 500"], ante=1)

    result = adjudicate(table)

    assert player(result, "A") == {"name": "A", "stack": 0, "committed": 1, "status": "all-in"}
    assert result["next"]["call"] == 8


# -- D9: all-ins that are not full raises ----------------------------------------------

D9_SEATS = ["D 1000", "A 1000", "B 35", "C 1000"]  # B has 30 left on the flop


def test_it_does_not_reopen_the_betting_for_a_after_b_is_all_in_for_30():
    moves = ["A bet 20", "B all-in", "C call"]

    nxt = adjudicate(flop(moves, seats=D9_SEATS))["next"]
    assert nxt["player"] == "D"
    nxt = adjudicate(flop([*moves, "D fold"], seats=D9_SEATS))["next"]

    assert (nxt["player"], nxt["call"], nxt["min_raise_to"]) == ("A", 10, None)


def test_it_rejects_a_reraise_that_the_full_bet_rule_forbids():
    with pytest.raises(RuleError) as caught:
        adjudicate(flop(["A bet 20", "B all-in", "C call", "D fold", "A raise 80"], seats=D9_SEATS))

    assert caught.value.rule == "D9"
    assert str(caught.value).startswith("action 8: A may not raise to 80: A has already acted")


def test_it_reopens_the_betting_when_two_short_all_ins_make_a_full_raise():
    # A bets 20; B all-in to 30 (+10), C all-in to 40 (+10): together a full raise of 20.
    seats = ["D 1000", "A 1000", "B 35", "C 45"]

    nxt = adjudicate(flop(["A bet 20", "B all-in", "C all-in", "D call"], seats=seats))["next"]

    assert (nxt["player"], nxt["call"], nxt["min_raise_to"]) == ("A", 20, 60)


def test_it_does_not_reopen_for_a_player_who_called_between_the_short_all_ins():
    # Flop order A, B, D, C, E. A bets 20, B all-in to 30, D calls 30, C all-in to 40:
    # A faces a full raise in all (20 more), D only 10 more.
    seats = ["E 1000", "A 1000", "B 35", "D 1000", "C 45"]
    moves = ["D call", "C call", "E call", "A call", "B check"]
    moves += ["A bet 20", "B all-in", "D call", "C all-in", "E fold"]
    table = hand(seats, moves, blinds=(2, 5))

    after_a = adjudicate(table)["next"]
    table["actions"] += hand([], ["A call"])["actions"]
    after_d = adjudicate(table)["next"]

    assert (after_a["player"], after_a["min_raise_to"]) == ("A", 60)
    assert (after_d["player"], after_d["call"], after_d["min_raise_to"]) == ("D", 10, None)


def half_bet(moves, **settings):
    """The example's 20 round is the turn of a 10/20 game: Joan (button), Alice (small
    blind), Dianne (big blind) and Carol, who has 5 left when the turn starts."""
    seats = ["Joan 1000", "Alice 1000", "Dianne 1000", "Carol 15"]
    pre = ["Carol call", "Joan call", "Alice call", "Dianne check"]
    flop_checks = ["Alice check", "Dianne check", "Carol check", "Joan check"]
    rules = {"structure": "fixed-limit", "blinds": (5, 10), "bets": [10, 20], **settings}
    return hand(seats, [*pre, *flop_checks, *moves], **rules)


def test_it_lets_joan_fold_call_5_or_complete_to_20_under_the_half_bet_rule():
    moves = ["Alice check", "Dianne check", "Carol all-in"]

    result = adjudicate(half_bet(moves, incomplete_raise="half-bet"))

    assert result["street"] == "turn"
    nxt = result["next"]
    assert (nxt["player"], nxt["call"], nxt["min_raise_to"], nxt["max_raise_to"]) == (
        "Joan",
        5,
        20,
        20,
    )


def test_it_lets_alice_only_call_or_fold_when_joan_calls_the_5():
    moves = ["Alice check", "Dianne check", "Carol all-in", "Joan call"]

    nxt = adjudicate(half_bet(moves, incomplete_raise="half-bet"))["next"]

    assert (nxt["player"], nxt["call"], nxt["min_raise_to"]) == ("Alice", 5, None)


def test_it_lets_alice_raise_when_joan_completes_to_20():
    moves = ["Alice check", "Dianne check", "Carol all-in", "Joan raise 20"]

    nxt = adjudicate(half_bet(moves, incomplete_raise="half-bet"))["next"]

    assert (nxt["player"], nxt["call"], nxt["min_raise_to"]) == ("Alice", 20, 40)


def test_it_counts_an_all_in_of_half_the_bet_as_the_bet_at_its_own_amount():
    table = half_bet(["Alice check", "Dianne check", "Carol all-in"], incomplete_raise="half-bet")
    table["players"][3]["stack"] = 22  # Carol has 12 on the turn: at least half of 20

    nxt = adjudicate(table)["next"]
    table["actions"] += hand([], ["Joan call"])["actions"]
    after = adjudicate(table)["next"]

    # Players behind call the 12 or raise a full bet over it (D9, corrected).
    assert (nxt["player"], nxt["call"], nxt["min_raise_to"]) == ("Joan", 12, 32)
    assert (after["player"], after["call"], after["min_raise_to"]) == ("Alice", 12, 32)


def test_it_treats_the_same_all_in_as_short_under_the_full_bet_rule():
    table = half_bet(["Alice check", "Dianne check", "Carol all-in"])
    table["players"][3]["stack"] = 22

    nxt = adjudicate(table)["next"]

    assert (nxt["player"], nxt["call"], nxt["min_raise_to"]) == ("Joan", 12, 20)


def test_it_does_not_reopen_the_betting_for_a_limper_after_a_short_all_in_raise():
    # TDA 2024 rule 47, example 3 reading: blinds 50/100, A limps, B all-in to 125.
    seats = ["E 10000", "SB 10000", "BB 10000", "A 10000", "B 125", "C 10000"]
    moves = ["A call", "B all-in", "C call", "E fold", "SB fold"]

    big_blind = adjudicate(hand(seats, moves, blinds=(50, 100)))["next"]
    limper = adjudicate(hand(seats, [*moves, "BB call"], blinds=(50, 100)))["next"]

    assert (big_blind["player"], big_blind["min_raise_to"]) == ("BB", 225)
    assert (limper["player"], limper["call"], limper["min_raise_to"]) == ("A", 25, None)


def test_it_does_not_reopen_the_betting_for_a_checker_after_a_short_all_in_bet():
    seats = ["D 1000", "A 1000", "B 9", "C 1000"]  # B has 4 on the flop; the minimum bet is 5

    nxt = adjudicate(flop(["A check", "B all-in", "C call", "D fold"], seats=seats))["next"]

    assert (nxt["player"], nxt["call"], nxt["min_raise_to"]) == ("A", 4, None)


def test_it_stops_the_betting_when_everyone_is_all_in():
    result = adjudicate(hand(["A 100", "B 50", "C 80"], ["A all-in", "B all-in", "C all-in"]))

    assert result["street"] == "showdown"
    assert result["next"] is None


def test_it_lets_one_player_facing_only_all_ins_call_or_fold_but_not_raise():
    nxt = adjudicate(hand(["A 60", "B 1000", "C 1000"], ["A all-in", "B fold"]))["next"]

    assert (nxt["player"], nxt["call"], nxt["min_raise_to"]) == ("C", 52, None)


def test_it_rejects_a_raise_nobody_could_call():
    with pytest.raises(RuleError) as caught:
        adjudicate(hand(["A 1000", "B 50", "C 80"], ["A fold", "B all-in", "C all-in"]))

    assert caught.value.rule == "D9"
    assert caught.value.action_index == 2


# -- D10: side pots --------------------------------------------------------------------


def test_it_splits_the_side_pot_of_the_worked_example():
    # C (button), A (small blind), B (big blind), blinds 1/2, all call: 6 in before the flop.
    seats = ["C 32", "A 1000", "B 12"]
    table = hand(
        seats, ["C call", "A call", "B check", "A bet 20", "B all-in", "C all-in", "A call"]
    )
    table["blinds"] = [1, 2]

    result = adjudicate(table)

    assert result["street"] == "showdown"
    assert pots(result) == [(6 + 30, ["C", "A", "B"]), (40, ["C", "A"])]


def test_it_keeps_an_uncalled_bet_in_a_pot_of_its_own():
    result = adjudicate(flop(["A bet 50", "B fold", "C fold", "D fold"]))

    assert result["street"] == "complete"
    assert pots(result) == [(70, ["A"])]


def test_it_leaves_an_uncalled_all_in_excess_in_a_one_player_pot():
    result = adjudicate(hand(["A 500", "B 40", "C 100"], ["A all-in", "B call", "C call"]))

    assert pots(result) == [(120, ["A", "B", "C"]), (120, ["A", "C"]), (400, ["A"])]


def test_it_takes_a_folded_player_out_of_every_pot():
    seats = ["C 32", "A 1000", "B 12", "E 1000"]
    moves = ["E call", "C call", "A call", "B check"]
    moves += ["A bet 20", "B all-in", "E fold", "C all-in", "A call"]

    result = adjudicate(hand(seats, moves, blinds=(1, 2)))

    assert all("E" not in eligible for _, eligible in pots(result))


# -- the same rulings through the command line -----------------------------------------

CLI_CASES = {
    "d3 minimum raise": flop(["A bet 5", "B raise 12"]),
    "d4 pot limit": flop(["A bet 5", "B raise 35", "C call"], structure="pot-limit"),
    "d5 cap": flop(["A bet 5", "B raise 10", "C raise 15", "D raise 20"], **LIMIT),
    "d8 partial ante": hand(["E 500", "B 500", "A 500", "S 6"], ["E fold", "B fold"], ante=10),
    "d9 full bet": flop(["A bet 20", "B all-in", "C call", "D fold"], seats=D9_SEATS),
    "d9 half bet": half_bet(
        ["Alice check", "Dianne check", "Carol all-in", "Joan call"], incomplete_raise="half-bet"
    ),
    "d10 side pots": hand(["A 500", "B 40", "C 100"], ["A all-in", "B call", "C call"]),
}


@pytest.mark.parametrize("name", sorted(CLI_CASES))
def test_it_gives_the_same_ruling_through_the_command_line(name):
    done = run_cli(CLI_CASES[name])

    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout) == adjudicate(CLI_CASES[name])
