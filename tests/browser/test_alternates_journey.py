"""THE alternates journey, in Chromium: three players queued for a full event, two seats
open, the first two pages say "Seat ready" within 2 s, one comes and is seated, the other
does not come in time and drops a place, and the third is called."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tdsystem.core.actors import Actor
from tdsystem.players import alternates as alt
from tdsystem.players.models import Alternate
from tdsystem.results.services import bustout_record
from tdsystem.simulation.seatings import arrange
from tests.browser.conftest import PHONE, TABLET, login, open_page, screenshot
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DESK = Actor(label="desk")
READY_MS = 2000


def test_the_alternates_list_calls_seats_and_drops_a_place(live_server, new_page):
    event = make_event(600, name="Friday Turbo")
    seats = arrange(event, {1: list(range(1, 10))})
    make_user("floor1", "floor")

    ann = open_page(new_page, PHONE)
    ann.goto(f"{live_server.url}/events/{event.pk}/seats/")
    screenshot(ann, "alternates/lookup-join-phone")
    ann.fill("#alt-join-name", "Ann Lee")
    ann.click("#alternates-join button")
    ann.wait_for_url("**/me/**")
    assert ann.locator("#alt-position").inner_text() == "1"
    pages = {"Ann Lee": ann}
    for name in ("Bob Park", "Cy Tran"):
        joined = alt.alternate_join(event=event, name=name, actor=DESK)
        pages[name] = open_page(new_page, PHONE)
        pages[name].goto(f"{live_server.url}/me/{joined.link.token}/")
    screenshot(pages["Cy Tran"], "alternates/player-waiting-phone")
    pages["Cy Tran"].goto(pages["Cy Tran"].url + "?lang=ar")
    screenshot(pages["Cy Tran"], "alternates/player-waiting-phone-ar")

    # Two bust-outs open two seats: the first two are called, each page within 2 s.
    bustout_record(event_id=event.pk, entry_ids=[seats["T1S2"].pk], actor=DESK)
    bustout_record(event_id=event.pk, entry_ids=[seats["T1S5"].pk], actor=DESK)
    for name in ("Ann Lee", "Bob Park"):
        pages[name].wait_for_selector("#seat-ready:not([hidden])", timeout=READY_MS)
    assert "Seat ready" in ann.locator("#seat-ready").inner_text()
    assert pages["Cy Tran"].locator("#seat-ready").is_hidden()
    screenshot(pages["Bob Park"], "alternates/player-called-phone")

    # The desk seats Ann, who came.
    desk = open_page(new_page, TABLET, accept_dialogs=True)
    login(desk, live_server, "floor1", PASSWORD)
    desk.goto(f"{live_server.url}/console/events/{event.pk}/alternates/")
    screenshot(desk, "alternates/desk-tablet")
    first = Alternate.objects.get(name="Ann Lee")
    desk.click(f"tr[data-alternate='{first.pk}'] button.primary")
    desk.wait_for_selector("text=Ann Lee seated")
    ann.wait_for_selector("#me-seat", timeout=READY_MS * 2)  # the page is the entry's now

    # Bob's hold runs out (moved back rather than waited for): one place lower, Cy called.
    Alternate.objects.filter(name="Bob Park").update(due_at=timezone.now() - timedelta(seconds=1))
    assert alt.alternates_expire(event_id=event.pk, actor=DESK) == 1
    pages["Cy Tran"].wait_for_selector("#seat-ready:not([hidden])", timeout=READY_MS)
    bob = pages["Bob Park"]
    bob.wait_for_selector("#seat-ready", state="hidden", timeout=READY_MS)
    bob.wait_for_function("document.querySelector('#alt-position').innerText === '2'")
    assert Alternate.objects.get(name="Bob Park").missed == 1
    pages["Cy Tran"].goto(pages["Cy Tran"].url)  # ?lang=ar kept: the called page in Arabic
    screenshot(pages["Cy Tran"], "alternates/player-called-phone-ar")
    desk.goto(f"{live_server.url}/console/events/{event.pk}/alternates/?lang=ar")
    screenshot(desk, "alternates/desk-tablet-ar")
