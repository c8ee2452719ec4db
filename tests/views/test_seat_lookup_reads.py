"""The seat lookup page's plain reads (seating.lookup) answer what the ORM's seat search
answers: the same entries in the same order, the same seats, and the player's moves."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tdsystem.results.models import Finish
from tdsystem.results.services import bustout_record
from tdsystem.seating import lookup, selectors, services
from tdsystem.seating.models import VenueTable
from tdsystem.simulation.seatings import ACTOR, arrange, field
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))
NAMES = [
    "Nguyễn Văn An",
    "Nguyen Anh",
    "Ánh Lê",
    "José 100%",
    "Ann_Lee",
    "ＡＮＮ　ＬＥＥ",
    "Back\\slash",
]


def table_of(entry) -> int | None:
    return entry.table.number if entry.table else None


def same(event, query: str) -> list[tuple]:
    orm = [
        (e.pk, e.number, e.status, e.seat, e.player.name, e.player.note, table_of(e))
        for e in selectors.seat_search(event.pk, query)
    ]
    plain = [
        (f.pk, f.number, f.status, f.seat, f.name, f.note, f.table)
        for f in lookup.seat_search(event.pk, query)
    ]
    assert plain == orm, query
    return plain


def test_it_finds_what_the_seat_search_finds():
    event = make_event(600)
    field(event, players=30, tables=5)  # seats left for the names
    for name in NAMES:
        services.player_register(event=event, name=name, actor=ACTOR)
    queries = [
        "player",
        "Player 0001",
        "nguyen",
        "anh",
        "100%",
        "%",
        "_",
        "ann_",
        "\\",
        "  #3 ",
        "3",
    ]
    answers = [same(event, q) for q in [*queries, "zzz", ""]]
    assert all(answers[: len(queries)]) and answers[-2:] == [[], []]
    assert [a[4] for a in same(event, "%")] == ["José 100%"]  # a wildcard is a character
    assert [a[4] for a in same(event, "_")] == ["Ann_Lee"]


def test_it_puts_players_still_in_first_with_their_seats(event):
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    bustout_record(event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR)
    found = same(event, "T")
    assert found[-1][2] != "active" and all(f[2] == "active" for f in found[:-1])
    assert all(f[6] is not None for f in found[:-1])


def test_it_gives_the_entry_by_number_and_its_recent_moves_newest_first(event):
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    bustout_record(event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR)
    moved = people["T1S8"]
    shown = lookup.entry_by_number(event.pk, moved.number)
    assert shown is not None and (shown.table, shown.seat) == (2, 4)
    assert lookup.entry_by_number(event.pk, 999) is None
    expected = selectors.moves_of([moved.pk])[moved.pk]
    moves = lookup.moves_of(moved.pk)
    assert [
        (m.created_at, m.reason, m.from_table, m.from_seat, m.to_table, m.to_seat) for m in moves
    ] == [
        (m.created_at, m.reason, m.from_table, m.from_seat, m.to_table, m.to_seat) for m in expected
    ]
    assert moves and timezone.is_aware(moves[0].created_at)
    assert moves[0].reason_label == expected[0].get_reason_display()


def test_the_page_says_where_a_player_out_finished_from_results_finish(client, event):
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    out = people["T2S4"]
    bustout_record(event_id=event.pk, entry_ids=[out.pk], actor=ACTOR)
    page = client.get(f"/events/{event.pk}/seats/?entry={out.number}").content.decode()
    assert "Out in place 17. Thank you for playing." in page
    Finish.objects.filter(entry=out).update(undone_at=timezone.now())
    page = client.get(f"/events/{event.pk}/seats/?entry={out.number}").content.decode()
    assert "Out. Thank you for playing." in page


@pytest.fixture
def event():
    # A room table no event uses, first: the venue's table ids then differ from the
    # event's, so a read joining the wrong one shows the wrong table number.
    VenueTable.objects.create(number=99)
    return make_event(600)
