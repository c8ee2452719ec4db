"""A festival's loose ends in Chromium, at TV, tablet and phone sizes: a table bagged for the
day, a flight once combined into Day 2, a ticket given to a player found by a search, a
satellite's results once its seats are awarded, and the floor plan of a room of 600 tables.

Screenshots: var/screenshots/festival/*.png.
"""

from __future__ import annotations

import time
from decimal import Decimal

import pytest

from tests.browser.conftest import PHONE, TABLET, TV, login, screenshot
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SIZES = {"tv": TV, "tablet": TABLET, "phone": PHONE}


def _no_overflow(page) -> None:
    """Nothing wider than the screen: a phone never scrolls sideways."""
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 1, f"the page is {wide}px wider than the screen"


def test_a_bagged_table_shows_its_bags_where_the_out_buttons_were(live_server, new_page):
    from tdsystem.seating.models import Entry, EventTable
    from tdsystem.seating.services import table_hand_finish
    from tdsystem.seating.services.dayend import day_end_start
    from tdsystem.simulation.seatings import ACTOR, arrange
    from tests.fixtures import make_event

    director = make_user("dana", "director")
    event = make_event(600, 600, name="Main Event · 1A", seats_per_table=6)
    arrange(event, {1: [1, 3, 5], 2: [2, 4], 3: [1, 6], 4: [3, 4]}, seats=6)
    hands = day_end_start(event_id=event.pk, actor=ACTOR, seed=2).hands
    for hand in range(hands):
        table_hand_finish(event_id=event.pk, table_number=1, expected_hand=hand, actor=ACTOR)
    # Bagged on the floor's phone: the seats lose their Out buttons as the bags are saved.
    phone = new_page(PHONE)
    login(phone, live_server, director.username, PASSWORD)
    phone.goto(f"{live_server.url}/console/events/{event.pk}/tables/1/")
    seats = phone.locator("#table ol.seats")
    assert seats.get_by_role("button", name="Out").count() == 3
    for entry in Entry.objects.filter(event=event, table__number=1):
        phone.fill(f"[name=chips-{entry.seat}]", f"{10_000 * entry.seat + 1_500:,}")
        phone.fill(f"[name=bag-{entry.seat}]", f"1A-{entry.seat:03}")
    phone.get_by_role("button", name="Save the bags").click()
    phone.locator("#table ol.seats .bag-mark").first.wait_for()
    assert seats.get_by_role("button", name="Out").count() == 0
    assert "This table is bagged." in phone.locator("#table-bags").inner_text()
    assert EventTable.objects.get(event=event, number=1).hands_left == 0
    for size, viewport in SIZES.items():
        page = new_page(viewport)
        login(page, live_server, director.username, PASSWORD)
        page.goto(f"{live_server.url}/console/events/{event.pk}/tables/1/")
        seats = page.locator("#table ol.seats")
        assert seats.get_by_role("button", name="Out").count() == 0
        marks = seats.locator(".bag-mark")
        assert marks.count() == 3 and all(m.is_visible() for m in marks.all())
        assert "bag 1A-003" in marks.nth(1).inner_text() and "31,500" in marks.nth(1).inner_text()
        assert page.get_by_role("link", name="Several out on one hand…").count() == 0
        _no_overflow(page)
        screenshot(page, f"festival/table-bagged-{size}", full_page=True)
    # A table still playing keeps its buttons.
    page.goto(f"{live_server.url}/console/events/{event.pk}/tables/2/")
    assert page.locator("#table ol.seats").get_by_role("button", name="Out").count() == 2


def test_a_combined_flight_reads_as_finished_and_points_to_day_2(live_server, new_page):
    from tdsystem.seating.models import Entry
    from tdsystem.seating.services import day2_combine
    from tdsystem.simulation.seatings import ACTOR
    from tests.services.test_flights import played

    director = make_user("dana", "director")
    main, a, _b, _ = played()
    day2_combine(event_id=main.pk, confirm_differences=True, actor=ACTOR, seed=1)
    ann = Entry.objects.get(event=a, player__name="Ann")
    for size, viewport in SIZES.items():
        page = new_page(viewport)
        login(page, live_server, director.username, PASSWORD)
        page.goto(f"{live_server.url}/console/events/{a.pk}/")
        banner = page.locator("#flight-of")
        assert "Combined into Day 2" in banner.inner_text()
        assert page.get_by_role("button", name="Resume").count() == 0
        banner.get_by_role("link", name="Day 2 console").wait_for()
        _no_overflow(page)
        screenshot(page, f"festival/flight-combined-console-{size}")
        page.goto(f"{live_server.url}/events/{a.pk}/seats/?entry={ann.number}")
        found = page.locator("#found-day2")
        assert found.inner_text().startswith("Through to Day 2.")
        _no_overflow(page)
        screenshot(page, f"festival/flight-combined-lookup-{size}")
    found.get_by_role("link").click()
    page.wait_for_url(f"**/events/{main.pk}/seats/?q=Ann")
    assert "Ann" in page.locator("#results").inner_text()
    # The flight's clock on a TV: over, and the tournament goes on (after the JSON's update).
    tv = new_page(TV)
    tv.goto(f"{live_server.url}/events/{a.pk}/clock/")
    tv.wait_for_function("document.getElementById('status').textContent === 'Finished'")
    assert tv.locator("#banner").inner_text() == "FLIGHT OVER: ON TO DAY 2"
    screenshot(tv, "festival/flight-combined-clock-tv")


