"""Forms that keep what was typed, and money that asks before it changes hands, in Chromium.

- The bust-out console refuses two bad stacks at once: both players stay ticked, both
  stacks stay as typed, and each says what is wrong under it.
- A re-entry is sold after a question naming the player, the chips and the price (as the
  clock's actions ask); dismissed, nothing is sold; once used it is no longer offered on
  the old entry, and an event without re-entries says why there is no button.

Screenshots: var/screenshots/forms/*.png (tablet, phone; English, Arabic, Japanese).
"""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

import pytest

from tests.browser.conftest import PHONE, TABLET, TV, login, screenshot, settled
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FULL = list(range(1, 10))
SIZES = {"tv": TV, "tablet": TABLET, "phone": PHONE}


def running(event, index: int = 0, left_seconds: int = 500) -> None:
    from django.utils import timezone

    from tdsystem.events.models import Clock, Event

    Clock.objects.filter(pk=event.pk).update(
        status="running",
        level_index=index,
        ends_at=timezone.now() + timedelta(seconds=left_seconds),
        remaining_ms=None,
        version=3,
    )
    Event.objects.filter(pk=event.pk).update(status="running")


def test_two_bad_stacks_keep_both_ticks_and_say_both(live_server, new_page):
    from tdsystem.results.models import BustOut
    from tdsystem.simulation.seatings import arrange
    from tests.fixtures import make_event

    floor = make_user("fred", "floor")
    event = make_event(600, 600, name="Friday Turbo")
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    page = new_page(TABLET)
    login(page, live_server, floor.username, PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/results/")
    page.select_option("#bo-table", "2")
    page.wait_for_selector("#bo-players .rs-players")
    settled(page)
    first, second = people["T2S3"], people["T2S5"]
    page.check(f"input[name=entry][value='{first.pk}']")
    page.check(f"input[name=entry][value='{second.pk}']")
    page.fill(f"input[name=stack-{first.pk}]", "12x00")
    page.fill(f"input[name=stack-{second.pk}]", "9" * 20)
    page.get_by_role("button", name="Record bust-out").click()
    page.wait_for_selector("#record .flash.error")
    settled(page)

    # Both still ticked and typed; each bad stack said under it, the quotes closed.
    assert page.is_checked(f"input[name=entry][value='{first.pk}']")
    assert page.is_checked(f"input[name=entry][value='{second.pk}']")
    assert page.input_value(f"input[name=stack-{first.pk}]") == "12x00"
    assert page.input_value(f"input[name=stack-{second.pk}]") == "9" * 20
    assert page.locator(f"input[name=stack-{first.pk}]").is_visible()
    said = page.locator("#record .flash.error").inner_text()
    assert "“12x00” is not a number of chips" in said
    assert "“999999999999…” is not a number of chips" in said
    assert page.locator(f"#stack-error-{first.pk}").inner_text().startswith("“12x00”")
    assert page.locator(f"#stack-error-{second.pk}").inner_text().startswith("“999999999999…”")
    assert page.get_attribute(f"input[name=stack-{second.pk}]", "aria-invalid") == "true"
    screenshot(page, "forms/bust-out-two-bad-stacks-tablet", full_page=True)
    assert not BustOut.objects.filter(event=event).exists()

    # Put right, the same form records both on the one hand.
    page.fill(f"input[name=stack-{first.pk}]", "12,000")
    page.fill(f"input[name=stack-{second.pk}]", "8000")
    page.get_by_role("button", name="Record bust-out").click()
    page.wait_for_selector("#bustout-done")
    assert "T2S3" in page.locator("#bustout-done").inner_text()
    assert BustOut.objects.filter(event=event).count() == 1


def _reentry_night(**rules):
    from tdsystem.results import services as results
    from tdsystem.simulation.seatings import ACTOR, arrange
    from tests.fixtures import make_event

    event = make_event(
        600,
        600,
        name="Thursday Deepstack",
        buy_in=Decimal("15000"),
        fee=Decimal("1500"),
        starting_stack=50_000,
        late_registration_end_level=2,
        **rules,
    )
    people = arrange(event, {1: FULL}, positions={1: (1, 2, 3)})
    running(event)
    out = people["T1S4"]
    results.bustout_record(event_id=event.pk, entry_ids=[out.pk], table_number=1, actor=ACTOR)
    return event, out


def _open_panel(page, live_server, event, out) -> None:
    page.goto(f"{live_server.url}/console/events/{event.pk}/seating/")
    page.fill("#find-q", out.player.name)
    page.locator("#search button").first.click()
    page.wait_for_selector("#entry-panel h3")
    settled(page)


def test_a_re_entry_asks_first_and_is_not_offered_twice(live_server, new_page):
    from tdsystem.seating.models import Entry

    director = make_user("dora", "director")
    event, out = _reentry_night(reentry_allowed=True, reentry_max=1)
    page = new_page(TABLET)
    login(page, live_server, director.username, PASSWORD)
    _open_panel(page, live_server, event, out)
    button = page.locator("#entry-panel").get_by_role("button", name=re.compile("^Re-enter"))
    # The price as money in the reader's language, beside the chips.
    assert button.inner_text() == "Re-enter · 50,000 chips · 16,500"
    questions: list[str] = []

    def dismiss(dialog):
        questions.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    button.click()
    page.wait_for_timeout(500)
    assert questions == ["Re-entry for T1S4: a new entry of 50,000 chips for 16,500?"]
    assert Entry.objects.filter(event=event, player=out.player).count() == 1  # nothing sold
    screenshot(page, "forms/reentry-panel-tablet")

    page.once("dialog", lambda dialog: dialog.accept())
    button.click()
    page.wait_for_selector("#entry-panel .flash.ok")
    again = Entry.objects.filter(event=event, player=out.player, is_reentry=True).get()
    assert f"#{again.number} T1S4" in page.locator("#entry-panel .flash.ok").inner_text()

    # The old entry no longer offers it: it says where the player is now.
    _open_panel(page, live_server, event, out)
    page.locator("#search button", has_text=f"#{out.number} ").click()
    page.wait_for_selector(f"#entry-panel h3:has-text('#{out.number}')")
    settled(page)
    panel = page.locator("#entry-panel")
    assert panel.get_by_role("button", name=re.compile("^Re-enter")).count() == 0
    assert f"Re-entered as #{again.number}." in panel.inner_text()


def test_a_busted_player_without_re_entries_is_told_why(live_server, new_page):
    director = make_user("dora", "director")
    event, out = _reentry_night(reentry_allowed=False)
    page = new_page(PHONE)
    login(page, live_server, director.username, PASSWORD)
    _open_panel(page, live_server, event, out)
    panel = page.locator("#entry-panel")
    assert panel.get_by_role("button", name=re.compile("^Re-enter")).count() == 0
    assert "No re-entry: this event does not allow re-entries." in panel.inner_text()
    screenshot(page, "forms/reentry-refused-phone")


# Japanese lays out as English does, with other glyphs (the Japanese clock screen always
# runs: test_clock_screen_japanese.py); it reads here with `make test SLOW=1`.
@pytest.mark.parametrize("language", ["ar", pytest.param("ja", marks=pytest.mark.slow)])
def test_the_re_entry_and_the_bust_out_form_read_in_arabic_and_japanese(
    live_server, new_page, language
):
    """Screenshots at TV, tablet and phone sizes, looked at; the page keeps its layout."""
    from tdsystem.simulation.seatings import arrange
    from tests.fixtures import make_event

    director = make_user("dora", "director")
    event, out = _reentry_night(reentry_allowed=True)
    other = make_event(600, name="Friday Turbo")
    people = arrange(other, {3: FULL, 4: FULL[:8]}, positions={3: (5, 6, 7), 4: (1, 2, 3)})
    for size, viewport in SIZES.items():
        page = new_page(viewport)
        login(page, live_server, director.username, PASSWORD)
        page.goto(f"{live_server.url}/console/?lang={language}")
        _open_panel(page, live_server, event, out)
        assert page.locator("#reenter").is_visible()
        assert page.evaluate("document.documentElement.lang") == language
        screenshot(page, f"forms/reentry-{language}-{size}")
        page.goto(f"{live_server.url}/console/events/{other.pk}/results/")
        page.select_option("#bo-table", "4")
        page.wait_for_selector("#bo-players .rs-players")
        settled(page)
        for name in ("T4S3", "T4S5"):
            page.check(f"input[name=entry][value='{people[name].pk}']")
        for name in ("T4S3", "T4S5"):
            page.fill(f"input[name=stack-{people[name].pk}]", "abc")
        page.locator("#record button[type=submit]").click()
        page.wait_for_selector("#record .flash.error")
        settled(page)
        assert page.locator(".stack-error").count() == 2
        screenshot(page, f"forms/bust-out-{language}-{size}", full_page=True)
