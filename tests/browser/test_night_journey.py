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

import re
from decimal import Decimal

import pytest

from tests.browser.conftest import (
    DOCS_IMG,
    PATIENCE_MS,
    PHONE,
    TABLET,
    TV,
    docs_shot,
    docs_shots_on,
    login,
    open_page,
    settled,
)
from tests.personas import PASSWORD, make_user
from tests.worker import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

FOLDER = "night"  # docs/img/night/: the pictures the docs show (TD_SHOTS=1)
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


def shoot_sizes(
    new_page, url, name, *, session=None, ready=None, full=False, tall=True, scroll=False
):
    """The page at TV, tablet and phone sizes: the phone's whole page (unless not `tall`),
    the others' too with `full`; `scroll` brings `ready` into view first; `session` lends
    a logged-in page's cookies."""
    if not docs_shots_on():
        return
    for size, viewport in SIZES.items():
        page = open_page(new_page, viewport)
        if session is not None:
            page.context.add_cookies(session.context.cookies())
        response = page.goto(url)
        assert response is not None and response.status == 200, (url, response)
        if ready:
            page.wait_for_selector(ready)
            if scroll:
                page.evaluate("s => document.querySelector(s).scrollIntoView()", ready)
        page.wait_for_timeout(250)  # the fonts and the first htmx swap settle
        docs_shot(page, FOLDER, f"{name}-{size}", full_page=full or (tall and size == "phone"))
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
        fee=Decimal(10),
        seats_per_table=8,
        starting_stack=10_000,
        # Entry rules: one re-entry a player until level 4 ends, rebuys at 10,000 chips or
        # fewer in level 1, an add-on of 15,000 at the first break.
        late_registration_end_level=4,
        reentry_allowed=True,
        reentry_max=1,
        rebuy_until_level=1,
        rebuy_price=Decimal(100),
        rebuy_fee=Decimal(10),
        addon_break=1,
        addon_price=Decimal(50),
        addon_fee=Decimal(5),
        addon_chips=15_000,
    )
    payout_plan_update(event_id=event.pk, table="top-5", actor=Actor(label="last week"))
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    return event


def active(event_id: int) -> int:
    from tdsystem.seating.models import Entry

    return Entry.objects.filter(event_id=event_id, status="active").count()


def bust_one(page, event_id: int, *, shoot: str = "") -> None:
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
    if shoot:
        docs_shot(page, FOLDER, shoot)
    # The answer comes into #bustout-answer (a refusal replaces #record): empty it to know
    # when the new one is in.
    page.evaluate("document.getElementById('bustout-answer').replaceChildren()")
    page.get_by_role("button", name="Record bust-out").click()
    page.wait_for_selector("#bustout-answer > *, #record .flash.error")
    settled(page)
    error = page.locator("#record .flash.error")
    assert error.count() == 0, error.inner_text()
    assert wait_for(lambda: not Entry.objects.filter(pk=out.pk, status="active").exists(), 30)


def players_on_tv(tv, text: str) -> None:
    tv.wait_for_function(
        "t => document.getElementById('players').innerText.replace(/\\s/g, '') === t",
        arg=text,
        timeout=PATIENCE_MS,
    )