def test_a_ticket_goes_to_the_player_the_search_finds(live_server, new_page):
    from tdsystem.seating.models import Player, Ticket
    from tests.fixtures import make_event

    director = make_user("dana", "director")
    target = make_event(600, 600, name="Main Event", buy_in=Decimal(200), fee=Decimal(20))
    ann = Player.objects.create(name="Ann Lee", member_id="M-17", note="Lyon")
    Player.objects.create(name="Annie Ng")
    shots = {}
    for size, viewport in SIZES.items():
        page = new_page(viewport)
        login(page, live_server, director.username, PASSWORD)
        page.goto(f"{live_server.url}/console/events/{target.pk}/seating/")
        page.get_by_text("Give a ticket (a seat won elsewhere)").click()
        page.fill("#ticket-q", "ann")
        page.locator("#ticket-players label").first.wait_for()
        page.press("#ticket-q", "Enter")  # searches again; gives nothing
        page.wait_for_load_state("networkidle")
        assert page.locator("#ticket-players input[name=player]").count() == 3
        assert not Ticket.objects.exists() and page.locator(".flash.error").count() == 0
        assert page.locator("#ticket-players input[name=player]").count() == 3
        _no_overflow(page)
        page.locator("#tickets").scroll_into_view_if_needed()
        shots[size] = screenshot(page, f"festival/ticket-search-{size}")
    page.get_by_label("Ann Lee").check()
    page.fill("#ticket-note", "qualifier at Casino Lyon")
    page.get_by_role("button", name="Give a ticket").click()
    page.get_by_text("Ticket given to Ann Lee").wait_for()
    assert list(Ticket.objects.values_list("player", flat=True)) == [ann.pk]
    # A known name typed, nobody picked: asked, the form kept, then a namesake confirmed.
    page.get_by_text("Give a ticket (a seat won elsewhere)").click()
    page.fill("#ticket-name", "Ann Lee")
    page.get_by_role("button", name="Give a ticket").click()
    page.get_by_text("a player of that name exists already").wait_for()
    assert page.locator("#ticket-name").input_value() == "Ann Lee"
    page.locator("#tickets").scroll_into_view_if_needed()
    screenshot(page, "festival/ticket-known-name-phone")
    page.get_by_label("A new player, even if the name is known").check()
    page.get_by_role("button", name="Give a ticket").click()
    page.get_by_text("Ticket given to Ann Lee").wait_for()
    assert Player.objects.filter(name="Ann Lee").count() == 2


def test_a_satellites_results_list_the_seat_winners_above_the_cash_place(live_server, new_page):
    from tdsystem.results import services
    from tdsystem.results.services.satellites import satellite_tickets_issue
    from tdsystem.simulation.seatings import ACTOR, arrange
    from tests.fixtures import make_event

    target = make_event(600, 600, name="Main Event", buy_in=Decimal(200), fee=Decimal(20))
    satellite = make_event(600, name="Satellite", buy_in=Decimal(100), satellite_target=target)
    people = arrange(satellite, {1: [1, 2, 3, 4, 5]})  # two seats of 220, 60 in cash
    for seat in (5, 4, 3):
        services.bustout_record(
            event_id=satellite.pk, entry_ids=[people[f"T1S{seat}"].pk], actor=ACTOR, rng_seed=1
        )
    satellite_tickets_issue(event_id=satellite.pk, actor=ACTOR)
    for size, viewport in SIZES.items():
        page = new_page(viewport)
        page.goto(f"{live_server.url}/events/{satellite.pk}/results/")
        rows = page.locator("table tbody tr")
        first = rows.nth(0).inner_text()
        assert "1-2" in first and "Seat in Main Event" in first
        assert "Seat in Main Event" in rows.nth(1).inner_text()
        assert "60" in rows.nth(2).inner_text() and "3" in rows.nth(2).inner_text()
        _no_overflow(page)
        screenshot(page, f"festival/satellite-results-{size}", full_page=True)


def test_the_floor_plan_of_600_tables(live_server, new_page):
    from tests.views.test_series import _room_of

    director = make_user("dana", "director")
    _room_of(600)
    for size, viewport in SIZES.items():
        page = new_page(viewport)
        login(page, live_server, director.username, PASSWORD)
        started = time.perf_counter()
        page.goto(f"{live_server.url}/console/floor/")
        page.locator('.tile[data-table="600"]').wait_for()
        loaded = time.perf_counter() - started
        assert page.locator("a.tile.held").count() == 300
        assert page.locator("label.tile.free").count() == 300
        _no_overflow(page)
        screenshot(page, f"festival/floor-600-{size}")
        print(f"floor plan of 600 tables, {size}: loaded in {loaded * 1000:.0f} ms")
    # A free tile ticks; a held tile opens its table's page.
    page.locator('label.tile.free[data-table="400"]').click()
    assert page.locator("#pick-400").is_checked()
    page.locator('a.tile.held[data-table="1"]').click()
    page.wait_for_url("**/tables/1/")
