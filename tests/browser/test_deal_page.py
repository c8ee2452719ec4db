"""The deal page in Chromium: a director works out an ICM deal for four players on a tablet
held upright, confirms it, and the public results on a phone show it; then cancels it.

Screenshots: var/screenshots/toolkit/deal-*.png.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, login, screenshot
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLET_UPRIGHT = {"width": 820, "height": 1180}


def test_a_director_makes_an_icm_deal_and_the_results_show_it(live_server, new_page):
    from tdsystem.results import services
    from tdsystem.results.models import Deal
    from tdsystem.simulation.seatings import ACTOR, arrange
    from tests.fixtures import make_event

    director = make_user("dora", "director")
    event = make_event(600, 600, name="Sunday Deepstack")
    people = arrange(event, {1: [1, 2, 3, 4]})
    services.payout_plan_update(event_id=event.pk, table="top-4", actor=ACTOR)
    for name, chips in (("T1S1", 182_000), ("T1S2", 95_500), ("T1S3", 61_000)):
        services.chip_count_record(
            event_id=event.pk, entry_number=people[name].number, chips=chips, actor=ACTOR
        )
    page = new_page(TABLET_UPRIGHT)
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_server, director.username, PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/results/")
    page.get_by_role("link", name="Deal").click()
    assert "no chip count for #4" in page.locator("#deal .flash.error").inner_text()
    page.fill(f"#chips-{people['T1S4'].pk}", "41,500")
    page.get_by_role("button", name="Work it out").click()
    page.wait_for_selector("#deal-preview")
    rows = page.locator("#deal-preview tbody tr")
    assert rows.count() == 4 and "T1S1" in rows.first.inner_text()
    screenshot(page, "toolkit/deal-preview-tablet-820", full_page=True)
    page.get_by_role("button", name="Confirm the deal").click()
    page.wait_for_selector("#deal-standing")
    deal = Deal.objects.get(event=event)
    assert sum(s.amount for s in deal.shares.all()) == 400

    phone = new_page(PHONE)
    phone.goto(f"{live_server.url}/events/{event.pk}/results/")
    assert "T1S4" in phone.locator("#deal-made + .card").inner_text()
    screenshot(phone, "toolkit/deal-results-phone-390", full_page=True)

    phone_director = new_page(PHONE)
    login(phone_director, live_server, director.username, PASSWORD)
    phone_director.goto(f"{live_server.url}/console/events/{event.pk}/results/deal")
    screenshot(phone_director, "toolkit/deal-standing-phone-390", full_page=True)

    page.get_by_role("button", name="Cancel the deal").click()
    page.wait_for_selector("#deal-preview")
    deal.refresh_from_db()
    assert deal.cancelled_at is not None
