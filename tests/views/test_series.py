"""A series in one room: the floor plan of which event holds which table, tables given to
an event from it (one event at a time per table), and the room's clocks on one screen."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tdsystem.core.actors import Actor
from tdsystem.events import services as events
from tdsystem.seating import services as seating
from tdsystem.seating.errors import SeatingError
from tdsystem.seating.models import Entry, EventTable, Player, VenueTable
from tdsystem.simulation.seatings import arrange
from tdsystem.venue.selectors_floor import COLOURS, colours_of, floor_plan
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db
ACTOR = Actor(label="test")


@pytest.fixture
def room(db):
    """Two events sharing a room of 8 tables: the main event holds 1-3 (players at 1 and
    2), the side event 5-6; 4, 7 and 8 are free."""
    VenueTable.objects.bulk_create(VenueTable(number=n, seats=9) for n in range(1, 9))
    main = make_event(600, 600, name="Main Event")
    side = make_event(900, 900, name="Turbo", seats_per_table=8)
    arrange(main, {1: [1, 2, 3], 2: [4, 5], 3: []})
    seating.tables_setup(event=side, numbers=[5, 6], seats=8, actor=ACTOR)
    return main, side


def test_it_refuses_a_table_another_event_holds_with_the_holders_name(room):
    _main, side = room
    with pytest.raises(SeatingError, match="table 2 is in use by Main Event"):
        seating.tables_setup(event=side, numbers=[2, 4], seats=8, actor=ACTOR)
    assert not EventTable.objects.filter(event=side, number__in=[2, 4]).exists()


def test_it_shows_which_event_holds_which_table(room):
    plan = floor_plan()
    held = {t.number: (t.holder.name if t.holder else None, t.players) for t in plan.tiles}
    assert held == {
        1: ("Main Event", 3),
        2: ("Main Event", 2),
        3: ("Main Event", 0),
        4: (None, 0),
        5: ("Turbo", 0),
        6: ("Turbo", 0),
        7: (None, 0),
        8: (None, 0),
    }
    legend = {h.name: (h.tables, h.players) for h in plan.holders}
    assert legend == {"Main Event": (3, 5), "Turbo": (2, 0)}
    assert plan.holders[0].colour != plan.holders[1].colour


def test_an_events_colour_stays_when_another_finishes_and_none_is_shared():
    room = colours_of([3, 8, 20])
    assert len(set(room.values())) == 3 and room[3] == COLOURS[3]
    assert colours_of([8, 20]) == {k: v for k, v in room.items() if k != 3}
    assert len(set(colours_of(list(range(1, 13))).values())) == 12


def test_the_floor_page_shows_the_tiles_and_links_to_the_table_pages(client, director, room):
    main, side = room
    client.force_login(director)
    html = client.get("/console/floor/").content.decode()
    assert f'href="/console/events/{main.pk}/tables/1/"' in html
    assert f'href="/console/events/{side.pk}/tables/5/"' in html
    assert "3 / 9 seated" in html and "0 / 8 seated" in html
    assert 'name="numbers" value="4"' in html and 'name="numbers" value="1"' not in html
    assert "3 tables · 5 players" in html
    assert 'href="/console/floor/"' in client.get("/console/").content.decode()


def test_it_gives_free_tables_to_an_event_from_the_floor_plan(client, director, room):
    _main, side = room
    client.force_login(director)
    response = client.post(
        "/console/floor/give", {"numbers": ["7", "8"], "event": side.pk}, HTTP_HX_REQUEST="true"
    )
    assert "Tables 7, 8 given to Turbo" in response.content.decode()
    tables = EventTable.objects.filter(event=side, in_play=True)
    assert sorted(tables.values_list("number", "seats")) == [(5, 8), (6, 8), (7, 8), (8, 8)]


def test_the_floor_plan_refuses_a_held_table_and_changes_nothing(client, director, room):
    _main, side = room
    client.force_login(director)
    response = client.post(
        "/console/floor/give", {"numbers": ["4", "1"], "event": side.pk}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert 'role="alert"' in html and "table 1 is in use by Main Event" in html
    assert not EventTable.objects.filter(event=side, number__in=[1, 4]).exists()
    bad = client.post("/console/floor/give", {"numbers": ["x"], "event": side.pk})
    assert bad.status_code == 302
    assert not EventTable.objects.filter(event=side, number__in=[1, 4]).exists()


def test_a_floor_person_may_give_tables_and_a_table_device_may_not_look(
    client, floor_person, table_device, room
):
    main, _side = room
    client.force_login(table_device)
    assert client.get("/console/floor/").status_code == 403
    client.force_login(floor_person)
    client.post("/console/floor/give", {"numbers": ["4"], "event": main.pk})
    assert EventTable.objects.filter(event=main, number=4, in_play=True).exists()


def _room_of(tables: int) -> None:
    """`tables` venue tables, the first half held by two events, a player at each held."""
    VenueTable.objects.bulk_create(VenueTable(number=n, seats=9) for n in range(1, tables + 1))
    venues = {v.number: v for v in VenueTable.objects.all()}
    one, two = make_event(600, name="One"), make_event(600, name="Two")
    rows = [
        EventTable(event=one if n % 2 else two, venue_table=venues[n], number=n, seats=9)
        for n in range(1, tables // 2 + 1)
    ]
    EventTable.objects.bulk_create(rows)
    players = Player.objects.bulk_create(Player(name=f"P{n}") for n in range(len(rows)))
    Entry.objects.bulk_create(
        Entry(event_id=t.event_id, player=p, number=i, chips=1000, table=t, seat=1)
        for i, (t, p) in enumerate(
            zip(EventTable.objects.order_by("number"), players, strict=True), 1
        )
    )


def test_the_floor_plan_reads_as_many_queries_for_300_tables_as_for_50(
    client, director, django_assert_num_queries
):
    client.force_login(director)
    _room_of(50)
    with CaptureQueriesContext(connection) as small:
        client.get("/console/floor/", HTTP_HX_REQUEST="true")
    Entry.objects.all().delete()
    EventTable.objects.all().delete()
    VenueTable.objects.all().delete()
    _room_of(300)
    with django_assert_num_queries(len(small)):
        html = client.get("/console/floor/", HTTP_HX_REQUEST="true").content.decode()
    assert html.count('class="tile held"') == 150 and html.count('class="tile free"') == 150


def test_the_floor_plan_builds_its_tiles_without_work_per_tile(client, director, monkeypatch):
    """The tiles' links are reversed once per event, not once per tile (600 tiles were 600
    reversals and some 15,000 template look-ups at each poll); the markup is the same."""
    from django.urls.resolvers import URLResolver

    reversed_ = []
    real = URLResolver._reverse_with_prefix

    def counting(self, lookup_view, _prefix, *args, **kwargs):
        reversed_.append(lookup_view)
        return real(self, lookup_view, _prefix, *args, **kwargs)

    monkeypatch.setattr(URLResolver, "_reverse_with_prefix", counting)
    client.force_login(director)
    _room_of(300)
    html = client.get("/console/floor/", HTTP_HX_REQUEST="true").content.decode()
    assert html.count('class="tile held"') == 150
    assert reversed_.count("table") <= 2  # one per event holding tables
    one = EventTable.objects.filter(number=1).values_list("event_id", flat=True).get()
    assert f'<li><a class="tile held" data-table="1" data-event="{one}" style="--c: ' in html
    assert f'href="/console/events/{one}/tables/1/" title="One"><b class="n">1</b>' in html
    assert (
        '<li><label class="tile free" data-table="300"><b class="n">300</b><span class="ev">'
        'free</span><span class="p">9 seats</span><input type="checkbox" name="numbers" '
        'value="300" id="pick-300" hx-preserve aria-label="Table 300"></label></li>'
    ) in html


def test_the_floor_api_needs_a_staff_token(client, director_token, room):
    main, side = room
    assert client.get("/api/floor").status_code == 401
    body = client.get("/api/floor", HTTP_AUTHORIZATION=f"Bearer {director_token}").json()
    assert [(t["number"], t["event"]) for t in body["tables"]][:5] == [
        (1, main.pk),
        (2, main.pk),
        (3, main.pk),
        (4, None),
        (5, side.pk),
    ]
    assert {e["name"]: e["players"] for e in body["events"]} == {"Main Event": 5, "Turbo": 0}


def test_the_clocks_screen_shows_each_running_or_paused_event(client, room):
    main, side = room
    make_event(600, name="Tomorrow's Deepstack")
    for event in (main, side):
        events.clock_action(event_id=event.pk, action="start", actor=ACTOR)
    events.clock_action(event_id=side.pk, action="pause", actor=ACTOR)
    html = client.get("/screens/clocks/").content.decode()
    assert html.count('class="clock-panel') == 2
    assert "Main Event" in html and "Turbo" in html and "Deepstack" not in html
    assert f'data-clock-url="/api/events/{side.pk}/clock"' in html
    assert 'data-follow-url="/api/events"' in html


def test_the_clocks_screen_shows_the_events_asked_in_their_order(client, room):
    main, _side = room
    idle = make_event(600, name="Deepstack", screen_language="ja")
    html = client.get(f"/screens/clocks/?events={idle.pk},x,{main.pk},{idle.pk},99999").content
    text = html.decode()
    assert text.count('class="clock-panel') == 2 and "data-follow-url" not in text
    assert text.index("Deepstack") < text.index("Main Event")
    assert '<html lang="ja"' in text  # the first event's screen language
    assert (
        '<html lang="vi"'
        in client.get(f"/screens/clocks/?events={idle.pk}&lang=vi").content.decode()
    )


def test_the_clocks_screen_keeps_a_finished_event_with_its_winner_a_while(
    client, room, django_capture_on_commit_callbacks
):
    """The room's clocks after an event's last hand: its panel shows the winner and the
    prize where the clock was, and keeps its place for FINAL_SECONDS before giving it."""
    import time_machine
    from django.utils import timezone

    from tdsystem.results import services as results
    from tdsystem.venue.views_multi import FINAL_SECONDS

    _main, side = room
    events.clock_action(event_id=side.pk, action="start", actor=ACTOR)
    main = make_event(600, 600, name="Friday")
    people = arrange(main, {7: [1, 2, 3]})
    results.payout_plan_update(event_id=main.pk, table="top-3", unit=1, actor=ACTOR)
    events.clock_action(event_id=main.pk, action="start", actor=ACTOR)
    for name in ("T7S1", "T7S2"):  # the winner's follow-ups (the clock's finish) on commit
        with django_capture_on_commit_callbacks(execute=True):
            results.bustout_record(event_id=main.pk, entry_ids=[people[name].pk], actor=ACTOR)
    html = client.get("/screens/clocks/").content.decode()
    assert html.count('class="clock-panel') == 2
    panel = html[html.index(f'data-event="{main.pk}"') :]
    panel = panel[: panel.index("</section>")]
    assert "has-winner" in html and 'data-until="' in panel
    assert '<bdi class="who" data-k="winner-name">T7S3</bdi>' in panel
    with time_machine.travel(timezone.now() + timedelta(seconds=FINAL_SECONDS + 5)):
        later = client.get("/screens/clocks/").content.decode()
    assert later.count('class="clock-panel') == 1 and "T7S3" not in later
