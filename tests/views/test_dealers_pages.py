"""The dealers' pages: the console's (who may do what), the board, a dealer's phone page
by their link, and the hours CSV."""

from __future__ import annotations

import pytest

from tdsystem.dealers import services
from tdsystem.dealers.models import Dealer, Rotation, Shift
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def room():
    event = make_event(1800, 1800)
    arrange(event, {1: [1, 2], 2: [1, 2]})
    return event


def test_the_console_adds_clocks_in_pushes_and_exports_hours(client, director, room):
    client.force_login(director)
    url = f"/console/events/{room.pk}/dealers/"
    assert client.get(url).status_code == 200
    for name in ("Ana", "=Bo", "Cy"):
        assert client.post(url + "add", {"name": name, "games": "NLH"}).status_code == 302
    assert client.post(url + "add", {"name": ""}).status_code == 400
    for dealer in Dealer.objects.all():
        assert client.post(url + f"{dealer.pk}/clock-in").status_code == 302
    page = client.get(url).content.decode()
    assert "table 1" in page and "table 2" in page and "Next push" in page
    # Push now tapped twice (one form, one key): one push.
    for _ in range(2):
        assert client.post(url + "push", {"idempotency_key": "push-1"}).status_code == 302
    assert Rotation.objects.get(pk=room.pk).pushes == 1
    again = client.post(url + f"{Dealer.objects.first().pk}/clock-in")
    assert again.status_code == 400 and "clocked in already" in again.content.decode()
    bad = client.post(url + "settings", {"down_minutes": 0, "break_every": 2, "break_minutes": 20})
    assert bad.status_code == 400
    ok = {"down_minutes": 20, "break_every": 2, "break_minutes": 15, "automatic": "on"}
    assert client.post(url + "settings", ok).status_code == 302
    assert Rotation.objects.get(pk=room.pk).down_minutes == 20
    csv = client.get(url + "hours.csv").content.decode()
    assert csv.startswith("dealer,clock_in,clock_out,hours,downs,breaks")
    assert "'=Bo" in csv  # a name never runs as a formula in the payroll's sheet
    totals = client.get(url + "hours.csv?by=dealer").content.decode().splitlines()
    assert totals[0] == "dealer,shifts,hours,downs,breaks" and len(totals) == 4
    dealer = Dealer.objects.get(name="Ana")
    assert client.post(url + f"{dealer.pk}/clock-out").status_code == 302


def test_the_floor_runs_the_dealers_but_not_the_rules(client, floor_person, room):
    client.force_login(floor_person)
    url = f"/console/events/{room.pk}/dealers/"
    assert client.post(url + "add", {"name": "Ana"}).status_code == 302
    assert client.post(url + "settings", {"down_minutes": 20}).status_code == 403
    client.logout()
    assert client.get(url).status_code == 302  # to the login


def test_the_board_and_the_phone_page(client, room, django_assert_max_num_queries):
    dealers = [services.dealer_add(name=n, actor=ACTOR) for n in ("Ana", "Bo", "Cy")]
    for dealer in dealers:
        services.dealer_clock_in(event_id=room.pk, dealer_id=dealer.pk, actor=ACTOR)
    with django_assert_max_num_queries(12):
        board = client.get(f"/events/{room.pk}/dealers/", headers={"HX-Request": "true"})
    assert board.status_code == 200 and "Next push" in board.content.decode()
    phone = client.get(f"/dealer/{dealers[0].token}/").content.decode()
    assert "Next:" in phone and "table 2" in phone
    assert client.get("/dealer/not-a-token/").status_code == 404
    assert client.post(f"/dealer/{dealers[0].token}/clock").status_code == 302
    assert not Shift.objects.filter(dealer=dealers[0], clock_out__isnull=True).exists()
    assert client.post(f"/dealer/{dealers[0].token}/clock", {"event": 999}).status_code == 400
    back = client.post(f"/dealer/{dealers[0].token}/clock", {"event": room.pk})
    assert back.status_code == 302
    assert Shift.objects.filter(dealer=dealers[0], clock_out__isnull=True).exists()
