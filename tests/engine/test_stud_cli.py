"""A stud hand through ``python -m tdsystem.engine adjudicate``, and stud input it refuses."""

from __future__ import annotations

import json

import pytest

from tests.engine._betting_helpers import actions, players, run_cli

HAND = {
    "game": "stud",
    "structure": "fixed-limit",
    "bets": [10, 20],
    "ante": 1,
    "bring_in": 3,
    "bring_in_player": "Bob",
    "raise_cap": 3,
    "first_to_act": {"fourth": "Dan"},
    "players": players("Ann 200", "Bob 200", "Cat 200", "Dan 200"),
    "actions": actions(
        "Cat call", "Dan raise 10", "Ann fold", "Bob call", "Cat call", "Dan bet 10", "Bob call"
    ),
}


def test_it_rules_on_a_stud_hand():
    done = run_cli(HAND)

    assert done.returncode == 0, done.stdout
    assert done.stderr == ""
    assert json.loads(done.stdout) == {
        "street": "fourth",
        "next": {
            "player": "Cat",
            "check": False,
            "call": 10,
            "min_raise_to": 20,
            "max_raise_to": 20,
        },
        "pots": [{"amount": 54, "eligible": ["Bob", "Cat", "Dan"]}],
        "players": [
            {"name": "Ann", "stack": 199, "committed": 1, "status": "folded"},
            {"name": "Bob", "stack": 179, "committed": 21, "status": "active"},
            {"name": "Cat", "stack": 189, "committed": 11, "status": "active"},
            {"name": "Dan", "stack": 179, "committed": 21, "status": "active"},
        ],
    }


def test_it_explains_a_stud_hand():
    done = run_cli({**HAND, "actions": []}, "explain", "-")

    assert done.returncode == 0, done.stdout
    reasons = json.loads(done.stdout)["next"]["reasons"]
    assert reasons[0]["rule"] == "D5" and "completed to the small bet, 10" in reasons[0]["text"]


def test_it_answers_exit_2_on_bad_stud_input():
    for change, part in (
        ({"blinds": [5, 10]}, "blinds: a stud hand has no blinds"),
        ({"bring_in": 12}, "less than the small bet 10"),
        ({"bring_in_player": 3}, "bring_in_player"),
        ({"first_to_act": {"fourth": "Zed"}}, "first_to_act.fourth: unknown player"),
        ({"first_to_act": {"fourth": "Ann"}}, "Ann is out of the hand"),
    ):
        done = run_cli({**HAND, **change})

        assert done.returncode == 2, (change, done.stdout)
        assert done.stderr == ""
        assert part in json.loads(done.stdout)["error"], (change, done.stdout)


@pytest.mark.parametrize(
    ("ante", "message"),
    [
        (-1, "ante: must be a whole number of chips, 0 or more, got -1"),
        (0.5, "ante: must be a whole number of chips, 0 or more, got 0.5"),
        ("1", "ante: must be a whole number of chips, 0 or more, got '1'"),
        (True, "ante: must be a whole number of chips, 0 or more, got True"),
    ],
)
def test_it_refuses_an_ante_that_is_not_whole_chips(ante, message):
    # A negative ante made chips from nothing (a pot of -1), a half chip fractional stacks,
    # text an internal error naming no field.
    done = run_cli({**HAND, "ante": ante})

    assert (done.returncode, json.loads(done.stdout)) == (2, {"error": message})


def test_it_refuses_an_unknown_short_all_in_rule():
    done = run_cli({**HAND, "incomplete_raise": "quarter-bet"})

    assert done.returncode == 2
    assert json.loads(done.stdout) == {
        "error": "incomplete_raise: must be one of full-bet, half-bet, got 'quarter-bet'"
    }


def test_it_still_names_the_first_fault_of_a_hand_refused_before():
    # A bad bring-in was refused before the ante was checked: it still is.
    done = run_cli({**HAND, "ante": -1, "bring_in": 10})

    assert json.loads(done.stdout)["error"].startswith("bring_in:")
