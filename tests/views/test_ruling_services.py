"""The ruling page's services without a request: rows to the engine's hand, the buttons'
edits of the rows, and the engine's answer (or refusal) pinned to the row at fault."""

from __future__ import annotations

import json

import pytest

from tdsystem.rulings import services
from tdsystem.rulings.services import ActionRow, Rows, SeatRow, TableSettings

D8_TABLE = TableSettings(small_blind=4, big_blind=8, ante=1)
NAMES = ["Ellen", "Bob", "Alice", "Dianne", "Carol", "Joan", "P7", "P8", "P9", "P10"]
SEATS = [SeatRow(n, "8" if n == "Alice" else "500") for n in NAMES]
FOLDS = ["Joan", "P7", "P8", "P9", "P10", "Ellen", "Bob", "Dianne"]


def act(name: str, do: str, to: str = "") -> ActionRow:
    return ActionRow(str(NAMES.index(name)), do, to)


REFERENCE = [act("Dianne", "call"), act("Carol", "raise", "16")] + [act(n, "fold") for n in FOLDS]


def test_it_builds_the_contract_hand_of_the_reference_case():
    draft = services.hand_build(settings=D8_TABLE, seats=SEATS, actions=REFERENCE)
    assert draft.problems == ()
    assert draft.hand == {
        "structure": "no-limit",
        "blinds": [4, 8],
        "ante": 1,
        "ante_type": "each",
        "rule_set": "tda-2024",
        "players": [{"name": n, "stack": 8 if n == "Alice" else 500} for n in NAMES],
        "actions": [
            {"player": "Dianne", "do": "call"},
            {"player": "Carol", "do": "raise", "to": 16},
            *({"player": n, "do": "fold"} for n in FOLDS),
        ],
    }


def test_it_rules_on_the_reference_case():
    outcome = services.hand_rule(
        services.hand_build(settings=D8_TABLE, seats=SEATS, actions=REFERENCE)
    )
    assert outcome.problems == ()
    assert outcome.ruling["pots"] == [
        {"amount": 35, "eligible": ["Alice", "Carol"]},
        {"amount": 10, "eligible": ["Carol"]},
    ]
    assert {
        "rule": "D8",
        "text": "Alice is all-in for 7 of the 8 big blind: callers owe the full 8",
    } in [{"rule": n["rule"], "text": n["text"]} for n in outcome.ruling["notes"]]


@pytest.mark.parametrize(
    "typed, chips",
    [("800", 800), (" 1,500 ", 1500), ("10 000", 10000), ("2_000", 2000), ("0", 0)],
)
def test_it_reads_chips_as_typed_at_a_table(typed, chips):
    assert services.parse_chips(typed) == chips


@pytest.mark.parametrize("typed", ["", "  ", "eight", "-5", "1.5", "1e3", "½", "٣", "9" * 14])
def test_it_refuses_what_is_not_a_whole_number_of_chips(typed):
    with pytest.raises(ValueError):
        services.parse_chips(typed)


def test_fixed_limit_settings_reach_the_engine_only_in_fixed_limit():
    table = TableSettings(
        structure="fixed-limit", small_blind=2, big_blind=4, small_bet=4, raise_cap=3
    )
    hand = services.hand_build(settings=table, seats=SEATS[:3], actions=[]).hand
    assert hand["bets"] == [4, 8] and hand["raise_cap"] == 3
    assert hand["incomplete_raise"] == "full-bet"
    no_limit = TableSettings(small_bet=4, big_bet=8, raise_cap=3, incomplete_raise="half-bet")
    hand = services.hand_build(settings=no_limit, seats=SEATS[:3], actions=[]).hand
    assert not {"bets", "raise_cap", "incomplete_raise"} & set(hand)


