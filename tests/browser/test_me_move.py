"""A player's own page on a phone: a bust-out elsewhere moves them, and within 2 seconds
the page covers itself with the move until they tap "I'm there", which the floor's slip
shows. In each of the four languages (the event's screen language), the page sent its
changes by the push process (players/push.py), and in English polling the web server as
it does where no push process runs, or where its stream fails."""

from __future__ import annotations

import contextlib
import time

import pytest
from django.test import Client

from tdsystem.events.models import Event
from tdsystem.players.links import link_of_entry
from tdsystem.results.services import bustout_record
from tdsystem.seating.models import Move
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.browser.conftest import PHONE, TABLET, screenshot
from tests.faults.servers import free_port
from tests.fixtures import make_event
from tests.push_server import push_server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# How the page hears of the move: pushed, polling (no push process), or a push process
# named but gone (the stream fails and the page polls).
HOW = [("en", "push"), ("ar", "push"), ("ja", "push"), ("vi", "push"), ("en", "poll")]


@pytest.mark.parametrize(("lang", "how"), HOW)
def test_a_move_covers_the_players_page_until_im_there(
    live_server, new_page, floor_person, settings, lang, how
):
    with push_server(settings) if how == "push" else contextlib.nullcontext():
        _a_move_covers_the_page(live_server, new_page, floor_person, lang, how)


def test_a_page_whose_stream_fails_polls_instead(live_server, new_page, settings):
    event = make_event(600, name="Friday Turbo")
    people = _moved_table(event)
    settings.PUSH_PORT = free_port()  # nothing listens there
    page = new_page(PHONE)
    page.goto(f"{live_server.url}/me/{link_of_entry(people['T1S8']).token}/")
    assert page.locator("#me").get_attribute("data-stream-port") == str(settings.PUSH_PORT)
    # Three failed tries, the browser's few seconds apart, then a poll a second.
    page.wait_for_function(
        "document.getElementById('me-time').textContent.includes(':')", timeout=20_000
    )
    bustout_record(event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR)
    busted = time.monotonic()
    page.wait_for_function("!document.getElementById('me-move').hidden", timeout=5000, polling=20)
    assert time.monotonic() - busted < 2.0


def streamed_url(page) -> str:
    root = page.locator("#me")
    port, path = root.get_attribute("data-stream-port"), root.get_attribute("data-stream")
    host = page.evaluate("location.hostname")
    return f"http://{host}:{port}{path}?lang={page.locator('html').get_attribute('lang')}"


def _moved_table(event):
    # T1S8 is moved to table 2 seat 4 when T2S4 busts (tables of 9 and 8).
    return arrange(
        event,
        {1: list(range(1, 10)), 2: list(range(1, 9))},
        positions={1: (5, 6, 7), 2: (1, 2, 3)},
    )


def _a_move_covers_the_page(live_server, new_page, floor_person, lang, how):
    event = make_event(600, name="Friday Turbo")
    Event.objects.filter(pk=event.pk).update(screen_language=lang)
    people = _moved_table(event)
    link = link_of_entry(people["T1S8"])

    page = new_page(PHONE)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{live_server.url}/me/{link.token}/")
    streamed = page.locator("#me").get_attribute("data-stream")
    assert bool(streamed) == (how == "push")
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator("html").get_attribute("dir") == ("rtl" if lang == "ar" else "ltr")
    assert page.locator("#me-table").inner_text() == "1"
    assert page.locator("#me-seat").inner_text() == "8"
    assert page.locator("#me-move").is_hidden()
    page.wait_for_function("document.getElementById('me-time').textContent.includes(':')")
    if how == "push":  # the figures came by the stream: the page asked nothing of the API
        assert [url for url in asked if "/api/me/" in url] == [streamed_url(page)]
    if lang in ("en", "ar") and how == "push":
        screenshot(page, f"players/me-phone-{lang}")

    bustout_record(event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR)
    busted = time.monotonic()
    page.wait_for_function("!document.getElementById('me-move').hidden", timeout=3000, polling=20)
    assert time.monotonic() - busted < 2.0
    assert page.locator("#me-move-table").inner_text() == "2"
    assert page.locator("#me-move-seat").inner_text() == "4"
    if lang == "en":
        assert page.locator("#me-move-title").inner_text() == "Move to table 2, seat 4"
    if lang in ("en", "ar") and how == "push":
        screenshot(page, f"players/me-move-phone-{lang}")

    page.locator("#me-there button").click()
    page.wait_for_function("document.getElementById('me-move').hidden", timeout=3000, polling=20)
    move = Move.objects.get(entry=people["T1S8"])
    assert move.player_there_at is not None
    page.wait_for_function("document.getElementById('me-table').textContent === '2'", timeout=3000)
    assert page.locator("#me-seat").inner_text() == "4"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    if lang in ("en", "ar") and how == "push":
        page.set_viewport_size(TABLET)
        screenshot(page, f"players/me-tablet-{lang}")

    floor = Client()
    floor.force_login(floor_person)
    slips = floor.get(f"/console/events/{event.pk}/moves/").content.decode()
    assert f'id="slip-{move.pk}"' in slips and "player-there" in slips


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_player_out_sees_place_and_prize(live_server, new_page, lang):
    event = make_event(600, name="Friday Turbo")
    Event.objects.filter(pk=event.pk).update(screen_language=lang)
    people = arrange(event, {1: [1, 2, 3]})
    out = people["T1S2"]
    bustout_record(event_id=event.pk, entry_ids=[out.pk], actor=ACTOR)
    page = new_page(PHONE)
    page.goto(f"{live_server.url}/me/{link_of_entry(out).token}/")
    assert page.locator("#me-out").is_visible()
    assert page.locator("#me-move").is_hidden()
    screenshot(page, f"players/me-out-phone-{lang}")
