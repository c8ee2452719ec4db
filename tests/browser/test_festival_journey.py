"""A festival's Day 1, in a real browser, as the director and the floor run it.

The main event gets two flights, 1A and 1B, on its flights page; each flight takes four
tables of the room and its pasted field, one player (Ann Lee, a member) plays both; both
clocks run at once and a few players bust, two of them re-entering. Each flight then ends
its day: the last hands drawn, counted down on the floor's phone, every table bagged, the
day closed and its report checked. The flights page shows Day 2 (Ann keeps her larger
bag) and combines it; the draw screen, a player's seat lookup and the main event's clock
show Day 2.

Only the main event is made directly (the night's template); the rest goes through the
pages, with the Celery worker running the clocks.

With TD_SHOTS=1 the main moments are shot into docs/img/festival/ (the pictures
docs/festival-night.md shows); without it nothing is written.
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from tests.browser.conftest import (
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

# A minute of the run: with `make test SLOW=1`. Every run still walks a flight's day to
# Day 2 in the browser (test_money_and_day_end_journeys.py) and the flights' pages
# (tests/views/test_flights_pages.py).
pytestmark = [
    pytest.mark.browser,
    pytest.mark.worker,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

FOLDER = "festival"  # docs/img/festival/: the pictures the docs show (TD_SHOTS=1)
FIRST = (
    "Ada Ben Cleo Dan Eve Finn Gus Hana Ivo Jade Kai Lena Milo Nora Otto Pia Quin Rosa Sami "
    "Tess Ugo"
)
LAST = (
    "Adler Brandt Costa Dietz Engel Frey Gallo Haas Ito Jensen Kurz Lang Moser Nagel Ortiz "
    "Petit Quast Roth Sauer Thiel Ulrich"
)
NAMES = [f"{a} {b}" for a, b in zip(FIRST.split(), LAST.split(), strict=True)]  # 21
# Each flight: 21 pasted names and Ann Lee on four 6-seat tables (more than three tables'
# seats, so no table breaks before the day ends and the last hands are drawn).
FIELD = {"1A": [f"{n} (A)" for n in NAMES], "1B": [f"{n} (B)" for n in NAMES]}
TABLES = {"1A": "1-4", "1B": "5-8"}
ANN = "Ann Lee"
ANN_BAG = {"1A": 30_000, "1B": 45_000}  # she keeps 1B's, the larger


def main_event():
    """The main event, the flights' template: 20-minute levels (none ends by itself)."""
    from tests.fixtures import make_event

    return make_event(
        1200,
        1200,
        1200,
        1200,
        1200,
        name="Main Event",
        buy_in=Decimal(100),
        fee=Decimal(10),
        seats_per_table=6,
        starting_stack=20_000,
        late_registration_end_level=4,
        reentry_allowed=True,
        reentry_max=1,
    )


def bust(page, flight) -> str:
    """On the flight's bust-out console: the lowest seat but Ann's at its fullest table is
    out, so the tables stay balanced (a bust at a table short of another would send a
    player over, and a pending move slip halts the short table in the last hands).
    Returns the name."""
    from tdsystem.seating.models import Entry

    seated = Entry.objects.filter(event=flight, status="active").select_related("table", "player")
    by_table: dict[int, list] = {}
    for entry in seated.order_by("table__number", "seat"):
        by_table.setdefault(entry.table.number, []).append(entry)
    table = max(by_table, key=lambda n: (len(by_table[n]), -n))
    out = next(entry for entry in by_table[table] if entry.player.name != ANN)
    if page.input_value("#bo-table") != str(table):
        with page.expect_response(lambda r: "part=players" in r.url):
            page.select_option("#bo-table", str(table))
    page.locator(f"#bo-players input[name=entry][value='{out.pk}']").check()
    page.evaluate("document.getElementById('bustout-answer').replaceChildren()")
    page.get_by_role("button", name="Record bust-out").click()
    page.wait_for_selector("#bustout-answer > *, #record .flash.error")
    settled(page)
    error = page.locator("#record .flash.error")
    assert error.count() == 0, error.inner_text()
    assert wait_for(lambda: not Entry.objects.filter(pk=out.pk, status="active").exists(), 30)
    return out.player.name


def reenter(page, name: str) -> None:
    """On the seating console: the busted player found and re-entered."""
    page.fill("#find-q", name)
    page.locator("#search").get_by_role("button", name=re.compile(re.escape(name))).first.click()
    panel = page.locator("#entry-panel")
    panel.locator("h3", has_text=name).wait_for()
    panel.get_by_role("button", name="Re-enter").click()
    panel.locator(".flash.ok").wait_for()


