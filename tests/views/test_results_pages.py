"""The bust-out console, the payout plan page, the public results page and its CSV."""

from __future__ import annotations

import csv
import io
import json
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from tdsystem.events.models import Event
from tdsystem.results import services
from tdsystem.results.models import BustOut, Finish, PayoutPlan
from tdsystem.seating.models import Entry
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

D = Decimal
FULL = list(range(1, 10))
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def room(event):
    """Table 2 one short: a bust-out there moves a player over from table 1."""
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    return event, people


def url(name: str, event: Event, *args) -> str:
    return reverse(f"results:{name}", args=[event.pk, *args])


def test_it_shows_the_console_with_the_tables_and_the_overview(client, floor_person, room):
    event, _ = room
    client.force_login(floor_person)
    page = client.get(url("console", event)).content.decode()
    assert "Table 1 · 9 players" in page and "Table 2 · 8 players" in page
    assert "17" in page and "Record a bust-out" in page
    assert "Start hand-for-hand" not in page  # a director's decision


def test_it_lists_a_tables_players_for_the_form(client, floor_person, room):
    event, _ = room
    client.force_login(floor_person)
    page = client.get(url("console", event), {"part": "players", "table": 2}, **HTMX)
    html = page.content.decode()
    assert html.count('name="entry"') == 8 and "T2S4" in html and "<html" not in html


def test_a_floor_person_records_a_bust_out_and_sees_the_place_and_the_move(
    client, floor_person, room
):
    event, people = room
    client.force_login(floor_person)
    answer = client.post(url("bustout", event), {"table": 2, "entry": people["T2S4"].pk}, **HTMX)
    html = answer.content.decode()
    assert answer.status_code == 200 and "results-changed" in answer.headers["HX-Trigger"]
    assert "#" in html and "T2S4 is out: 17th place" in html
    assert "1 move slip" in html and "T1S8" in html and "table 2 seat 4" in html
    bustout = BustOut.objects.get()
    assert bustout.actor_label == "fred"
    # The bust-out's own fragment (not the form again) and the events for the rest.
    assert 'id="record"' not in html and 'id="bustout-done"' in html
    assert f"/bustouts/{bustout.pk}/undo" in html and 'name="answer" value="done"' in html
    assert json.loads(answer.headers["HX-Trigger"]) == {
        "results-changed": {"target": "body"},
        "seating-changed": {"target": "body"},
    }
    # The table's players read themselves again: T2S4 has left, T1S8 has come.
    players = client.get(url("console", event) + "?part=players&table=2", **HTMX)
    assert "T2S4" not in players.content.decode() and "T1S8" in players.content.decode()
    # The table list's counts with them, out of band, the table chosen kept.
    oob = players.content.decode().split(
        '<select id="bo-table" name="table" required hx-swap-oob="true"'
    )[1]
    left = {
        n: Entry.objects.filter(event=event, table__number=n, status="active").count()
        for n in (1, 2)
    }
    assert f"Table 1 · {left[1]} players" in oob
    assert f'<option value="2" selected>Table 2 · {left[2]} players' in oob


def test_the_form_answers_beside_itself_and_its_players_read_themselves_again(
    client, floor_person, room
):
    event, _ = room
    client.force_login(floor_person)
    html = client.get(url("console", event) + "?table=2").content.decode()
    form = html[html.index('<form class="rs-form') :]
    assert 'hx-target="#bustout-answer"' in form and 'data-release="li"' in form
    assert html.count('id="bustout-answer"') == 1
    players = form[form.index('<div id="bo-players"') :]
    assert 'hx-trigger="results-changed from:body"' in players[:400]
    assert "part=players&amp;table=2" in players[:400]
    # A ticked box holds the reload back (static/js/page-actions.js).
    assert re.search('name="entry" value="[0-9]+" data-hold', players)


def test_the_last_bust_out_answers_the_winner_without_undo_and_the_form_says_it_is_over(
    client, floor_person, event
):
    people = arrange(event, {1: [1, 2]}, positions={1: (1, 2, 1)})
    client.force_login(floor_person)
    answer = client.post(url("bustout", event), {"table": 1, "entry": people["T1S2"].pk}, **HTMX)
    html = answer.content.decode()
    assert "T1S2 is out: 2nd place" in html and "T1S1 wins" in html
    assert "/undo" not in html  # the event is over, as in the list of bust-outs
    players = client.get(url("console", event) + "?part=players&table=1", **HTMX)
    assert "The event has finished" in players.content.decode()
    assert 'name="entry"' not in players.content.decode()


