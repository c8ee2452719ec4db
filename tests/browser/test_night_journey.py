"""A night at the venue, in a real browser, as the director runs it through the pages.

Last week's progressive knockout is copied from the console; 40 players are pasted in and
drawn onto five tables; the clock runs on the room's TV; two players bust early and
re-enter; the field is busted down with the eliminators ticked, so the bounties are paid;
at three players left their chip counts are taken and they make an ICM deal; the last two
play it out and the results page shows the places, the prizes, the bounties and the deal.

Only last week's event is made directly (it stands for a night already played); the rest
goes through the pages, with the Celery worker running the clock.

With TD_SHOTS=1 the main moments are shot at TV, tablet and phone sizes into
docs/img/night/ (the pictures docs/a-night.md shows); without it nothing is written.
"""

from __future__ import annotations

import os
import re
from decimal import Decimal
from pathlib import Path

import pytest

from tests.browser.conftest import PHONE, TABLET, TV, login
from tests.personas import PASSWORD, make_user
from tests.worker import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "img" / "night"
SIZES = {"tv": TV, "tablet": TABLET, "phone": PHONE}
LAST_WEEK = "Friday PKO"
TONIGHT = "Friday PKO, 4 December"
FIRST = (
    "Ada Ben Cleo Dan Eve Finn Gus Hana Ivo Jade Kai Lena Milo Nora Otto Pia Quin Rosa Sami "
    "Tess Ugo Vera Wes Xena Yara Zeno Alba Bram Cora Dirk Elin Faye Gil Hugo Iris Joel Kira "
    "Luca Maya Nils"
)
LAST = (
    "Adler Brandt Costa Dietz Engel Frey Gallo Haas Ito Jensen Kurz Lang Moser Nagel Ortiz "
    "Petit Quast Roth Sauer Thiel Ulrich Voss Weber Xu Yilmaz Zorn Amato Bauer Conti Dahl "
    "Ernst Falk Graf Horn Iske Jung Kern Lutz Mayer Nowak"
)
NAMES = [f"{a} {b}" for a, b in zip(FIRST.split(), LAST.split(), strict=True)]  # forty


def shots_on() -> bool:
    return os.environ.get("TD_SHOTS") == "1"


def shot(page, name: str, *, full_page: bool = False) -> None:
    """docs/img/night/<name>.png, only when TD_SHOTS=1 (so a test run leaves the docs be)."""
    if shots_on():
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def shoot_sizes(new_page, url: str, name: str, *, session=None, ready: str | None = None):
    """The page at TV, tablet and phone sizes; `session` lends a logged-in page's cookies."""
    if not shots_on():
        return
    for size, viewport in SIZES.items():
        page = new_page(viewport)
        if session is not None:
            page.context.add_cookies(session.context.cookies())
        response = page.goto(url)
        assert response is not None and response.status == 200, (url, response)
        if ready:
            page.wait_for_selector(ready)
        page.wait_for_timeout(250)  # the fonts and the first htmx swap settle
        shot(page, f"{name}-{size}", full_page=size == "phone")
        page.context.close()


def last_weeks_event():
    """Last Friday's PKO, already played: the night's template (a setup shortcut)."""
    from tdsystem.core.actors import Actor
    from tdsystem.events.models import Event
    from tdsystem.results.services import payout_plan_update
    from tests.fixtures import make_event

    # Levels long enough that none ends by itself during the test; the director moves on.
    event = make_event(
        1200,
        1200,
        1200,
        "B600",
        1200,
        1200,
        1200,
        name=LAST_WEEK,
        buy_in=Decimal(100),
        bounty_type="progressive",
        bounty_amount=Decimal(50),
        reentry_allowed=True,
        late_registration_end_level=4,
        seats_per_table=8,
        starting_stack=10_000,
    )
    payout_plan_update(event_id=event.pk, table="top-5", actor=Actor(label="last week"))
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    return event


def active(event_id: int) -> int:
    from tdsystem.seating.models import Entry

    return Entry.objects.filter(event_id=event_id, status="active").count()


