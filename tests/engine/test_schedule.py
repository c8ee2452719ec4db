"""The figures of a level for printed schedules and the clock (D4)."""

from __future__ import annotations

import dataclasses

import pytest

from tdsystem.engine.errors import RuleError
from tdsystem.engine.ruling import adjudicate
from tdsystem.engine.schedule import LevelValues, level_values


def test_it_gives_the_no_limit_figures():
    values = level_values(structure="no-limit", small_blind=100, big_blind=200)

    assert values == LevelValues(
        small_blind=100,
        big_blind=200,
        ante=0,
        ante_type="each",
        min_raise_to=400,
        max_raise_to=None,
        assumption="first to act preflop, 9 players, no ante",
    )


def test_it_gives_7_small_blinds_as_the_true_pot_maximum():
    values = level_values(structure="pot-limit", small_blind=1, big_blind=2)

    assert (values.min_raise_to, values.max_raise_to) == (4, 7)
    assert values.assumption == "first to act preflop, 9 players, no ante, true pot"


def test_it_gives_4_big_blinds_with_the_assumed_call():
    values = level_values(
        structure="pot-limit", small_blind=2, big_blind=5, pot_limit_preflop="assumed-call"
    )

    assert values.max_raise_to == 20
    assert "small blind counted as called" in values.assumption


def test_it_counts_every_players_ante_for_the_table_size():
    nine = level_values(structure="pot-limit", small_blind=100, big_blind=200, ante=25)
    six = level_values(structure="pot-limit", small_blind=100, big_blind=200, ante=25, table_size=6)

    assert nine.max_raise_to == 200 + (9 * 25 + 300 + 200)
    assert six.max_raise_to == 200 + (6 * 25 + 300 + 200)
    assert nine.assumption == "first to act preflop, 9 players, every player antes 25, true pot"


@pytest.mark.parametrize("ante_type", ["big-blind", "big-blind-ante-first", "button"])
def test_it_counts_a_single_ante_for_the_table_once(ante_type):
    values = level_values(
        structure="pot-limit", small_blind=100, big_blind=200, ante=200, ante_type=ante_type
    )

    assert values.max_raise_to == 200 + (200 + 300 + 200)
    assert values.ante_type == ante_type
    assert "antes 200 for the table" in values.assumption


def test_it_gives_the_fixed_limit_raise():
    values = level_values(structure="fixed-limit", small_blind=4, big_blind=8, bets=(8, 16))

    assert (values.min_raise_to, values.max_raise_to) == (16, None)


def test_it_ignores_bets_outside_fixed_limit():
    values = level_values(structure="no-limit", small_blind=4, big_blind=8, bets=(8, 16))

    assert values.min_raise_to == 16


def test_it_gives_the_heads_up_figures_for_the_small_blind():
    values = level_values(structure="pot-limit", small_blind=1, big_blind=2, table_size=2)

    assert values.max_raise_to == 6
    assert values.assumption.startswith("first to act preflop, 2 players")


@pytest.mark.parametrize(
    ("structure", "blinds", "ante", "ante_type", "seats"),
    [
        ("pot-limit", (25, 50), 5, "each", 8),
        ("pot-limit", (300, 600), 600, "big-blind", 9),
        ("no-limit", (1000, 2000), 2000, "big-blind", 7),
        ("pot-limit", (40, 100), 10, "each", 3),
    ],
)
def test_it_agrees_with_a_ruling_on_the_same_table(structure, blinds, ante, ante_type, seats):
    values = level_values(
        structure=structure,
        small_blind=blinds[0],
        big_blind=blinds[1],
        ante=ante,
        ante_type=ante_type,
        table_size=seats,
    )
    table = {
        "structure": structure,
        "blinds": list(blinds),
        "ante": ante,
        "ante_type": ante_type,
        "players": [{"name": f"S{i}", "stack": 10**7} for i in range(seats)],
    }

    nxt = adjudicate(table)["next"]

    assert values.min_raise_to == nxt["min_raise_to"]
    if structure == "pot-limit":
        assert values.max_raise_to == nxt["max_raise_to"]


@pytest.mark.parametrize(
    ("kwargs", "rule"),
    [
        ({"small_blind": 200, "big_blind": 100}, "D7"),
        ({"small_blind": 0, "big_blind": 100}, None),
        ({"small_blind": 50, "big_blind": 100, "table_size": 1}, None),
        ({"small_blind": 50, "big_blind": 100, "ante_type": "dealer"}, None),
        ({"small_blind": 50, "big_blind": 100, "ante": "25"}, None),
        ({"small_blind": 50, "big_blind": "100"}, None),
    ],
)
def test_it_refuses_a_level_no_table_could_play(kwargs, rule):
    with pytest.raises(RuleError) as caught:
        level_values(structure="no-limit", **kwargs)

    assert caught.value.rule == rule


def test_it_returns_a_frozen_value():
    values = level_values(structure="no-limit", small_blind=100, big_blind=200)

    with pytest.raises(dataclasses.FrozenInstanceError):
        values.min_raise_to = 1
