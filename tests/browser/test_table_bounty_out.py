"""The table page in a bounty event, on a phone: "Out" opens who eliminated the player, the
floor ticks them (two for a split pot), and the bounty is paid to them; the page's own
refresh does not wipe what was ticked.

Screenshots: var/screenshots/toolkit/table-ko-*.png.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.browser.conftest import PHONE, login, screenshot
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_out_at_the_table_asks_who_eliminated_the_player_and_pays_them(live_server, new_page):
    from tdsystem.results.models import Bounty, Finish
    from tdsystem.simulation.seatings import arrange
    from tests.fixtures import make_event

    floor = make_user("flo", "floor")
    event = make_event(600, 600, name="Knockout night", bounty_type="knockout", bounty_amount=20)
    people = arrange(event, {1: [1, 2, 3, 4, 5, 6]})
    page = new_page(PHONE)
    login(page, live_server, floor.username, PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/tables/1/")
    out = people["T1S6"]
    row = page.locator("ol.seats li", has=page.locator(f"input[name=entry][value='{out.pk}']"))
    panel = row.locator("form.ko-panel")
    assert not panel.is_visible()
    summary = row.locator("details.ko summary")
    assert summary.get_attribute("aria-label") == "T1S6 is out"
    summary.click()  # opens the panel
    panel.wait_for(state="visible")
    assert "Who eliminated T1S6?" in panel.inner_text()
    choices = panel.locator("input[name=eliminated_by]")
    assert choices.count() == 5  # the other players at the table
    panel.locator(f"input[name=eliminated_by][value='{people['T1S2'].pk}']").check()
    panel.locator(f"input[name=eliminated_by][value='{people['T1S4'].pk}']").check()
    # The table refreshes itself every 10 s; an open panel holds the refresh.
    page.evaluate("htmx.trigger('#table', 'seating-changed')")
    page.wait_for_timeout(300)
    assert panel.locator("input:checked").count() == 2
    screenshot(page, "toolkit/table-ko-phone-390", full_page=True)
    panel.get_by_role("button", name="T1S6 (seat 6) is out").click()
    page.wait_for_function(
        f"() => !document.querySelector(\"#table input[name=entry][value='{out.pk}']\")"
    )
    assert Finish.objects.get(entry=out).place == 6
    paid = {b.eliminator_id: b.paid for b in Bounty.objects.filter(eliminated=out)}
    assert paid == {people["T1S2"].pk: Decimal(10), people["T1S4"].pk: Decimal(10)}
