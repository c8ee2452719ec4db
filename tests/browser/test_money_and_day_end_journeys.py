"""What a director met on a real night, in Chromium, through the pages: a late entry once
the field is in the money, a one-table flight that ends its day and goes on to Day 2, bags
that do not add up to the chips in play, and the room's TV after the last hand.

Each event is made directly (it stands for the night's set-up); what the issue was about
goes through the pages.

The pictures: the late-entry confirm, the end-of-day panel of a one-table flight and the
TV's last screen, at TV, tablet and phone sizes, in English, Arabic and Japanese, always
into var/screenshots/night-end/; with TD_SHOTS=1 the English ones the docs show also go
into docs/img/night-end/.
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
    login,
    open_page,
    screenshot,
    settled,
)
from tests.personas import PASSWORD, make_user
from tests.worker import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# The pictures of the console are taken with the Celery worker running, as in the room
# (without it the console says so across its top).
with_worker = pytest.mark.worker

FOLDER = "night-end"
SIZES = {"tv": TV, "tablet": TABLET, "phone": PHONE}
LANGUAGES = ("en", "ar", "ja")


def shoot(
    new_page, url: str, name: str, *, session, ready: str, before=None, full: bool = False
) -> None:
    """The page at each size and in each language (var/screenshots/night-end/), the English
    ones for the docs too (TD_SHOTS=1): `ready` scrolled into view, or the phone's whole
    page with `full`. `before(page)` brings the page to the moment."""
    for language in LANGUAGES:
        for size, viewport in SIZES.items():
            page = open_page(new_page, viewport, session=session, accept_dialogs=True)
            page.goto(f"{url}{'&' if '?' in url else '?'}lang={language}")
            page.wait_for_selector(ready)
            if before is not None:
                before(page)
            page.locator(ready).scroll_into_view_if_needed()
            page.wait_for_timeout(300)  # the fonts and the first htmx swap settle
            whole = full and size == "phone"
            screenshot(page, f"{FOLDER}/{name}-{size}-{language}", full_page=whole)
            if language == "en":
                docs_shot(page, FOLDER, f"{name}-{size}", full_page=whole)
            assert page.evaluate(
                "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
            ), f"{name} overflows sideways at {size} in {language}"
            page.context.close()


def director_page(new_page, live_server, viewport=TABLET):
    make_user("dora", "director")
    page = open_page(new_page, viewport, accept_dialogs=True)
    login(page, live_server, "dora", PASSWORD)
    return page


def bust(page, entry) -> None:
    """On the bust-out console: `entry` is out at its table."""
    from tdsystem.seating.models import Entry

    table = str(entry.table.number)
    if page.input_value("#bo-table") != table:
        with page.expect_response(lambda r: "part=players" in r.url):
            page.select_option("#bo-table", table)
    page.locator(f"#bo-players input[name=entry][value='{entry.pk}']").check()
    page.evaluate("document.getElementById('bustout-answer').replaceChildren()")
    page.get_by_role("button", name="Record bust-out").click()
    page.wait_for_selector("#bustout-answer > *, #record .flash.error")
    settled(page)
    error = page.locator("#record .flash.error")
    assert error.count() == 0, error.inner_text()
    assert wait_for(lambda: not Entry.objects.filter(pk=entry.pk, status="active").exists(), 30)


def register(page, name: str) -> str:
    """On the seating console: a player registered by name; the register card's answer."""
    page.evaluate("document.getElementById('register').dataset.stale = '1'")
    page.fill("#id_name", name)
    page.locator("#register").get_by_role("button", name="Register", exact=True).click()
    page.wait_for_selector("#register:not([data-stale])")
    settled(page)
    return page.locator("#register").inner_text()


# 1. A late entry once the field is in the money ---------------------------------------


