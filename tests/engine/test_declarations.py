"""Chips and declarations (D12): what a player's chips and words count as, one test for each
example of the sources, naming the passage, and the contract's refusals of the new fields.

The TDA examples are those of the Poker TDA Rules, 2024 version 1.0, and its Illustration
Addendum; "the Vietnamese page" is the source document 003 (betting and raising rules).
"""

from __future__ import annotations

import json

import pytest

from tdsystem.engine.errors import RuleError
from tdsystem.engine.ruling import adjudicate, rule_on
from tests.engine._betting_helpers import hand, run_cli


def put_out(table: dict, player: str, **entry) -> dict:
    """``table`` with one more action: what ``player`` put out and said."""
    return {**table, "actions": [*table["actions"], {"player": player, **entry}]}


def counted(result: dict) -> dict:
    *_, last = result["counted"]
    return {k: v for k, v in last.items() if k not in ("action", "player", "text")}


# A flop: A (button), B (small blind), C (big blind) call and check to the flop; B acts first.
def flop(bet: int, blinds=(250, 500), stacks=100_000, **settings) -> dict:
    seats = [f"A {stacks}", f"B {stacks}", f"C {stacks}"]
    return hand(seats, ["A call", "B call", "C check", f"B bet {bet}"], blinds=blinds, **settings)


PREFLOP_SEATS = ["BTN 100000", "SB 100000", "BB 100000", "UTG 100000", "UTG1 100000"]


def utg_raises_to_1100() -> dict:
    # TDA Addendum, rule 45, examples 1-B, 2 and 3: NLHE 250-500, UTG raises 600 to 1100.
    return hand(PREFLOP_SEATS, ["UTG raise 1100"], blinds=(250, 500))


# -- TDA 45: several chips, silently ------------------------------------------------------


def test_rule_45_example_1b_a_500_and_a_1000_facing_1100_is_a_call():
    result = adjudicate(put_out(utg_raises_to_1100(), "UTG1", chips=[500, 1000]))

    assert counted(result) == {"counts_as": "call", "returned": 400, "rule": "TDA 45"}
    assert result["next"]["call"] == 1100  # the button faces 1100, not a raise


def test_rule_45_example_2_a_1000_and_five_100s_is_a_full_raise_to_1700():
    result = adjudicate(
        put_out(utg_raises_to_1100(), "UTG1", chips=[1000, 100, 100, 100, 100, 100])
    )

    assert counted(result) == {"counts_as": "raise", "to": 1700, "rule": "TDA 45"}
    assert result["next"]["call"] == 1700


def test_rule_45_example_3_a_1000_and_three_100s_is_a_call_and_200_go_back():
    result = adjudicate(put_out(utg_raises_to_1100(), "UTG1", chips=[1000, 100, 100, 100]))

    assert counted(result) == {"counts_as": "call", "returned": 200, "rule": "TDA 45"}


def test_rule_45_example_1a_two_1000s_facing_1200_is_a_call():
    result = adjudicate(put_out(flop(1200), "C", chips=[1000, 1000]))

    assert counted(result) == {"counts_as": "call", "returned": 800, "rule": "TDA 45"}


@pytest.mark.parametrize(
    ("chips", "expected"),
    [
        # 4-A: one 1000 and three 500s over an opening 1400: the 50% threshold (2100) is
        # reached, a mandatory minimum raise to 2800.
        ([1000, 500, 500, 500], {"counts_as": "raise", "to": 2800, "rule": "TDA 45"}),
        # 4-B: one 1000 and two 500s: short of 2100, a call.
        ([1000, 500, 500], {"counts_as": "call", "returned": 600, "rule": "TDA 45"}),
    ],
)
def test_rule_45_examples_4a_and_4b_the_50_percent_threshold(chips, expected):
    assert counted(adjudicate(put_out(flop(1400), "C", chips=chips))) == expected


def test_rule_45_example_4_the_last_chips_beyond_the_call_are_all_in():
    # The same 1000 and two 500s as 4-B, but the player's last chips: all-in.
    table = flop(1400, stacks=2500)  # 2000 left after the 500 blind
    result = adjudicate(put_out(table, "C", chips=[1000, 500, 500]))

    assert counted(result) == {"counts_as": "all-in", "to": 2000, "rule": "TDA 45"}