def bust_one(page, event_id: int) -> None:
    """On the results console: at the fullest table, the player in the lowest seat is out
    and the next one eliminated them (a bounty event asks who did)."""
    from tdsystem.seating.models import Entry

    seated = list(
        Entry.objects.filter(event_id=event_id, status="active")
        .select_related("table")
        .order_by("table__number", "seat")
    )
    by_table: dict[int, list] = {}
    for entry in seated:
        by_table.setdefault(entry.table.number, []).append(entry)
    table = max(by_table, key=lambda n: (len(by_table[n]), -n))
    out, eliminator = by_table[table][:2]
    if page.input_value("#bo-table") != str(table):
        # The table's players arrive by htmx: tick them only once they are in.
        with page.expect_response(lambda r: "part=players" in r.url):
            page.select_option("#bo-table", str(table))
    out_box = page.locator(f"#bo-players input[name=entry][value='{out.pk}']")
    out_box.check()
    page.check(f"#bo-players input[name=eliminated_by][value='{eliminator.pk}']")
    # The answer replaces #record: mark the old one to know when the new one is in.
    page.evaluate("document.getElementById('record').dataset.stale = '1'")
    page.get_by_role("button", name="Record bust-out").click()
    page.wait_for_selector("#record:not([data-stale])")
    error = page.locator("#record .flash.error")
    assert error.count() == 0, error.inner_text()
    assert wait_for(lambda: not Entry.objects.filter(pk=out.pk, status="active").exists(), 10)


