"""A player's own page and its JSON: the seat, the move to follow, "I'm there", the ETag."""

from __future__ import annotations

import pytest

from tdsystem.core.actors import Actor
from tdsystem.players import links
from tdsystem.players.errors import PlayersRefused
from tdsystem.players.services import move_there
from tdsystem.results.services import bustout_record
from tdsystem.results.services.chips import chip_count_record
from tdsystem.seating.models import Move
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(floor_person):
    """T1S8 moves to table 2 seat 4 when T2S4 busts (tables of 9 and 8)."""
    event = make_event(600, name="Friday Turbo")
    people = arrange(
        event,
        {1: list(range(1, 10)), 2: list(range(1, 9))},
        positions={1: (5, 6, 7), 2: (1, 2, 3)},
    )
    return event, people


def api(client, token, **headers):
    return client.get(f"/api/me/{token}", headers=headers)


def test_it_answers_the_seat_and_the_clock(room, client):
    event, people = room
    link = links.link_of_entry(people["T1S8"])
    answer = api(client, link.token)
    assert answer.status_code == 200
    assert answer["Cache-Control"].startswith("max-age=0, no-cache")
    body = answer.json()
    assert body["event"] == {"id": event.pk, "name": "Friday Turbo"}
    assert (body["status"], body["table"], body["seat"]) == ("active", 1, 8)
    assert body["move"] is None and body["place"] is None and body["prize"] is None
    assert body["clock"]["players_left"] == 17
    assert body["clock"]["big_blind"] and "level_ends_at" in body["clock"]
    assert body["chips"] is None and body["breaking_next"] is False


def test_it_answers_304_while_nothing_changed(room, client):
    _event, people = room
    link = links.link_of_entry(people["T1S8"])
    first = api(client, link.token)
    again = api(client, link.token, if_none_match=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["X-Server-Time"]
    chip_count_record(
        event_id=people["T1S8"].event_id,
        entry_number=people["T1S8"].number,
        chips=31_500,
        actor=ACTOR,
    )
    changed = api(client, link.token, if_none_match=first["ETag"])
    assert changed.status_code == 200
    assert changed.json()["chips"]["count"] == 31_500


def test_a_bust_out_shows_the_move_until_im_there(room, client, floor_person):
    event, people = room
    mover = people["T1S8"]
    link = links.link_of_entry(mover)
    bustout_record(event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR)
    move = api(client, link.token).json()["move"]
    assert (move["table"], move["seat"]) == (2, 4)
    assert move["reason"] == "balance" and move["at"]
    page = client.get(f"/me/{link.token}/")
    assert b'id="me-move-table">2<' in page.content and b'me-move" hidden' not in page.content

    done = client.post(
        f"/me/{link.token}/there", {"move": move["id"]}, headers={"accept": "application/json"}
    )
    assert done.status_code == 204
    assert Move.objects.get(pk=move["id"]).player_there_at is not None
    assert api(client, link.token).json()["move"] is None
    # The floor sees it on the slip.
    client.force_login(floor_person)
    slips = client.get(f"/console/events/{event.pk}/moves/")
    assert b"player there" in slips.content


def test_it_refuses_another_entrys_move(room):
    event, people = room
    bustout_record(event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR)
    move = Move.objects.get(entry=people["T1S8"])
    other = links.link_of_entry(people["T1S2"])
    with pytest.raises(PlayersRefused):
        move_there(link=other, move_id=move.pk)
    assert Move.objects.get(pk=move.pk).player_there_at is None
    mine = links.link_of_entry(people["T1S8"])
    first = move_there(link=mine, move_id=move.pk).player_there_at
    assert move_there(link=mine, move_id=move.pk).player_there_at == first  # a second tap


def test_a_revoked_or_unknown_link_answers_404(room, client):
    _event, people = room
    old = links.link_of_entry(people["T1S8"])
    links.link_renew(entry=people["T1S8"], actor=Actor(label="floor"))
    assert api(client, old.token).status_code == 404
    assert api(client, "x" * 22).status_code == 404
    assert client.get(f"/me/{old.token}/").status_code == 404
    assert client.post(f"/me/{old.token}/there", {"move": 1}).status_code == 404


def test_a_player_out_sees_place_and_prize(room, client):
    event, people = room
    out = people["T2S4"]
    link = links.link_of_entry(out)
    bustout_record(event_id=event.pk, entry_ids=[out.pk], actor=ACTOR)
    body = api(client, link.token).json()
    assert body["status"] == "busted" and body["place"] == 17
    assert body["table"] is None and body["move"] is None
    page = client.get(f"/me/{link.token}/")
    assert b"Out in place 17" in page.content