def test_it_asks_for_stacks_when_two_are_ticked_and_keeps_what_was_typed(
    client, floor_person, room
):
    event, people = room
    client.force_login(floor_person)
    a, b = people["T1S1"].pk, people["T1S2"].pk
    answer = client.post(
        url("bustout", event), {"table": 1, "entry": [a, b], f"stack-{a}": "4,000"}, **HTMX
    )
    html = answer.content.decode()
    assert "start of the hand" in html and 'value="4,000"' in html
    assert "HX-Trigger" not in answer.headers
    # The form again, in its own place.
    assert 'id="record"' in html
    assert (answer["HX-Retarget"], answer["HX-Reswap"]) == ("#record", "outerHTML show:top")
    assert not Finish.objects.exists()
    answer = client.post(
        url("bustout", event),
        {"table": 1, "entry": [a, b], f"stack-{a}": "4,000", f"stack-{b}": "4000"},
        **HTMX,
    )
    assert "T1S1 and #2 T1S2 are out: they tie for places 16-17" in answer.content.decode()


def test_already_out_is_said_plainly(client, floor_person, room):
    event, people = room
    client.force_login(floor_person)
    client.post(url("bustout", event), {"table": 2, "entry": people["T2S4"].pk}, **HTMX)
    answer = client.post(url("bustout", event), {"table": 2, "entry": people["T2S4"].pk}, **HTMX)
    assert "is already out (place 17)" in answer.content.decode()


def test_without_htmx_it_redirects_with_a_message(client, floor_person, room):
    event, people = room
    client.force_login(floor_person)
    answer = client.post(url("bustout", event), {"table": 2, "entry": people["T2S4"].pk})
    assert answer.status_code == 302
    page = client.get(answer.url).content.decode()
    assert "17th place" in page


def test_undo_from_the_console_and_a_refused_one(client, floor_person, room):
    event, people = room
    client.force_login(floor_person)
    first = services.bustout_record(
        event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR, rng_seed=1
    )
    services.bustout_record(event_id=event.pk, entry_ids=[people["T2S5"].pk], actor=ACTOR)
    answer = client.post(url("undo", event, first.bustout.pk), **HTMX)
    assert "later bust-out at table 2" in answer.content.decode()
    second = BustOut.objects.exclude(pk=first.bustout.pk).get()
    answer = client.post(url("undo", event, second.pk), **HTMX)
    assert "Undone: #" in answer.content.decode() and "T2S5" in answer.content.decode()
    assert Entry.objects.get(pk=people["T2S5"].pk).status == "active"


def test_the_director_starts_hand_for_hand_and_the_floor_reports_tables(
    client, director, floor_person, room
):
    event, _ = room
    client.force_login(floor_person)
    assert client.post(url("hand_for_hand", event), {"action": "start"}).status_code == 403
    client.force_login(director)
    answer = client.post(url("hand_for_hand", event), {"action": "start", "minutes": 3}, **HTMX)
    assert "deal hand 1 at every table" in answer.content.decode()
    client.force_login(floor_person)
    answer = client.post(url("hand_finished", event, 1), {"hand": "0"}, **HTMX)
    html = answer.content.decode()
    assert "waiting for table 2" in html and "still playing at table 2" in html
    answer = client.post(url("hand_finished", event, 2), {"hand": "0"}, **HTMX)
    assert "deal hand 2" in answer.content.decode()


def test_chip_counts_make_a_chip_leader(client, floor_person, room):
    event, people = room
    client.force_login(floor_person)
    number = people["T1S3"].number
    answer = client.post(url("chips", event), {"entry": number, "chips": "48 500"}, **HTMX)
    assert "48,500 chips" in answer.content.decode()
    overview = client.get(url("console", event), {"part": "overview"}, **HTMX).content.decode()
    assert "48,500" in overview and "T1S3" in overview
    answer = client.post(url("chips", event), {"entry": number, "chips": "lots"}, **HTMX)
    assert "not a number of chips" in answer.content.decode()


def test_the_house_rule_form_appears_only_where_the_event_plays_it(client, floor_person):
    plain = make_event(600, name="Plain")
    house = make_event(600, name="House", bb_must_cover_sb=True)
    client.force_login(floor_person)
    assert "Short big blind" not in client.get(url("console", plain)).content.decode()
    people = arrange(house, {1: [1, 2, 3]}, positions={1: (1, 2, 3)})
    assert "Short big blind" in client.get(url("console", house)).content.decode()
    answer = client.post(
        url("short_big_blind", house), {"entry": people["T1S3"].number, "chips": "20"}, **HTMX
    )
    assert "3rd place" in answer.content.decode()
    assert Entry.objects.get(pk=people["T1S3"].pk).chips_removed == 20


