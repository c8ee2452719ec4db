"""The sentences of a ruling read right (the figures are tested elsewhere)."""

from __future__ import annotations

import pytest

from tdsystem.engine.errors import RuleError
from tdsystem.engine.ruling import rule_on


def texts(ruling) -> list[str]:
    notes = [n.text for n in ruling.notes]
    if ruling.next is not None:
        notes += [n.text for n in ruling.next.reasons]
    return notes


def test_a_call_capped_below_the_blind_does_not_claim_the_full_blind_is_owed():
    ruling = rule_on(
        {
            "structure": "no-limit",
            "blinds": [5, 10],
            "players": [
                {"name": "A", "stack": 1000},
                {"name": "B", "stack": 1000},
                {"name": "C", "stack": 7},
                {"name": "D", "stack": 1000},
            ],
            "actions": [{"player": "D", "do": "fold"}, {"player": "A", "do": "fold"}],
        }
    )
    assert ruling.next.call == 2
    assert not any("callers owe the full 10" in t for t in (n.text for n in ruling.next.reasons))


def test_one_reopened_player_is_named_in_the_singular():
    ruling = rule_on(
        {
            "structure": "no-limit",
            "blinds": [5, 10],
            "players": [
                {"name": "BTN", "stack": 2000},
                {"name": "A", "stack": 2000},
                {"name": "B", "stack": 160},
                {"name": "C", "stack": 210},
                {"name": "D", "stack": 2000},
            ],
            "actions": [
                {"player": "C", "do": "call"},
                {"player": "D", "do": "call"},
                {"player": "BTN", "do": "fold"},
                {"player": "A", "do": "call"},
                {"player": "B", "do": "check"},
                {"player": "A", "do": "bet", "to": 100},
                {"player": "B", "do": "all-in"},
                {"player": "C", "do": "all-in"},
                {"player": "D", "do": "call"},
            ],
        }
    )
    reopened = [t for t in texts(ruling) if "reopened for" in t and "now" in t]
    assert reopened and all("A now faces a full raise" in t for t in reopened)
    assert all(t.endswith("reopened for A") for t in reopened)


def test_a_short_stack_in_fixed_limit_is_short_of_the_full_raise():
    ruling = rule_on(
        {
            "structure": "fixed-limit",
            "blinds": [5, 10],
            "bets": [10, 20],
            "players": [
                {"name": "Joan", "stack": 1000},
                {"name": "Alice", "stack": 1000},
                {"name": "Dianne", "stack": 1000},
                {"name": "Carol", "stack": 15},
            ],
            "actions": [],
        }
    )
    assert ruling.next.min_raise_to == ruling.next.max_raise_to == 15
    assert "short of a full raise to 20" in " ".join(texts(ruling))


def seats(*entries: str) -> list[dict]:
    return [{"name": e.split()[0], "stack": int(e.split()[1])} for e in entries]


def moves(*entries: str) -> list[dict]:
    return [{"player": e.split()[0], "do": e.split()[1]} for e in entries]


def test_no_raise_names_the_players_who_could_only_call_and_those_all_in():
    # UTG is all-in for 100; SB (50) and BB (80) still have chips but could only call.
    ruling = rule_on(
        {
            "structure": "no-limit",
            "blinds": [5, 10],
            "players": seats("Btn 1000", "SB 50", "BB 80", "UTG 100"),
            "actions": moves("UTG all-in"),
        }
    )

    assert ruling.next.player == "Btn" and ruling.next.min_raise_to is None
    assert [(n.rule, n.text) for n in ruling.next.reasons] == [
        (
            "D9",
            "nobody left could call a raise (SB and BB can at most call, with 50 and 80 for "
            "the round; UTG is all-in): no more raising",
        )
    ]


def test_no_raise_says_every_other_player_still_in_is_all_in_when_they_are():
    ruling = rule_on(
        {
            "structure": "no-limit",
            "blinds": [5, 10],
            "players": seats("Btn 1000", "SB 1000", "BB 1000", "UTG 100"),
            "actions": moves("UTG all-in", "Btn fold", "SB fold"),
        }
    )

    assert [(n.rule, n.text) for n in ruling.next.reasons] == [
        ("D9", "every other player still in the hand is all-in (UTG): no more raising")
    ]


def test_a_refused_raise_gives_the_same_reason():
    hand = {
        "structure": "no-limit",
        "blinds": [5, 10],
        "players": seats("Btn 1000", "SB 50", "BB 1000", "UTG 100"),
        "actions": [
            *moves("UTG all-in", "Btn fold", "SB call"),
            {"player": "BB", "do": "raise", "to": 300},
        ],
    }

    with pytest.raises(RuleError) as refused:
        rule_on(hand)

    assert str(refused.value) == (
        "action 3: BB may not raise to 300: every other player still in the hand is all-in "
        "(SB and UTG): no more raising (D9)"
    )


def test_two_partial_antes_give_the_main_pot_the_smaller_one():
    # Ante 10: T has 3, S has 6. The main pot takes 3 from each of the five players (15),
    # side pot 1 takes 3 more from the four others (12).
    ruling = rule_on(
        {
            "structure": "no-limit",
            "blinds": [10, 20],
            "ante": 10,
            "players": seats("E 500", "B 500", "A 500", "S 6", "T 3"),
            "actions": moves("E fold", "B fold"),
        }
    )

    assert [pot.amount for pot in ruling.pots][:2] == [15, 12]
    assert [n.text for n in ruling.notes if n.rule == "D8"] == [
        "T is all-in for the ante (3 of 10): the main pot takes 3 from every player, the rest "
        "of the antes and all bets go to side pots",
        "S is all-in for the ante (6 of 10): side pot 1 takes 3 more from every player but T, "
        "the rest of the antes and all bets go to a side pot",
    ]


def test_one_partial_ante_gives_the_main_pot_its_amount():
    ruling = rule_on(
        {
            "structure": "no-limit",
            "blinds": [10, 20],
            "ante": 10,
            "players": seats("E 500", "B 500", "A 500", "S 6"),
            "actions": moves("E fold", "B fold"),
        }
    )

    assert ruling.pots[0].amount == 24
    assert [n.text for n in ruling.notes if n.rule == "D8"] == [
        "S is all-in for the ante (6 of 10): the main pot takes 6 from every player, the rest "
        "of the antes and all bets go to a side pot"
    ]


def test_a_short_small_blind_counts_in_full_in_the_pot_limit_reason():
    ruling = rule_on(
        {
            "structure": "pot-limit",
            "blinds": [100, 200],
            "players": seats("Btn 5000", "Sb 40", "Bb 5000", "Utg 5000"),
        }
    )

    assert ruling.next.max_raise_to == 700
    assert ruling.next.reasons[-1].text == (
        "the pot-limit maximum is to 700: the 200 faced plus the whole pot after the call, 500 "
        "(antes and dead money included); the short small blind counts in full (TDA 54-B)"
    )
    assert ruling.notes[0].text == "Sb is all-in for 40 of the 100 small blind"
