"""``adjudicate`` reads each action as it replays it; its refusals must be those of reading
the whole hand first (``parse_hand``) and replaying it after (``rule_on``)."""

from __future__ import annotations

import copy
import random

import pytest

from tdsystem.engine.errors import RuleError
from tdsystem.engine.ruling import adjudicate, rule_on
from tests.engine._betting_oracle import hand_data, played_spec

HAND = {
    "structure": "no-limit",
    "blinds": [1, 2],
    "players": [
        {"name": "Ann", "stack": 100},
        {"name": "Bob", "stack": 50},
        {"name": "Cy", "stack": 80},
    ],
    "actions": [{"player": "Ann", "do": "raise", "to": 6}, {"player": "Bob", "do": "call"}],
}


def _refusals(hand: dict) -> tuple[str, str]:
    """What ``adjudicate`` refuses and what reading then replaying refuses."""
    with pytest.raises(RuleError) as played:
        adjudicate(hand)
    with pytest.raises(RuleError) as read_first:
        rule_on(hand)
    return str(played.value), str(read_first.value)


def _with_actions(*actions: object) -> dict:
    return {**HAND, "actions": list(actions)}


def test_it_refuses_an_entry_read_wrong_after_an_action_the_rules_refuse() -> None:
    hand = _with_actions({"player": "Ann", "do": "raise", "to": 3}, {"player": "Bob"})
    played, read_first = _refusals(hand)
    assert played == read_first == "action 1: missing field 'do'"


def test_it_refuses_a_bad_value_after_an_action_out_of_turn() -> None:
    hand = _with_actions({"player": "Cy", "do": "fold"}, {"player": "Bob", "do": "shove"})
    played, read_first = _refusals(hand)
    assert played == read_first
    assert played.startswith("action 1: 'do' must be one of")


def test_it_refuses_an_entry_read_wrong_before_the_table_settings() -> None:
    hand = {**_with_actions({"player": "Ann", "do": "call", "by": 2}), "blinds": [3, 2]}
    played, read_first = _refusals(hand)
    assert played == read_first == "action 0: unknown field 'by'"


def test_it_refuses_the_table_before_a_bad_value() -> None:
    hand = {**_with_actions({"player": "Ann", "do": "shove"}), "blinds": [3, 2]}
    played, read_first = _refusals(hand)
    assert played == read_first
    assert played.startswith("blinds: the small blind 3 is larger")


def test_it_refuses_a_bad_action_before_a_stud_bring_in_it_cannot_post() -> None:
    stud = {
        "game": "stud",
        "structure": "fixed-limit",
        "bets": [10, 20],
        "bring_in": 5,
        "bring_in_player": "Bob",
        "bring_in_completes": True,
        "ante": 1,
        "players": [{"name": "Ann", "stack": 100}, {"name": "Bob", "stack": 6}],
        "actions": [{"player": "Ann", "do": "call", "to": 5}],
    }
    played, read_first = _refusals(stud)
    assert played == read_first == "action 0: call takes no 'to'"
    del stud["actions"]
    played, read_first = _refusals(stud)
    assert played == read_first
    assert played.startswith("bring_in_completes: Bob has only 5")


def test_it_reads_an_entry_out_of_the_usual_shape_as_parse_hand_does() -> None:
    # A null "to" reads as none given; the actions after it are read and played as well.
    usual = _with_actions(
        {"player": "Ann", "do": "call"},
        {"player": "Bob", "do": "call"},
        {"player": "Cy", "do": "check"},
    )
    unusual = copy.deepcopy(usual)
    unusual["actions"][1]["to"] = None
    assert adjudicate(unusual) == adjudicate(usual) == rule_on(usual).as_dict()
    assert adjudicate(usual)["street"] == "flop"


def _spoiled(hand: dict, rng: random.Random) -> dict:
    hand = copy.deepcopy(hand)
    actions = hand["actions"]
    for _ in range(rng.randint(1, 3)):
        if not actions:
            break
        k = rng.randrange(len(actions))
        entry = actions[k]
        change = rng.randrange(7)
        if not isinstance(entry, dict):
            continue
        if change == 0:
            entry["do"] = rng.choice(("fold", "check", "call", "bet", "raise", "all-in", "shove"))
        elif change == 1:
            entry["to"] = rng.choice((None, 0, 1, 7, 50, "10", True))
        elif change == 2:
            entry.pop(rng.choice(("player", "do", "to")), None)
        elif change == 3:
            entry["player"] = rng.choice(("P0", "P1", "P2", "Nobody", 3, ["P1"]))
        elif change == 4:
            entry["extra"] = 1
        elif change == 5:
            actions[k] = rng.choice((None, "fold", ["P1", "fold"]))
        else:
            del actions[rng.randrange(len(actions)) :]
    if rng.random() < 0.2:
        hand["blinds"] = rng.choice(([3, 2], [0, 2], "2"))
    return hand


def test_spoiled_hands_are_refused_or_answered_as_when_read_before_the_replay() -> None:
    rng = random.Random(5)
    for _ in range(600):
        hand = hand_data(played_spec(rng))
        hand = _spoiled(hand, rng)
        try:
            expected: object = rule_on(hand).as_dict()
        except RuleError as refusal:
            expected = str(refusal)
        try:
            got: object = adjudicate(hand)
        except RuleError as refusal:
            got = str(refusal)
        assert got == expected, hand
