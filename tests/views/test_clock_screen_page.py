"""The venue clock screen page and the screen fields of its JSON: what the room reads."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from tdsystem.core.actors import Actor
from tdsystem.events import services
from tdsystem.results.services.chips import chip_count_record
from tdsystem.seating.models import Entry, Move
from tdsystem.seating.selectors import slip_row
from tdsystem.simulation.seatings import field
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
ACTOR = Actor(label="test")


def clock_json(client, event) -> dict:
    return client.get(f"/api/events/{event.pk}/clock").json()


def start(event) -> None:
    services.clock_action(event_id=event.pk, action="start", actor=ACTOR)


def open_slips(event, count: int) -> list[Move]:
    """`count` unacknowledged move slips, one per seated player."""
    entries = Entry.objects.filter(event=event, table__isnull=False).order_by("number")[:count]
    return [
        Move.objects.create(
            event=event,
            entry=e,
            from_table=e.table.number,
            from_seat=e.seat,
            to_table=99,
            to_seat=i % 9 + 1,
            reason="break",
        )
        for i, e in enumerate(entries)
    ]


def busy_room(event, *, players: int = 30, slips: int = 12) -> None:
    """A field drawn at tables, open slips and a chip count: everything the screen shows."""
    field(event, players=players, tables=max(1, players // 9 + 1))
    open_slips(event, slips)
    leader = Entry.objects.filter(event=event).order_by("number")[3]
    chip_count_record(event_id=event.pk, entry_number=leader.number, chips=152_000, actor=ACTOR)


def test_it_counts_the_next_break_after_the_one_being_played(client):
    event = make_event(600, "B300", 600, 600, "B300", 600)
    with time_machine.travel(T0, tick=False):
        start(event)
    with time_machine.travel(T0 + timedelta(seconds=660), tick=False):  # 60 s into the break
        body = clock_json(client, event)
    assert body["on_break"] is True and body["ms_to_break"] == 0  # its old meaning stays
    # 240 s of this break, two 600 s levels, then the second break.
    assert body["ms_to_next_break"] == (240 + 600 + 600) * 1000
    with time_machine.travel(T0 + timedelta(seconds=100), tick=False):
        body = clock_json(client, event)
    assert body["ms_to_next_break"] == body["ms_to_break"] == 500_000


def test_it_has_no_next_break_after_the_last_one(client):
    event = make_event(600, "B300", 600)
    with time_machine.travel(T0, tick=False):
        start(event)
    with time_machine.travel(T0 + timedelta(seconds=700), tick=False):
        body = clock_json(client, event)
    assert body["on_break"] is True and body["ms_to_next_break"] is None
    assert body["next"]["level"] == 2 and body["next"]["big_blind"] == 200


def test_it_counts_down_to_the_end_of_late_registration(client):
    event = make_event(600, 600, "B300", 600, 600, late_registration_end_level=3)
    body = clock_json(client, event)
    assert body["late_registration_level"] == 3 and body["late_registration_open"] is True
    assert body["ms_to_late_registration_end"] == (600 + 600 + 300 + 600) * 1000
    with time_machine.travel(T0, tick=False):
        start(event)
    with time_machine.travel(T0 + timedelta(seconds=1000), tick=False):
        body = clock_json(client, event)
    assert body["ms_to_late_registration_end"] == 1_100_000
    with time_machine.travel(T0 + timedelta(seconds=2100), tick=False):  # level 4 under way
        body = clock_json(client, event)
    assert body["late_registration_open"] is False and body["ms_to_late_registration_end"] == 0


def test_it_says_an_event_without_late_registration_closes_at_the_start(client, event):
    assert clock_json(client, event)["late_registration_open"] is True
    start(event)
    body = clock_json(client, event)
    assert body["late_registration_level"] == 0 and body["late_registration_open"] is False
    assert body["ms_to_late_registration_end"] is None


def test_it_lists_the_payouts_and_the_chip_leader(client, event):
    busy_room(event, players=30, slips=0)
    body = clock_json(client, event)
    places = [p["place"] for p in body["payouts"]]
    assert places == list(range(1, len(places) + 1)) and len(places) >= 3
    total = sum(float(p["amount"]) for p in body["payouts"])
    assert total == pytest.approx(float(body["prize_pool"]))
    leader = body["chip_leader"]
    entry = Entry.objects.get(event=event, number=leader["entry"])
    assert (leader["chips"], leader["player"]) == (152_000, entry.player.name)
    assert leader["table"] == entry.table.number and leader["seat"] == entry.seat


def test_a_busted_chip_leader_is_not_shown(client, event):
    busy_room(event, players=12, slips=0)
    Entry.objects.filter(event=event, chip_count__isnull=False).update(
        status="busted", table=None, seat=None
    )
    body = clock_json(client, event)
    assert body["chip_leader"] is None


def test_an_empty_event_has_no_payouts_and_no_chip_leader(client, event):
    body = clock_json(client, event)
    assert body["payouts"] == [] and body["chip_leader"] is None


def test_it_lists_every_open_slip_however_many_and_however_old(client, event):
    field(event, players=40, tables=5)
    with time_machine.travel(T0, tick=False):
        open_slips(event, 25)
    body = clock_json(client, event)
    # The clock JSON carries the first page and the count; the slips endpoint the rest
    # (recent_moves alone keeps 20 of the last 5 minutes).
    assert (len(body["moves"]), body["moves_count"]) == (20, 25)
    rest = client.get(f"/api/events/{event.pk}/slips?page=2").json()["moves"]
    assert len({m["id"] for m in body["moves"] + rest}) == 25
    assert all(not m["acknowledged"] for m in body["moves"] + rest)


def test_its_slips_and_the_apis_are_one_slip_row_each(client, event):
    field(event, players=12, tables=2)
    slips = open_slips(event, 2)
    rows = [slip_row(m) for m in sorted(slips, key=lambda m: (m.created_at, m.pk), reverse=True)]
    assert clock_json(client, event)["moves"] == rows
    assert client.get(f"/api/events/{event.pk}/moves").json() == rows
    assert rows[0]["text"] == str(slips[-1]) and rows[0]["acknowledged"] is False


def test_a_warm_screen_poll_costs_one_query_with_a_busy_room(
    client, event, settings, django_assert_num_queries
):
    busy_room(event)
    settings.SCREEN_CACHE_SECONDS = 30
    clock_json(client, event)
    with django_assert_num_queries(1):  # the clock row; the rest comes from the cache
        body = clock_json(client, event)
    assert len(body["moves"]) == 12 and body["chip_leader"] and body["payouts"]


def test_the_page_labels_blinds_and_status_in_words(client, event):
    page = client.get(f"/events/{event.pk}/clock/").content.decode()
    assert "Small blind" in page and "Big blind" in page
    assert '<span id="status" class="badge not-started">Not started</span>' in page
    assert "NOT STARTED" in page


@pytest.mark.parametrize(
    ("layout", "shown", "hidden"),
    [
        ("clock", "layout-clock", "payout-rows"),
        ("payouts", 'id="payout-rows"', 'id="board"'),
        ("draw", 'id="board"', "payout-rows"),
        ("nonsense", "layout-clock", 'id="board"'),
    ],
)
def test_it_picks_the_layout_from_the_url(client, event, layout, shown, hidden):
    page = client.get(f"/events/{event.pk}/clock/?layout={layout}").content.decode()
    assert shown in page and hidden not in page


def test_the_draw_layout_carries_the_seats(client, event):
    field(event, players=12, tables=2)
    page = client.get(f"/events/{event.pk}/clock/?layout=draw").content.decode()
    assert 'id="seat-data"' in page and "Player 00001" in page
    assert "js/seating-draw.js" in page


def test_the_page_loads_the_words_of_its_language_before_the_script(client, event):
    page = client.get(f"/events/{event.pk}/clock/?lang=ja").content.decode()
    assert page.index('<script src="/jsi18n/ja.js"></script>') < page.index("js/clock.js")