def stacks(flight) -> dict[int, int]:
    """Every player's count for the bags: the flight's chips in play shared out, Ann's as
    set, the last player's making the sum exact (so the bags match the chips in play)."""
    from tdsystem.seating.models import Entry

    entries = list(
        Entry.objects.filter(event=flight, status="active")
        .select_related("player")
        .order_by("number")
    )
    in_play = sum(e.chips - e.chips_removed for e in Entry.objects.filter(event=flight))
    others = [e for e in entries if e.player.name != ANN]
    average = (in_play - ANN_BAG[flight.flight]) // len(others) // 500 * 500
    counts = {e.pk: ANN_BAG[flight.flight] for e in entries if e.player.name == ANN}
    for i, entry in enumerate(others[:-1]):
        counts[entry.pk] = average + 1_500 * (i % 7 - 3)
    entries = others
    counts[entries[-1].pk] = in_play - sum(counts.values())
    assert entries[-1].player.name != ANN and counts[entries[-1].pk] > 0
    return counts


def end_the_day(director, phone, base, flight) -> int:
    """The flight's end of day through its pages; returns the number of last hands."""
    from tdsystem.seating.models import Entry

    console = f"{base}/console/events/{flight.pk}/"
    director.goto(console)
    panel = director.locator("#day-end")
    panel.get_by_role("button", name="Start the last hands").wait_for()
    settled(director)  # the panel arrives by htmx: a click before it settles does nothing
    panel.get_by_role("button", name="Start the last hands").click()
    director.wait_for_selector("#day-end .lh, #day-end .flash.error")
    refused = director.locator("#day-end .flash.error")
    assert refused.count() == 0, refused.inner_text()
    hands = int(re.fullmatch(r"Last (\d) hands of the day", panel.locator(".lh").inner_text())[1])
    assert 2 <= hands <= 5  # a 6-handed event draws 2 to 5
    assert "Balancing waits: last hands" in panel.inner_text()
    counts = stacks(flight)
    first = int(TABLES[flight.flight].split("-")[0])
    for number in range(first, first + 4):
        phone.goto(f"{console}tables/{number}/")
        word = phone.locator("#last-hands .word")
        assert word.inner_text() == f"{hands} hands left"
        button = phone.get_by_role("button", name="Hand finished")
        for left in range(hands - 1, -1, -1):
            settled(phone)  # the last answer's button is bound before it is pressed
            button.click()
            expected = {0: "Bag your chips", 1: "Last hand"}.get(left, f"{left} hands left")
            phone.wait_for_function(
                "t => document.querySelector('#last-hands .word').innerText === t",
                arg=expected,
                timeout=PATIENCE_MS,
            )
        assert button.is_disabled()
        settled(phone)
        seated = Entry.objects.filter(event=flight, status="active", table__number=number)
        for entry in seated:
            phone.fill(f"[name=chips-{entry.seat}]", f"{counts[entry.pk]:,}")
            phone.fill(f"[name=bag-{entry.seat}]", f"{flight.flight}-{entry.number:03}")
        phone.get_by_role("button", name="Save the bags").click()
        # The bags saved, the seats read again: each shows its bag where "Out" was.
        phone.locator("#table ol.seats .bag-mark").first.wait_for()
        assert phone.locator("#table ol.seats").get_by_role("button", name="Out").count() == 0
        assert "This table is bagged." in phone.locator("#table-bags").inner_text()
        if number == first and flight.flight == "1A":
            docs_shot(phone, FOLDER, "table-bagged-phone", full_page=True)
    director.reload()
    panel = director.locator("#day-end")
    panel.get_by_role("button", name="Close the day").wait_for()
    settled(director)
    players = len(counts)
    assert f"{players} of {players} players bagged" in panel.inner_text()
    panel.get_by_role("button", name="Close the day").click()
    panel.locator(".flash.ok", has_text="Day 1 closed at").wait_for()
    assert "This flight is over" in panel.inner_text()
    return hands


