"""The clock screen after a big redraw: the ticker pages through every open slip from the
slips endpoint, and a running clock's polls come back 304 without a body."""

from __future__ import annotations

import pytest

from tdsystem.core.actors import Actor
from tdsystem.events import services
from tdsystem.seating.models import Entry, Move
from tdsystem.simulation.seatings import field
from tests.browser.conftest import PHONE, TV_SMALL, screenshot
from tests.fixtures import make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SLIPS = 45


def test_the_ticker_pages_through_every_slip_and_polls_cost_a_304(live_server, new_page):
    event = make_event(1800, 1800, name="Redraw night")
    field(event, players=60, tables=7)
    entries = list(Entry.objects.filter(event=event).select_related("table")[:SLIPS])
    Move.objects.bulk_create(
        Move(event=event, entry=e, from_table=e.table.number, from_seat=e.seat,
             to_table=e.table.number + 1, to_seat=e.seat, reason=Move.Reason.REDRAW)
        for e in entries
    )  # fmt: skip
    services.clock_action(event_id=event.pk, action="start", actor=Actor())

    page = new_page(TV_SMALL)
    answers: list[tuple[str, int, str]] = []
    page.on(
        "response",
        lambda r: answers.append((r.url, r.status, r.request.headers.get("if-none-match", ""))),
    )
    page.clock.install()
    page.goto(f"{live_server.url}/events/{event.pk}/clock/")
    page.wait_for_function(
        "window.tdClock && window.tdClock.data && window.tdClock.movePages.length"
    )
    data = page.evaluate("window.tdClock.data")
    assert (len(data["moves"]), data["moves_count"]) == (20, SLIPS)

    seen: set[str] = set()
    labels: set[str] = set()
    for _ in range(80):
        seen |= set(
            page.evaluate("[...document.querySelectorAll('#moves .tick')].map(s => s.textContent)")
        )
        labels.add(page.locator("#moves-page").inner_text())
        if len(seen) == SLIPS:
            break
        page.clock.run_for(6100)
        # A further part asked for: its answer in before the screen's clock moves on (its
        # 4 s timeout runs on the test's clock, a network answer on the real one).
        page.wait_for_function("!window.tdClock.slipsAsked")
    assert len(seen) == SLIPS, (len(seen), sorted(labels))
    # Which of them all each line shows: "21–23 / 45".
    assert any(label.startswith("21–") and label.endswith(f"/ {SLIPS}") for label in labels), labels
    slips = [(status, url) for url, status, _ in answers if "/slips" in url]
    assert {url.rsplit("=", 1)[1] for _, url in slips} >= {"2", "3"}
    assert all(status == 200 for status, _ in slips)
    # The clock kept running through it all: after the first, the polls were 304s. A few
    # more polls, each awaited: how many came in while paging depends on the machine.
    for _ in range(4):
        with page.expect_response(lambda r: r.url.endswith("/clock")):
            page.clock.run_for(1100)
    polls = [(status, tag) for url, status, tag in answers if url.endswith("/clock")]
    assert polls[0] == (200, "") and len(polls) >= 4
    assert sum(1 for status, tag in polls if status == 304 and tag) >= len(polls) - 3, polls
    screenshot(page, "clock/slips-paged-720p")

    phone = new_page(PHONE)
    phone.goto(f"{live_server.url}/events/{event.pk}/clock/")
    phone.wait_for_function("window.tdClock && window.tdClock.movePages.length")
    screenshot(phone, "clock/slips-paged-phone", full_page=True)
