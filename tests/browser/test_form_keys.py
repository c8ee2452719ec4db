"""In Chromium: a registration whose answer was lost on the way (the connection dropped
after the server registered the player) is sent again by a second tap and registers the
player once; the next player, typed in the same form, is a registration of its own."""

from __future__ import annotations

import pytest

from tdsystem.seating.models import Entry
from tests.browser.conftest import PHONE, TABLET, TV, login, open_page, screenshot, settled
from tests.fixtures import make_event
from tests.personas import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_second_tap_after_a_dropped_answer_registers_once(live_server, new_page):
    make_user("dora", "director")
    event = make_event(600, 600, name="Thursday Turbo")
    page = open_page(new_page, TABLET)
    login(page, live_server, "dora", PASSWORD)
    page.goto(f"{live_server.url}/console/events/{event.pk}/seating/")
    settled(page)
    sent: list[str] = []

    def drop_the_first_answer(route):
        sent.append(route.request.post_data or "")
        if len(sent) == 1:
            route.fetch()  # the server registers the player...
            route.abort("connectionreset")  # ...and the answer never arrives
        else:
            route.continue_()

    page.route("**/seating/register", drop_the_first_answer)
    page.fill("#id_name", "Dee")
    with page.expect_event("requestfailed"):
        page.click("#register button.btn.primary")
    assert len(sent) == 1 and not page.locator("#register .flash.ok").count()
    assert Entry.objects.filter(event=event, player__name="Dee").count() == 1
    with page.expect_response("**/seating/register") as answered:
        page.click("#register button.btn.primary")
    assert answered.value.headers.get("idempotent-replayed") == "true"
    page.wait_for_selector("#register .flash.ok")
    assert "Dee" in page.inner_text("#register .flash.ok")
    settled(page)
    assert Entry.objects.filter(event=event, player__name="Dee").count() == 1
    # The form was answered: the next player is a new registration.
    page.unroute("**/seating/register")
    page.fill("#id_name", "Eli")
    with page.expect_response("**/seating/register") as answered:
        page.click("#register button.btn.primary")
    assert "idempotent-replayed" not in answered.value.headers
    page.wait_for_selector("#register .flash.ok >> text=Eli")
    assert Entry.objects.filter(event=event).count() == 2
    keys = sent[0].count("idempotency_key=") + sent[1].count("idempotency_key=")
    assert keys == 2
    for name, size in (("tv", TV), ("tablet", TABLET), ("phone", PHONE)):
        page.set_viewport_size(size)
        screenshot(page, f"idem/seating-register-{name}")
