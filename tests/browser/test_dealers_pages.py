"""The dealers' pages in Chromium: the console's dealers page (a dealer added and clocked
in, a push), the dealers' room board on a TV, and a dealer's phone page by their link,
clocking out from it. Screenshots at TV, tablet and phone sizes in var/screenshots/dealers/."""

from __future__ import annotations

import pytest

from tdsystem.core.actors import Actor
from tdsystem.dealers import services
from tdsystem.dealers.models import Dealer, Rotation, Shift
from tdsystem.simulation.seatings import arrange
from tests.browser.conftest import (
    PHONE,
    TABLET,
    TV,
    docs_shot,
    login,
    open_page,
    screenshot,
)
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ACTOR = Actor(label="test")
NAMES = ["Ana Souza", "Bảo Trần", "Chiara Rossi", "Dmitri Volkov", "佐藤 恵", "Fatima Zahra"]


def test_the_console_the_board_and_a_dealers_phone(live_server, new_page):
    make_user("director", "director")
    event = make_event(1800, 1800, name="Main Event")
    arrange(event, {n: [1, 2, 3] for n in range(1, 6)})
    for name in NAMES:
        dealer = services.dealer_add(name=name, games="NLH, PLO", actor=ACTOR)
        services.dealer_clock_in(event_id=event.pk, dealer_id=dealer.pk, actor=ACTOR)

    console = open_page(new_page, TV)
    login(console, live_server, "director", PASSWORD)
    console.goto(f"{live_server.url}/console/events/{event.pk}/")
    console.click("#dealers-link")
    console.fill("#id_name", "Gus Hansen")
    console.fill("#id_games", "NLH")
    console.click("#add-dealer button")
    console.wait_for_selector("text=Dealer Gus Hansen added")
    console.locator("#roster tr", has_text="Gus Hansen").locator("button").click()
    console.wait_for_selector("text=Clocked in")
    assert console.locator("#rotation tbody tr").count() == 7
    screenshot(console, "dealers/console-tv", full_page=True)
    console.click("#push-now")
    console.wait_for_selector("text=Dealers pushed")
    assert Rotation.objects.get(pk=event.pk).pushes == 1
    assert "table 5" in console.locator("#rotation").inner_text()
    for size, viewport in (("tablet", TABLET), ("phone", PHONE)):
        console.set_viewport_size(viewport)
        screenshot(console, f"dealers/console-{size}", full_page=True)
        assert console.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

    board = open_page(new_page, TV)
    board.goto(f"{live_server.url}/events/{event.pk}/dealers/")
    assert "Next push" in board.locator("#push-at").inner_text()
    assert board.locator(".db-list li").count() == 7
    # Large type, readable across the dealers' room, and nothing off the screen.
    size = board.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.db-list li')).fontSize)"
    )
    assert size >= 30
    assert board.evaluate("document.documentElement.scrollWidth") <= TV["width"]
    screenshot(board, "dealers/board-tv")
    docs_shot(board, "dealers", "board-tv")
    board.set_viewport_size(PHONE)
    screenshot(board, "dealers/board-phone", full_page=True)

    dealer = Dealer.objects.get(name="Ana Souza")
    phone = open_page(new_page, PHONE)
    phone.goto(f"{live_server.url}/dealer/{dealer.token}/")
    assert "Next:" in phone.locator("#next").inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "dealers/phone", full_page=True)
    phone.click("#clock-out")
    phone.wait_for_selector("#clock-in")
    assert not Shift.objects.filter(dealer=dealer, clock_out__isnull=True).exists()
    screenshot(phone, "dealers/phone-clocked-out", full_page=True)