def test_two_flights_play_at_once_bag_and_combine_into_day_2(live_server, new_page, worker):
    from tdsystem.events.models import Event
    from tdsystem.seating.models import Bag, Entry, Move

    main = main_event()
    make_user("dora", "director")
    base = live_server.url
    director = open_page(new_page, TABLET, accept_dialogs=True)
    login(director, live_server, "dora", PASSWORD)

    # 1. Two flights added on the main event's flights page.
    director.goto(f"{base}/console/events/{main.pk}/")
    director.click("#flights-link")
    director.wait_for_selector("#flights")
    for name in ("1A", "1B"):
        director.fill("#id_name", name)
        director.get_by_role("button", name="Add a flight").click()
        director.locator("#flights tbody tr", has_text=name).wait_for()
    rows = director.locator("#flights tbody tr")
    assert rows.count() == 2 and "not started" in rows.nth(1).inner_text().lower()
    flights = {f.flight: f for f in Event.objects.filter(parent=main)}
    assert sorted(flights) == ["1A", "1B"]

    # 2. Each flight: its four tables, its field pasted, Ann Lee at the desk, the draw.
    for name, flight in flights.items():
        director.goto(f"{base}/console/events/{flight.pk}/seating/")
        director.fill("#id_numbers", TABLES[name])
        director.fill("#id_seats", "6")
        director.locator("#setup").get_by_role("button", name="Add").click()
        director.locator("#setup .flash.ok").wait_for()
        settled(director)
        director.get_by_text("Paste a list").click()
        director.fill("#names", "\n".join(FIELD[name]))
        director.get_by_role("button", name="Register all").click()
        director.locator("#register .flash").wait_for()
        assert wait_for(lambda f=flight: Entry.objects.filter(event=f).count() == 21, 30)
        settled(director)
        director.fill("#id_name", ANN)
        director.fill("#id_member_id", "M-1001")
        director.locator("#register").get_by_role("button", name="Register", exact=True).click()
        director.locator("#register .flash.ok").wait_for()
        director.reload()
        settled(director)
        director.get_by_role("button", name="Draw seats").click()
        director.locator("#status .flash").wait_for()
        assert director.locator("#status .flash.error").count() == 0
        assert wait_for(
            lambda f=flight: Entry.objects.filter(event=f, table__isnull=False).count() == 22, 30
        )
    assert Entry.objects.filter(player__member_id="M-1001").count() == 2  # one player, two flights

    # The floor plan holds both flights at once: tables 1-4 are 1A's, 5-8 1B's.
    director.goto(f"{base}/console/floor/")
    for number in range(1, 9):
        tile = director.locator(f".tile.held[data-table='{number}']")
        assert tile.locator(".fl").inner_text() == ("1A" if number <= 4 else "1B")
    legend = director.locator(".floor-legend").inner_text()
    assert legend.count("4 tables · 22 players") == 2, legend
    if docs_shots_on():
        floor = open_page(new_page, TV, session=director, accept_dialogs=True)
        floor.goto(director.url)
        floor.wait_for_selector(".tile.held")
        docs_shot(floor, FOLDER, "floor-tv")

    # 3. Both clocks run; 1A moves on to level 3, 1B to level 2. Three out in 1A (two
    # re-enter), two in 1B (one re-enters).
    for flight, level in ((flights["1A"], 3), (flights["1B"], 2)):
        director.goto(f"{base}/console/events/{flight.pk}/")
        director.get_by_role("button", name=re.compile("Start")).first.click()
        director.wait_for_selector("#clock-panel .badge.running")
        for n in range(2, level + 1):
            director.get_by_role("button", name="Next level »").click()
            director.locator("#clock-panel h2", has_text=f"Level {n}").wait_for()
    for flight, outs, back in ((flights["1A"], 3, 2), (flights["1B"], 2, 1)):
        director.goto(f"{base}/console/events/{flight.pk}/results/")
        busted = [bust(director, flight) for _ in range(outs)]
        director.goto(f"{base}/console/events/{flight.pk}/seating/")
        for name in busted[:back]:
            reenter(director, name)
    assert [Entry.objects.filter(event=f, status="active").count() for f in flights.values()] == [
        21,
        21,
    ]
    # Busted at the fullest tables, re-entered at the emptiest: no table short, no move.
    assert not Move.objects.filter(event__parent=main).exists()
    tv = open_page(new_page, TV, accept_dialogs=True)
    tv.goto(f"{base}/events/{flights['1A'].pk}/clock/")
    tv.wait_for_function("window.tdClock && window.tdClock.data", timeout=PATIENCE_MS)
    tv.wait_for_function(
        "document.getElementById('players').innerText.replace(/\\s/g, '').startsWith('21/24')",
        timeout=PATIENCE_MS,
    )
    docs_shot(tv, FOLDER, "flight-clock-tv")

    # 4. Each flight ends its day: the last hands, every table bagged, the day closed.
    phone = open_page(new_page, PHONE, session=director, accept_dialogs=True)
    for flight in flights.values():
        end_the_day(director, phone, base, flight)
        flight.refresh_from_db()
    assert Bag.objects.filter(event__parent=main).count() == 42

    # The end-of-day report of 1A: every bag by chips, each table, the chips checked.
    report = open_page(new_page, TV, session=director, accept_dialogs=True)
    report.goto(f"{base}/console/events/{flights['1A'].pk}/day-end/report")
    text = report.locator(".day-report").inner_text()
    assert text.startswith("Main Event · 1A\n\nEnd of day 1 · level 3 reached")
    assert report.locator("#chips-match").inner_text() == "The bags match the chips in play."
    by_player = report.locator(".day-report > .table-wrap tbody tr")
    assert by_player.count() == 21
    ann_row = by_player.filter(has_text=ANN).inner_text().split("\t")
    ann_1a = Bag.objects.get(event=flights["1A"], entry__player__name=ANN)
    assert ann_row[2:] == [
        str(ann_1a.entry.number),
        "30,000",
        ann_1a.number,
        str(ann_1a.table_number),
        str(ann_1a.seat),
    ]
    tables = report.locator(".by-table section")
    assert tables.count() == 4
    for i, number in enumerate(range(1, 5)):
        bags = Bag.objects.filter(event=flights["1A"], table_number=number)
        head = tables.nth(i).locator("h3").inner_text()
        assert f"Table {number}" in head and f"{bags.count()} players" in head
        assert f"{sum(b.chips for b in bags):,}" in head
    docs_shot(report, FOLDER, "day-end-report-tv", full_page=True)
    if docs_shots_on():
        report.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
        report.emulate_media(media="print")
        docs_shot(report, FOLDER, "day-end-report-print", full_page=True)

    # 5. Day 2 on the flights page: 41 players, Ann kept once with her larger bag.
    director.goto(f"{base}/console/events/{main.pk}/flights/")
    day2 = director.locator("#day2")
    # 47 entries (re-entries too) and 940,000 chips; Ann's smaller bag of 30,000 dropped.
    stats = day2.locator(".stats").inner_text().lower()
    assert stats.split("\n") == [
        "entries, whole event",
        "47",
        "day 2 players",
        "41",
        "chips bagged",
        "910,000",
        "resumes at",
        "level 3",
        "200 / 400",
    ], stats
    twice = day2.locator("table tbody tr")
    assert twice.count() == 1
    assert twice.inner_text().split("\t") == [ANN, "1B · 45,000", "1A · 30,000"]
    for row in director.locator("#flights tbody tr").all():
        assert "bagged" in row.inner_text().lower()
    docs_shot(director, FOLDER, "day2-preview-tablet", full_page=True)
    day2.locator("input[name=confirm]").check()
    day2.get_by_role("button", name="Combine into Day 2: 41 players").click()
    director.locator("#day2", has_text="The flights are combined").wait_for()
    main.refresh_from_db()
    assert main.day == 2
    day2_entries = Entry.objects.filter(event=main)
    assert day2_entries.count() == 41 and day2_entries.filter(table__isnull=True).count() == 0
    ann = day2_entries.get(player__member_id="M-1001")
    assert ann.chips == 45_000

    # The draw screen for the room's TV, and Ann finding her seat on her phone.
    draw = open_page(new_page, TV, accept_dialogs=True)
    draw.goto(f"{base}/events/{main.pk}/seats/draw/")
    draw_text = draw.locator("body").inner_text()
    assert "41 players" in draw_text and f"{ANN}\n{ann.table.number}\n{ann.seat}\n" in draw_text
    docs_shot(draw, FOLDER, "day2-draw-tv")
    lookup = open_page(new_page, PHONE, accept_dialogs=True)
    lookup.goto(f"{base}/events/{main.pk}/seats/")
    lookup.fill("#q", ANN)
    lookup.locator("#found-table").wait_for()
    assert lookup.locator("#found-table").inner_text() == str(ann.table.number)
    assert lookup.locator("#found-seat").inner_text() == str(ann.seat)
    docs_shot(lookup, FOLDER, "day2-seat-phone", full_page=True)

    # The main event's clock waits at the flights' level for the director's start.
    tv.goto(f"{base}/events/{main.pk}/clock/")
    tv.wait_for_function("window.tdClock && window.tdClock.data", timeout=PATIENCE_MS)
    assert tv.locator("#level-label").inner_text().lower() == "level 3"
    assert tv.locator("#banner").inner_text().upper() == "NOT STARTED"
    players = tv.locator("#players").inner_text().replace(" ", "").replace("\n", "")
    assert players == "41/47", players
    docs_shot(tv, FOLDER, "day2-clock-tv")