def test_a_director_runs_a_pko_night_from_the_copy_to_the_deal(live_server, new_page, worker):
    from tdsystem.events.models import Event
    from tdsystem.results.models import Bounty, ChipCount, Deal
    from tdsystem.seating.models import Entry, Purchase

    last_week = last_weeks_event()
    make_user("dora", "director")
    base = live_server.url
    director = open_page(new_page, TABLET)
    director.on("dialog", lambda dialog: dialog.accept())
    login(director, live_server, "dora", PASSWORD)

    # 1. Last week's event, copied from the console: tables 1-5 of eight.
    director.goto(f"{base}/console/?show=finished")
    director.locator("tr", has_text=LAST_WEEK).get_by_role("link", name="Copy").click()
    director.wait_for_selector("#id_name")
    shoot_sizes(new_page, director.url, "copy-form", session=director, ready="#id_name")
    director.fill("#id_name", TONIGHT)
    director.fill("#id_numbers", "1-5")
    director.fill("#id_seats", "8")
    director.get_by_role("button", name="Create the copy").click()
    director.wait_for_selector(f"h1:has-text('{TONIGHT}')")
    night = Event.objects.get(name=TONIGHT)
    copied = ("bounty_type", "bounty_amount", "reentry_max", "rebuy_price", "addon_chips")
    assert [getattr(night, f) for f in copied] == ["progressive", 50, 1, 100, 15_000]
    assert sorted(night.tables.values_list("number", flat=True)) == [1, 2, 3, 4, 5]
    console = f"{base}/console/events/{night.pk}/"
    seating = f"{console}seating/"
    results_console = f"{console}results/"
    tables_page = f"{console}tables/"

    # 2. Forty players pasted in, the seats drawn.
    director.goto(seating)
    director.get_by_text("Paste a list").click()
    director.fill("#names", "\n".join(NAMES))
    director.get_by_role("button", name="Register all").click()
    assert wait_for(lambda: Entry.objects.filter(event=night).count() == 40, 30)
    director.reload()
    director.get_by_role("button", name="Draw seats").click()
    assert wait_for(
        lambda: Entry.objects.filter(event=night, table__isnull=False).count() == 40, 30
    )
    director.reload()
    director.wait_for_selector(f"text={NAMES[0]}")
    shoot_sizes(new_page, seating, "seating-console", session=director, ready="#tables")

    # 3. The clock starts; the room's TV follows it.
    director.goto(console)
    director.get_by_role("button", name=re.compile("Start$")).click()
    director.wait_for_selector("#clock-panel .badge.running")
    tv = open_page(new_page, TV)
    tv.goto(f"{base}/events/{night.pk}/clock/")
    tv.wait_for_function("window.tdClock && window.tdClock.data", timeout=PATIENCE_MS)
    tv.wait_for_selector("#banner", state="hidden")
    players_on_tv(tv, "40/40")
    assert tv.locator("#pool").inner_text() == "2,000"  # the places' pool: the heads apart
    assert tv.locator("#next-ante").inner_text().strip().lower() == "ante 20"
    shoot_sizes(
        new_page, console, "console-running", session=director, ready="#clock-panel", tall=False
    )
    tv.locator(".entry-notices li", has_text="Late registration closes in").wait_for()
    docs_shot(tv, FOLDER, "clock-level-1-tv")

    # 4. While it runs, two future levels change: level 2's ante, level 3's length.
    director.click("#edit-levels")
    director.wait_for_selector("#editor-levels")
    assert director.locator("#editor-levels tr.current").count() == 1  # level 1 is locked
    director.fill("#ante-1", "25")
    director.fill("#minutes-2", "30")
    docs_shot(director, FOLDER, "editor-tablet", full_page=True)
    director.click("#editor-save")
    director.wait_for_url(console)
    tv.wait_for_function(
        "document.getElementById('next-ante').innerText.trim().toLowerCase() === 'ante 25'",
        timeout=PATIENCE_MS,
    )
    # The break now comes 10 minutes later: after 20 + 20 + 30 minutes, less what is played.
    to_break = tv.locator("#to-break").inner_text().strip()
    assert re.fullmatch(r"1:0\d:\d\d|69:\d\d", to_break), to_break
    docs_shot(tv, FOLDER, "clock-edited-tv")
    shoot_sizes(new_page, f"{console}levels/", "editor", session=director, ready="#editor-levels")

    # 5. Two players bust early and buy a new entry each (late registration is open).
    director.goto(results_console)
    busted = []
    for n in range(2):
        before = set(
            Entry.objects.filter(event=night, status="busted").values_list("pk", flat=True)
        )
        bust_one(director, night.pk, shoot="bounty-console-tablet" if n == 0 else "")
        busted += list(Entry.objects.filter(event=night, status="busted").exclude(pk__in=before))
    assert Bounty.objects.filter(event=night).count() == 2
    director.goto(seating)
    for done, entry in enumerate(busted, start=1):
        name = entry.player.name
        director.fill("#find-q", name)
        director.locator("#search").get_by_role(
            "button", name=re.compile(f"^#{entry.number} ")
        ).click()
        panel = director.locator("#entry-panel")
        panel.locator("h3", has_text=name).wait_for()
        panel.get_by_role("button", name="Re-enter").click()
        panel.locator(".flash.ok").wait_for()
        assert wait_for(
            lambda n=done: Entry.objects.filter(event=night, is_reentry=True).count() == n, 30
        )
    assert active(night.pk) == 40
    players_on_tv(tv, "40/42")

    # 6. A rebuy at table 1, on the floor's phone: the player is down to 2,500.
    short = Entry.objects.filter(event=night, status="active", table__number=1).first()
    phone = open_page(new_page, PHONE)
    phone.on("dialog", lambda dialog: dialog.accept())  # a buy asks before it sells
    phone.context.add_cookies(director.context.cookies())
    phone.goto(f"{tables_page}1/")
    phone.fill(f"#buy-stack-{short.pk}", "2500")
    docs_shot(phone, FOLDER, "table-rebuy-phone", full_page=True)
    phone.get_by_role("button", name=re.compile(f"^Rebuy for {short.player.name}")).click()
    assert wait_for(lambda: Purchase.objects.filter(entry=short, kind="rebuy").exists(), 30)
    phone.wait_for_selector("#table")

    # 7. On to the first break; the add-on is taken there, on the seating console.
    director.goto(console)
    for _ in range(4):
        heading = director.eval_on_selector("#clock-panel h2", "(h) => h.textContent.trim()")
        if "Break" in heading:
            break
        director.get_by_role("button", name="Next level »").click()
        # The panel answers with the next level's heading (slow on a busy machine).
        director.wait_for_function(
            "(was) => document.querySelector('#clock-panel h2')?.textContent.trim() !== was",
            arg=heading,
            timeout=30_000,
        )
    assert director.locator("#clock-panel h2", has_text="Break").count() == 1
    tv.wait_for_function("window.tdClock.data && window.tdClock.data.on_break", timeout=PATIENCE_MS)
    tv.locator(".entry-notices li", has_text="Add-on at this break").wait_for()
    docs_shot(tv, FOLDER, "clock-break-tv")
    taker = Entry.objects.filter(event=night, status="active").order_by("number").last()
    director.goto(seating)
    director.fill("#find-q", taker.player.name)
    director.locator("#search").get_by_role("button", name=re.compile(f"^#{taker.number} ")).click()
    panel = director.locator("#entry-panel")
    panel.locator("h3", has_text=taker.player.name).wait_for()
    panel.get_by_role("button", name=re.compile("^Add-on")).click()
    assert wait_for(lambda: Purchase.objects.filter(entry=taker, kind="addon").exists(), 30)
    panel.locator(".flash.ok").wait_for()
    docs_shot(director, FOLDER, "addon-tablet", full_page=True)

    # 8. The floor counts table 2's chips on a phone; the console's list and the room's
    # chip-count page show them.
    seats = list(Entry.objects.filter(event=night, status="active", table__number=2))
    phone.goto(f"{tables_page}2/")
    for i, entry in enumerate(seats):
        phone.fill(f"#tc-{entry.number}", str(8_000 + 1_500 * i))
    phone.get_by_role("button", name="Save counts").click()
    phone.locator("#table-chips .flash.ok").wait_for()
    assert ChipCount.objects.filter(event=night).count() == len(seats)
    docs_shot(phone, FOLDER, "table-chips-phone", full_page=True)
    shoot_sizes(
        new_page,
        results_console,
        "chip-count-list",
        session=director,
        ready="#counts",
        tall=False,
        scroll=True,
    )
    shoot_sizes(new_page, f"{base}/events/{night.pk}/chips/", "chips-screen")

    # 9. At table 3 the floor busts a player from the phone, naming who eliminated them;
    # then the field is busted down to three on the console, the eliminators ticked.
    at_three = list(Entry.objects.filter(event=night, status="active", table__number=3))
    out, taker_of_pot = at_three[-1], at_three[0]
    phone.goto(f"{tables_page}3/")
    row = phone.locator("ol.seats li", has=phone.locator(f"input[name=entry][value='{out.pk}']"))
    row.locator("details.ko summary").click()
    panel = row.locator("form.ko-panel")
    panel.wait_for(state="visible")
    panel.locator(f"input[name=eliminated_by][value='{taker_of_pot.pk}']").check()
    docs_shot(phone, FOLDER, "table-out-phone")
    panel.locator("button").click()
    assert wait_for(
        lambda: Bounty.objects.filter(eliminated=out, eliminator=taker_of_pot).exists(), 30
    )
    director.goto(results_console)
    while active(night.pk) > 3:
        bust_one(director, night.pk)
    assert Bounty.objects.filter(event=night).count() == 39  # 42 entries, three left
    reader = open_page(new_page, TABLET)
    reader.goto(f"{base}/events/{night.pk}/results/")
    assert "heads in play" in reader.locator("#results").inner_text().lower()
    docs_shot(reader, FOLDER, "bounty-results-tablet")

    # 10. Three left at one table: counted on the table page, every chip accounted for.
    left = list(Entry.objects.filter(event=night, status="active").order_by("number"))
    (final,) = {e.table.number for e in left}
    in_play = sum(e.chips - e.chips_removed for e in Entry.objects.filter(event=night))
    counts = [in_play * 5 // 10, in_play * 3 // 10]
    counts.append(in_play - sum(counts))
    phone.goto(f"{tables_page}{final}/")
    for entry, chips in zip(left, counts, strict=True):
        phone.fill(f"#tc-{entry.number}", f"{chips:,}")
    phone.get_by_role("button", name="Save counts").click()
    phone.locator("#chip-match").wait_for()
    if docs_shots_on():  # the counts, not the table's move slips above them
        chips = DOCS_IMG / FOLDER / "final-table-chips-phone.png"
        phone.locator("#table-chips").screenshot(path=str(chips))

    # 11. They make an ICM deal on the deal page.
    director.goto(results_console)
    director.get_by_role("link", name="Deal").click()
    director.wait_for_selector("#deal")
    # The page opens with a preview from the latest counts already; wait for this one's.
    with director.expect_response(lambda r: r.url.endswith("/deal") and r.request.method == "POST"):
        director.get_by_role("button", name="Work it out").click()
    director.wait_for_selector("#deal-preview")
    settled(director)
    assert director.locator("#deal-preview tbody tr").count() == 3
    docs_shot(director, FOLDER, "deal-preview-tablet", full_page=True)
    director.get_by_role("button", name="Confirm the deal").click()
    director.wait_for_selector("#deal-standing, #deal .flash.error")
    refused = director.locator("#deal .flash.error")
    assert refused.count() == 0, refused.inner_text()
    deal = Deal.objects.get(event=night, cancelled_at__isnull=True)
    assert deal.method == "icm" and deal.shares.count() == 3
    shoot_sizes(new_page, director.url, "deal-standing", session=director, ready="#deal")

    # 12. The last two play on; the event finishes; the results show it all.
    director.goto(results_console)
    while active(night.pk) > 1:
        bust_one(director, night.pk)
    night.refresh_from_db()
    assert night.status == "finished"
    director.goto(results_console)
    assert director.locator("#record").get_by_text("The event has finished").count() == 1
    phone.goto(f"{base}/events/{night.pk}/results/")
    text = phone.locator("#results").inner_text()
    winner = Entry.objects.get(event=night, finishes__is_winner=True)
    assert winner.player.name in text
    assert "Deal made" in text and "bounty pool" in text.lower()
    shoot_sizes(new_page, f"{base}/events/{night.pk}/results/", "results-final", full=True)
    tv.wait_for_function(
        "document.getElementById('banner').innerText.includes('COMPLETE')", timeout=PATIENCE_MS
    )
    docs_shot(tv, FOLDER, "clock-finished-tv")
    assert Event.objects.get(pk=last_week.pk).status == "finished"
