"""What a director met on a real night, mended: forms that say every problem and keep what
was typed, figures that read as the clock does, actions offered only where they work, move
slips acknowledged a table at a time, the players' pages in their language, monitors
answered, and the small things (a duplicate template name, a favicon, "1 duplicate name")."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.events.models import Clock, Event
from tdsystem.events.services import clock_action
from tdsystem.results import services as results
from tdsystem.results.models import BustOut, PayoutPlan
from tdsystem.results.services import standings
from tdsystem.seating import services as seating
from tdsystem.seating.models import Move
from tdsystem.simulation.seatings import ACTOR, arrange
from tdsystem.structures.services import StructureError, structure_create
from tests.fixtures import make_event, short_levels

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))
HTMX = {"HTTP_HX_REQUEST": "true"}


def running(event, index: int = 0, left_seconds: int = 500) -> None:
    Clock.objects.filter(pk=event.pk).update(
        status="running",
        level_index=index,
        ends_at=timezone.now() + timedelta(seconds=left_seconds),
        remaining_ms=None,
        version=3,
    )
    Event.objects.filter(pk=event.pk).update(status="running")


# 5. Forms that keep what was typed and say every problem -----------------------------------


def test_the_bust_out_form_says_every_bad_stack_and_keeps_the_ticks(client, floor_person):
    event = make_event(600, 600)
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    client.force_login(floor_person)
    a, b = people["T2S3"], people["T2S5"]
    answer = client.post(
        reverse("results:bustout", args=[event.pk]),
        {"table": "2", "entry": [a.pk, b.pk], f"stack-{a.pk}": "12x", f"stack-{b.pk}": "9" * 30},
        **HTMX,
    )
    html = answer.content.decode()
    assert "“12x” is not a number of chips" in html
    assert "“999999999999…” is not a number of chips" in html  # the quote is closed
    for pk in (a.pk, b.pk):  # still ticked, as typed, each said under its box
        assert re.search(rf'name="entry" value="{pk}"[^>]*checked', html)
        assert f'id="stack-error-{pk}"' in html
    assert f'name="stack-{a.pk}" id="stack-{a.pk}" value="12x"' in html
    assert html.count('aria-invalid="true"') == 2
    assert not BustOut.objects.exists()


def test_a_refused_reserved_seat_keeps_what_was_typed(client, director):
    event = make_event(600)
    people = arrange(event, {1: FULL})
    client.force_login(director)
    url = reverse("seating:entry_action", args=[event.pk, people["T1S2"].pk, "reserve"])
    answer = client.post(url, {"seat": "12", "table": "99999999", "reason": "wheelchair"}, **HTMX)
    html = answer.content.decode()
    assert "Seat: a whole number from 1 to 10" in html
    assert "Table (optional): a whole number from 1 to 99,999" in html
    assert 'value="wheelchair"' in html and 'value="12"' in html and 'value="99999999"' in html


@pytest.mark.parametrize(
    ("numbers", "said"),
    [
        ("99999999999999999999", "“999999999999…”: give table numbers from 1 to 99,999"),
        ("9999999999", "“9999999999”: give table numbers from 1 to 99,999"),
        ("5-3, x", "“5-3”, “x”: give table numbers from 1 to 99,999"),
    ],
)
def test_the_copy_form_takes_table_numbers_as_the_seating_console_does(
    client, director, numbers, said
):
    event = make_event(600, name="Friday")
    client.force_login(director)
    answer = client.post(
        reverse("console:event_copy", args=[event.pk]),
        {"name": "Friday next", "numbers": numbers, "seats": "9"},
    )
    assert answer.status_code == 400
    assert said in answer.content.decode()
    assert not Event.objects.filter(name="Friday next").exists()


def test_no_page_says_a_64_bit_limit_or_a_column_bound(client, director):
    event = make_event(600)
    client.force_login(director)
    answer = client.post(
        reverse("results:chips", args=[event.pk]), {"entry": "9" * 25, "chips": "100"}, **HTMX
    )
    html = answer.content.decode()
    assert "Entry number: a whole number from 1 to 1,000,000,000" in html
    assert "9,223,372,036,854,775,807" not in html and "9223372036854775807" not in html


# 6. Re-entries -----------------------------------------------------------------------------


def test_money_reads_as_money_in_the_readers_language():
    from django.utils import translation

    from tdsystem.core.numbers import money

    assert money(Decimal("15000.00")) == "15,000"
    assert money(Decimal("1234.50")) == "1,234.50"
    with translation.override("vi"):
        assert money(Decimal("15000.00")) == "15.000"


# 7. Figures a director reads ---------------------------------------------------------------


def test_the_event_list_counts_levels_as_the_clock_does_and_says_when_it_started(client, director):
    event = make_event(600, 600, "B300", 600, 600, name="Sunday")
    Event.objects.filter(pk=event.pk).update(scheduled_start=timezone.now() - timedelta(days=3))
    arrange(event, {1: FULL})
    with time_machine.travel(timezone.now().replace(microsecond=0), tick=False) as moment:
        clock_action(event_id=event.pk, action="start", actor=ACTOR)
        started = timezone.localtime(timezone.now())
        for _ in range(3):  # level 2, the break, level 3
            moment.shift(1)
            clock_action(event_id=event.pk, action="next", actor=ACTOR)
    client.force_login(director)
    html = client.get(reverse("console:home")).content.decode()
    row = re.search(r"<tr>.*?Sunday.*?</tr>", html, re.S).group(0)
    assert re.search(r'class="num r wide-only">3</td>', row)  # the clock's "Level 3", not 4
    assert started.strftime("%H:%M") in row and "When the clock started" in row


def test_a_finished_events_printed_schedule_does_not_move(client):
    event = make_event(600, 600, 600, name="Done")
    arrange(event, {1: FULL})
    with time_machine.travel(timezone.now(), tick=False) as moment:
        clock_action(event_id=event.pk, action="start", actor=ACTOR)
        moment.shift(500)
        clock_action(event_id=event.pk, action="next", actor=ACTOR)
        moment.shift(300)
        clock_action(event_id=event.pk, action="finish", actor=ACTOR)
        first = client.get(reverse("schedule", args=[event.pk])).context["rows"]
        moment.shift(3600)
        later = client.get(reverse("schedule", args=[event.pk])).context["rows"]
    assert [start for _row, start in first] == [start for _row, start in later]
    starts = [start for _row, start in later]
    assert starts[0] is not None and starts[1] - starts[0] == timedelta(seconds=500)
    assert starts[2] is None  # never played


def test_prizes_are_rounded_to_a_tenth_of_the_buy_in_by_default_and_add_up():
    event = make_event(600, buy_in=Decimal("15000"))
    arrange(event, {1: FULL, 2: FULL, 3: FULL[:5]})  # 23 entries, a pool of 345,000
    plan = standings.plan_or_default(event)
    assert plan.unit is None and plan.rounding == Decimal(1000)
    prizes = standings.prizes_by_place(plan, 23, Decimal(345_000))
    assert sum(prizes) == Decimal(345_000)
    assert all(p % 1000 == 0 for p in prizes), prizes
    # Switched to a unit of 1, the same pool pays to the unit.
    results.payout_plan_update(event_id=event.pk, table="top-15-percent", unit=1, actor=ACTOR)
    exact = standings.prizes_by_place(PayoutPlan.objects.get(event=event), 23, Decimal(345_000))
    assert sum(exact) == Decimal(345_000) and any(p % 1000 for p in exact)


def test_the_payouts_page_offers_the_automatic_unit_and_saves_it_empty(client, director):
    event = make_event(600, buy_in=Decimal("100"))
    client.force_login(director)
    page = client.get(reverse("results:payouts", args=[event.pk])).content.decode()
    assert 'placeholder="automatic: 10"' in page
    client.post(reverse("results:payouts", args=[event.pk]), {"table": "top-3", "unit": ""})
    assert PayoutPlan.objects.get(event=event).unit is None


# 8. Offered only where it works ------------------------------------------------------------


def test_hand_for_hand_is_not_offered_at_one_table(client, director):
    event = make_event(600)
    arrange(event, {1: FULL})
    client.force_login(director)
    html = client.get(reverse("results:console", args=[event.pk])).content.decode()
    assert "Start hand-for-hand" not in html
    assert "Hand-for-hand needs two tables in play or more" in html


def test_the_last_table_is_not_marked_to_break_next(client, director):
    event = make_event(600)
    arrange(event, {4: FULL})
    client.force_login(director)
    html = client.get(reverse("seating:console", args=[event.pk])).content.decode()
    badge = '<span class="badge info">breaks next</span>'
    assert badge not in html
    two = make_event(600, name="Two")
    arrange(two, {5: FULL, 6: FULL[:4]})
    html = client.get(reverse("seating:console", args=[two.pk])).content.decode()
    assert html.count(badge) == 1


def test_the_end_of_day_waits_folded_on_a_one_night_event(client, director):
    tda = make_event(600, name="Tuesday TDA")
    wsop = make_event(600, name="Main Event", rule_set="wsop-2026")
    client.force_login(director)
    html = client.get(reverse("console:event", args=[tda.pk])).content.decode()
    assert "End the day here (the event goes on another day)" in html
    assert 'hx-trigger="toggle from:closest details once"' in html
    html = client.get(reverse("console:event", args=[wsop.pk])).content.decode()
    # Rendered into the console, not loaded after it (nothing moves under the director).
    assert '<section class="card day-end" id="day-end"' in html and "End of day 1" in html
    assert 'hx-trigger="load"' not in html
    assert "End the day here" not in html


def test_move_slips_are_acknowledged_a_table_at_a_time_or_all_at_once(client, floor_person):
    event = make_event(600)
    people = arrange(event, {1: FULL, 2: FULL[:4], 3: FULL[:4]})
    move = Move.objects.create
    for name, to_table, seat in (("T1S1", 2, 5), ("T1S2", 2, 6), ("T1S3", 3, 5)):
        entry = people[name]
        move(
            event=event,
            entry=entry,
            from_table=1,
            from_seat=entry.seat,
            to_table=to_table,
            to_seat=seat,
            reason="balance",
        )
    client.force_login(floor_person)
    page = client.get(reverse("seating:moves", args=[event.pk])).content.decode()
    assert "To table 2 · 2 slips" in page and "To table 3 · 1 slip" in page
    assert "Acknowledge all 3 slips" in page
    url = reverse("seating:moves_ack", args=[event.pk])
    answer = client.post(url, {"to_table": "2"}, **HTMX)
    assert answer.status_code == 204 and "seating-changed" in answer["HX-Trigger"]
    assert Move.objects.filter(acknowledged_at__isnull=True).count() == 1
    client.post(url, {}, **HTMX)
    client.post(url, {}, **HTMX)  # a second tap: nothing left, nothing logged
    assert not Move.objects.filter(acknowledged_at__isnull=True).exists()
    assert LogEntry.objects.filter(event=event, action="move.ack_all").count() == 2


def test_the_moves_filter_says_when_it_is_not_a_table_number(client, floor_person):
    event = make_event(600)
    client.force_login(floor_person)
    page = client.get(reverse("seating:moves", args=[event.pk]), {"table": "abc"})
    assert "“abc” is not a table number: a whole number from 1 to 99,999" in page.content.decode()


# 9. The players' pages and the TV ---------------------------------------------------------


@pytest.mark.parametrize("name", ["seating:lookup", "seating:draw_screen", "chips_screen"])
def test_the_players_pages_have_the_language_switcher(client, name):
    event = make_event(600)
    html = client.get(reverse(name, args=[event.pk])).content.decode()
    assert 'class="lang-switch"' in html and 'name="language"' in html


def test_the_clock_json_says_in_the_money_once_the_bubble_bursts(client):
    event = make_event(600, buy_in=Decimal("100"))
    people = arrange(event, {1: FULL})  # 9 entries: 2 paid (top 15%)
    running(event)
    results.payout_plan_update(event_id=event.pk, table="top-3", actor=ACTOR)
    url = f"/api/events/{event.pk}/clock"
    assert client.get(url).json()["in_the_money"] is False
    for name in ("T1S1", "T1S2", "T1S3", "T1S4", "T1S5", "T1S6"):
        results.bustout_record(event_id=event.pk, entry_ids=[people[name].pk], actor=ACTOR)
    assert client.get(url).json()["in_the_money"] is True
    html = client.get(reverse("clock_screen", args=[event.pk])).content.decode()
    assert re.search(r'id="in-the-money" class="badge money">', html)


# 10. Smaller ------------------------------------------------------------------------------


def test_monitors_may_ask_with_head(client):
    make_event(600)
    assert client.head("/clock/", follow=True).status_code == 200
    assert client.head("/healthz").status_code in (200, 503)
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon["Content-Type"].startswith("image/svg+xml")


def test_a_second_template_of_the_same_name_is_refused():
    structure_create(name="Daily 10k", levels=short_levels(600))
    with pytest.raises(StructureError, match="a template named “daily 10k” exists already"):
        structure_create(name="daily 10k", levels=short_levels(600))
    # An event's own copy is no template: the names may repeat.
    structure_create(name="Daily 10k", levels=short_levels(600), is_template=False)


def test_one_duplicate_name_is_said_in_the_singular():
    event = make_event(600)
    seating.player_register(event=event, name="Ann Lee", actor=ACTOR)
    with pytest.raises(seating.SeatingError, match="1 duplicate name \\("):
        seating.players_import(event_id=event.pk, names=["Ann Lee"], actor=Actor(label="t"))


def test_a_bust_out_at_the_table_reads_the_counts_again_keeping_what_was_typed(
    client, floor_person
):
    event = make_event(600)
    people = arrange(event, {1: FULL})
    client.force_login(floor_person)
    url = reverse("results:table_chips", args=[event.pk, 1])
    out = people["T1S2"]
    answer = client.post(
        reverse("results:bustout", args=[event.pk]),
        {"table": "1", "entry": out.pk, "answer": "table"},
        **HTMX,
    )
    assert "results-changed" in answer["HX-Trigger"]
    again = client.get(url, {"count-1": "12,000", f"count-{out.number}": "5"}, **HTMX)
    html = again.content.decode()
    assert 'value="12,000"' in html
    assert f'name="count-{out.number}"' not in html  # the player out has no box
