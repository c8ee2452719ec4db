"""Reading a hand's JSON: the spec it gives and which fault it names first.

``parse_hand`` checks the players' and the actions' values while reading them and builds
the spec from the fields it read; these hold it to ``HandSpec(...)`` built field by field.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from tdsystem.engine.errors import RuleError
from tdsystem.engine.spec import Action, HandSpec, PlayerSpec, parse_hand, read_hand

HAND = {
    "structure": "no-limit",
    "blinds": [1, 2],
    "players": [{"name": "Ann", "stack": 100}, {"name": "Bob", "stack": 50}],
    "actions": [{"player": "Ann", "do": "raise", "to": 6}, {"player": "Bob", "do": "call"}],
}


def _refusal(hand: dict) -> str:
    """The refusal of ``parse_hand``, which ``read_hand`` (adjudicate's reading) must share."""
    with pytest.raises(RuleError) as caught:
        parse_hand(hand)
    with pytest.raises(RuleError) as read:
        read_hand(hand)
    assert str(read.value) == str(caught.value)
    return str(caught.value)


def test_it_reads_the_spec_built_field_by_field() -> None:
    spec = parse_hand({**HAND, "ante": None})
    built = HandSpec(
        structure="no-limit",
        blinds=(1, 2),
        players=(PlayerSpec("Ann", 100), PlayerSpec("Bob", 50)),
        actions=(Action("Ann", "raise", 6), Action("Bob", "call")),
    )
    assert spec == built
    assert hash(spec) == hash(built)
    assert repr(spec) == repr(built)
    assert dataclasses.replace(spec, ante=1) == dataclasses.replace(built, ante=1)


def test_it_stays_frozen() -> None:
    spec = parse_hand(HAND)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.ante = 5  # type: ignore[misc]


def test_it_names_the_blinds_before_a_bad_action() -> None:
    hand = {**HAND, "blinds": [3, 2], "actions": [{"player": "Ann", "do": "shove"}]}
    assert _refusal(hand) == "blinds: the small blind 3 is larger than the big blind 2 (D7)"


def test_it_names_a_bad_player_before_a_bad_action() -> None:
    hand = {
        **HAND,
        "players": [{"name": "Ann", "stack": 0}, {"name": "Bob", "stack": 50}],
        "actions": [{"player": "Ann", "do": "bet"}],
    }
    assert _refusal(hand) == "players[0].stack: must be a positive whole number of chips, got 0"


def test_it_names_a_player_listed_twice_after_the_limit_settings() -> None:
    hand = {
        **HAND,
        "players": [{"name": "Ann", "stack": 10}, {"name": "Ann", "stack": 50}],
        "raise_cap": 3,
    }
    assert _refusal(hand) == "raise_cap: only a fixed-limit game caps the raises"
    del hand["raise_cap"]
    assert _refusal(hand) == "players: Ann is listed twice"


def test_it_names_an_action_read_wrong_before_the_table_settings() -> None:
    hand = {**HAND, "blinds": [3, 2], "actions": [{"player": "Ann"}]}
    assert _refusal(hand) == "action 0: missing field 'do'"


def test_it_names_the_first_bad_action_by_its_index() -> None:
    hand = {
        **HAND,
        "actions": [
            {"player": "Ann", "do": "call"},
            {"player": "Bob", "do": "raise"},
            {"player": "Ann", "do": "fold", "to": 3},
        ],
    }
    assert _refusal(hand) == "action 1: raise needs 'to', the player's total for the round"


def test_it_survives_pickling_and_copying() -> None:
    spec = parse_hand(HAND)
    assert pickle.loads(pickle.dumps(spec)) == spec
    assert copy.deepcopy(spec) == spec
    assert pickle.loads(pickle.dumps(spec)).ante == 0  # a default read from the class


def test_read_hand_gives_the_spec_without_its_actions_and_the_actions_beside_it() -> None:
    spec, moves = read_hand({**HAND, "ante": None})
    parsed = parse_hand(HAND)
    assert spec == dataclasses.replace(parsed, actions=())
    assert moves == (("Ann", "raise", 6), ("Bob", "call", None)) == parsed.actions
    assert read_hand({**HAND, "actions": None}) == (dataclasses.replace(parsed, actions=()), ())


def test_every_field_is_set_in_the_order_of_the_class() -> None:
    # The same layout for every hand read, given fields or not (a default is not read from
    # the class), so the spec's fields read alike from hand to hand. The fields the contract
    # gained later are set only when given: a plain hand never reads them.
    later = {"rule_set", "raise_cap_heads_up", "silent_chips", "spread", "cap"}
    later |= {"straddles", "kill", "missed_blinds"}
    names = [field.name for field in dataclasses.fields(HandSpec) if field.name not in later]
    assert list(vars(parse_hand(HAND))) == names
    assert list(vars(parse_hand({"players": HAND["players"], **HAND, "ante": 2}))) == names
    extended = parse_hand({**HAND, "rule_set": "tda-2026"})
    assert extended.rule_set == "tda-2026" and extended.extras and extended.cap is None
