"""A ruling shared at the table: tapped in on a tablet, shared by its link, opened on the
disputing player's phone without logging in, with the rule numbers of the event's set."""

from __future__ import annotations

import time

import pytest

from tests.browser.conftest import PHONE, TABLET, TV, login, screenshot
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap(page, name: str) -> None:
    page.locator("#next").get_by_role("button", name=name, exact=True).click()
    page.wait_for_load_state("networkidle")


def test_a_shared_ruling_reads_the_same_on_the_players_phone(live_server, new_page):
    event = make_event(600, 600, name="Sunday Deepstack", seats_per_table=6, rule_set="tda-2026")
    make_user("fred", "floor")
    page = new_page(TABLET)
    login(page, live_server, "fred", PASSWORD)
    page.goto(f"{live_server.url}/console/rulings/?event={event.pk}")
    assert page.input_value("#id_rule_set") == "tda-2026"
    # The cutoff: all-in for 260 after the 10 ante. The stack is sent 400 ms after the
    # typing stops; its answer is awaited so the screenshots show it.
    with page.expect_response(
        lambda answer: answer.request.method == "POST" and "/console/rulings/" in answer.url
    ):
        page.fill("#seat-5-stack", "270")
    page.wait_for_load_state("networkidle")
    # Each tap after the one before has landed (a tap re-renders the workspace).
    moves = [(4, "Raise to 200"), (5, "Call 200"), (6, "Raise to 260")]  # 260: all-in, short
    moves += [(1, "Fold"), (2, "Fold"), (3, "Fold")]  # the button and the blinds
    for seat, name in moves:
        page.locator("#next", has_text=f"Seat {seat} to act").wait_for()
        tap(page, name)
    page.locator("#next", has_text="Seat 4 to act").wait_for()
    assert "may not raise" in page.inner_text("#next")
    assert "TDA 49" in page.inner_text("#next")
    screenshot(page, "rulings/ruling-cited-tablet")

    page.get_by_role("button", name="Share this ruling (link)").click()
    page.locator("#shared-link").wait_for()
    link = page.input_value("#shared-link")
    page.locator("#share").scroll_into_view_if_needed()
    screenshot(page, "rulings/ruling-shared-tablet")
    for viewport, name in ((PHONE, "phone"), (TV, "tv")):
        page.set_viewport_size(viewport)
        page.locator("#next").scroll_into_view_if_needed()
        screenshot(page, f"rulings/ruling-shared-{name}", full_page=name == "phone")

    for viewport, name in ((PHONE, "phone"), (TABLET, "tablet"), (TV, "tv")):
        player = new_page(viewport)  # a fresh context: not logged in
        player.goto(link)
        assert "Seat 4 to act" in player.inner_text("#next")
        assert "Owes 60 to call" in player.inner_text("#next")
        assert "TDA 49" in player.inner_text("#next")
        assert "Sunday Deepstack" in player.inner_text("main")
        screenshot(player, f"rulings/shared-{name}", full_page=True)


def test_the_floor_enters_the_chips_a_player_put_out(live_server, new_page):
    event = make_event(600, 600, name="Sunday Deepstack", seats_per_table=6)
    make_user("fred", "floor")
    page = new_page(TABLET)
    login(page, live_server, "fred", PASSWORD)
    page.goto(f"{live_server.url}/console/rulings/?event={event.pk}")
    page.locator("#next", has_text="Seat 4 to act").wait_for()
    tap(page, "Raise to 200")
    page.locator("#next", has_text="Seat 5 to act").wait_for()
    tap(page, "Chips put out…")
    row = page.locator("#action-1")
    row.locator("input[name=act_to]").fill("")
    row.locator("input[name=act_to]").press_sequentially("100 100", delay=60)
    page.locator("#notes", has_text="every chip is needed for the call").wait_for()
    assert "TDA 45" in page.inner_text("#notes")
    row.locator("select[name=act_said]").select_option("raise")
    page.locator("#notes", has_text="declared a raise").wait_for()
    for viewport, name in ((TABLET, "tablet"), (PHONE, "phone"), (TV, "tv")):
        page.set_viewport_size(viewport)
        page.locator("#actions").scroll_into_view_if_needed()
        screenshot(page, f"rulings/chips-{name}", full_page=name == "phone")


def test_a_tap_right_after_typing_a_stack_is_not_lost(live_server, new_page):
    """The stack is sent 400 ms after the typing stops; a tap inside those 400 ms carries
    the stack with it, and the late request waits for the tap's answer instead of
    cancelling it (the tap's answer is held a second here: a loaded server)."""
    event = make_event(600, 600, name="Sunday Deepstack", seats_per_table=6, rule_set="tda-2026")
    make_user("fred", "floor")
    page = new_page(TABLET)
    login(page, live_server, "fred", PASSWORD)
    page.goto(f"{live_server.url}/console/rulings/?event={event.pk}")
    page.locator("#next", has_text="Seat 4 to act").wait_for()

    def held(route) -> None:
        if "op=append" in (route.request.post_data or ""):
            time.sleep(1)
        route.continue_()

    page.route("**/console/rulings/", held)
    page.fill("#seat-5-stack", "270")
    page.locator("#next").get_by_role("button", name="Raise to 200", exact=True).click()
    page.locator("#next", has_text="Seat 5 to act").wait_for(timeout=10_000)
    page.wait_for_load_state("networkidle")
    assert "Seat 5 to act" in page.inner_text("#next")
    assert page.input_value("#seat-5-stack") == "270"
