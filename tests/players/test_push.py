"""The players' pages pushed (tdsystem/players/push.py): a page's stream is sent its part
and the clock's, then only what changes, within the check's interval of the change."""

from __future__ import annotations

import http.client
import json
import select
import socket
import time

import pytest

from tdsystem.players.links import link_of_entry, link_renew
from tdsystem.results.services import bustout_record
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event
from tests.push_server import push_server

pytestmark = pytest.mark.django_db(transaction=True)


class Stream:
    """One page's stream, read as a browser's EventSource reads it (over HTTP/1.0, so the
    body comes as it is, not in chunks)."""

    def __init__(self, port: int, token: str, lang: str = "en", last: str | None = None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        resume = f"Last-Event-ID: {last}\r\n" if last else ""
        self.sock.sendall(
            f"GET /api/me/{token}/stream?lang={lang} HTTP/1.0\r\nHost: 127.0.0.1\r\n"
            f"Accept: text/event-stream\r\n{resume}\r\n".encode()
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.sock.recv(65536)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        self.status = int(head.split()[1])

    def next(self, seconds: float = 5.0) -> dict | None:
        """The next message: {"event", "id", "data"}, or None when none came in time."""
        deadline = time.monotonic() + seconds
        while b"\n\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.sock], [], [], left)[0]:
                return None
            got = self.sock.recv(65536)
            if not got:
                return None
            self.buffer += got
        block, self.buffer = self.buffer.split(b"\n\n", 1)
        message: dict = {}
        for line in block.decode().splitlines():
            name, _, value = line.partition(": ")
            message[name] = json.loads(value) if name == "data" else value
        return message if "event" in message else self.next(deadline - time.monotonic())

    def next_of(self, kind: str, seconds: float = 5.0) -> dict | None:
        deadline = time.monotonic() + seconds
        while (message := self.next(deadline - time.monotonic())) is not None:
            if message["event"] == kind:
                return message
        return None

    def close(self) -> None:
        self.sock.close()


def _moved_table(event):
    # T1S8 is moved to table 2 seat 4 when T2S4 busts (tables of 9 and 8).
    return arrange(
        event,
        {1: list(range(1, 10)), 2: list(range(1, 9))},
        positions={1: (5, 6, 7), 2: (1, 2, 3)},
    )


def test_a_move_reaches_the_stream_and_only_its_page(settings):
    event = make_event(600, name="Friday Turbo")
    people = _moved_table(event)
    mover, other = link_of_entry(people["T1S8"]), link_of_entry(people["T1S1"])
    with push_server(settings, check=0.05, clock=0.2) as port:
        mine, theirs = Stream(port, mover.token, "ja"), Stream(port, other.token)
        first = mine.next_of("me")
        assert first is not None
        assert (first["data"]["table"], first["data"]["seat"], first["data"]["move"]) == (
            1,
            8,
            None,
        )
        clock = mine.next_of("clock")
        assert clock is not None and clock["data"]["clock"]["players_left"] == 17
        assert theirs.next_of("me") is not None

        bustout_record(event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR)
        busted = time.monotonic()
        moved = mine.next_of("me")
        assert moved is not None and time.monotonic() - busted < 2.0
        move = moved["data"]["move"]
        assert (move["table"], move["seat"], move["from_table"], move["from_seat"]) == (2, 4, 1, 8)
        assert move["reason_label"] != "balance"  # in the page's language
        assert int(moved["id"]) > int(first["id"])
        # The field's figures reach every page, once the clock's interval allows.
        assert mine.next_of("clock")["data"]["clock"]["players_left"] == 16
        # The other player's part did not change: that page is sent no part of its own.
        assert theirs.next_of("me", seconds=1.0) is None
        mine.close()
        theirs.close()


def test_a_page_back_with_the_last_id_is_sent_only_what_changed(settings):
    event = make_event(600, name="Friday Turbo")
    people = _moved_table(event)
    link = link_of_entry(people["T1S8"])
    with push_server(settings, check=0.05, keepalive=0.5) as port:
        stream = Stream(port, link.token)
        first = stream.next_of("me")
        stream.close()
        again = Stream(port, link.token, last=first["id"])
        # Nothing changed since its last message: its part is not sent again (the clock's
        # part is, then the keep-alives).
        assert again.next()["event"] == "clock"
        alive = again.next()
        assert alive is not None and alive["event"] == "alive"
        assert "server_time" in alive["data"]
        bustout_record(event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR)
        moved = again.next_of("me")
        assert moved is not None and moved["data"]["move"]["table"] == 2
        again.close()
        # Back with an old id: the part at once.
        old = Stream(port, link.token, last=first["id"])
        assert old.next_of("me")["data"]["move"]["table"] == 2
        old.close()


def test_an_unknown_or_revoked_link_is_refused(settings):
    event = make_event(600, name="Friday Turbo")
    people = arrange(event, {1: [1, 2, 3]})
    link = link_of_entry(people["T1S1"])
    with push_server(settings) as port:
        for token in ("no-such-token", "x" * 200):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", f"/api/me/{token}/stream")
            assert conn.getresponse().status == 404
        link_renew(entry=people["T1S1"], actor=ACTOR)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", f"/api/me/{link.token}/stream")
        refused = conn.getresponse()
        assert refused.status == 404
        assert json.loads(refused.read())["detail"]
        conn.request("POST", f"/api/me/{link.token}/stream")
        assert conn.getresponse().status == 404


def test_a_page_past_the_most_open_is_refused_in_its_own_language(settings):
    event = make_event(600, name="Friday Turbo")
    people = arrange(event, {1: [1, 2, 3]})
    first, second = link_of_entry(people["T1S1"]), link_of_entry(people["T1S2"])
    settings.PUSH_MAX_PAGES = 1
    with push_server(settings, check=0.05) as port:
        page = Stream(port, first.token)
        assert page.next_of("me") is not None  # open, and counted
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", f"/api/me/{second.token}/stream?lang=ja")
        refused = conn.getresponse()
        assert (refused.status, refused.getheader("Retry-After")) == (503, "60")
        # the page polls the web server instead; whoever reads the answer reads Japanese
        assert json.loads(refused.read())["detail"] == "開いているページが多すぎます"
        page.close()


def test_the_page_names_its_stream_only_where_a_push_process_runs(client, settings):
    event = make_event(600, name="Friday Turbo")
    people = arrange(event, {1: [1, 2, 3]})
    token = link_of_entry(people["T1S1"]).token
    settings.PUSH_PORT, settings.PUSH_SAME_ORIGIN = None, False
    page = client.get(f"/me/{token}/")
    assert b"data-stream" not in page.content
    assert ":8001" not in page.headers["Content-Security-Policy"]
    settings.PUSH_PORT = 8001
    page = client.get(f"/me/{token}/")
    assert f'data-stream="/api/me/{token}/stream"'.encode() in page.content
    assert b'data-stream-port="8001"' in page.content
    assert "connect-src 'self' http://*:8001" in page.headers["Content-Security-Policy"]
    settings.PUSH_PORT, settings.PUSH_SAME_ORIGIN = None, True
    page = client.get(f"/me/{token}/")
    assert b'data-stream-port=""' in page.content
    assert ":8001" not in page.headers["Content-Security-Policy"]


def test_a_new_level_goes_at_once_and_the_figures_wait_for_their_interval(settings):
    from tdsystem.events.services import clock_action

    event = make_event(600, name="Friday Turbo")
    people = _moved_table(event)
    link = link_of_entry(people["T1S1"])
    with push_server(settings, check=0.05, clock=30) as port:
        stream = Stream(port, link.token)
        first = stream.next_of("clock")
        assert first["data"]["clock"]["players_left"] == 17
        bustout_record(event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR)
        assert stream.next_of("clock", seconds=1.5) is None  # the figures wait
        clock_action(event_id=event.pk, action="start", actor=ACTOR)
        started = time.monotonic()
        running = stream.next_of("clock", seconds=3)
        assert running is not None and time.monotonic() - started < 2.0
        assert running["data"]["clock"]["status"] == "running"
        assert running["data"]["clock"]["level_ends_at"]
        assert running["data"]["clock"]["players_left"] == 16  # the figures ride along
        stream.close()


def test_a_revoked_link_s_open_page_is_told_nothing_more(settings):
    event = make_event(600, name="Friday Turbo")
    people = _moved_table(event)
    lost = people["T1S8"]
    with push_server(settings, check=0.05, refresh=0.2) as port:
        old = link_of_entry(lost).token
        stream = Stream(port, old)
        assert stream.next_of("me") is not None
        renewed = link_renew(entry=lost, actor=ACTOR)  # the phone was lost
        started = time.monotonic()
        while (message := stream.next(seconds=3)) is not None:
            assert message["event"] != "me"
        assert time.monotonic() - started < 3  # the stream ended, not a silence
        bustout_record(event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR)
        # The new card's page streams; the old one is refused.
        fresh = Stream(port, renewed.token)
        part = fresh.next_of("me")
        if part["data"]["move"] is None:  # the part read before the bust-out, then the new one
            part = fresh.next_of("me")
        assert part["data"]["move"]["table"] == 2
        assert Stream(port, old).status == 404
        fresh.close()


def test_a_player_out_is_sent_the_place_and_prize(settings):
    event = make_event(600, name="Friday Turbo")
    people = arrange(event, {1: [1, 2, 3]})
    out = people["T1S2"]
    with push_server(settings, check=0.05) as port:
        stream = Stream(port, link_of_entry(out).token)
        assert stream.next_of("me")["data"]["status"] == "active"
        bustout_record(event_id=event.pk, entry_ids=[out.pk], actor=ACTOR)
        busted = stream.next_of("me")
        assert busted is not None
        assert (busted["data"]["status"], busted["data"]["place"]) == ("busted", 3)
        assert busted["data"]["table"] is None and busted["data"]["move"] is None
        stream.close()