def test_rule_45_ex2_the_last_chips_each_needed_for_the_call_are_a_call():
    # NLHE 25-50, post-flop A opens for 1050 and B puts out his last chips (two 1000s):
    # B calls unless raise or all-in was first declared.
    table = hand(
        ["A 10000", "B 2050", "C 10000"],
        ["A call", "B call", "C check", "B check"],
        blinds=(25, 50),
    )
    table = {**table, "actions": [*table["actions"], {"player": "C", "do": "bet", "to": 1050}]}
    table["actions"] += [{"player": "A", "do": "fold"}]
    result = adjudicate(put_out(table, "B", chips=[1000, 1000]))

    assert counted(result) == {"counts_as": "call", "returned": 950, "rule": "TDA 45"}
    assert next(p for p in result["players"] if p["name"] == "B")["stack"] == 950


def test_rule_61_525_put_out_to_get_change_is_a_raise_to_650():
    # "the opening bet is 325 to player A who silently puts out 525 (one 500 and one 25),
    # expecting 200 change. This is a raise to 650 under the multiple chip rule."
    result = adjudicate(put_out(flop(325, blinds=(25, 50)), "C", chips=[500, 25]))

    assert counted(result) == {"counts_as": "raise", "to": 650, "rule": "TDA 45"}


# -- TDA 44: one oversized chip -------------------------------------------------------------


def test_rule_44_one_oversized_chip_facing_the_big_blind_is_a_call():
    table = hand(["A 10000", "B 10000", "C 10000", "D 10000"], [], blinds=(100, 200))

    result = adjudicate(put_out(table, "D", chips=[500]))

    assert counted(result) == {"counts_as": "call", "returned": 300, "rule": "TDA 44"}


def test_rule_44_raise_declared_with_one_chip_is_the_most_the_chip_allows():
    table = hand(["A 10000", "B 10000", "C 10000", "D 10000"], [], blinds=(100, 200))

    result = adjudicate(put_out(table, "D", chips=[1000], said="raise"))

    assert counted(result) == {"counts_as": "raise", "to": 1000, "rule": "TDA 44"}


def test_rule_44_one_chip_opening_the_betting_is_a_bet_of_the_chip():
    table = hand(
        ["A 10000", "B 10000", "C 10000"], ["A call", "B call", "C check"], blinds=(100, 200)
    )

    result = adjudicate(put_out(table, "B", chips=[1000]))

    assert counted(result) == {"counts_as": "bet", "to": 1000, "rule": "TDA 44"}


def test_the_vietnamese_page_chips_above_the_bet_without_raise_are_a_call():
    # "When a player puts chips into the pot worth more than the bet of the round, they must
    # declare a raise, or the bet is a call": one larger chip.
    result = adjudicate(put_out(flop(200, blinds=(50, 100)), "C", chips=[1000]))

    assert counted(result)["counts_as"] == "call"


# -- TDA 43 and 40-C: an amount alone ---------------------------------------------------------


@pytest.mark.parametrize("entry", [{"said": 1400}, {"chips": [1000, 100, 100, 100, 100]}])
def test_rule_43_fourteen_hundred_over_a_1000_opener_is_a_call(entry):
    # "NLHE, opening bet is 1000, verbally declaring 'Fourteen hundred' or silently pushing out
    # 1400 in chips are both calls unless raise is first declared."
    result = adjudicate(put_out(flop(1000), "C", **entry))

    assert counted(result)["counts_as"] == "call"
    assert counted(result).get("returned") == (400 if "chips" in entry else None)


def test_rule_43b_raise_and_an_amount_is_the_total():
    # "A opens for 2000, B declares 'Raise, eight thousand.' The total bet is 8000."
    result = adjudicate(put_out(flop(2000), "C", said="raise", to=8000))

    assert counted(result) == {"counts_as": "raise", "to": 8000, "rule": "TDA 43"}


def test_rule_52_a_declared_raise_below_the_minimum_is_made_the_minimum():
    result = adjudicate(put_out(flop(600, blinds=(100, 200)), "C", said="raise", to=1000))

    assert counted(result) == {"counts_as": "raise", "to": 1200, "rule": "TDA 52"}


def test_rule_52b_a_pot_limit_overbet_is_brought_down_to_the_pot():
    table = flop(100, blinds=(50, 100), structure="pot-limit")  # 300 in the pot, 100 bet

    result = adjudicate(put_out(table, "C", said="raise", to=5000))

    assert counted(result) == {"counts_as": "raise", "to": 600, "rule": "TDA 52"}


# -- declarations in turn (TDA 50, 51, 55, 54-D) -------------------------------------------


def test_rule_51a_example_3_call_declared_is_the_full_call():
    # "A opens for 2000, B raises to 8000, C declares 'call'": C must call the full 8000.
    table = hand(
        ["A 100000", "B 100000", "C 100000", "D 100000"],
        ["D call", "A call", "B call", "C check", "B bet 2000", "C raise 8000"],
        blinds=(1000, 2000),
    )
    result = adjudicate(put_out(table, "D", said="call", chips=[1000]))

    assert counted(result) == {"counts_as": "call", "rule": "TDA 51"}
    assert next(p for p in result["players"] if p["name"] == "D")["committed"] == 10000


