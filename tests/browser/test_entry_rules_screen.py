"""The room reads the entry rules on the clock screen; the floor rebuys from the table page."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from tdsystem.events.models import Clock
from tdsystem.seating import services
from tdsystem.seating.models import Purchase
from tdsystem.simulation.seatings import ACTOR
from tests.browser.conftest import PHONE, TV, login, screenshot
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RULES = {
    "late_registration_end_level": 2,
    "reentry_allowed": True,
    "reentry_max": 2,
    "rebuy_until_level": 2,
    "rebuy_price": Decimal("40"),
    "rebuy_fee": Decimal("4"),
    "addon_break": 1,
    "addon_price": Decimal("20"),
}


def seconds(text: str) -> int:
    found = re.search(r"(\d+(?::\d\d)+)", text)
    assert found, text
    return sum(int(v) * 60**i for i, v in enumerate(reversed(found.group(1).split(":"))))


def running(event, index: int, left: int) -> None:
    Clock.objects.filter(pk=event.pk).update(
        status="running",
        level_index=index,
        ends_at=timezone.now() + timedelta(seconds=left),
        remaining_ms=None,
        version=3,
    )


def test_the_screen_counts_late_registration_down_and_names_the_rules(live_server, new_page):
    event = make_event(1200, 1200, "B600", 1200, name="Rebuy Thursday", **RULES)
    running(event, 0, 600)
    screen = new_page(TV)
    screen.goto(f"{live_server.url}/events/{event.pk}/clock/")
    late = screen.locator('#entry-notices li[data-code="late-registration"]')
    late.wait_for()
    first = seconds(late.inner_text())
    assert 1790 <= first <= 1800  # level 1's ten minutes and level 2's twenty
    assert late.inner_text().startswith("Late registration closes in ")
    screen.wait_for_timeout(2200)
    assert seconds(late.inner_text()) < first  # counting down with the clock
    notices = screen.locator("#entry-notices").inner_text()
    assert "Rebuys until level 2" in notices and "Re-entries: 2 per player" in notices
    assert "Add-on at the first break" in notices
    screenshot(screen, "entry-rules/clock-tv")
    phone = new_page(PHONE)
    phone.goto(f"{live_server.url}/events/{event.pk}/clock/")
    phone.locator("#entry-notices li").first.wait_for()
    screenshot(phone, "entry-rules/clock-phone", full_page=True)

    running(event, 2, 300)  # the break: the screen follows within a poll
    screen.wait_for_function(
        "document.querySelector('#entry-notices').innerText.includes('Add-on at this break')",
        timeout=5000,
    )
    assert "Rebuys" not in screen.locator("#entry-notices").inner_text()
    screenshot(screen, "entry-rules/clock-break-tv")


def test_the_floor_rebuys_from_the_table_page(live_server, new_page):
    event = make_event(1200, 1200, "B600", 1200, name="Rebuy Thursday", **RULES)
    for name in ("Ana Lopez", "Bob Marsh", "Cy Young"):
        services.player_register(event=event, name=name, actor=ACTOR)
    services.tables_setup(event=event, numbers=[1], seats=9, actor=ACTOR)
    services.seats_draw(event=event, seed=1, actor=ACTOR)
    running(event, 0, 600)
    make_user("fred", "floor")
    page = new_page({"width": 1024, "height": 768})
    login(page, live_server, "fred", PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/tables/1/")
    seat = page.locator("li", has_text="Ana Lopez")
    seat.locator('input[name="stack"]').fill("1200")
    screenshot(page, "entry-rules/table-tablet")
    # Money changes hands: the button asks first, naming the player, the chips and the price.
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    seat.get_by_role("button", name=re.compile("Rebuy for Ana Lopez")).click()
    page.get_by_text("Rebuy for #").wait_for()
    assert asked and asked[0].startswith("Rebuy for Ana Lopez:") and asked[0].endswith("?")
    assert Purchase.objects.filter(kind="rebuy").count() == 1
    screenshot(page, "entry-rules/table-rebought-tablet")
    phone = new_page(PHONE)
    login(phone, live_server, "fred", PASSWORD)
    phone.goto(f"{live_server.url}/console/events/{event.pk}/tables/1/")
    screenshot(phone, "entry-rules/table-phone", full_page=True)


def test_the_director_sets_the_entry_rules_and_the_console_offers_the_rebuy(live_server, new_page):
    from tdsystem.structures.services import templates_install

    templates_install()
    make_user("dora", "director")
    form = new_page(TV)
    login(form, live_server, "dora", PASSWORD)
    form.goto(f"{live_server.url}/console/events/new/")
    form.locator("fieldset.entry-rules").scroll_into_view_if_needed()
    screenshot(form, "entry-rules/event-form-tv")
    phone = new_page(PHONE)
    login(phone, live_server, "dora", PASSWORD)
    phone.goto(f"{live_server.url}/console/events/new/")
    phone.locator("fieldset.entry-rules").scroll_into_view_if_needed()
    screenshot(phone, "entry-rules/event-form-phone")

    event = make_event(1200, 1200, "B600", 1200, name="Rebuy Thursday", **RULES)
    entry = services.player_register(event=event, name="Ana Lopez", actor=ACTOR).entry
    running(event, 0, 600)
    console = new_page({"width": 1024, "height": 768})
    login(console, live_server, "dora", PASSWORD)
    console.goto(f"{live_server.url}/console/events/{event.pk}/seating/")
    console.locator("#find-q").fill("Ana")
    console.get_by_role("button", name=re.compile("Ana Lopez")).first.click()
    panel = console.locator("#entry-panel")
    panel.locator('input[name="stack"]').fill("99999")
    console.on("dialog", lambda dialog: dialog.accept())
    panel.get_by_role("button", name=re.compile("Rebuy")).click()
    panel.get_by_text("a rebuy needs 10,000 chips or fewer: #1 Ana Lopez has 99,999").wait_for()
    assert not Purchase.objects.filter(entry=entry, kind="rebuy").exists()
    panel.scroll_into_view_if_needed()
    screenshot(console, "entry-rules/console-refused-tablet")