def test_a_small_blind_of_nothing_is_a_single_blind():
    hand = services.hand_build(
        settings=TableSettings(small_blind=0, big_blind=100), seats=SEATS[:3], actions=[]
    ).hand
    assert hand["blinds"] == [100]
    assert services.positions(3, two_blinds=False) == ["BTN", "BB", "UTG"]


def test_positions_follow_the_blinds_heads_up_and_full():
    assert services.positions(2) == ["BTN · SB", "BB"]
    assert services.positions(6) == ["BTN", "SB", "BB", "UTG", "UTG+1", "CO"]


def test_bad_seats_are_each_reported_on_their_field():
    seats = [SeatRow("Ann", "100"), SeatRow("", "x"), SeatRow("ann", "0")]
    draft = services.hand_build(settings=D8_TABLE, seats=seats, actions=[])
    assert draft.hand is None
    assert [p.targets for p in draft.problems] == [
        ("seat-1-name",),
        ("seat-1-stack",),
        ("seat-2-name",),
        ("seat-2-stack",),
    ]
    assert draft.problems[2].message == "Seat 3 (ann): the name is used twice."


def test_too_few_or_too_many_seats_are_refused():
    assert services.hand_build(settings=D8_TABLE, seats=SEATS[:1], actions=[]).hand is None
    many = [SeatRow(f"P{i}", "100") for i in range(11)]
    draft = services.hand_build(settings=D8_TABLE, seats=many, actions=[])
    assert draft.hand is None and "at most 10" in draft.problems[0].message


def test_blank_rows_are_skipped_and_errors_keep_the_row_number():
    actions = [act("Dianne", "call"), ActionRow(), act("Carol", "raise", "10")]
    draft = services.hand_build(settings=D8_TABLE, seats=SEATS, actions=actions)
    assert draft.skipped == (1,) and draft.action_rows == (0, 2)
    outcome = services.hand_rule(draft)
    assert outcome.problems[0].message == (
        "Action 3: Carol may not raise to 10: the minimum raise is to 16 (TDA 43)"
    )
    assert outcome.problems[0].targets == ("action-2",)
    assert outcome.partial_before == 2
    assert outcome.ruling["next"]["player"] == "Carol"  # the hand just before the refusal


def test_an_unreadable_row_stops_the_hand_there():
    actions = [act("Dianne", "call"), act("Carol", "raise", ""), act("Joan", "fold")]
    draft = services.hand_build(settings=D8_TABLE, seats=SEATS, actions=actions)
    assert draft.stopped_at == 1 and len(draft.hand["actions"]) == 1
    assert draft.problems[0].message == "Action 2: enter the total Carol raised to."
    outcome = services.hand_rule(draft)
    assert outcome.partial_before == 1 and outcome.ruling["next"]["player"] == "Carol"


def test_engine_setting_errors_name_their_fields():
    table = TableSettings(small_blind=10, big_blind=8)
    outcome = services.hand_rule(services.hand_build(settings=table, seats=SEATS, actions=[]))
    assert outcome.ruling is None
    assert outcome.problems[0].targets == ("id_small_blind", "id_big_blind")


def test_an_engine_crash_becomes_a_problem(monkeypatch):
    def broken(hand):
        raise ZeroDivisionError

    monkeypatch.setattr(services, "rule_on", broken)
    outcome = services.hand_rule(services.hand_build(settings=D8_TABLE, seats=SEATS, actions=[]))
    assert outcome.ruling is None and "could not rule" in outcome.problems[0].message
    assert outcome.hand is not None  # still there to copy and report


def test_removing_a_seat_moves_the_actions_with_their_players():
    rows = Rows(tuple(SEATS[:5]), (act("Dianne", "call"), act("Bob", "fold")))
    edited = services.rows_edit(rows, op="remove-seat:1")  # Bob leaves
    assert [s.name for s in edited.seats] == ["Ellen", "Alice", "Dianne", "Carol"]
    assert edited.actions == (ActionRow("2", "call"), ActionRow("", "fold"))