def test_rule_51b_example_2_an_undercall_of_the_opening_bet_is_a_full_call():
    # "Post-flop 4 players remain. A opens for 8000, B silently puts out 2000": full call.
    table = hand(
        ["A 100000", "B 100000", "C 100000", "D 100000"],
        ["D call", "A call", "B call", "C check", "B bet 8000"],
        blinds=(1000, 2000),
    )
    result = adjudicate(put_out(table, "C", chips=[1000, 1000]))

    assert counted(result) == {"counts_as": "call", "rule": "TDA 51"}
    assert "undercall of the opening bet is a full call" in result["counted"][0]["text"]


def test_rule_51b_example_1_an_undercall_of_a_raise_multiway_is_the_floors_call():
    table = hand(
        ["A 100000", "B 100000", "C 100000", "D 100000"],
        ["D call", "A call", "B call", "C check", "B bet 2000", "C raise 8000"],
        blinds=(1000, 2000),
    )
    result = rule_on(put_out(table, "D", chips=[1000, 1000]))

    text = result.counted[0]["text"]
    assert result.counted[0]["counts_as"] == "call"
    assert "the floor may instead let D forfeit the 2000 and fold" in text


def test_rule_55_call_with_no_bet_is_a_check_and_raise_a_minimum_bet():
    table = hand(["A 1000", "B 1000", "C 1000"], ["A call", "B call", "C check"], blinds=(5, 10))

    called = adjudicate(put_out(table, "B", said="call"))
    raised = adjudicate(put_out(table, "B", said="raise"))

    assert counted(called) == {"counts_as": "check", "rule": "TDA 55"}
    assert counted(raised) == {"counts_as": "bet", "to": 10, "rule": "TDA 55"}


def test_rule_55_check_facing_a_bet_is_refused_for_the_floor_to_enter_call_or_fold():
    with pytest.raises(RuleError) as refused:
        adjudicate(put_out(flop(500, rule_set="tda-2024"), "C", said="check"))

    assert str(refused.value) == (
        "action 4: C said check facing a bet of 500: that binds C to call or fold, not to "
        "raise; enter the call or the fold (TDA 55)"
    )


def test_rule_54d_pot_in_no_limit_binds_to_a_minimum_bet():
    table = hand(["A 1000", "B 1000", "C 1000"], ["A call", "B call", "C check"], blinds=(5, 10))

    assert counted(adjudicate(put_out(table, "B", said="pot"))) == {
        "counts_as": "bet",
        "to": 10,
        "rule": "TDA 54",
    }


def test_pot_in_pot_limit_is_the_pot_limit_maximum():
    table = flop(100, blinds=(50, 100), structure="pot-limit")

    assert counted(adjudicate(put_out(table, "C", said="pot"))) == {
        "counts_as": "raise",
        "to": 600,
        "rule": "TDA 54",
    }


# -- TDA 42 and 56: string bets --------------------------------------------------------------


def test_rule_56_chips_of_a_second_motion_are_a_string_bet_and_go_back():
    # The Vietnamese page: "players may not string raise: put all the chips in at once or
    # declare the action before the chips go in".
    result = adjudicate(put_out(flop(500, blinds=(100, 200)), "C", chips=[[500], [1000]]))

    entry = counted(result)
    assert entry == {"counts_as": "call", "returned": 1000, "rule": "TDA 44"}
    assert (
        "the 1000 C added in another motion is a string bet and goes back"
        in (result["counted"][0]["text"])
    )


def test_a_raise_declared_first_may_come_in_several_motions():
    result = adjudicate(
        put_out(flop(500, blinds=(100, 200)), "C", said="raise", to=1500, chips=[[500], [1000]])
    )

    assert counted(result) == {"counts_as": "raise", "to": 1500, "rule": "TDA 43"}


# -- TDA 53: action out of turn -----------------------------------------------------------

SEATS_53 = [f"S{i} 10000" for i in range(1, 7)]
PRE_53 = ["S4 call", "S5 call", "S6 call", "S1 call", "S2 call", "S3 check"]


def example_53(*after: dict) -> dict:
    # Addendum 53-A, example 1: "50-100. Post flop Seat 3 opens for 300, Seat 4 folds,
    # action is on Seat 5 when Seat 6 declares 'raise to eight hundred'."
    table = hand(SEATS_53, [*PRE_53, "S2 check", "S3 bet 300", "S4 fold"], blinds=(50, 100))
    oot = {"player": "S6", "do": "raise", "to": 800, "out_of_turn": True}
    return {**table, "actions": [*table["actions"], oot, *after]}