@with_worker
def test_late_registration_closes_at_the_money_and_a_late_entry_is_confirmed_never_paid(
    live_server, new_page, worker
):
    from tdsystem.core.actors import Actor
    from tdsystem.events.models import Event
    from tdsystem.events.services import clock_action
    from tdsystem.results.models import Finish
    from tdsystem.results.services import payout_plan_update
    from tdsystem.seating.models import Entry
    from tdsystem.simulation.seatings import arrange
    from tests.fixtures import make_event

    # Eight players at 100 on one table, top 5 paid; late registration until level 4 and
    # one re-entry a player; the clock running at level 1.
    event = make_event(
        1200,
        1200,
        "B600",
        1200,
        1200,
        name="Thursday Deepstack",
        late_registration_end_level=4,
        reentry_allowed=True,
        reentry_max=1,
    )
    people = arrange(event, {1: [1, 2, 3, 4, 5, 6, 7, 8]})
    payout_plan_update(
        event_id=event.pk, table="top-5", unit=Decimal(1), actor=Actor(label="set-up")
    )
    clock_action(event_id=event.pk, action="start", actor=Actor(label="set-up"))
    base = live_server.url
    console = f"{base}/console/events/{event.pk}/"
    director = director_page(new_page, live_server)

    tv = open_page(new_page, TV)
    tv.goto(f"{base}/events/{event.pk}/clock/")
    notices = tv.locator("#entry-notices")
    notices.locator("li", has_text="Late registration closes in").wait_for()
    notices.locator("li", has_text="Re-entries: 1 per player").wait_for()

    # Three out: five left for five places, the bubble has burst. The TV drops both notices.
    director.goto(f"{console}results/")
    for name in ("T1S1", "T1S2", "T1S3"):
        bust(director, Entry.objects.select_related("table").get(pk=people[name].pk))
    tv.wait_for_function("!document.querySelector('#entry-notices li')", timeout=PATIENCE_MS)
    assert tv.locator("#rot-late-reg").inner_text() in ("", "Late registration closed")

    # The desk cannot sell a late entry: the rule set closed registration at the money.
    director.goto(f"{console}seating/")
    answer = register(director, "Late Larry")
    assert "No new entries: the field is in the money (5 places paid)." in answer
    assert not Entry.objects.filter(player__name="Late Larry").exists()

    # The room takes late entries in the money (its house rule, set on the rules page);
    # the 5th's prize is paid at the cage first.
    Event.objects.filter(pk=event.pk).update(rule_overrides={"entries_close": "level"})
    director.goto(f"{console}results/")
    bust(director, Entry.objects.select_related("table").get(pk=people["T1S4"].pk))
    cashier = director.locator("#cashier")
    row = cashier.locator("tr", has_text="T1S4")
    row.get_by_role("button", name="Mark paid").click()
    cashier.locator(".flash.ok", has_text="#4 T1S4: 64 paid").wait_for()
    assert Finish.objects.get(entry=people["T1S4"]).paid_at is not None

    # A late entry would take the paid 5th down to 6th: never sold, whatever is confirmed.
    director.goto(f"{console}seating/")
    answer = register(director, "Late Larry")
    assert "Not sold: it would change a prize already paid (#4 T1S4, place 5, 64)" in answer

    # The payment was a mistake: taken back, the desk is asked and names what moves.
    director.goto(f"{console}results/")
    row = director.locator("#cashier tr", has_text="T1S4")
    row.get_by_role("button", name="Not paid").click()
    director.locator("#cashier .flash.ok", has_text="marked not paid").wait_for()
    director.goto(f"{console}seating/")
    answer = register(director, "Late Larry")
    confirm = director.locator("#confirm-changes")
    assert "This changes what 1 player already in the money wins:" in confirm.inner_text()
    assert re.search(r"#4 T1S4\s+5 → 6\s+64 → 0", confirm.inner_text())
    assert not Entry.objects.filter(player__name="Late Larry").exists()

    def asked(page) -> None:  # in any language: the register form's own button
        page.fill("#id_name", "Late Larry")
        page.locator("#register form.row-form button.primary").click()
        page.wait_for_selector("#confirm-changes")

    shoot(
        new_page,
        f"{console}seating/",
        "late-entry-confirm",
        session=director,
        ready="#register",
        before=asked,
    )
    assert not Entry.objects.filter(player__name="Late Larry").exists()
    director.evaluate("document.getElementById('register').dataset.stale = '1'")
    confirm.get_by_role("button", name="Register anyway").click()
    director.wait_for_selector("#register:not([data-stale])")
    assert "#9 Late Larry: table 1" in director.locator("#register .flash.ok").inner_text()
    fourth = Finish.objects.get(entry=people["T1S4"])
    assert (fourth.place, fourth.prize) == (6, Decimal(0))


# 2. A one-table flight ends its day and goes on to Day 2 ---------------------------------


def flight_with_one_table(name: str = "1A", players: int = 6):
    """The main event and its flight `name`: `players` at one table, the clock running."""
    from tdsystem.core.actors import Actor
    from tdsystem.events.models import Event
    from tdsystem.events.services import clock_action
    from tdsystem.seating import services
    from tdsystem.simulation.seatings import arrange
    from tests.fixtures import make_event

    main = Event.objects.filter(name="Small Room Main").first() or make_event(
        1200, 1200, 1200, name="Small Room Main", seats_per_table=9, reentry_allowed=True
    )
    flight = services.flight_add(event_id=main.pk, name=name, actor=Actor(label="set-up"))
    first = 1 if name == "1A" else 2
    people = arrange(flight, {first: list(range(1, players + 1))})
    clock_action(event_id=flight.pk, action="start", actor=Actor(label="set-up"))
    return main, flight, people


