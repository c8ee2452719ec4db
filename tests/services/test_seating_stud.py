"""Stud events at the tables: no button, no blinds; balancing by position (TDA 11-A).

A blind game beside each case shows what stays as it was.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Event
from tdsystem.results.services import bustout_record
from tdsystem.seating import services
from tdsystem.seating.models import EventTable
from tdsystem.seating.selectors import seating_overview, table_view
from tdsystem.seating.services.hands import TableHalted
from tdsystem.simulation.seatings import ACTOR, arrange, seating_problems
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))


@pytest.fixture
def stud(db):
    return make_event(600, 600, "B300", 600, 600, name="Stud event", game=Event.Game.STUD)


def bust(event, entry):
    return bustout_record(
        event_id=event.pk, entry_ids=[entry.pk], actor=ACTOR, rng_seed=7
    ).rebalance


def test_a_stud_bust_out_balances_by_position(stud, event):
    # Table 2 loses seat 4 and has seats 4 and 9 empty: table 1's seat 4 moves to seat 4.
    layout, positions = {1: FULL, 2: FULL[:8]}, {1: (5, 6, 7), 2: (1, 2, 3)}
    people = arrange(stud, layout, positions=positions)
    result = bust(stud, people["T2S4"])
    (move,) = result.moves
    assert (move.entry_id, move.from_table, move.from_seat) == (people["T1S4"].pk, 1, 4)
    assert (move.to_table, move.to_seat, move.reason, move.dealt_in) == (2, 4, "balance", True)
    assert seating_problems(stud) == []
    # The plan cleared the positions the rows held: stud tables keep none.
    tables = EventTable.objects.filter(event=stud, number__in=[1, 2])
    assert set(tables.values_list("button", "small_blind", "big_blind")) == {(None, None, None)}
    # The blind game moves the next big blind (seat 8) to the short table's worst seat.
    people = arrange(event, {3: FULL, 4: FULL[:8]}, positions={3: (5, 6, 7), 4: (1, 2, 3)})
    (move,) = bust(event, people["T4S4"]).moves
    assert (move.from_seat, move.to_seat) == (8, 4)


def test_a_stud_hand_finished_counts_the_hand_and_moves_no_blinds(stud):
    arrange(stud, {1: FULL[:6]}, positions={1: (1, 2, 3)})
    for hand in range(2):
        table = services.table_hand_finish(
            event_id=stud.pk, table_number=1, expected_hand=hand, actor=ACTOR
        )
        assert (table.button, table.small_blind, table.big_blind) == (None, None, None)
        assert (table.hand_number, table.sitting_out) == (hand + 1, [])
    entry = LogEntry.objects.filter(action="table.hand").latest("pk")
    assert entry.summary == "Table 1, hand 3: stud, no button or blinds"
    assert entry.data["positions"] is None


def test_a_blind_game_hand_still_moves_the_button(event):
    arrange(event, {1: FULL[:6]}, positions={1: (1, 2, 3)})
    table = services.table_hand_finish(
        event_id=event.pk, table_number=1, expected_hand=0, actor=ACTOR
    )
    assert (table.button, table.small_blind, table.big_blind) == (2, 3, 4)


def test_a_stud_newcomer_is_dealt_in_at_once(stud, event):
    # The only empty seat, 5, lies between the last blinds (4 and 6): in a blind game the
    # newcomer waits for the button; in stud there is none to wait for.
    for game, number, dealt_in in ((stud, 1, True), (event, 2, False)):
        arrange(game, {number: [1, 2, 3, 4, 6, 7, 8, 9]}, positions={number: (3, 4, 6)})
        enrolment = services.player_register(event=game, name="Late Comer", actor=ACTOR)
        assert (enrolment.entry.seat, enrolment.dealt_in) == (5, dealt_in)
    card = table_view(stud, 1)
    assert not any(row.waiting or row.sits_out for row in card.rows)


def test_a_short_stud_table_halts_at_once(stud, event):
    # 9 against 6 at a table whose coming button and blinds fall on seated players: a blind
    # game under TDA plays on ("once the blinds are impacted"); stud has no blinds to
    # impact, so it halts at once.
    arrange(event, {3: FULL, 4: FULL[:6]}, positions={3: (1, 2, 3), 4: (1, 2, 3)})
    assert table_view(event, 4).halt is None
    arrange(stud, {1: FULL, 2: FULL[:6]}, positions={1: (1, 2, 3), 2: (1, 2, 3)})
    halt = table_view(stud, 2).halt
    assert halt is not None
    assert (halt.rule, halt.reason) == ("TDA 11-D", "3 players short of table 1")
    assert seating_overview(stud).halted == [2]
    with pytest.raises(TableHalted):
        services.table_hand_finish(event_id=stud.pk, table_number=2, expected_hand=0, actor=ACTOR)


def test_the_stud_table_page_and_console_show_no_blinds(client, stud, floor_person):
    arrange(stud, {1: FULL[:6], 2: FULL[:6]}, positions={1: (1, 2, 3), 2: (1, 2, 3)})
    client.force_login(floor_person)
    page = client.get(reverse("results:table", args=[stud.pk, 1])).content.decode()
    assert 'id="stud-note"' in page
    assert "pos sb" not in page and "pos bb" not in page and "pos d" not in page
    assert "small blind <b>" not in page
    console = client.get(reverse("seating:console", args=[stud.pk])).content.decode()
    assert "pos sb" not in console and "pos bb" not in console
    response = client.post(
        reverse("results:table_hand", args=[stud.pk, 1]),
        {"hand": 0},
        HTTP_HX_REQUEST="true",
    )
    assert "Hand 2: deal from seat 1" in response.content.decode()


def test_the_blind_game_table_page_keeps_its_badges(client, event, floor_person):
    arrange(event, {1: FULL[:6]}, positions={1: (1, 2, 3)})
    client.force_login(floor_person)
    page = client.get(reverse("results:table", args=[event.pk, 1])).content.decode()
    assert "pos sb" in page and "pos bb" in page and 'id="stud-note"' not in page