def test_the_director_sets_the_payouts_with_validation_messages(client, director, room):
    event, _ = room
    client.force_login(director)
    page = client.get(url("payouts", event)).content.decode()
    assert "Standard: top 15% paid" in page and "As it pays now" in page
    answer = client.post(
        url("payouts", event), {"table": "custom", "percentages": "60, 30", "unit": "1"}
    )
    assert "add up to 90, not 100" in answer.content.decode()
    answer = client.post(url("payouts", event), {"table": "top-3", "unit": "0.001"})
    assert answer.status_code == 200 and PayoutPlan.objects.filter(table="top-3").count() == 0
    answer = client.post(
        url("payouts", event), {"table": "custom", "percentages": "50 30 20", "unit": "5"}
    )
    assert answer.status_code == 302
    plan = PayoutPlan.objects.get(event=event)
    assert (plan.table, plan.percentages, plan.unit) == ("custom", ["50", "30", "20"], D(5))
    page = client.get(url("payouts", event)).content.decode()
    assert "850" in page  # 17 x 100 = 1700, 50% rounded to 5


def test_the_public_results_page_shows_ties_as_a_range_and_exports_csv(client, room):
    event, people = room
    services.payout_plan_update(event_id=event.pk, table="top-3", unit=D(1), actor=ACTOR)
    services.bustout_record(
        event_id=event.pk,
        entry_ids=[people["T1S1"].pk, people["T1S2"].pk],
        stacks={people["T1S1"].pk: 500, people["T1S2"].pk: 500},
        actor=ACTOR,
    )
    page = client.get(url("page", event)).content.decode()
    assert "16-17" in page and "T1S1" in page and "T1S2" in page
    assert "Payouts still to win" in page and "850" in page
    answer = client.get(url("csv", event))
    assert answer["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert rows[0] == ["place", "place_to", "place_label", "player", "entry", "prize"]
    assert rows[1][:4] == ["16", "17", "16-17", "T1S1"]
    assert len(rows) == 3


def test_the_results_page_costs_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    event = make_event(600)
    people = arrange(event, {1: FULL, 2: FULL})
    for name in ("T1S1", "T2S1", "T1S2"):
        services.bustout_record(event_id=event.pk, entry_ids=[people[name].pk], actor=ACTOR)
    with django_assert_max_num_queries(12):
        client.get(url("page", event))


@pytest.mark.parametrize(
    ("name", "args", "method"),
    [
        ("console", (), "get"),
        ("bustout", (), "post"),
        ("undo", (1,), "post"),
        ("chips", (), "post"),
        ("short_big_blind", (), "post"),
        ("hand_finished", (1,), "post"),
    ],
)
def test_a_table_device_and_strangers_may_not_record(
    client, table_device, event, name, args, method
):
    target = url(name, event, *args)
    assert getattr(client, method)(target).status_code == 302  # to the login page
    client.force_login(table_device)
    assert getattr(client, method)(target).status_code == 403


def test_only_a_director_edits_the_payouts(client, floor_person, event):
    client.force_login(floor_person)
    assert client.get(url("payouts", event)).status_code == 403


def test_a_link_from_the_table_page_opens_the_form_at_that_table(client, floor_person, room):
    event, _ = room
    client.force_login(floor_person)
    page = client.get(url("console", event), {"table": 2}).content.decode()
    assert 'value="2" selected' in page and page.count('type="checkbox" name="entry"') == 8


def test_the_console_costs_a_fixed_number_of_queries(
    client, floor_person, django_assert_max_num_queries
):
    event = make_event(600)
    people = arrange(event, {1: FULL, 2: FULL, 3: FULL})
    for name in ("T1S1", "T2S1", "T3S1", "T1S2", "T2S2", "T3S2"):
        services.bustout_record(event_id=event.pk, entry_ids=[people[name].pk], actor=ACTOR)
    client.force_login(floor_person)
    with django_assert_max_num_queries(30):
        page = client.get(url("console", event), {"table": 3})
    assert page.status_code == 200


def test_it_keeps_every_chip_count_with_who_and_when_and_shows_the_entrys_history(
    client, floor_person, room
):
    from tdsystem.results.models import ChipCount, ChipCountHistory

    event, people = room
    client.force_login(floor_person)
    number = people["T1S3"].number
    for chips in ("20 000", "31 000"):
        answer = client.post(url("chips", event), {"entry": number, "chips": chips}, **HTMX)
    html = answer.content.decode()
    # The current count is the latest; the history keeps both, newest first.
    assert ChipCount.objects.get(entry=people["T1S3"]).chips == 31_000
    history = ChipCountHistory.objects.filter(entry=people["T1S3"]).order_by("-id")
    assert [h.chips for h in history] == [31_000, 20_000]
    assert {h.actor_label for h in history} == {floor_person.username}
    assert f"Counts of #{number}" in html
    assert html.index("31,000") < html.index("20,000")
    # A refused count (the player is out) adds nothing to the history.
    client.post(url("chips", event), {"entry": number, "chips": "0"}, **HTMX)
    assert ChipCountHistory.objects.filter(entry=people["T1S3"]).count() == 2
    # The console shows the count list (everyone's latest count), not a second table of them.
    page = client.get(url("console", event)).content.decode()
    assert "31,000" in page and "Latest counts" not in page
