"""The pages and the API of what a real night met: late entries once the money is reached
(the screens, the desk's confirm, a prize marked paid), a day that runs the clock out, bags
that do not add up, and the TV's last screen."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.urls import reverse

from tdsystem.events.models import Event
from tdsystem.events.services import clock_action
from tdsystem.results import services as results
from tdsystem.results.models import Finish
from tdsystem.results.services.cashier import prize_paid_set
from tdsystem.seating.models import Bag, DayEnd, Entry
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event
from tests.personas import make_token

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
D = Decimal


def money_event(close: str | None = None, players: int = 6):
    """`players` at 100 on one table, top 5 paid, late registration to level 4, re-entries;
    the clock running; the 6th and the 5th (48) out: four left, all in the money."""
    event = make_event(
        1200,
        1200,
        1200,
        1200,
        late_registration_end_level=4,
        reentry_allowed=True,
        reentry_max=1,
        rule_overrides={"entries_close": close} if close else {},
    )
    people = arrange(event, {1: list(range(1, players + 1))})
    results.payout_plan_update(event_id=event.pk, table="top-5", unit=D(1), actor=ACTOR)
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    for name in ("T1S1", "T1S2"):
        results.bustout_record(event_id=event.pk, entry_ids=[people[name].pk], actor=ACTOR)
    return event, people


def clock(client, event) -> dict:
    return client.get(f"/api/events/{event.pk}/clock").json()


def post_json(client, url: str, token: str, body: dict | None = None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    return client.post(url, json.dumps(body or {}), content_type="application/json", **headers)


def test_the_screens_show_late_registration_and_re_entries_only_while_open(client):
    event, people = money_event(players=8)  # six left, five paid: not yet in the money
    codes = [n["code"] for n in clock(client, event)["entry_notices"]]
    assert "late-registration" in codes and "reentries" in codes
    results.bustout_record(event_id=event.pk, entry_ids=[people["T1S3"].pk], actor=ACTOR)
    body = clock(client, event)  # five left, five paid: the bubble has burst
    assert body["entries_closed"]["code"] == "closed-in-the-money"
    assert body["late_registration_open"] is False
    assert [n["code"] for n in body["entry_notices"]] == []
    page = client.get(f"/events/{event.pk}/clock/").content.decode()
    assert "Late registration closes in" not in page and "Re-entries: 1 per player" not in page


def test_the_console_asks_before_a_late_entry_moves_prizes_and_names_them(client, director):
    event, _people = money_event("level")
    client.force_login(director)
    url = reverse("seating:register", args=[event.pk])
    asked = client.post(url, {"name": "Late Larry"}, **HTMX).content.decode()
    assert "This changes what 1 player already in the money wins:" in asked
    assert "T1S2" in asked and "Register anyway" in asked
    assert not Entry.objects.filter(player__name="Late Larry").exists()
    client.post(url, {"name": "Late Larry", "confirm_changes": "1"}, **HTMX)
    assert Entry.objects.filter(player__name="Late Larry").exists()


def test_the_console_refuses_a_late_entry_once_in_the_money(client, director):
    event, _ = money_event()
    client.force_login(director)
    answer = client.post(
        reverse("seating:register", args=[event.pk]), {"name": "Late Larry"}, **HTMX
    )
    assert "No new entries: the field is in the money (5 places paid)." in answer.content.decode()
    assert not Entry.objects.filter(player__name="Late Larry").exists()


def test_the_cashier_marks_a_prize_paid_and_a_director_takes_it_back(client, director):
    event, people = money_event()
    client.force_login(director)
    console = client.get(reverse("results:console", args=[event.pk])).content.decode()
    assert 'id="cashier"' in console and "Mark paid" in console
    url = reverse("results:prize_paid", args=[event.pk, people["T1S2"].number])
    answer = client.post(url, {"paid": "1"}, **HTMX).content.decode()
    assert "#2 T1S2: 48 paid" in answer and "Not paid" in answer
    assert Finish.objects.get(entry=people["T1S2"]).paid_by == director.username
    client.post(url, {"paid": "0"}, **HTMX)
    assert Finish.objects.get(entry=people["T1S2"]).paid_at is None


def test_the_api_answers_a_late_entry_in_the_money_with_its_code_and_changes(client, director):
    event, _people = money_event("level")
    token = make_token(director)
    url = f"/api/events/{event.pk}/entries"
    asked = post_json(client, url, token, {"name": "Late Larry"})
    body = asked.json()
    assert asked.status_code == 409 and body["code"] == "confirm-changes"
    assert body["changes"] == [
        {
            "entry": 2,
            "player": "T1S2",
            "place_before": "5",
            "place_after": "6",
            "prize_before": "48.00",
            "prize_after": "0.00",
            "paid": False,
        }
    ]
    paid = post_json(client, f"/api/events/{event.pk}/results/2/paid", token, {"paid": True})
    assert paid.status_code == 200 and paid.json()["paid"] is True
    refused = post_json(client, url, token, {"name": "Late Larry", "confirm_changes": True})
    assert refused.status_code == 409 and refused.json()["code"] == "prize-paid"
    rows = client.get(f"/api/events/{event.pk}/results").json()["results"]
    assert [r["paid"] for r in rows if r["entry"] == 2] == [True]


def test_a_one_table_day_ends_with_bag_and_close_on_the_panel_and_the_api(client, director):
    event = make_event(1200, 1200)
    arrange(event, {1: [1, 2, 3, 4]})
    client.force_login(director)
    panel = client.get(reverse("seating:day_end", args=[event.pk]), **HTMX).content.decode()
    assert "1 table in play: the day runs the clock out" in panel
    assert "Bag and close the day" in panel
    answer = client.post(reverse("seating:day_end_start", args=[event.pk]), **HTMX)
    assert "The day is over: bag and tag" in answer.content.decode()
    assert DayEnd.objects.get(event=event).hands == 0
    table = client.get(reverse("results:table", args=[event.pk, 1])).content.decode()
    assert "Save the bags" in table
    token = make_token(director)
    bags = [{"seat": s, "chips": 10_000, "number": f"A{s}"} for s in (1, 2, 3, 4)]
    bags[0]["chips"] = 30_000  # 20,000 more than the chips in play
    done = post_json(client, f"/api/events/{event.pk}/tables/1/bags", token, {"bags": bags})
    assert done.status_code == 200
    close = f"/api/events/{event.pk}/day-end/close"
    refused = post_json(client, close, token)
    assert refused.status_code == 409
    assert refused.json()["difference"] == 20_000 and refused.json()["in_play"] == 40_000
    closed = post_json(client, close, token, {"confirm_difference": 20_000})
    assert closed.status_code == 200 and closed.json()["closed_at"]


def test_the_panel_asks_to_confirm_the_difference_before_closing(client, director):
    event = make_event(1200, 1200)
    arrange(event, {1: [1, 2]})
    client.force_login(director)
    client.post(reverse("seating:day_end_start", args=[event.pk]), **HTMX)
    data = {"chips-1": "15,000", "bag-1": "A1", "chips-2": "10,000", "bag-2": "A2"}
    client.post(reverse("seating:table_bags", args=[event.pk, 1]), data, **HTMX)
    assert Bag.objects.filter(event=event).count() == 2
    url = reverse("seating:day_end_close", args=[event.pk])
    asked = client.post(url, **HTMX).content.decode()
    assert "The bags hold 5,000 chips more than the chips in play (25,000 against 20,000)" in (
        asked
    )
    assert 'name="confirm_difference" value="5000"' in asked
    assert DayEnd.objects.get(event=event).closed_at is None
    client.post(url, {"confirm_difference": "5000"}, **HTMX)
    assert DayEnd.objects.get(event=event).closed_at is not None


def test_the_tvs_last_screen_shows_the_winner_and_the_final_table(client):
    event = make_event(1200, "B300", 1200, name="Friday")
    people = arrange(event, {1: [1, 2, 3, 4]})
    results.payout_plan_update(event_id=event.pk, table="top-3", unit=D(1), actor=ACTOR)
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    for name in ("T1S1", "T1S2", "T1S3"):
        results.bustout_record(event_id=event.pk, entry_ids=[people[name].pk], actor=ACTOR)
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    body = clock(client, event)
    final = body["final"]
    assert final["winner"] == {
        "place": 1,
        "label": "1st",
        "player": "T1S4",
        "entry": 4,
        "prize": "200.00",
    }
    assert [(p["label"], p["player"], p["prize"]) for p in final["places"]][1:] == [
        ("2nd", "T1S3", "120.00"),
        ("3rd", "T1S2", "80.00"),
        ("4th", "T1S1", "0.00"),
    ]
    page = client.get(f"/events/{event.pk}/clock/").content.decode()
    assert 'id="final"' in page and 'id="final" hidden' not in page
    assert ">T1S4</bdi>" in page and "2nd" in page


def test_a_running_event_has_no_last_screen(client):
    event, _ = money_event()
    assert clock(client, event)["final"] is None
    assert 'id="final" hidden' in client.get(f"/events/{event.pk}/clock/").content.decode()


def test_a_paid_prize_is_shown_paid_on_the_console(client, director):
    event, _people = money_event()
    prize_paid_set(event_id=event.pk, entry_number=2, paid=True, actor=ACTOR)
    client.force_login(director)
    part = reverse("results:console", args=[event.pk]) + "?part=cashier"
    html = client.get(part, **HTMX).content.decode()
    assert "paid " in html and 'class="paid-out"' in html


def test_a_rebuy_from_the_table_page_that_moves_prizes_asks_on_a_page(client, director):
    """The table page's Rebuy in the money: the question (what it changes, a button that
    buys anyway, a way back to the table), not an error; confirmed, the rebuy is sold."""
    from tdsystem.seating.models import Purchase

    event, people = money_event()
    Event.objects.filter(pk=event.pk).update(rebuy_until_level=4, rebuy_price=D(100))
    client.force_login(director)
    url = reverse("seating:entry_action", args=[event.pk, people["T1S3"].pk, "buy"])
    asked = client.post(url, {"kind": "rebuy", "stack": "500", "table": "1"})
    assert asked.status_code == 200
    page = asked.content.decode()
    assert "Buy anyway" in page and 'name="table" value="1"' in page
    assert 'name="confirm_changes" value="1"' in page
    assert f'href="{reverse("results:table", args=[event.pk, 1])}"' in page
    assert not Purchase.objects.filter(entry=people["T1S3"]).exists()
    sold = client.post(url, {"kind": "rebuy", "stack": "500", "table": "1", "confirm_changes": "1"})
    assert sold.status_code == 302 and sold.url == reverse("results:table", args=[event.pk, 1])
    assert Purchase.objects.filter(entry=people["T1S3"], kind="rebuy").count() == 1
