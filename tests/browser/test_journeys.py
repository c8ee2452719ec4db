"""The main journeys through the pages, as the people on the floor make them."""

from __future__ import annotations

import re

import pytest

from tdsystem.seating.models import Entry, Move
from tests.browser.conftest import PHONE, TABLET, login, screenshot
from tests.personas import PASSWORD, make_user
from tests.worker import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [f"Player {c}" for c in "ABCDEFGHIJKLMN"]  # 14 players: two tables of seven


def test_a_director_runs_an_event_and_the_floor_busts_and_moves_players(live_server, new_page):
    from tdsystem.structures.services import templates_install

    templates_install()
    make_user("dora", "director")
    make_user("fred", "floor")
    page = new_page(TABLET)
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_server, "dora", PASSWORD)

    # A new event from a published template.
    page.goto(f"{live_server.url}/console/events/new/")
    page.fill("#id_name", "Sunday Main")
    page.select_option("#id_template", label="EPT Barcelona 2006, Day 1")
    page.fill("#id_buy_in", "100")
    page.get_by_role("button", name="Create event").click()
    page.wait_for_selector("text=Sunday Main")
    event_url = page.url

    # Its director puts the floor on its staff (the creator directs it, no one else is on it).
    page.select_option("#staff-user", label="fred")
    page.select_option("#staff-role", "floor")
    page.locator("#staff").get_by_role("button", name="Add to the staff").click()
    page.wait_for_selector("#staff >> text=fred is on the staff as floor.")

    # Tables, players, the draw.
    page.get_by_role("link", name="Seating").click()
    page.fill("#id_numbers", "1-2")
    page.fill("#id_seats", "9")
    page.locator("#setup").get_by_role("button", name="Add").click()
    page.wait_for_selector("text=Table 2")
    page.get_by_text("Paste a list").click()
    page.fill("#names", "\n".join(NAMES))
    page.get_by_role("button", name="Register all").click()
    page.wait_for_function("document.body.innerText.includes('14')")
    page.get_by_role("button", name="Draw seats").click()
    assert wait_for(lambda: Entry.objects.filter(table__isnull=False).count() == 14, 5)
    page.reload()
    page.wait_for_selector("text=Player A")
    screenshot(page, "journey-seating-console-tablet")

    # The clock starts.
    page.goto(event_url)
    page.get_by_role("button", name=re.compile("Start$")).click()
    page.wait_for_selector("#clock-panel .badge.running")

    # The floor busts two players at one table; balancing moves someone there.
    floor = new_page(PHONE)
    floor.on("dialog", lambda dialog: dialog.accept())
    login(floor, live_server, "fred", PASSWORD)
    seating_url = event_url.replace("/console/events/", "/console/events/").rstrip("/")
    seating_url += "/seating/"
    short = Entry.objects.filter(table__number=1).select_related("player")[:2]
    for entry in list(short):
        floor.goto(seating_url)
        floor.fill("#find-q", entry.player.name)
        floor.locator("#search").get_by_role("button", name=entry.player.name).click()
        floor.locator("#entry-panel").get_by_role("button", name="Bust out").click()
        floor.wait_for_selector("#entry-panel >> text=Out in place")
    move = Move.objects.get()
    assert move.to_table == 1 and move.acknowledged_at is None

    floor.goto(f"{seating_url.replace('/seating/', '/moves/')}")
    screenshot(floor, "journey-move-slips-phone")
    floor.get_by_role("button", name="Acknowledge").first.click()
    floor.wait_for_selector(f"#slip-{move.pk} >> text=done")
    move.refresh_from_db()
    assert move.acknowledged_at is not None
