"""A player's own page and its JSON: the seat, the move to follow, "I'm there", the ETag."""

from __future__ import annotations

import pytest

from tdsystem.core.actors import Actor
from tdsystem.events.models import Event
from tdsystem.players import links
from tdsystem.players.errors import PlayersRefused
from tdsystem.players.models import Alternate
from tdsystem.players.selectors import me_state, me_states
from tdsystem.players.services import move_there
from tdsystem.results.services import bustout_record
from tdsystem.results.services.chips import chip_count_record
from tdsystem.seating.models import Entry, Move
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


def test_a_poll_reads_the_link_and_the_clock_only(
    room, client, settings, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    event, people = room
    settings.SCREEN_CACHE_SECONDS = 60  # the screens' cache on, as in the room
    link = links.link_of_entry(people["T1S8"])
    first = api(client, link.token)
    with django_assert_max_num_queries(2):  # the link, the clock row: the rest is cached
        again = api(client, link.token, if_none_match=first["ETag"])
    assert again.status_code == 304
    # A bust-out bumps the event's version on commit: the next poll reads the move.
    with django_capture_on_commit_callbacks(execute=True):
        bustout_record(event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR)
    moved = api(client, link.token, if_none_match=first["ETag"])
    assert moved.status_code == 200 and moved.json()["move"]["table"] == 2


def test_it_tells_the_table_breaking_next_and_hand_for_hand(room, client):
    _event, people = room
    far = api(client, links.link_of_entry(people["T2S1"]).token).json()
    near = api(client, links.link_of_entry(people["T1S1"]).token).json()
    assert far["breaking_next"] is True  # the highest number breaks first
    assert near["breaking_next"] is False
    assert far["hand_for_hand"] is False


def test_a_flights_survivor_sees_the_day2_seat(client):
    day2 = make_event(600, name="Main Event")
    flight = make_event(600, name="Main Event 1A")
    Event.objects.filter(pk=flight.pk).update(parent=day2, flight="1A")
    survivor = arrange(flight, {1: [2]})["T1S2"]
    carried = arrange(day2, {5: [3]})["T5S3"]
    Entry.objects.filter(pk=carried.pk).update(carried_from=survivor, player=survivor.player)
    Entry.objects.filter(pk=survivor.pk).update(status=Entry.Status.CARRIED, table=None, seat=None)
    link = links.link_of_entry(survivor)
    body = api(client, link.token).json()
    assert body["status"] == "carried" and body["table"] is None
    assert body["day2"] == {
        "event_id": day2.pk,
        "event_name": "Main Event",
        "number": carried.number,
        "table": 5,
        "seat": 3,
    }
    page = client.get(f"/me/{link.token}/")
    assert b'id="me-day2-table">5<' in page.content


def test_an_alternates_link_shows_the_list_page(room, client):
    event, _people = room
    alternate = Alternate.objects.create(event=event, name="Ana Ruiz", rank=1)
    link = links.link_of_alternate(alternate)
    page = client.get(f"/me/{link.token}/")
    assert page.status_code == 200 and "alternates list" in page.content.decode()


def test_a_player_out_is_offered_a_reentry_while_it_is_open(room, client):
    event, people = room
    Event.objects.filter(pk=event.pk).update(
        reentry_allowed=True, reentry_max=2, reentry_until_level=4
    )
    out = people["T1S3"]
    bustout_record(event_id=event.pk, entry_ids=[out.pk], actor=ACTOR)
    body = api(client, links.link_of_entry(out).token).json()
    assert body["reentry"] is not None and float(body["reentry"]["price"]) > 0
    page = client.get(f"/me/{links.link_of_entry(out).token}/")
    assert b'id="me-reentry"' in page.content


def test_im_there_works_without_a_script_and_refuses_bad_input(room, client):
    event, people = room
    bustout_record(event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR)
    move = Move.objects.get(entry=people["T1S8"])
    mine = links.link_of_entry(people["T1S8"])
    other = links.link_of_entry(people["T1S2"])
    assert client.post(f"/me/{other.token}/there", {"move": move.pk}).status_code == 400
    assert client.post(f"/me/{mine.token}/there", {"move": "x"}).status_code == 400
    assert client.get(f"/me/{mine.token}/there").status_code == 405
    back = client.post(f"/me/{mine.token}/there", {"move": move.pk})
    assert back.status_code == 302 and back["Location"] == f"/me/{mine.token}/"
    assert Move.objects.get(pk=move.pk).player_there_at is not None


def test_the_details_part_comes_alone(room, client):
    _event, people = room
    link = links.link_of_entry(people["T1S8"])
    part = client.get(f"/me/{link.token}/?part=details").content.decode()
    assert part.lstrip().startswith('<div id="me-details"') and "<html" not in part
    assert 'id="me-seat">8<' in part


def test_the_events_read_gives_each_entry_its_own_read(room):
    """`me_states` reads every page of the event at once; each entry's part is the one
    its own read gives (moved, out with a prize, counted, breaking next)."""
    event, people = room
    bustout_record(event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR)
    chip_count_record(
        event_id=event.pk, entry_number=people["T1S2"].number, chips=20_000, actor=ACTOR
    )
    states = me_states(event.pk)
    assert set(states) == set(Entry.objects.filter(event=event).values_list("pk", flat=True))
    assert states == {pk: me_state(pk) for pk in states}
    assert states[people["T1S8"].pk].move is not None
    assert states[people["T2S4"].pk].place == 17
    assert states[people["T1S2"].pk].chips == 20_000
    assert states[people["T2S1"].pk].breaking_next