def test_a_director_runs_a_pko_night_from_the_copy_to_the_deal(live_server, new_page, worker):
    from tdsystem.events.models import Event
    from tdsystem.results.models import Bounty, Deal
    from tdsystem.seating.models import Entry

    last_week = last_weeks_event()
    make_user("dora", "director")
    base = live_server.url
    director = new_page(TABLET)
    director.on("dialog", lambda dialog: dialog.accept())
    login(director, live_server, "dora", PASSWORD)

    # 1. Last week's event, copied from the console: tables 1-5 of eight.
    director.goto(f"{base}/console/?show=all")
    director.locator("tr", has_text=LAST_WEEK).get_by_role("link", name="Copy").click()
    director.wait_for_selector("#id_name")
    shoot_sizes(new_page, director.url, "copy-form", session=director, ready="#id_name")
    director.fill("#id_name", TONIGHT)
    director.fill("#id_numbers", "1-5")
    director.fill("#id_seats", "8")
    director.get_by_role("button", name="Create the copy").click()
    director.wait_for_selector(f"h1:has-text('{TONIGHT}')")
    night = Event.objects.get(name=TONIGHT)
    assert (night.bounty_type, night.bounty_amount, night.reentry_allowed) == (
        "progressive",
        Decimal(50),
        True,
    )
    assert sorted(night.tables.values_list("number", flat=True)) == [1, 2, 3, 4, 5]
    console = f"{base}/console/events/{night.pk}/"
    seating = f"{console}seating/"
    results_console = f"{console}results/"

    # 2. Forty players pasted in, the seats drawn.
    director.goto(seating)
    director.get_by_text("Paste a list").click()
    director.fill("#names", "\n".join(NAMES))
    director.get_by_role("button", name="Register all").click()
    assert wait_for(lambda: Entry.objects.filter(event=night).count() == 40, 10)
    director.reload()
    director.get_by_role("button", name="Draw seats").click()
    assert wait_for(
        lambda: Entry.objects.filter(event=night, table__isnull=False).count() == 40, 10
    )
    director.reload()
    director.wait_for_selector(f"text={NAMES[0]}")
    shoot_sizes(new_page, seating, "seating-console", session=director, ready="#tables")

    # 3. The clock starts; the room's TV follows it.
    director.goto(console)
    director.get_by_role("button", name=re.compile("Start")).click()
    director.wait_for_selector("#clock-panel .badge.running")
    tv = new_page(TV)
    tv.goto(f"{base}/events/{night.pk}/clock/")
    tv.wait_for_function("window.tdClock && window.tdClock.data")
    tv.wait_for_selector("#banner", state="hidden")
    assert tv.locator("#players").inner_text().replace(" ", "") == "40/40"
    shoot_sizes(new_page, console, "console-running", session=director, ready="#clock-panel")
    shot(tv, "clock-level-1-tv")

    # 4. Two players bust early and buy a new entry each (late registration is open).
    director.goto(results_console)
    busted = []
    for _ in range(2):
        before = set(
            Entry.objects.filter(event=night, status="busted").values_list("pk", flat=True)
        )
        bust_one(director, night.pk)
        busted += list(Entry.objects.filter(event=night, status="busted").exclude(pk__in=before))
    assert Bounty.objects.filter(event=night).count() == 2
    director.goto(seating)
    for done, entry in enumerate(busted, start=1):
        name = entry.player.name
        director.fill("#find-q", name)
        director.locator("#search").get_by_role("button", name=re.compile(name)).first.click()
        panel = director.locator("#entry-panel")
        panel.locator("h3", has_text=name).wait_for()
        panel.get_by_role("button", name="Re-enter").click()
        panel.locator(".flash.ok").wait_for()
        assert wait_for(
            lambda n=done: Entry.objects.filter(event=night, is_reentry=True).count() == n, 10
        )
    assert Entry.objects.filter(event=night, is_reentry=True).count() == 2
    assert active(night.pk) == 40
    tv.wait_for_function(
        "document.getElementById('players').innerText.replace(/\\s/g, '') === '40/42'"
    )

    # 5. The field is busted down to three, the eliminators ticked each time.
    director.goto(results_console)
    while active(night.pk) > 3:
        bust_one(director, night.pk)
    shoot_sizes(new_page, results_console, "bust-outs", session=director, ready="#record")
    paid = Bounty.objects.filter(event=night)
    assert paid.count() == 39  # 42 entries, three left, one eliminator each
    shoot_sizes(new_page, f"{base}/events/{night.pk}/results/", "results-three-left")

    # 6. Three left: their chips are counted, they make an ICM deal.
    left = list(Entry.objects.filter(event=night, status="active").order_by("number"))
    total = sum(e.chips for e in Entry.objects.filter(event=night))
    counts = [total * 5 // 10, total * 3 // 10]
    counts.append(total - sum(counts))
    for entry, chips in zip(left, counts, strict=True):
        director.fill("#cc-entry", str(entry.number))
        director.fill("#cc-chips", str(chips))
        director.locator("#tools").get_by_role("button", name="Save count").click()
        director.wait_for_selector(f"#tools .flash.ok:has-text('#{entry.number}')")
    director.get_by_role("link", name="Deal").click()
    director.wait_for_selector("#deal")
    director.get_by_role("button", name="Work it out").click()
    director.wait_for_selector("#deal-preview")
    assert director.locator("#deal-preview tbody tr").count() == 3
    shot(director, "deal-preview-tablet", full_page=True)
    director.get_by_role("button", name="Confirm the deal").click()
    director.wait_for_selector("#deal-standing")
    deal = Deal.objects.get(event=night, cancelled_at__isnull=True)
    assert deal.method == "icm" and deal.shares.count() == 3
    shoot_sizes(new_page, director.url, "deal-standing", session=director, ready="#deal")

    # 7. The last two play on; the event finishes and the results show it all.
    director.goto(results_console)
    while active(night.pk) > 1:
        bust_one(director, night.pk)
    night.refresh_from_db()
    assert night.status == "finished"
    director.goto(results_console)
    assert director.locator("#record").get_by_text("The event has finished").count() == 1
    phone = new_page(PHONE)
    phone.goto(f"{base}/events/{night.pk}/results/")
    text = phone.locator("#results").inner_text()
    winner = Entry.objects.get(event=night, place=1)
    assert winner.player.name in text
    assert "Deal made" in text
    assert "bount" in text.lower()
    shoot_sizes(new_page, f"{base}/events/{night.pk}/results/", "results-final")
    assert Event.objects.get(pk=last_week.pk).status == "finished"