def test_rule_53_example_1_the_raise_out_of_turn_stands_when_seat_5_calls():
    result = adjudicate(example_53({"player": "S5", "do": "call"}))

    assert counted(result) == {"counts_as": "raise", "to": 800, "rule": "TDA 53"}
    assert result["next"]["player"] == "S1" and result["next"]["call"] == 800


def test_rule_53_example_1_seat_6_has_every_option_when_seat_5_raises():
    result = adjudicate(example_53({"player": "S5", "do": "raise", "to": 600}))

    nxt = result["next"]
    assert (nxt["player"], nxt["call"], nxt["min_raise_to"]) == ("S6", 600, 900)
    assert "counted" not in result


def test_rule_53_example_2_a_check_out_of_turn_and_a_bet_in_between():
    table = hand(SEATS_53, [*PRE_53, "S2 check", "S3 check", "S4 check"], blinds=(50, 100))
    oot = {"player": "S6", "do": "check", "out_of_turn": True}
    checks = {**table, "actions": [*table["actions"], oot, {"player": "S5", "do": "check"}]}
    bets = {**table, "actions": [*table["actions"], oot, {"player": "S5", "do": "bet", "to": 300}]}

    assert adjudicate(checks)["next"]["player"] == "S1"  # S6's check stood
    nxt = adjudicate(bets)["next"]
    assert (nxt["player"], nxt["call"], nxt["min_raise_to"]) == ("S6", 300, 600)


def test_rule_53_a_fold_out_of_turn_is_binding_whatever_happens():
    result = adjudicate(
        example_53()
        | {
            "actions": [
                *example_53()["actions"][:-1],
                {"player": "S6", "do": "fold", "out_of_turn": True},
                {"player": "S5", "do": "raise", "to": 600},
            ]
        }
    )

    assert next(p for p in result["players"] if p["name"] == "S6")["status"] == "folded"
    assert counted(result) == {"counts_as": "fold", "rule": "TDA 53"}


# -- the contract: new fields checked, old answers unchanged --------------------------------


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"chips": []}, "chips: the values of the chips put out"),
        ({"chips": [100, 0]}, "chips: the values of the chips put out"),
        ({"chips": [[100], []]}, "chips: the values of the chips put out"),
        ({"chips": [1.5]}, "chips: the values of the chips put out"),
        ({"said": "maybe"}, "said: one of fold, check, call, bet, raise, all-in, pot"),
        ({"said": 0}, "said: one of fold, check, call, bet, raise, all-in, pot"),
        ({"said": "call", "to": 100}, "'to' goes with said bet or raise"),
        ({"said": "raise", "to": "8k"}, "'to' must be a positive whole number of chips"),
        ({"do": "call", "chips": [100]}, "do: give what the player did"),
        ({"do": "call", "out_of_turn": "yes"}, "out_of_turn: must be true or false"),
        ({"out_of_turn": True}, "an action needs 'do', or 'chips' or 'said'"),
        ({"chips": [1] * 501}, "chips: at most 500 chips in one action"),
        ({"chips": [100], "shout": True}, "unknown field 'shout'"),
    ],
)
def test_the_command_line_refuses_a_bad_declaration_naming_the_field(entry, message):
    done = run_cli(put_out(flop(500), "C", **entry))

    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert error.startswith("action 4: ") and message in error, error


def test_the_command_line_answers_what_chips_count_as():
    done = run_cli(put_out(utg_raises_to_1100(), "UTG1", chips=[500, 1000]))

    answer = json.loads(done.stdout)
    assert done.returncode == 0
    assert answer["counted"] == [
        {
            "action": 1,
            "player": "UTG1",
            "counts_as": "call",
            "returned": 400,
            "rule": "TDA 45",
            "text": "UTG1 put out 500 and 1000 without a word facing 1100 to call: every chip "
            "is needed for the call (without the smallest it is short), so it is a call (400 "
            "goes back)",
        }
    ]


def test_a_hand_of_plain_actions_has_no_counted_entry():
    assert "counted" not in adjudicate(utg_raises_to_1100())


def test_the_rule_sets_reading_of_silent_chips():
    # The reference article (big-bet games): several chips are a raise of all of them.
    table = put_out(flop(1400, silent_chips="full-amount"), "C", chips=[1000, 500, 500])

    assert counted(adjudicate(table))["counts_as"] == "raise"
    with pytest.raises(RuleError, match="silent_chips: must be one of fifty-percent"):
        adjudicate({**table, "silent_chips": "half"})
