"""The structure generator on a tablet held upright and on a phone: the form, the proposal
with its projected finish, nothing wider than the screen, and "Save as a structure"."""

from __future__ import annotations

import pytest

from tdsystem.structures.models import Structure
from tests.browser.conftest import PHONE, login, screenshot
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"tablet": {"width": 820, "height": 1180}, "phone": PHONE}
WIDTH = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.mark.parametrize("size", SIZES)
def test_a_director_proposes_and_saves_a_structure(live_server, new_page, size):
    make_user("dora", "director")
    page = new_page(SIZES[size])
    login(page, live_server, "dora", PASSWORD)
    page.goto(f"{live_server.url}/console/structures/")
    page.get_by_role("link", name="Structure generator").click()
    page.fill("#id_starting_stack", "20000")
    page.fill("#id_entries", "120")
    page.fill("#id_target_hours", "8")
    page.fill("#id_level_minutes", "30")
    page.select_option("#id_ante_type", "each")
    page.fill("#id_chips", "25 100 500 1000 5000 25000")
    screenshot(page, f"toolkit/structure-generator-form-{size}", full_page=True)
    page.get_by_role("button", name="Propose a structure").click()
    page.wait_for_selector("#proposed-levels")

    assert "the end of level 14" in page.locator("#projection").inner_text()
    assert page.locator("#proposed-levels tr.projected-finish").count() == 1
    assert page.evaluate(WIDTH), f"the generator is wider than the {size} screen"
    page.locator("#proposal").scroll_into_view_if_needed()
    screenshot(page, f"toolkit/structure-generator-proposal-{size}", full_page=True)

    page.fill("#g-name", f"Friday 20k {size}")
    page.get_by_role("button", name="Save as a structure").click()
    page.wait_for_url("**/console/structures/*/")
    assert Structure.objects.filter(name=f"Friday 20k {size}", is_template=True).exists()
    assert "Colour up the 25 chips" in page.content()
