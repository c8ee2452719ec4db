"""Satellites on the pages: the new-event form's "Satellite for", the seats panel of the
bust-out console, the results page and API, and the tickets of the registration panel."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tdsystem.events.models import Event
from tdsystem.results import services
from tdsystem.seating.models import Entry, Ticket
from tdsystem.seating.services.tickets import ticket_issue
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
D = Decimal


@pytest.fixture
def target(db):
    return make_event(600, 600, name="Main event", buy_in=D(200), fee=D(20))


def test_the_new_event_form_makes_a_satellite(client, director, target):
    from tdsystem.structures.services import templates_install

    template = templates_install()[0]
    client.force_login(director)
    page = client.get("/console/events/new/").content.decode()
    assert "Satellite for" in page and "Not a satellite" in page
    data = {
        "name": "Satellite",
        "template": template.pk,
        "game": "holdem",
        "betting": "no-limit",
        "buy_in": "50",
        "fee": "5",
        "seats_per_table": 9,
        "button_rule": "dead",
        "incomplete_raise": "full-bet",
        "pot_limit_preflop": "true-pot",
        "satellite_target": target.pk,
    }
    assert client.post("/console/events/new/", data).status_code == 302
    assert Event.objects.get(name="Satellite").satellite_target == target
    free = make_event(600, name="Free roll", buy_in=D(0))
    bad = client.post("/console/events/new/", data | {"name": "Bad", "satellite_target": free.pk})
    assert "costs nothing" in bad.content.decode()
    assert not Event.objects.filter(name="Bad").exists()


def test_the_consoles_award_the_seats_and_the_results_show_them(client, director, target):
    satellite = make_event(600, name="Satellite", buy_in=D(100), satellite_target=target)
    people = arrange(satellite, {1: [1, 2, 3, 4, 5]})  # 500: two seats of 220, 60 in cash
    for seat in (5, 4):
        services.bustout_record(
            event_id=satellite.pk, entry_ids=[people[f"T1S{seat}"].pk], actor=ACTOR, rng_seed=1
        )
    client.force_login(director)
    console = f"/console/events/{satellite.pk}/results/"
    panel = client.get(console).content.decode()
    assert "Seat in Main event" in panel and "3 players left for 2 seats" in panel
    services.bustout_record(
        event_id=satellite.pk, entry_ids=[people["T1S3"].pk], actor=ACTOR, rng_seed=1
    )
    panel = client.get(console + "satellite", **HTMX).content.decode()
    assert "Award the seats and end the satellite" in panel and "60 in cash" in panel
    awarded = client.post(console + "satellite/award", **HTMX)
    assert "2 tickets issued" in awarded.content.decode()
    assert "results-changed" in awarded.headers["HX-Trigger"]
    assert Ticket.objects.filter(source=satellite).count() == 2
    page = client.get(f"/events/{satellite.pk}/results/").content.decode()
    assert "2 seats won in" in page and "T1S1" in page and "Payouts still to win" not in page
    api = client.get(f"/api/events/{satellite.pk}/results").json()
    assert api["satellite"] | {"target": 0} == {
        "target": 0,
        "seat_value": "220.00",
        "seats": 2,
        "remainder": "60.00",
        "decided": True,
        "winners": [1, 2],
    }
    # The seat winners share the top places, each a seat; the cash place is third.
    rows = [(r["place_label"], r["player"], r.get("seat"), r["prize"]) for r in api["results"]]
    assert rows == [
        ("1-2", "T1S1", "Seat in Main event", "220.00"),
        ("1-2", "T1S2", "Seat in Main event", "220.00"),
        ("3", "T1S3", None, "60.00"),
        ("4", "T1S4", None, "0.00"),
        ("5", "T1S5", None, "0.00"),
    ]
    assert page.count('<span class="seat">Seat in Main event</span>') == 2
    assert page.index("T1S1") < page.index("T1S2") < page.index("T1S3")


def test_the_registration_panel_registers_a_ticket_holder(client, director, target):
    ticket = ticket_issue(event_id=target.pk, name="Ann Lee", note="Lyon qualifier", actor=ACTOR)
    client.force_login(director)
    seating = f"/console/events/{target.pk}/seating/"
    page = client.get(seating).content.decode()
    assert "Tickets to register" in page and "Lyon qualifier" in page
    done = client.post(seating + f"tickets/{ticket.pk}/register", **HTMX).content.decode()
    assert "#1 Ann Lee: registered, seated at the draw" in done
    assert "Tickets to register" not in done  # used: no longer listed
    again = client.post(seating + f"tickets/{ticket.pk}/register", **HTMX).content.decode()
    assert "used already" in again and Entry.objects.count() == 1
    given = client.post(seating + "tickets", {"name": "Bo", "note": "prize"}, **HTMX)
    assert "Ticket given to Bo" in given.content.decode()
    blank = client.post(seating + "tickets", {"name": ""}, **HTMX).content.decode()
    assert "the ticket needs a player" in blank and Ticket.objects.count() == 2


def test_a_ticket_given_by_hand_goes_to_a_player_found_or_a_new_one(client, director, target):
    from tdsystem.seating.models import Player

    ann = Player.objects.create(name="Ann Lee", member_id="M-17")
    client.force_login(director)
    seating = f"/console/events/{target.pk}/seating/"
    page = client.get(seating).content.decode()
    assert 'id="ticket-q"' in page and f"{seating}tickets/players" in page
    found = client.get(seating + "tickets/players", {"q": "lee"}, **HTMX).content.decode()
    assert f'name="player" value="{ann.pk}"' in found and "member M-17" in found
    none = client.get(seating + "tickets/players", {"q": "zed"}, **HTMX).content.decode()
    assert "No player matches" in none and 'name="player"' not in none
    picked = client.post(seating + "tickets", {"player": ann.pk, "note": "prize"}, **HTMX)
    assert "Ticket given to Ann Lee" in picked.content.decode()
    asked = client.post(seating + "tickets", {"name": "Ann Lee", "q": "Ann"}, **HTMX)
    html = asked.content.decode()
    assert "of that name exists already" in html and 'name="new_player"' in html
    assert 'value="Ann Lee"' in html and f'value="{ann.pk}"' in html  # kept, to pick from
    again = client.post(seating + "tickets", {"name": "Ann Lee", "new_player": "1"}, **HTMX)
    assert "Ticket given to Ann Lee" in again.content.decode()
    assert Player.objects.filter(name="Ann Lee").count() == 2
    assert list(Ticket.objects.values_list("player__name", "player__member_id")) == [
        ("Ann Lee", "M-17"),
        ("Ann Lee", ""),
    ]
