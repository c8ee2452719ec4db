"""What the room sees: the table draw on a venue TV pages through every player by itself,
and tells two players of one name apart by their note."""

from __future__ import annotations

import pytest

from tdsystem.seating.models import Player
from tdsystem.simulation.seatings import field
from tests.browser.conftest import PHONE, TABLET, TV, screenshot
from tests.fixtures import make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_it_pages_the_draw_screen_through_every_player_on_a_tv(live_server, new_page):
    event = make_event(600, name="Main Event")
    field(event, players=300, tables=34)
    page = new_page(TV)
    page.goto(f"{live_server.url}/events/{event.pk}/seats/draw/?seconds=3")
    label = page.locator("#page").inner_text()
    pages = int(label.rsplit(" ", 1)[1])
    assert label.startswith("page 1 of") and 2 <= pages <= 4  # a hundred or more a page
    first = page.locator(".p:not(.head) .name").first.inner_text()
    assert first == "Player 00001"
    shown = page.locator(".p:not(.head)").count()
    screenshot(page, "seat-draw-tv")
    # Nothing is cut off: the last row ends above the footer.
    rows = "[...document.querySelectorAll('.p')].map(e => e.getBoundingClientRect().bottom)"
    bottom = page.evaluate(f"Math.max(...{rows})")
    assert bottom <= page.locator(".draw-foot").bounding_box()["y"]
    page.wait_for_function("document.getElementById('page').innerText.startsWith('page 2')")
    second = page.locator(".p:not(.head) .name").first.inner_text()
    assert second == f"Player {shown + 1:05d}"


@pytest.mark.parametrize(("size_name", "size"), [("tv", TV), ("tablet", TABLET), ("phone", PHONE)])
def test_it_shows_a_players_note_beside_the_name_on_the_draw(
    live_server, new_page, size_name, size
):
    event = make_event(600, name="Main Event")
    field(event, players=18, tables=2)
    Player.objects.filter(name="Player 00003").update(note="from Lyon")
    page = new_page(size)
    page.goto(f"{live_server.url}/events/{event.pk}/seats/draw/?seconds=60")
    # The script has drawn the board: its header row is there, in the page's words.
    page.wait_for_selector(".p.head")
    assert page.locator(".p.head .name").first.inner_text() == "Player"
    note = page.locator(".p:not(.head) .name .pnote")
    assert note.count() == 1 and note.inner_text() == "(from Lyon)"
    row = page.locator(".p:not(.head)", has=page.locator(".pnote"))
    assert row.locator(".pname").inner_text() == "Player 00003"
    # Under the name and inside the row: neither is cut off.
    for part in (".pname", ".pnote"):
        fits = "e => e.scrollWidth <= e.clientWidth && e.getBoundingClientRect().bottom"
        bottom = row.locator(part).evaluate(
            f"{fits} <= e.closest('.p').getBoundingClientRect().bottom + 1"
        )
        assert bottom, part
    assert page.locator("#page").inner_text() == "page 1 of 1"
    screenshot(page, f"seat-draw-note-{size_name}")


def test_a_small_field_gets_few_wide_columns_with_every_name_whole(live_server, new_page):
    event = make_event(600, name="Thursday Weekly")
    field(event, players=21, tables=3)
    for number, player in enumerate(Player.objects.order_by("name"), start=1):
        player.name = f"Week Two Player {number:02d} Fernández-Oliveira"
        player.save(update_fields=["name"])
    page = new_page(TV)
    page.goto(f"{live_server.url}/events/{event.pk}/seats/draw/?seconds=60")
    page.wait_for_selector(".p.head")
    names = page.locator(".p:not(.head) .name")
    assert names.count() == 21
    cut = names.evaluate_all("els => els.filter(e => e.scrollWidth > e.clientWidth).length")
    assert cut == 0
    assert page.locator(".p.head").count() <= 2  # two columns at most for 21 players
    screenshot(page, "seat-draw-small-field-tv")


def answer_503(route) -> None:
    """What the screens' requests get while the server's database is down."""
    route.fulfill(
        status=503,
        headers={"Retry-After": "10"},
        content_type="application/json",
        body='{"error": "the database is unreachable; try again shortly"}',
    )


@pytest.mark.parametrize(("size_name", "size"), [("tv", TV), ("tablet", TABLET), ("phone", PHONE)])
def test_the_draw_says_reconnecting_and_keeps_its_seats_while_the_database_is_down(
    live_server, new_page, size_name, size
):
    event = make_event(600, name="Main Event")
    field(event, players=18, tables=2)
    page = new_page(size)
    page.goto(f"{live_server.url}/events/{event.pk}/seats/draw/?seconds=3")
    page.wait_for_selector(".p.head")
    rows = page.locator(".p:not(.head)").count()
    reconnecting = page.locator(".draw-head .stale")
    assert not reconnecting.is_visible()
    page.route("**/api/events/*/seats", answer_503)  # the refresh at the end of each round
    reconnecting.wait_for(state="visible", timeout=6000)
    assert reconnecting.inner_text() == "● reconnecting"
    page.wait_for_timeout(3200)  # another round: the seats it had are still shown
    assert page.locator(".p:not(.head)").count() == rows
    box = reconnecting.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
    screenshot(page, f"seat-draw-reconnecting-{size_name}")
    page.unroute("**/api/events/*/seats")
    reconnecting.wait_for(state="hidden", timeout=8000)  # asked again within 5 s


@pytest.mark.parametrize(("size_name", "size"), [("tv", TV), ("tablet", TABLET), ("phone", PHONE)])
def test_the_seat_lookup_says_reconnecting_while_the_database_is_down(
    live_server, new_page, size_name, size
):
    event = make_event(600, name="Main Event")
    field(event, players=18, tables=2)
    page = new_page(size)
    page.goto(f"{live_server.url}/events/{event.pk}/seats/")
    reconnecting = page.locator(".lookup .stale")
    assert not reconnecting.is_visible()
    page.route("**/events/*/seats/?*", answer_503)  # the search, as htmx asks it
    page.fill("#q", "Player 00003")
    reconnecting.wait_for(state="visible", timeout=4000)
    assert "reconnecting" in reconnecting.inner_text()
    screenshot(page, f"seat-lookup-reconnecting-{size_name}")
    page.unroute("**/events/*/seats/?*")
    page.fill("#q", "Player 0000")
    page.wait_for_selector("#results .hit")
    assert not reconnecting.is_visible()
