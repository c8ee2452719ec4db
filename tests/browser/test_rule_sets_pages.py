"""The rules pages at desktop, tablet and phone sizes: nothing wider than the screen, and a
director changes a setting and sees it on the event page."""

from __future__ import annotations

import pytest

from tdsystem.events.models import Event
from tdsystem.events.services import house_rule_set_create
from tdsystem.simulation.seatings import ACTOR
from tests.browser.conftest import PHONE, login, screenshot
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {
    "desktop": {"width": 1280, "height": 900},
    "tablet": {"width": 820, "height": 1180},
    "phone": PHONE,
}
WIDTH = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.mark.parametrize("size", SIZES)
def test_the_rules_pages_fit_every_screen(live_server, new_page, size):
    make_user("dora", "director")
    house = house_rule_set_create(name="Casino Lyon house rules", base="tda-2026", actor=ACTOR)
    event = make_event(
        600, name="Sunday Main", rule_set="wsop-2026", rule_overrides={"halt_short_by": 4}
    )
    page = new_page(SIZES[size])
    login(page, live_server, "dora", PASSWORD)
    pages = {
        "event": f"/console/events/{event.pk}/",
        "rules": f"/console/events/{event.pk}/rules/",
        "house-sets": "/console/house-rules/",
        "house-set": f"/console/house-rules/{house.pk}/",
        "new-event": "/console/events/new/",
        "schedule": f"/events/{event.pk}/schedule/",
    }
    for name, url in pages.items():
        page.goto(live_server.url + url)
        assert page.evaluate(WIDTH), f"{name} is wider than the {size} screen"
        if name == "event":
            page.locator("#event-rules").scroll_into_view_if_needed()
            assert "WSOP R67" in page.locator("#event-rules").inner_text()
        screenshot(page, f"rule-sets/{name}-{size}", full_page=True)


def test_a_director_changes_a_setting_and_the_event_page_shows_it(live_server, new_page):
    make_user("dora", "director")
    event = make_event(600, name="Sunday Main", rule_set="tda-2026")
    page = new_page(SIZES["tablet"])
    login(page, live_server, "dora", PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/")
    page.get_by_role("link", name="Rules of this event").click()
    page.fill("#id_halt_short_by", "4")
    page.get_by_role("button", name="Save the rules").click()
    page.wait_for_url(f"**/console/events/{event.pk}/")
    rules = page.locator("#event-rules").inner_text()
    assert "A table halts when this many players short of the largest" in rules
    assert Event.objects.get(pk=event.pk).rule_overrides == {"halt_short_by": 4}
