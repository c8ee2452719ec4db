"""The event's staff panel and the one-time code login, in Chromium at a TV's, a tablet's
and a phone's size: a director puts the floor on her event and takes them off again; a
locked-out director gets in with a code from the server.

Screenshots: var/screenshots/staff/ (with TD_SHOTS=1 also the docs' picture).
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tests.browser.conftest import PHONE, TABLET, TV, docs_shot, login, screenshot, settled
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"tv": TV, "tablet": TABLET, "phone": PHONE}
WIDER_THAN_THE_SCREEN = "() => document.scrollingElement.scrollWidth > window.innerWidth + 1"


@pytest.mark.parametrize("size", SIZES)
def test_a_director_adds_and_removes_the_floor_on_the_staff_panel(live_server, new_page, size):
    from tdsystem.core.models import EventStaff

    dora = make_user("dora", "director")
    make_user("fred", "floor", events=False)
    make_user("maximiliana.oberhauser-wittgenstein", "floor", events=False)
    event = make_event(600, 600, name="Sunday Main Event", staff=False)
    EventStaff.objects.create(event=event, user=dora, role="director")
    page = new_page(SIZES[size])
    page.on("dialog", lambda dialog: dialog.accept())
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    login(page, live_server, "dora", PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/")
    panel = page.locator("#staff")
    panel.scroll_into_view_if_needed()
    assert "dora" in panel.inner_text()
    page.select_option("#staff-user", label="fred")
    page.select_option("#staff-role", "floor")
    page.click("#staff button:has-text('Add to the staff')")
    page.wait_for_selector("#staff .flash.ok")
    settled(page)
    assert "fred is on the staff as floor." in page.locator("#staff").inner_text()
    page.select_option("#staff-user", label="maximiliana.oberhauser-wittgenstein")
    page.click("#staff button:has-text('Add to the staff')")
    page.wait_for_function("document.querySelector('#staff').innerText.includes('maximiliana')")
    settled(page)
    page.locator("#staff").scroll_into_view_if_needed()
    assert not page.evaluate(WIDER_THAN_THE_SCREEN), "the page scrolls sideways"
    screenshot(page, f"staff/panel-{size}")
    if size == "tablet":
        docs_shot(page, "venue", "staff-panel-tablet")
    assert set(EventStaff.objects.filter(event=event).values_list("user__username", flat=True)) == {
        "dora",
        "fred",
        "maximiliana.oberhauser-wittgenstein",
    }
    fred_row = page.locator("#staff li", has_text="fred")
    fred_row.locator("button:has-text('Remove')").click()
    page.wait_for_selector("#staff .flash.ok:has-text('Taken off the staff.')")
    assert not EventStaff.objects.filter(event=event, user__username="fred").exists()
    assert errors == []


@pytest.mark.parametrize("size", SIZES)
def test_a_locked_out_director_gets_in_with_a_one_time_code(live_server, new_page, size):
    make_user("dora", "director")
    page = new_page(SIZES[size])
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    for _ in range(5):
        page.goto(f"{live_server.url}/login/")
        page.fill("#id_username", "dora")
        page.fill("#id_password", "wrong")
        page.click("button[type=submit]")
    assert "Too many failed logins" in page.content()
    screenshot(page, f"staff/locked-out-{size}")
    page.click("#login-code-link")
    page.wait_for_url("**/login/code/")
    assert not page.evaluate(WIDER_THAN_THE_SCREEN), "the page scrolls sideways"
    screenshot(page, f"staff/login-code-{size}")
    out = StringIO()
    call_command("login_code", "dora", stdout=out)
    code = out.getvalue().splitlines()[0].split()[-1]
    page.fill("#id_username", "dora")
    page.fill("#id_code", code.lower())
    page.click("button[type=submit]")
    page.wait_for_url("**/console/")
    assert "Director console" in page.content()
    assert errors == []