@pytest.mark.parametrize(
    "op, seats, actions",
    [
        ("add-seat", 6, 1),
        ("remove-seat:0", 4, 1),
        ("add-action", 5, 2),
        ("remove-action:0", 5, 0),
        ("clear-actions", 5, 0),
        ("append:4:raise:16", 5, 2),
        ("append:4:teleport", 5, 1),
        ("remove-seat:99", 5, 1),
        ("remove-action:x", 5, 1),
        ("nonsense", 5, 1),
    ],
)
def test_the_buttons_edit_the_rows(op, seats, actions):
    rows = Rows(tuple(SEATS[:5]), (act("Dianne", "call"),))
    edited = services.rows_edit(rows, op=op, next_seat=4)
    assert (len(edited.seats), len(edited.actions)) == (seats, actions)


def test_a_table_keeps_two_to_ten_seats():
    two = Rows(tuple(SEATS[:2]))
    assert len(services.rows_edit(two, op="remove-seat:0").seats) == 2
    assert len(services.rows_edit(Rows(tuple(SEATS)), op="add-seat").seats) == 10


def test_one_tap_appends_the_next_players_action():
    rows = services.rows_edit(Rows(tuple(SEATS)), op="append:3:raise:16")
    assert rows.actions == (ActionRow("3", "raise", "16"),)
    rows = services.rows_edit(rows, op="append:4:call:99")  # a call takes no amount
    assert rows.actions[-1] == ActionRow("4", "call", "")


def test_the_display_gives_one_tap_actions_for_the_next_player():
    outcome = services.hand_rule(services.hand_build(settings=D8_TABLE, seats=SEATS, actions=[]))
    show = services.ruling_display(outcome.ruling, hand=outcome.hand)
    assert show["next"]["player"] == "Dianne" and show["next"]["seat"] == 3
    assert [t["label"] for t in show["next"]["taps"]] == [
        "Fold",
        "Call 8",
        "Raise to 16",
        "All-in (499)",
    ]
    assert [p["position"] for p in show["players"][:4]] == ["BTN", "SB", "BB", "UTG"]
    assert show["total"] == 10 + 4 + 7
    assert [p["who"] for p in show["pots"]] == ["all 10 players in the hand"]


def test_pots_say_who_can_win_them_briefly_when_it_is_nearly_everyone():
    draft = services.hand_build(settings=D8_TABLE, seats=SEATS, actions=REFERENCE[:1])
    outcome = services.hand_rule(draft)
    show = services.ruling_display(outcome.ruling, hand=outcome.hand)
    assert [(p["amount"], p["who"]) for p in show["pots"]] == [
        (28, "all 10 players in the hand"),
        (1, "all but Alice (9 players)"),
    ]
    outcome = services.hand_rule(
        services.hand_build(settings=D8_TABLE, seats=SEATS, actions=REFERENCE)
    )
    show = services.ruling_display(outcome.ruling, hand=outcome.hand)
    assert [p["who"] for p in show["pots"]] == ["Alice, Carol", "Carol"]


def test_the_json_reads_back_as_the_same_hand():
    hand = services.hand_build(settings=D8_TABLE, seats=SEATS, actions=REFERENCE).hand
    text = services.hand_json(hand)
    assert json.loads(text) == hand
    assert '    {"name": "Alice", "stack": 8},\n' in text  # one player a line


def test_rows_come_from_posted_lists_of_uneven_length():
    from django.http import QueryDict

    data = QueryDict(mutable=True)
    data.setlist("seat_name", ["Ann", "Ben", "Cy"])
    data.setlist("seat_stack", ["100", "200"])
    data.setlist("act_player", ["0"])
    data.setlist("act_do", ["fold", "call"])
    rows = services.rows_from_data(data)
    assert rows.seats[2] == SeatRow("Cy", "")
    assert rows.actions == (ActionRow("0", "fold", ""), ActionRow("", "call", ""))
