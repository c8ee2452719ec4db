"""A halted table as the floor meets it: the table page's HALT banner with the rule and
why, the confirm step before "Hand finished", the API's `confirm_halted`, and the halt
lifting once the balancing move is done."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tdsystem.engine.rulesets import WSOP_2026
from tdsystem.seating import balancing, services
from tdsystem.seating.models import EventTable, Move
from tdsystem.simulation.seatings import ACTOR, arrange

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))
HTMX = {"HTTP_HX_REQUEST": "true"}
REASON = "3 players short of table 1; the big blind would fall on empty seat 7"


@pytest.fixture
def halted(event):
    """Table 2 has 6 players against 9, its blinds last on seats 5 and 6: seat 7 is empty."""
    arrange(event, {1: FULL, 2: FULL[:6]}, positions={1: (1, 2, 3), 2: (4, 5, 6)})
    return event


def table_url(event, number: int = 2) -> str:
    return reverse("results:table", args=[event.pk, number])


def hand_url(event, number: int = 2) -> str:
    return reverse("results:table_hand", args=[event.pk, number])


def hands(event, number: int = 2) -> int:
    return EventTable.objects.get(event=event, number=number).hand_number


def test_the_table_page_shows_a_halt_with_the_rule_and_why(client, halted, floor_person):
    client.force_login(floor_person)
    html = client.get(table_url(halted)).content.decode()
    assert 'class="halt-banner" role="alert"' in html
    assert "Play stops here (TDA 11-D)" in html and f"<p>{REASON}.</p>" in html
    # The table giving players plays on.
    assert 'class="halt-banner"' not in client.get(table_url(halted, 1)).content.decode()


def test_hand_finished_at_a_halted_table_asks_first_then_deals_on(client, halted, floor_person):
    client.force_login(floor_person)
    asked = client.post(hand_url(halted), {"hand": 0}, **HTMX).content.decode()
    assert 'class="confirm-halt"' in asked and "Table 2 is halted (TDA 11-D)." in asked
    assert 'name="confirm_halted" value="on"' in asked
    assert "every 10s" not in asked  # the poll would take the question away
    assert hands(halted) == 0
    done = client.post(hand_url(halted), {"hand": 0, "confirm_halted": "on"}, **HTMX)
    body = done.content.decode()
    assert "Hand 2: button on seat 5" in body and "confirm-halt" not in body
    assert hands(halted) == 1


def test_without_htmx_the_confirm_step_is_the_page_itself(client, halted, floor_person):
    client.force_login(floor_person)
    response = client.post(hand_url(halted), {"hand": 0})
    assert response.status_code == 200 and "<html" in response.content.decode()
    assert 'class="confirm-halt"' in response.content.decode() and hands(halted) == 0


def test_the_halt_lifts_on_the_next_poll_once_the_move_is_done(client, halted, floor_person):
    result = balancing.tables_rebalance(event_id=halted.pk, actor=ACTOR, rng_seed=1)
    (move,) = result.moves
    client.force_login(floor_person)
    walking = client.get(table_url(halted), **HTMX).content.decode()
    assert 'class="halt-banner"' in walking and "arriving from table 1" in walking
    services.move_acknowledge(event_id=halted.pk, move_id=move.pk, actor=ACTOR)
    fragment = client.get(table_url(halted), **HTMX).content.decode()
    assert 'class="halt-banner"' not in fragment and 'id="table"' in fragment
    assert client.post(hand_url(halted), {"hand": 0}, **HTMX).status_code == 200
    assert hands(halted) == 1


def test_the_console_lists_the_halted_table_with_the_same_reason(client, halted, director):
    client.force_login(director)
    url = reverse("seating:console", args=[halted.pk]) + "?part=status"
    html = client.get(url, **HTMX).content.decode()
    assert f"Halt play at table <b>2</b> (TDA 11-D): {REASON}." in html


def test_wsop_halts_at_once_and_cites_r67(client, event, floor_person):
    event.rule_set = WSOP_2026
    event.save(update_fields=["rule_set"])
    arrange(event, {1: FULL, 2: FULL[:6]}, positions={1: (1, 2, 3), 2: (1, 2, 3)})
    client.force_login(floor_person)
    html = client.get(table_url(event)).content.decode()
    assert "Play stops here (WSOP R67)" in html and "<p>3 players short of table 1.</p>" in html


def api_hand(client, event, token: str, body: dict):
    return client.post(
        f"/api/events/{event.pk}/tables/2/hand",
        json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


def test_the_api_refuses_a_hand_at_a_halted_table_unless_confirmed(client, halted, floor_token):
    refused = api_hand(client, halted, floor_token, {"hand": 0})
    assert refused.status_code == 409
    assert refused.json()["error"] == (
        f"table 2 is halted (TDA 11-D): {REASON}. Play resumes once it is balanced; "
        "confirm the hand to deal on"
    )
    bad = api_hand(client, halted, floor_token, {"hand": 0, "confirm_halted": "yes"})
    assert bad.status_code == 400 and bad.json()["field"] == "confirm_halted"
    done = api_hand(client, halted, floor_token, {"hand": 0, "confirm_halted": True})
    assert done.status_code == 200 and done.json()["big_blind"] == 1
    assert not Move.objects.exists() and hands(halted) == 1


def test_the_results_console_asks_the_same_question_during_hand_for_hand(
    client, halted, floor_person
):
    from tdsystem.results.services import handforhand_start

    handforhand_start(event_id=halted.pk, actor=ACTOR)
    client.force_login(floor_person)
    url = reverse("results:hand_finished", args=[halted.pk, 2])
    asked = client.post(url, {"hand": 0}, **HTMX).content.decode()
    assert "Table 2 deals on: confirm" in asked and 'name="confirm_halted" value="on"' in asked
    assert "every 5s" not in asked  # the poll would take the question away
    assert hands(halted) == 0
    done = client.post(url, {"hand": 0, "confirm_halted": "on"}, **HTMX).content.decode()
    assert "deals on: confirm" not in done
    assert hands(halted) == 1