def bag_table(phone, base: str, flight, number: int, extra: int = 0) -> None:
    """On the floor's phone: the table page's bag form, every stack, the counts adding up
    to the flight's chips in play (plus `extra` on the first bag)."""
    from tdsystem.seating.models import Entry

    seated = list(
        Entry.objects.filter(event=flight, status="active", table__number=number).order_by("seat")
    )
    in_play = sum(e.chips - e.chips_removed for e in Entry.objects.filter(event=flight))
    counts = [in_play // len(seated)] * len(seated)
    counts[-1] += in_play - sum(counts)
    counts[0] += extra
    phone.goto(f"{base}/console/events/{flight.pk}/tables/{number}/")
    phone.locator("#last-hands .word", has_text="Bag your chips").wait_for()
    for entry, chips in zip(seated, counts, strict=True):
        phone.fill(f"[name=chips-{entry.seat}]", f"{chips:,}")
        phone.fill(f"[name=bag-{entry.seat}]", f"{flight.flight}-{entry.number:03}")
    phone.get_by_role("button", name="Save the bags").click()
    phone.locator("#table ol.seats .bag-mark").first.wait_for()
    assert "This table is bagged." in phone.locator("#table-bags").inner_text()


def end_the_day(director, base: str, flight) -> None:
    director.goto(f"{base}/console/events/{flight.pk}/")
    panel = director.locator("#day-end")
    button = panel.get_by_role("button", name="Bag and close the day")
    button.wait_for()
    settled(director)
    assert "1 table in play: the day runs the clock out" in panel.inner_text()
    button.click()
    panel.locator(".lh", has_text="The day is over: bag and tag").wait_for()


def close_the_day(director, base: str, flight) -> None:
    director.goto(f"{base}/console/events/{flight.pk}/")
    panel = director.locator("#day-end")
    panel.get_by_role("button", name="Close the day").wait_for()
    settled(director)
    panel.get_by_role("button", name="Close the day").click()


@with_worker
def test_a_one_table_flight_bags_closes_its_day_and_goes_on_to_day_2(live_server, new_page, worker):
    from tdsystem.seating.models import DayEnd, Entry

    main, flight, _people = flight_with_one_table()
    base = live_server.url
    director = director_page(new_page, live_server)
    shoot(
        new_page,
        f"{base}/console/events/{flight.pk}/",
        "day-end-one-table",
        session=director,
        ready="#day-end .btn.primary",
    )
    end_the_day(director, base, flight)
    assert DayEnd.objects.get(event=flight).hands == 0
    phone = open_page(new_page, PHONE, session=director)
    bag_table(phone, base, flight, 1)
    close_the_day(director, base, flight)
    director.locator("#day-end .flash.ok", has_text="Day 1 closed at").wait_for()

    director.goto(f"{base}/console/events/{main.pk}/flights/")
    day2 = director.locator("#day2")
    assert "Not ready" not in day2.inner_text() and "do not add up" not in day2.inner_text()
    day2.locator("input[name=confirm]").check()
    day2.get_by_role("button", name=re.compile("Combine into Day 2")).click()
    day2.locator(".flash.ok", has_text="Day 2: 6 players drawn at 1 table").wait_for()
    assert Entry.objects.filter(event=main, table__isnull=False).count() == 6


# 3. Bags that do not add up: confirmed at closing and at combining -----------------------


def test_bags_that_do_not_add_up_are_confirmed_and_day_2_knows_the_dropped_bag(
    live_server, new_page
):
    from tdsystem.core.models import LogEntry
    from tdsystem.seating.models import DayEnd, Entry, Player

    main, first, _ = flight_with_one_table("1A", players=5)
    _, second, _ = flight_with_one_table("1B", players=5)
    # Ann plays both flights (the same member): she bags twice, Day 2 keeps one bag.
    ann = Player.objects.create(name="Ann Lee", member_id="M-17")
    Entry.objects.filter(event=first, number=1).update(player=ann)
    Entry.objects.filter(event=second, number=1).update(player=ann)
    base = live_server.url
    director = director_page(new_page, live_server)
    phone = open_page(new_page, PHONE, session=director)

    # 1A's bags hold 20,000 more than its chips in play: the day closes only once confirmed.
    end_the_day(director, base, first)
    bag_table(phone, base, first, 1, extra=20_000)
    close_the_day(director, base, first)
    warning = director.locator("#bags-differ")
    warning.wait_for()
    assert (
        "The bags hold 20,000 chips more than the chips in play (70,000 against 50,000)"
        in warning.inner_text()
    )
    assert DayEnd.objects.get(event=first).closed_at is None
    warning.get_by_role("button", name="Close the day with the difference (20,000)").click()
    director.locator("#day-end .flash.ok", has_text="Day 1 closed at").wait_for()
    end_the_day(director, base, second)
    bag_table(phone, base, second, 2)
    close_the_day(director, base, second)
    director.locator("#day-end .flash.ok", has_text="Day 1 closed at").wait_for()

    # The Day 2 preview says it again; combining needs its own tick.
    director.goto(f"{base}/console/events/{main.pk}/flights/")
    day2 = director.locator("#day2")
    differences = day2.locator("#bag-differences")
    assert "Flight 1A: bags 70,000, chips in play 50,000" in differences.inner_text()
    assert "1B" not in differences.inner_text()
    day2.locator("input[name=confirm]").check()
    day2.locator("input[name=confirm_differences]").check()
    day2.get_by_role("button", name=re.compile("Combine into Day 2")).click()
    day2.locator(".flash.ok", has_text="Day 2: 9 players drawn").wait_for()
    combined = LogEntry.objects.get(event=main, action="day2.combine")
    assert combined.data["differences"] == {"1A": 20_000}

    # Day 2's bust-out console: Ann's dropped bag is no bust-out, and it says which bag.
    director.goto(f"{base}/console/events/{main.pk}/results/")
    overview = director.locator("#overview")
    overview.locator("#dropped-bags").wait_for()
    assert "Ann Lee: bag 1" in overview.inner_text()
    assert "without a bust-out recorded here" not in overview.inner_text()


# 4. The room's TV after the last hand ----------------------------------------------------


def test_the_tv_shows_the_winner_and_the_final_table_after_the_last_hand(live_server, new_page):
    from tdsystem.core.actors import Actor
    from tdsystem.events.models import Event
    from tdsystem.events.services import clock_action
    from tdsystem.results.services import payout_plan_update
    from tdsystem.seating.models import Entry, Player
    from tdsystem.simulation.seatings import arrange
    from tests.fixtures import make_event

    event = make_event(1200, "B600", 1200, name="Sunday Freezeout", buy_in=Decimal(200))
    people = arrange(event, {1: [1, 2, 3, 4, 5, 6]})
    names = ["Mariam Haddad", "Kenji Sato", "Linh Tran", "Omar Aziz", "Ana Ruiz", "Tom Berg"]
    for entry, name in zip(people.values(), names, strict=True):
        Player.objects.filter(pk=entry.player_id).update(name=name)
    payout_plan_update(
        event_id=event.pk, table="top-3", unit=Decimal(10), actor=Actor(label="set-up")
    )
    clock_action(event_id=event.pk, action="start", actor=Actor(label="set-up"))
    base = live_server.url
    tv = open_page(new_page, TV)
    tv.goto(f"{base}/events/{event.pk}/clock/")
    tv.locator("#rotator [data-item='colour-up']").wait_for(state="attached")

    director = director_page(new_page, live_server)
    director.goto(f"{base}/console/events/{event.pk}/results/")
    for seat in (6, 5, 4, 3, 2):
        bust(director, Entry.objects.select_related("table").get(pk=people[f"T1S{seat}"].pk))
    assert wait_for(lambda: Event.objects.get(pk=event.pk).status == "finished", 30)

    tv.locator("#final-winner", has_text="Mariam Haddad").wait_for()
    assert tv.locator("#banner").inner_text() == "TOURNAMENT COMPLETE"
    assert tv.locator("#final-prize").inner_text() == "600"  # 50% of 1,200
    places = tv.locator("#final-places li").all_inner_texts()
    assert [re.sub(r"\s+", " ", p).strip() for p in places] == [
        "2nd Kenji Sato 360",
        "3rd Linh Tran 240",
        "4th Omar Aziz",
        "5th Ana Ruiz",
        "6th Tom Berg",
    ]
    # Nothing about breaks or the average stack once nothing is left to play.
    assert not tv.locator("#rot-colour-up").is_visible()
    assert not tv.locator("#avg-bb").is_visible() and not tv.locator("#to-break").is_visible()
    shoot(
        new_page,
        f"{base}/events/{event.pk}/clock/",
        "tv-last-screen",
        session=tv,
        ready="#final:not([hidden]) #final-winner",
        full=True,
    )
