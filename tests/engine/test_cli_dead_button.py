"""Dead button hands on the command line (D11, TDA 32): ``dead_small_blind`` and
``dead_button``, run as ``python -m tdsystem.engine adjudicate -``.

pokerkit 0.7.7 plays the same hands where it can, as an independent oracle:
- a dead button is an ordinary hand to pokerkit once the empty seat is left out: its seat 0
  posts the small blind and its last seat acts last, as the player before the empty button;
- a dead small blind is pokerkit's small blind of 0, posted by our button: the preflop order
  and figures are the same (after the flop pokerkit would start with that button, so only the
  preflop is compared);
- both at once is pokerkit's single blind posted by its seat 0.
In pot limit the dead small blind counts in the pot here (TDA 54-B) and not in pokerkit, so
our maximum is pokerkit's plus the small blind.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from pokerkit import Automation, BettingStructure, Deck, Mode, Opening, StandardHighHand
from pokerkit import State as PkState
from pokerkit import Street as PkStreet

from tests.engine._betting_helpers import hand, player, pots, run_cli

_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
)


def answer(data: dict[str, Any]) -> dict[str, Any]:
    done = run_cli(data)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""
    out = json.loads(done.stdout)
    starts = sum(p["stack"] for p in data["players"])
    assert sum(p["amount"] for p in out["pots"]) + sum(p["stack"] for p in out["players"]) == starts
    return out


def error_of(data: dict[str, Any]) -> str:
    done = run_cli(data)
    assert done.returncode == 2, done.stdout
    assert done.stderr == ""
    out = json.loads(done.stdout)
    assert list(out) == ["error"]
    return out["error"]


def pokerkit_table(data: dict[str, Any], blinds: tuple[int, ...]) -> PkState:
    """The same players in pokerkit, in the same order (see the module text)."""
    bb = data["blinds"][-1]
    structure = (
        BettingStructure.POT_LIMIT
        if data["structure"] == "pot-limit"
        else BettingStructure.NO_LIMIT
    )
    street = PkStreet(True, (), 3, False, Opening.POSITION, bb, None)
    streets = (
        PkStreet(False, (False, False), 0, False, Opening.POSITION, bb, None),
        street,
        PkStreet(True, (), 1, False, Opening.POSITION, bb, None),
        PkStreet(True, (), 1, False, Opening.POSITION, bb, None),
    )
    stacks = tuple(p["stack"] for p in data["players"])
    return PkState(
        _AUTOMATIONS,
        Deck.STANDARD,
        (StandardHighHand,),
        streets,
        structure,
        True,
        data.get("ante", 0),
        blinds,
        0,
        stacks,
        len(stacks),
        mode=Mode.TOURNAMENT,
    )


def compare_with_pokerkit(
    data: dict[str, Any], blinds: tuple[int, ...], *, streets: int = 4, pot_extra: int = 0
) -> None:
    """Replay ``data``'s actions one at a time through the command line and pokerkit: the
    same player to act, call and raise range at every decision of the first ``streets``."""
    pk = pokerkit_table(data, blinds)
    names = [p["name"] for p in data["players"]]
    moves = data["actions"]
    for k in range(len(moves) + 1):
        out = answer({**data, "actions": moves[:k]})
        if ["preflop", "flop", "turn", "river"].index(out["street"]) >= streets:
            break
        nxt = out["next"]
        assert pk.actor_index == names.index(nxt["player"]), (k, nxt)
        assert pk.checking_or_calling_amount == nxt["call"], (k, nxt)
        assert pk.min_completion_betting_or_raising_to_amount == nxt["min_raise_to"], (k, nxt)
        assert pk.max_completion_betting_or_raising_to_amount + pot_extra == nxt["max_raise_to"]
        if k == len(moves):
            break
        move = moves[k]
        if move["do"] == "fold":
            pk.fold()
        elif move["do"] in ("check", "call"):
            pk.check_or_call()
        else:
            pk.complete_bet_or_raise_to(move["to"])


# -- a dead small blind ----------------------------------------------------------------------


def test_it_posts_no_small_blind_and_gives_the_big_blind_to_the_seat_after_the_button():
    data = hand(
        ["Ellen 500", "Alice 500", "Carol 500", "Dianne 500"],
        ["Carol call", "Dianne raise 24", "Ellen fold", "Alice call", "Carol call"],
        ante=1,
        dead_small_blind=True,
    )

    out = answer(data)

    assert out["street"] == "flop"
    assert out["next"]["player"] == "Alice"  # first after the button, whose seat is live
    assert [player(out, n)["committed"] for n in ("Ellen", "Alice", "Carol", "Dianne")] == [
        1,
        25,
        25,
        25,
    ]
    assert pots(out) == [(76, ["Alice", "Carol", "Dianne"])]  # 4 antes and 3 x 24: no SB


def test_a_dead_small_blind_preflop_matches_pokerkit_with_a_small_blind_of_zero():
    data = hand(
        ["Ellen 500", "Alice 500", "Carol 300", "Dianne 500", "Joan 500"],
        ["Carol call", "Dianne raise 20", "Joan call", "Ellen raise 60", "Alice fold"],
        dead_small_blind=True,
    )

    compare_with_pokerkit(data, (0, 8), streets=1)


def test_the_big_blind_ante_is_posted_by_the_big_blind_when_the_small_blind_is_dead():
    data = hand(
        ["Ellen 500", "Alice 500", "Carol 500"],
        ante=8,
        ante_type="big-blind",
        dead_small_blind=True,
    )

    out = answer(data)

    assert player(out, "Alice")["committed"] == 16  # the big blind and the table's ante
    assert player(out, "Ellen")["committed"] == 0
    assert out["next"] == {
        "player": "Carol",
        "check": False,
        "call": 8,
        "min_raise_to": 16,
        "max_raise_to": 500,
    }


def test_a_button_ante_is_posted_by_the_live_button_when_only_the_small_blind_is_dead():
    out = answer(
        hand(
            ["Ellen 500", "Alice 500", "Carol 500"],
            ante=8,
            ante_type="button",
            dead_small_blind=True,
        )
    )

    assert player(out, "Ellen")["committed"] == 8
    assert sum(p["amount"] for p in out["pots"]) == 16


def test_fixed_limit_with_a_dead_small_blind_keeps_one_raise_size():
    data = hand(
        ["Ellen 500", "Alice 500", "Carol 500"],
        ["Carol raise 16", "Ellen call"],
        structure="fixed-limit",
        dead_small_blind=True,
    )

    out = answer(data)

    assert out["next"] == {
        "player": "Alice",
        "check": False,
        "call": 8,
        "min_raise_to": 24,
        "max_raise_to": 24,
    }
    assert pots(out) == [(40, ["Ellen", "Alice", "Carol"])]


# -- a dead button ---------------------------------------------------------------------------


def test_a_dead_button_makes_the_first_player_listed_the_small_blind():
    data = hand(
        ["Bob 500", "Alice 500", "Carol 500", "Dianne 500"],
        ["Carol call", "Dianne call", "Bob call", "Alice check"],
        dead_button=True,
    )

    out = answer(data)

    assert out["street"] == "flop"
    assert out["next"]["player"] == "Bob"  # the small blind, first after the empty button
    assert pots(out) == [(32, ["Bob", "Alice", "Carol", "Dianne"])]


def test_a_dead_button_hand_matches_pokerkit_street_after_street():
    data = hand(
        ["Bob 500", "Alice 500", "Carol 200", "Dianne 500"],
        [
            "Carol raise 24",
            "Dianne call",
            "Bob fold",
            "Alice call",
            "Alice check",
            "Carol bet 40",
            "Dianne raise 120",
            "Alice fold",
            "Carol call",
        ],
        dead_button=True,
    )

    compare_with_pokerkit(data, (4, 8))


def test_nobody_posts_a_button_ante_on_an_empty_button_seat():
    out = answer(
        hand(
            ["Bob 500", "Alice 500", "Carol 500"],
            ante=8,
            ante_type="button",
            dead_button=True,
        )
    )

    assert [player(out, n)["committed"] for n in ("Bob", "Alice", "Carol")] == [4, 8, 0]
    assert pots(out) == [(12, ["Bob", "Alice", "Carol"])]


def test_a_dead_button_with_a_single_blind_has_the_first_player_listed_post_it():
    out = answer(hand(["Alice 500", "Carol 500", "Dianne 500"], blinds=[8], dead_button=True))

    assert player(out, "Alice")["committed"] == 8
    assert out["next"]["player"] == "Carol"


# -- both ------------------------------------------------------------------------------------


def test_with_both_the_first_player_listed_is_the_big_blind():
    data = hand(
        ["Alice 500", "Carol 500", "Dianne 500"],
        ["Carol call", "Dianne call", "Alice check", "Alice check", "Carol check"],
        ante=1,
        dead_small_blind=True,
        dead_button=True,
    )

    out = answer(data)

    assert out["street"] == "flop"
    assert out["next"]["player"] == "Dianne"  # last: the player before the empty button
    assert pots(out) == [(27, ["Alice", "Carol", "Dianne"])]


def test_both_dead_matches_pokerkit_with_one_blind_on_its_first_seat():
    data = hand(
        ["Alice 500", "Carol 500", "Dianne 250", "Joan 500"],
        [
            "Carol raise 20",
            "Dianne call",
            "Joan fold",
            "Alice call",
            "Alice check",
            "Carol bet 30",
            "Dianne raise 90",
            "Alice fold",
            "Carol call",
        ],
        dead_small_blind=True,
        dead_button=True,
    )

    compare_with_pokerkit(data, (8,))


def test_both_dead_with_a_big_blind_ante_and_a_button_ante():
    bba = answer(
        hand(
            ["Alice 500", "Carol 500", "Dianne 500"],
            ante=8,
            ante_type="big-blind",
            dead_small_blind=True,
            dead_button=True,
        )
    )
    button = answer(
        hand(
            ["Alice 500", "Carol 500", "Dianne 500"],
            ante=8,
            ante_type="button",
            dead_small_blind=True,
            dead_button=True,
        )
    )

    assert [p["committed"] for p in bba["players"]] == [16, 0, 0]
    assert [p["committed"] for p in button["players"]] == [8, 0, 0]


# -- heads-up and other bad input ------------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"dead_small_blind": True},
        {"dead_button": True},
        {"dead_small_blind": True, "dead_button": True},
    ],
)
def test_heads_up_either_field_is_bad_input(fields):
    message = error_of(hand(["Ellen 500", "Alice 500"], **fields))

    assert "heads-up" in message
    assert message.startswith("dead_")


def test_false_fields_leave_a_heads_up_hand_alone():
    out = answer(hand(["Ellen 500", "Alice 500"], dead_small_blind=False, dead_button=False))

    assert out["next"]["player"] == "Ellen"  # the button, who posted the small blind


@pytest.mark.parametrize("value", ["yes", 1, [True]])
def test_a_field_that_is_not_true_or_false_is_bad_input(value):
    message = error_of(hand(["Ellen 500", "Alice 500", "Carol 500"], dead_button=value))

    assert message == "dead_button: must be true or false"


def test_a_dead_small_blind_in_a_single_blind_game_is_bad_input():
    message = error_of(
        hand(["Ellen 500", "Alice 500", "Carol 500"], blinds=[8], dead_small_blind=True)
    )

    assert message.startswith("dead_small_blind: the game has a single blind")


# -- pot limit: the dead small blind counts in the maximum (TDA 54-B) ------------------------


def test_pot_limit_counts_a_dead_small_blind_in_the_maximum_but_not_in_the_pots():
    data = hand(
        ["Ellen 500", "Alice 500", "Carol 500", "Dianne 500"],
        structure="pot-limit",
        dead_small_blind=True,
    )

    out = answer(data)

    # 8 faced + (big blind 8 + dead small blind 4 + the call 8) = 28
    assert out["next"] == {
        "player": "Carol",
        "check": False,
        "call": 8,
        "min_raise_to": 16,
        "max_raise_to": 28,
    }
    assert pots(out) == [(8, ["Ellen", "Alice", "Carol", "Dianne"])]


def test_pot_limit_dead_small_blind_is_pokerkit_plus_the_small_blind_preflop():
    data = hand(
        ["Ellen 500", "Alice 500", "Carol 500", "Dianne 500"],
        ["Carol call", "Dianne raise 32", "Ellen call"],
        structure="pot-limit",
        dead_small_blind=True,
    )

    compare_with_pokerkit(data, (0, 8), streets=1, pot_extra=4)


def test_pot_limit_after_the_flop_counts_only_chips_put_in():
    data = hand(
        ["Ellen 500", "Alice 500", "Carol 500"],
        ["Carol call", "Ellen call", "Alice check"],
        structure="pot-limit",
        dead_small_blind=True,
    )

    out = answer(data)

    assert out["street"] == "flop"
    assert out["next"]["max_raise_to"] == 24  # the pot of 24 really put in
    assert pots(out) == [(24, ["Ellen", "Alice", "Carol"])]


def test_the_explained_maximum_says_the_dead_small_blind_counts_as_if_posted():
    data = hand(
        ["Ellen 500", "Alice 500", "Carol 500"],
        structure="pot-limit",
        pot_limit_preflop="assumed-call",
        dead_small_blind=True,
    )

    done = run_cli(data, "explain", "-")

    out = json.loads(done.stdout)
    assert done.returncode == 0
    assert out["next"]["max_raise_to"] == 28  # no small blind to assume a call from
    (why,) = [r["text"] for r in out["next"]["reasons"] if r["rule"] == "D4"]
    assert why.endswith("; the dead small blind counts as if posted (TDA 54-B)")
    assert {"rule": "D11", "text": out["notes"][0]["text"]} == out["notes"][0]
    assert out["notes"][0]["text"].startswith("dead small blind: nobody posts the small blind")
