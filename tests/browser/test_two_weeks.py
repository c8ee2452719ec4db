"""Two weeks at the venue, in a real browser, as the director, the floor and the room see it.

Week one plays the demo event to the end and archives it. Week two copies it for next
week, registers a field, draws on tables 1-3 (the demo plays on its own numbers, and a
finished event gives its tables back), and runs the clock with a pause and a break.
Every page touched is shot at TV, tablet and phone sizes (var/screenshots/two-weeks/).
"""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command

from tdsystem.events.models import Event
from tdsystem.seating.models import Entry
from tdsystem.venue.management.commands.loaddemo import DEMO_EVENT
from tests.browser.conftest import PHONE, TABLET, TV, login, screenshot
from tests.personas import PASSWORD, make_user
from tests.worker import wait_for

# Two whole weeks (a minute of the suite): `make test SLOW=1`; the night's and the
# festival's journeys walk the same pages in every run.
pytestmark = [
    pytest.mark.browser,
    pytest.mark.worker,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

SIZES = {"tv": TV, "tablet": TABLET, "phone": PHONE}
WEEK_TWO = [f"Week Two Player {n:02d}" for n in range(1, 22)]  # 21: three tables of seven


def shoot_everywhere(new_page, url: str, name: str, *, session=None, ready=None) -> None:
    """The page at TV, tablet and phone sizes; `session` (a logged-in page) lends its
    cookies to staff pages."""
    for size, viewport in SIZES.items():
        page = new_page(viewport)
        if session is not None:
            page.context.add_cookies(session.context.cookies())
        response = page.goto(url)
        assert response is not None and response.status == 200, (url, response)
        if ready:
            page.wait_for_selector(ready)
        page.wait_for_timeout(300)
        screenshot(page, f"two-weeks/{name}-{size}", full_page=size != "tv")
        page.context.close()


def bust_everyone_but_one(page, base: str, event_id: int) -> None:
    """Record bust-outs on the results console, one player a hand, until one is left."""
    console = f"{base}/console/events/{event_id}/results/"
    page.goto(console)
    while Entry.objects.filter(event_id=event_id, status="active").count() > 1:
        table = page.locator("#bo-table")
        options = [o for o in table.locator("option").all_inner_texts() if "Table" in o]
        label = next(o for o in options if not o.endswith(" 0 players"))
        table.select_option(label=label)
        page.wait_for_selector("#bo-players input[type=checkbox]")
        before = Entry.objects.filter(event_id=event_id, status="active").count()
        page.locator("#bo-players input[type=checkbox]").first.check()
        page.get_by_role("button", name="Record bust-out").click()
        assert wait_for(
            lambda b=before: (
                Entry.objects.filter(event_id=event_id, status="active").count() == b - 1
            ),
            10,
        )
        page.wait_for_selector("#record")
        if page.locator("#record").get_by_text("The event has finished").count():
            break
        page.goto(console)


def test_a_director_runs_two_weekly_tournaments_on_the_venue_screens(live_server, new_page, worker):
    call_command("loaddemo", verbosity=0)
    make_user("dora", "director")
    base = live_server.url
    demo = Event.objects.get(name=DEMO_EVENT)
    director = new_page(TABLET)
    director.on("dialog", lambda dialog: dialog.accept())
    login(director, live_server, "dora", PASSWORD)

    # Week one: the demo, started and played to the end.
    director.goto(f"{base}/console/events/{demo.pk}/")
    director.get_by_role("button", name=re.compile("Start$")).click()
    director.wait_for_selector("#clock-panel .badge.running")
    shoot_everywhere(new_page, f"{base}/events/{demo.pk}/clock/", "week1-clock", ready="#time")
    bust_everyone_but_one(director, base, demo.pk)
    demo.refresh_from_db()
    assert demo.status == "finished"
    shoot_everywhere(new_page, f"{base}/events/{demo.pk}/results/", "week1-results")

    # It is archived: it leaves the console list, its results stay public.
    director.goto(f"{base}/console/")
    row = director.locator("tr", has_text=DEMO_EVENT)
    row.get_by_role("button", name="Archive").click()
    director.wait_for_url(re.compile(r"show=archived"))
    assert director.locator("tr", has_text=DEMO_EVENT).count() == 1
    director.goto(f"{base}/console/")
    assert director.locator("tr", has_text=DEMO_EVENT).count() == 0
    shoot_everywhere(new_page, f"{base}/console/", "week1-console-list", session=director)
    anonymous = new_page(PHONE)
    assert anonymous.goto(f"{base}/events/{demo.pk}/results/").status == 200

    # Week two: a copy of the demo, on tables 1-3.
    director.goto(f"{base}/console/?show=archived")
    director.locator("tr", has_text=DEMO_EVENT).get_by_role("link", name="Copy").click()
    director.wait_for_selector("#id_name")
    shoot_everywhere(new_page, director.url, "week2-copy-form", session=director)
    director.fill("#id_name", "Thursday Weekly, week 2")
    director.fill("#id_numbers", "1-3")
    director.get_by_role("button", name="Create the copy").click()
    director.wait_for_selector("text=Thursday Weekly, week 2")
    week2 = Event.objects.get(name="Thursday Weekly, week 2")
    assert sorted(week2.tables.values_list("number", flat=True)) == [1, 2, 3]
    assert week2.structure_id != demo.structure_id
    event_url = f"{base}/console/events/{week2.pk}/"

    # Registration and the draw.
    director.goto(f"{event_url}seating/")
    director.get_by_text("Paste a list").click()
    director.fill("#names", "\n".join(WEEK_TWO))
    director.get_by_role("button", name="Register all").click()
    assert wait_for(lambda: Entry.objects.filter(event=week2).count() == len(WEEK_TWO), 10)
    director.reload()
    director.get_by_role("button", name="Draw seats").click()
    assert wait_for(
        lambda: Entry.objects.filter(event=week2, table__isnull=False).count() == len(WEEK_TWO),
        10,
    )
    shoot_everywhere(new_page, f"{event_url}seating/", "week2-seating-console", session=director)
    for path, name in [
        ("seats/poster/", "week2-poster"),
        ("seats/draw/", "week2-draw-screen"),
        (f"seats/?q={WEEK_TWO[4].replace(' ', '+')}", "week2-seat-lookup"),
        ("schedule/", "week2-schedule"),
    ]:
        shoot_everywhere(new_page, f"{base}/events/{week2.pk}/{path}", name)

    # The clock: start, pause (the room sees it), resume, on to the first break.
    director.goto(event_url)
    director.get_by_role("button", name=re.compile("Start$")).click()
    director.wait_for_selector("#clock-panel .badge.running")
    shoot_everywhere(new_page, event_url, "week2-console-running", session=director)
    tv = new_page(TV)
    tv.goto(f"{base}/events/{week2.pk}/clock/")
    tv.wait_for_function("window.tdClock && window.tdClock.data")
    director.get_by_role("button", name=re.compile("Pause")).click()
    director.wait_for_selector("#clock-panel .badge.paused")
    tv.wait_for_selector("#banner", state="visible", timeout=5000)
    assert tv.locator("#banner").inner_text().strip() == "PAUSED"
    screenshot(tv, "two-weeks/week2-clock-paused-tv")
    shoot_everywhere(new_page, event_url, "week2-console-paused", session=director)
    director.get_by_role("button", name=re.compile("Resume")).click()
    director.wait_for_selector("#clock-panel .badge.running")
    tv.wait_for_selector("#banner", state="hidden", timeout=5000)

    for _ in range(12):
        if director.locator("#clock-panel h2", has_text="Break").count():
            break
        director.get_by_role("button", name="Next level »").click()
        director.wait_for_timeout(400)
    assert director.locator("#clock-panel h2", has_text="Break").count() == 1
    tv.wait_for_function("window.tdClock.data && window.tdClock.data.on_break", timeout=5000)
    assert tv.locator("#level-label").inner_text().strip().lower() == "break"
    assert tv.locator("#to-break").inner_text().strip() not in ("now", "")
    screenshot(tv, "two-weeks/week2-clock-break-tv")
    for layout in ("clock", "payouts", "draw"):
        shoot_everywhere(
            new_page,
            f"{base}/events/{week2.pk}/clock/?layout={layout}",
            f"week2-clock-break-{layout}",
            ready="#time",
        )
    shoot_everywhere(new_page, event_url, "week2-console-break", session=director)
