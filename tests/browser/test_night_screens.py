"""The screens and pages this night mended, in Chromium, at TV, tablet and phone sizes, in
Arabic and Japanese: the paused TV in the money, the players' pages with their language
switcher, the move slips by table, the payouts rounded, the event list.

Screenshots: var/screenshots/night/<page>-<language>-<size>.png, looked at.
"""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

import pytest

from tests.browser.conftest import PHONE, TABLET, TV, login, screenshot, settled
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"tv": TV, "tablet": TABLET, "phone": PHONE}
FULL = list(range(1, 10))


def _night():
    """Nine players, two paid, seven out: in the money, the clock paused; a move slip to
    table 2 and two to table 3 waiting."""
    from django.utils import timezone

    from tdsystem.events.models import Clock, Event
    from tdsystem.results import services as results
    from tdsystem.seating.models import Move
    from tdsystem.simulation.seatings import ACTOR, arrange
    from tests.fixtures import make_event

    event = make_event(1200, 1200, "B600", 1200, name="Thursday Deepstack", buy_in=Decimal(15000))
    people = arrange(event, {1: FULL[:4], 2: FULL[:3], 3: FULL[:2]})
    Clock.objects.filter(pk=event.pk).update(
        status="paused", level_index=1, ends_at=None, remaining_ms=754_000, version=4
    )
    Event.objects.filter(pk=event.pk).update(status="paused")
    results.payout_plan_update(event_id=event.pk, table="top-3", actor=ACTOR)
    for name in ("T1S1", "T1S2", "T1S3", "T2S1", "T2S2", "T3S1"):
        results.bustout_record(event_id=event.pk, entry_ids=[people[name].pk], actor=ACTOR)
    Move.objects.filter(event=event).delete()
    for name, table, seat in (("T1S4", 2, 5), ("T2S3", 3, 6), ("T3S2", 3, 7)):
        entry = people[name]
        Move.objects.create(
            event=event,
            entry=entry,
            from_table=entry.table.number,
            from_seat=entry.seat,
            to_table=table,
            to_seat=seat,
            reason="balance",
            created_at=timezone.now() - timedelta(minutes=1),
        )
    return event


# Japanese lays out as English does, with other glyphs (the Japanese clock screen always
# runs: test_clock_screen_japanese.py); it reads here with `make test SLOW=1`.
@pytest.mark.parametrize("language", ["ar", pytest.param("ja", marks=pytest.mark.slow)])
def test_the_mended_pages_read_in_arabic_and_japanese(live_server, new_page, language):
    event = _night()
    director = make_user("dora", "director")
    for size, viewport in SIZES.items():
        tv = new_page(viewport)
        tv.goto(f"{live_server.url}/events/{event.pk}/clock/?lang={language}")
        tv.wait_for_selector("#in-the-money:not([hidden])")
        assert tv.locator("#in-the-money").is_visible()
        # Paused: the digits at full strength in the band's colour, not dimmed.
        assert tv.evaluate("getComputedStyle(document.getElementById('time')).opacity") == "1"
        screenshot(tv, f"night/clock-paused-in-the-money-{language}-{size}")

        for name, path in (
            ("lookup", f"/events/{event.pk}/seats/"),
            ("draw", f"/events/{event.pk}/seats/draw/"),
            ("chips", f"/events/{event.pk}/chips/"),
        ):
            page = new_page(viewport)
            page.goto(f"{live_server.url}{path}?lang={language}")
            switch = page.locator(".lang-switch select")
            assert switch.count() == 1 and switch.input_value() == language
            screenshot(page, f"night/{name}-{language}-{size}")

        staff = new_page(viewport)
        login(staff, live_server, director.username, PASSWORD)
        staff.goto(f"{live_server.url}/console/events/{event.pk}/moves/?lang={language}")
        settled(staff)
        assert staff.locator(".slip-group").count() == 2
        screenshot(staff, f"night/moves-{language}-{size}", full_page=True)
        staff.goto(f"{live_server.url}/console/events/{event.pk}/results/payouts")
        placeholder = staff.locator("#id_unit").get_attribute("placeholder")
        assert re.search(r"1[.,]000$", placeholder), placeholder  # grouped as the reader does
        screenshot(staff, f"night/payouts-{language}-{size}", full_page=True)
        staff.goto(f"{live_server.url}/console/")
        screenshot(staff, f"night/events-{language}-{size}")


def test_the_language_switcher_on_the_seat_lookup_changes_the_page(live_server, new_page):
    event = _night()
    page = new_page(PHONE)
    page.goto(f"{live_server.url}/events/{event.pk}/seats/?q=T1S4")
    page.wait_for_selector("#found-table")
    with page.expect_navigation():
        page.select_option(".lang-switch select", "ja")
    page.wait_for_selector("html[lang=ja] #found-table")
    assert page.locator("#found-table").inner_text() == "1"  # the same search, in Japanese
    assert "q=T1S4" in page.url
