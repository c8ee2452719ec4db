"""The sentences of a ruling read right (the figures are tested elsewhere)."""

from __future__ import annotations

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
