"""Bounties in Chromium: on a tablet held upright a floor person busts a player out of a
PKO event, ticking who eliminated them; the public results on a phone show the bounty
won and the heads in play.

Screenshots: var/screenshots/toolkit/bounty-*.png.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.browser.conftest import PHONE, login, screenshot
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TABLET_UPRIGHT = {"width": 820, "height": 1180}


def test_a_pko_bustout_pays_the_eliminator_and_the_results_show_the_heads(live_server, new_page):
    from tdsystem.results.models import Bounty
    from tdsystem.simulation.seatings import arrange
    from tests.fixtures import make_event

    floor = make_user("flo", "floor")
    event = make_event(
        600, 600, name="Friday PKO", bounty_type="progressive", bounty_amount=Decimal(50)
    )
    people = arrange(event, {1: [1, 2, 3, 4, 5]})
    page = new_page(TABLET_UPRIGHT)
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_server, floor.username, PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/results/")
    page.select_option("#bo-table", "1")
    page.wait_for_selector("#bo-players input[name=eliminated_by]")
    page.check(f"#bo-players input[name=entry][value='{people['T1S5'].pk}']")
    page.check(f"#bo-players input[name=eliminated_by][value='{people['T1S2'].pk}']")
    screenshot(page, "toolkit/bounty-console-tablet-820", full_page=True)
    page.get_by_role("button", name="Record bust-out").click()
    page.wait_for_function(f"() => !document.querySelector(\"input[value='{people['T1S5'].pk}']\")")
    row = Bounty.objects.get()
    assert (row.eliminator_id, row.paid, row.to_head) == (people["T1S2"].pk, 25, 25)

    phone = new_page(PHONE)
    phone.goto(f"{live_server.url}/events/{event.pk}/results/")
    text = phone.locator("#results").inner_text()
    assert "Heads in play" in text and "75" in text
    screenshot(phone, "toolkit/bounty-results-phone-390", full_page=True)
