"""Seating pages: who may open them, HTMX fragments, messages, the public lookup and screens."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tdsystem.core.network import public_url
from tdsystem.events.services import clock_action
from tdsystem.results.models import Finish
from tdsystem.results.services import bustout_record
from tdsystem.seating.models import Entry, EventTable, Move, TableDevice
from tdsystem.seating.services import player_register
from tdsystem.simulation.seatings import ACTOR, arrange, field
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))


def console_url(event, rest: str = "") -> str:
    return f"/console/events/{event.pk}/seating/{rest}"


def htmx(client, url: str, data: dict | None = None):
    return client.post(url, data or {}, HTTP_HX_REQUEST="true")


# Who may open what ---------------------------------------------------------------------------


def test_it_sends_anonymous_visitors_to_the_login(client, event):
    for url in (console_url(event), f"/console/events/{event.pk}/tables/1/"):
        response = client.get(url)
        assert response.status_code == 302 and "/login/" in response["Location"]
    assert client.post(console_url(event, "draw")).status_code == 302


def test_it_keeps_a_table_device_out_of_the_console(client, event, table_device):
    client.force_login(table_device)
    assert client.get(console_url(event)).status_code == 403
    assert client.post(console_url(event, "register"), {"name": "Sam"}).status_code == 403
    assert client.get(f"/console/events/{event.pk}/moves/").status_code == 403
    assert not Entry.objects.exists()


def test_it_lets_a_table_device_open_only_its_own_table(client, event, table_device):
    arrange(event, {5: [1, 2, 3], 7: [1, 2, 3]}, positions={5: (1, 2, 3), 7: (1, 2, 3)})
    venue = EventTable.objects.get(event=event, number=7).venue_table
    TableDevice.objects.create(user=table_device, venue_table=venue)
    client.force_login(table_device)
    assert client.get(f"/console/events/{event.pk}/tables/7/").status_code == 200
    assert client.get(f"/console/events/{event.pk}/tables/5/").status_code == 403
    assert client.post(f"/console/events/{event.pk}/tables/5/hand").status_code == 403
    assert EventTable.objects.get(event=event, number=5).hand_number == 0
    client.post(f"/console/events/{event.pk}/tables/7/hand", {"hand": "0"})
    assert EventTable.objects.get(event=event, number=7).hand_number == 1


def test_it_lets_the_floor_use_the_console_and_every_table(client, event, floor_person):
    arrange(event, {3: [1, 2, 3]})
    client.force_login(floor_person)
    page = client.get(console_url(event)).content.decode()
    assert "Register a player" in page and "Table 3" in page and "Rebalance" in page
    assert client.get(f"/console/events/{event.pk}/tables/3/").status_code == 200
    assert client.get(f"/console/events/{event.pk}/tables/4/").status_code == 404


# The console --------------------------------------------------------------------------------


def test_it_registers_a_player_and_answers_with_the_form_fragment(client, event, floor_person):
    client.force_login(floor_person)
    response = htmx(client, console_url(event, "register"), {"name": "Sam Lee"})
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body and 'id="register"' in body
    assert "#1 Sam Lee: registered, seated at the draw" in body
    assert "seating-changed" in response["HX-Trigger"]
    assert Entry.objects.get().player.name == "Sam Lee"


def test_it_explains_a_bad_registration_and_changes_nothing(client, event, floor_person):
    client.force_login(floor_person)
    response = htmx(client, console_url(event, "register"), {"name": ""})
    assert "Name: This field is required." in response.content.decode()
    assert "HX-Trigger" not in response
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    response = htmx(client, console_url(event, "register"), {"name": "Late Larry"})
    assert "no late registration" in response.content.decode()
    assert not Entry.objects.exists()


def test_it_draws_the_seats_from_the_console(client, event, director):
    client.force_login(director)
    htmx(client, console_url(event, "tables"), {"numbers": "1-3", "seats": "9"})
    htmx(client, console_url(event, "register-many"), {"names": "Ann\nBen\nCid\nDee\n"})
    response = htmx(client, console_url(event, "draw"))
    assert "Seats drawn for 4 players" in response.content.decode()
    assert Entry.objects.filter(table__isnull=False).count() == 4
    again = htmx(client, console_url(event, "draw"))
    assert "drawn already" in again.content.decode()


def test_it_releases_an_empty_table_from_the_console(client, event, director):
    arrange(event, {1: [1, 2], 2: []})
    client.force_login(director)
    response = htmx(client, console_url(event, "release"), {"numbers": "2"})
    assert "Released table 2" in response.content.decode()
    refused = htmx(client, console_url(event, "release"), {"numbers": "1"})
    assert "players sit at that table" in refused.content.decode()
    assert 'name="seats"' in refused.content.decode()


def test_it_refuses_a_bad_table_range_with_a_message(client, event, director):
    client.force_login(director)
    response = htmx(client, console_url(event, "tables"), {"numbers": "1-x", "seats": "9"})
    assert "Table numbers: “1-x”: give table numbers from 1 to 99,999" in response.content.decode()
    assert not EventTable.objects.exists()


def bustout_url(event) -> str:
    return f"/console/events/{event.pk}/results/bustouts"


def test_it_busts_a_player_from_the_entry_panel_and_balances(client, event, floor_person):
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    out = people["T2S4"]
    client.force_login(floor_person)
    panel = client.get(console_url(event, f"entries/{out.pk}/"), HTTP_HX_REQUEST="true")
    html = panel.content.decode()
    # The panel's "Bust out" posts to the one bust-out route, the results app's.
    assert "Bust out" in html and f'hx-post="{bustout_url(event)}"' in html
    assert "/eliminate" not in html
    # The answer goes beside the panel, which reads itself again on results-changed.
    assert 'hx-target="#bustout-answer"' in html and 'id="bustout-answer"' not in html
    assert f'hx-get="{console_url(event, f"entries/{out.pk}/")}"' in html
    assert 'hx-trigger="results-changed from:body"' in html
    page = client.get(console_url(event)).content.decode()
    assert page.count('id="bustout-answer"') == 1
    response = htmx(client, bustout_url(event), {"answer": "entry", "entry": out.pk, "table": 2})
    body = response.content.decode()
    # Results' own fragment: what was recorded, the move slip, the undo; not the panel.
    assert 'id="entry-panel"' not in body and "<html" not in body
    assert f"#{out.number} T2S4 is out: 17th place" in body
    assert "1 move slip:" in body and 'id="slip-' in body and "table 1 seat 8" in body
    bustout = Finish.objects.get(entry=out).bustout
    assert f'hx-post="/console/events/{event.pk}/results/bustouts/{bustout.pk}/undo"' in body
    # Both consoles' parts are told, on the page's body.
    assert json.loads(response["HX-Trigger"]) == {
        "results-changed": {"target": "body"},
        "seating-changed": {"target": "body"},
    }
    again = client.get(console_url(event, f"entries/{out.pk}/"), HTTP_HX_REQUEST="true")
    assert "Out in place <b>17</b>" in again.content.decode()
    slips = client.get(console_url(event) + "?part=slips", HTTP_HX_REQUEST="true")
    assert "T1S8" in slips.content.decode() and "table 2 seat 4" in slips.content.decode()


def test_the_entry_panels_bust_out_writes_a_finish_the_bustout_console_can_undo(
    client, event, floor_person
):
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    out = people["T2S4"]
    client.force_login(floor_person)
    htmx(client, bustout_url(event), {"answer": "entry", "entry": out.pk, "table": 2})
    finish = Finish.objects.get(entry=out)
    assert (finish.place, finish.from_table.number, finish.from_seat) == (17, 2, 4)
    assert finish.bustout.moves.count() == 1  # the balancing move, linked for the undo
    recent = client.get(
        f"/console/events/{event.pk}/results/?part=recent", HTTP_HX_REQUEST="true"
    ).content.decode()
    undo = f"/console/events/{event.pk}/results/bustouts/{finish.bustout_id}/undo"
    assert f'hx-post="{undo}"' in recent
    undone = htmx(client, undo).content.decode()
    assert "Undone: #" in undone and "1 move slip withdrawn" in undone
    entry = Entry.objects.select_related("table").get(pk=out.pk)
    assert (entry.status, entry.table.number, entry.seat) == ("active", 2, 4)
    assert Entry.objects.get(pk=people["T1S8"].pk).table.number == 1


def test_the_bust_outs_answer_undoes_it_in_place(client, event, floor_person):
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    out = people["T2S4"]
    client.force_login(floor_person)
    htmx(client, bustout_url(event), {"answer": "entry", "entry": out.pk, "table": 2})
    bustout = Finish.objects.get(entry=out).bustout
    undo = f"/console/events/{event.pk}/results/bustouts/{bustout.pk}/undo"
    response = htmx(client, undo, {"answer": "done"})
    body = response.content.decode()
    assert 'id="recent"' not in body
    assert "Undone: #" in body and "1 move slip withdrawn" in body
    assert set(json.loads(response["HX-Trigger"])) == {"results-changed", "seating-changed"}
    entry = Entry.objects.select_related("table").get(pk=out.pk)
    assert (entry.status, entry.table.number, entry.seat) == ("active", 2, 4)
    # Once undone, it cannot be undone again: the reason, in the same place.
    again = htmx(client, undo, {"answer": "done"}).content.decode()
    assert 'class="flash error"' in again and 'id="recent"' not in again


def test_the_entry_panels_bust_out_without_htmx_comes_back_to_the_console(
    client, event, floor_person
):
    people = arrange(event, {1: [1, 2, 3, 4]}, positions={1: (1, 2, 3)})
    client.force_login(floor_person)
    data = {"answer": "entry", "entry": people["T1S2"].pk, "table": 1}
    response = client.post(bustout_url(event), data, follow=True)
    assert response.redirect_chain[-1][0] == console_url(event)
    assert "T1S2 is out: 4th place" in response.content.decode()


def test_the_entry_panel_keeps_reenter_and_buy_but_no_bust_out_of_its_own(
    client, event, floor_person
):
    people = arrange(event, {1: [1, 2, 3]})
    client.force_login(floor_person)
    response = htmx(client, console_url(event, f"entries/{people['T1S1'].pk}/eliminate"))
    assert response.status_code == 404
    assert Entry.objects.filter(status="active").count() == 3
    assert not Finish.objects.exists()


def test_the_entry_panel_says_why_a_bust_out_is_refused(client, event, floor_person):
    people = arrange(event, {1: [1, 2, 3]})
    client.force_login(floor_person)
    data = {"answer": "entry", "entry": people["T1S1"].pk, "table": 1}
    htmx(client, bustout_url(event), data)
    again = htmx(client, bustout_url(event), data)
    body = again.content.decode()
    assert again.status_code == 200
    assert 'class="flash error"' in body and "T1S1 is already out (place 3)" in body
    assert "HX-Trigger" not in again and "HX-Retarget" not in again
    assert Finish.objects.count() == 1


def test_it_marks_short_tables_and_tables_to_halt(client, event, director):
    # Table 2 dealt its last hand with the blinds on seats 4 and 5.
    people = arrange(event, {1: FULL[:8], 2: FULL[:6]}, positions={1: (1, 2, 3), 2: (3, 4, 5)})
    # The move from table 1 seat 9 into table 2 is on its slip but not done: the player is
    # still at table 1, and table 2 waits for them.
    Move.objects.create(
        event=event,
        entry=people["T2S6"],
        from_table=1,
        from_seat=9,
        to_table=2,
        to_seat=6,
        reason="balance",
    )
    client.force_login(director)
    tables = client.get(console_url(event) + "?part=tables", HTTP_HX_REQUEST="true")
    html = tables.content.decode()
    assert re.search(r'class="tcard halt"\s+id="table-2"', html)
    status = client.get(console_url(event) + "?part=status", HTTP_HX_REQUEST="true")
    assert (
        "Halt play at table <b>2</b> (TDA 11-D): 4 players short of table 1; the big blind "
        "would fall on empty seat 6." in status.content.decode()
    )
    assert "Short: table <b>2</b>" in status.content.decode()


def test_it_answers_the_console_in_a_fixed_number_of_queries(client, director):
    def queries(players: int, first: int) -> int:
        event = make_event(600, name=f"{players}")
        field(event, players=players, tables=players // 8 + 1, first=first)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(console_url(event)).status_code == 200
        return len(captured)

    client.force_login(director)
    assert queries(20, first=1) == queries(80, first=101)


# The table page --------------------------------------------------------------------------------


def test_it_shows_seats_in_order_with_the_dead_small_blind_and_who_waits(client, event, director):
    # Seat 3, between the blinds of the hand in play (2 and 4), is the only free seat.
    people = arrange(event, {1: [1, 2, 4, 5, 6, 7, 8, 9]}, positions={1: (1, 2, 4)})
    player_register(event=event, name="Late Larry", actor=ACTOR)
    bustout_record(event_id=event.pk, entry_ids=[people["T1S4"].pk], actor=ACTOR)
    client.force_login(director)
    page = f"/console/events/{event.pk}/tables/1/"
    html = client.get(page).content.decode()
    seats = html[html.index('<ol class="seats">') : html.index("</ol>")]
    assert re.findall(r'<span class="n">(\d+)</span>', seats) == [str(n) for n in range(1, 10)]
    assert "Late Larry" in html and "waits for the button (not dealt next hand)" in html
    client.post(f"{page}hand", {"hand": "0"})
    html = client.get(page).content.decode()
    # Dead button rule: the big blind moves on to 5, seat 4 owes a dead small blind.
    assert "Button <b>seat 2</b> · small blind <b>seat 4</b> · big blind <b>seat 5</b>" in html
    assert "dead small blind" in html
    assert "not dealt this hand: waits for the button" in html


def test_it_finishes_a_hand_and_refuses_the_same_hand_twice(client, event, director):
    arrange(event, {1: [1, 2, 3, 4]}, positions={1: (1, 2, 3)})
    client.force_login(director)
    url = f"/console/events/{event.pk}/tables/1/hand"
    first = htmx(client, url, {"hand": "0"}).content.decode()
    assert 'id="table"' in first and "<html" not in first and "Hand 2: button on seat 2" in first
    second = htmx(client, url, {"hand": "0"}).content.decode()
    assert "table 1: hand 1 was already finished" in second
    assert EventTable.objects.get(event=event, number=1).button == 2


def test_it_acknowledges_a_slip_and_answers_with_the_slip(client, event, floor_person):
    people = arrange(event, {1: [1, 2]})
    move = Move.objects.create(
        event=event,
        entry=people["T1S1"],
        from_table=4,
        from_seat=1,
        to_table=1,
        to_seat=1,
        reason="break",
    )
    client.force_login(floor_person)
    response = htmx(client, f"/console/events/{event.pk}/moves/{move.pk}/ack")
    assert 'class="slip done"' in response.content.decode()
    page = client.get(f"/console/events/{event.pk}/moves/").content.decode()
    assert "done" in page and "by <bdi>fred</bdi>" in page


# Public pages -----------------------------------------------------------------------------------


def test_it_shows_one_lookup_match_in_full_with_its_recent_moves(client, event):
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    bustout_record(event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR)
    number = people["T1S8"].number
    html = client.get(f"/events/{event.pk}/seats/?q={number}").content.decode()
    assert 'id="found-table">2<' in html and 'id="found-seat">4<' in html
    assert "You moved" in html and "table 1 seat 8" in html


def test_it_lists_several_lookup_matches_with_their_seats(client, event):
    arrange(event, {1: [1, 2, 3]})
    response = client.get(f"/events/{event.pk}/seats/?q=t1", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "<html" not in html and html.count('class="hit"') == 3
    assert "Table 1 · Seat 2" in html


def test_it_prints_a_poster_with_an_svg_qr_code_of_the_lookup(client, event):
    html = client.get(f"/events/{event.pk}/seats/poster/").content.decode()
    assert "<svg" in html and public_url(f"/events/{event.pk}/seats/") in html
    assert "testserver" not in html  # never the Host the poster was opened with
    assert "cdn" not in html.lower()


def test_it_gives_the_draw_screen_every_player_alphabetically(client, event):
    field(event, players=30, tables=4)
    html = client.get(f"/events/{event.pk}/seats/draw/?seconds=5").content.decode()
    data = json.loads(re.search(r'id="seat-data"[^>]*>(.*?)</script>', html, re.S).group(1))
    assert len(data) == 30 and [r["player"] for r in data] == sorted(r["player"] for r in data)
    assert 'data-seconds="5"' in html and "seating-draw.js" in html


def test_it_answers_the_public_pages_in_a_fixed_number_of_queries(client):
    def queries(players: int, first: int) -> tuple[int, int]:
        event = make_event(600, name=f"{players}")
        field(event, players=players, tables=players // 8 + 1, first=first)
        counts = []
        for url in (f"/events/{event.pk}/seats/draw/", f"/events/{event.pk}/seats/?q=Player"):
            with CaptureQueriesContext(connection) as captured:
                client.get(url)
            counts.append(len(captured))
        return tuple(counts)

    assert queries(20, first=1) == queries(80, first=101)


def test_the_draw_screen_takes_its_words_from_the_javascript_catalog(client, event):
    catalog = '<script src="/jsi18n/en.js"></script>'
    page = client.get(f"/events/{event.pk}/seats/draw/").content.decode()
    assert page.index(catalog) < page.index("js/seating-draw.js")
    # The clock screen's draw layout runs the same script with the same words.
    screen = client.get(f"/events/{event.pk}/clock/?layout=draw").content.decode()
    assert screen.index(catalog) < screen.index("js/seating-draw.js")
    script = (Path(settings.BASE_DIR) / "static" / "js" / "seating-draw.js").read_text()
    for english in ('"Player"', '"Table"', '"Seat"', '"No seats drawn yet."'):
        assert f"gettext({english})" in script
