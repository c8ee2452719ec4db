"""The flights page: the flights with their state, a flight added, the Day 2 preview and
its combination behind a confirmation; the consoles of the event and of a flight."""

from __future__ import annotations

import pytest

from tdsystem.seating.models import Entry
from tests.services.test_flights import played

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(event, action: str = "") -> str:
    return f"/console/events/{event.pk}/flights/{action}"


def test_it_shows_adds_and_combines_the_flights(client, director):
    main, a, _b, _ = played()
    client.force_login(director)
    page = client.get(url(main)).content.decode()
    assert "Flights and Day 2" in page and "Bagged in two flights" in page
    assert "Combine into Day 2: 3 players" in page and "keeps the larger stack" in page
    assert "The bags do not add up to the chips in play:" in page
    assert "Flight 1A: bags 25,000, chips in play 40,000" in page and "(-15,000)" in page
    added = client.post(url(main, "add"), {"name": "1C"}, **HTMX).content.decode()
    assert "Flight 1C added" in added and "not started" in added
    taken = client.post(url(main, "add"), {"name": "1c"}, **HTMX).content.decode()
    assert "has a flight 1C already" in taken
    refused = client.get(url(main), {"part": "day2"}, **HTMX).content.decode()
    assert "Not ready to combine" in refused and "1C has not been played" in refused
    main.flights.filter(flight="1C").delete()
    unconfirmed = client.post(url(main, "day2"), {}, **HTMX).content.decode()
    assert "tick the box" in unconfirmed and not Entry.objects.filter(event=main).exists()
    differ = client.post(url(main, "day2"), {"confirm": "1"}, **HTMX).content.decode()
    assert "Confirm the differences to combine." in differ
    assert not Entry.objects.filter(event=main).exists()
    confirmed = {"confirm": "1", "confirm_differences": "1"}
    done = client.post(url(main, "day2"), confirmed, **HTMX)
    body = done.content.decode()
    assert "Day 2: 3 players drawn at 1 table<" in body
    assert f"/events/{main.pk}/seats/draw/" in body and f"/events/{main.pk}/seats/" in body
    assert "seating-changed" in done.headers["HX-Trigger"]
    assert Entry.objects.filter(event=main, table__isnull=False).count() == 3
    # A flight's page is its event's.
    assert client.get(url(a)).url == url(main)


def test_the_consoles_link_the_event_and_its_flights(client, director):
    main, a, _b, _ = played()
    client.force_login(director)
    home = client.get(f"/console/events/{main.pk}/").content.decode()
    # The flights' summary is in the console itself, above the clock's panel.
    summary = 'id="flights-summary"'
    assert summary in home and home.index(summary) < home.index('id="clock-panel"')
    assert "Whole event: 6 entries; Day 2: 3 players." in home
    assert 'hx-trigger="load"' not in home
    panel = client.get(url(main), {"part": "panel"}, **HTMX).content.decode()
    assert "Whole event: 6 entries; Day 2: 3 players." in panel
    flight = client.get(f"/console/events/{a.pk}/").content.decode()
    assert "Flight 1A of Main Event" in flight and f'href="/console/events/{main.pk}/"' in flight


def test_the_floor_sees_the_flights_but_may_not_add_or_combine(client, floor_person):
    main, *_ = played()
    client.force_login(floor_person)
    page = client.get(url(main)).content.decode()
    assert "Ready: a director combines the flights." in page and "Add a flight" not in page
    assert client.post(url(main, "add"), {"name": "1C"}).status_code == 403
    assert client.post(url(main, "day2"), {"confirm": "1"}).status_code == 403
    assert not Entry.objects.filter(event=main).exists()


def test_a_combined_flight_reads_as_finished_and_points_to_day_2(client, director):
    main, a, _b, _ = played()
    client.force_login(director)
    client.post(url(main, "day2"), {"confirm": "1", "confirm_differences": "1"}, **HTMX)
    console = client.get(f"/console/events/{a.pk}/").content.decode()
    assert "Combined into Day 2" in console and "Its event's console" not in console
    assert 'id="flight-day2">' in console and f'href="/console/events/{main.pk}/"' in console
    clock = client.get(f"/api/events/{a.pk}/clock").json()
    assert clock["status"] == "finished" and clock["players_left"] == 0
    screen = client.get(f"/events/{a.pk}/clock/").content.decode()
    assert "FLIGHT OVER: ON TO DAY 2" in screen and "TOURNAMENT COMPLETE" not in screen
    room = client.get("/screens/clocks/", {"events": str(a.pk)}).content.decode()
    assert "FLIGHT OVER: ON TO DAY 2" in room
    panel = client.get(url(main), {"part": "panel"}, **HTMX).content.decode()
    assert panel.count("combined into Day 2") == 2
    # The flight's seat lookup sends a survivor on to the Day 2 seats.
    ann = Entry.objects.get(event=a, player__name="Ann")
    assert ann.status == Entry.Status.CARRIED
    found = client.get(f"/events/{a.pk}/seats/", {"entry": ann.number}).content.decode()
    assert "Through to Day 2." in found and f"/events/{main.pk}/seats/?q=Ann" in found
    assert "Thank you for playing" not in found


def test_a_combined_flights_results_list_its_players_through_to_day_2(client, director):
    main, a, _b, _ = played()
    before = client.get(f"/events/{a.pk}/results/").content.decode()
    assert 'id="carried"' not in before  # not combined yet: nobody is through
    client.force_login(director)
    client.post(url(main, "day2"), {"confirm": "1", "confirm_differences": "1"}, **HTMX)
    client.logout()
    page = " ".join(client.get(f"/events/{a.pk}/results/").content.decode().split())
    assert "2 players through to Day 2" in page and f'href="/events/{main.pk}/results/"' in page
    assert page.count('id="carried"') == 1 and 'class="rs-bubble' not in page  # no bubble
    assert "Payouts still to win" not in page
    listed = page[page.index('id="carried"') : page.index("</table>", page.index('id="carried"'))]
    # Ann (20,000 in 1A, whichever bag she keeps on Day 2) above Bob (5,000); Cy busted.
    assert listed.index("Ann") < listed.index("Bob") and "Cy" not in listed
    assert "5,000" in listed
    # Ann keeps 1B's larger bag: 1A's shows struck through.
    assert '<s>20,000</s> <span class="muted small">plays another flight\'s bag' in listed
    main_page = client.get(f"/events/{main.pk}/results/").content.decode()
    assert 'id="carried"' not in main_page
