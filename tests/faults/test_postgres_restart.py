"""PostgreSQL restarted (an immediate stop, as in a crash) while the floor records
bust-outs through the API. The server is a throwaway cluster of the test's own."""

from __future__ import annotations

import json
import random
import threading
import time

import psycopg
import pytest

from .servers import WebServer, http, manage, private_postgres

pytestmark = [pytest.mark.postgres]

PLAYERS = 60
BUSTS = 30
FLOORS = 3  # floor people reporting at once, so the crash lands mid-request
RESTART_AFTER = 3  # bust-outs each floor person has recorded first

SETUP = f"""
from decimal import Decimal
from tdsystem.core.actors import Actor
from tdsystem.events.services import clock_action, event_create
from tdsystem.seating import services as seating
from tdsystem.structures.services import structure_create
from tests.fixtures import short_levels
from tests.personas import make_token, make_user

actor = Actor(label="fault test")
template, _ = structure_create(
    name="Fault", levels=short_levels(3600, 3600), confirm_warnings=True
)
event = event_create(name="Fault", template=template, actor=actor, buy_in=Decimal(100))
seating.tables_setup(event=event, numbers=list(range(1, 8)), seats=9, actor=actor)
names = [f"Player {{i:02d}}" for i in range(1, {PLAYERS} + 1)]
seating.players_import(event_id=event.pk, names=names, actor=actor)
seating.seats_draw(event=event, actor=actor, seed=1)
clock_action(event_id=event.pk, action="start", actor=actor)
print(event.pk, make_token(make_user("dora", "director")))
"""


class Floor:
    """Records bust-outs one after another, retrying on connection errors and 5xx
    answers as a floor app would; an "already out" after a retry means the lost answer's
    request had committed."""

    def __init__(self, url: str, token: str, numbers: list[int]):
        self.url, self.token, self.numbers = url, token, numbers
        self.recorded: list[int] = []
        self.already_out_on_retry: list[int] = []
        self.retries = 0
        self.failures: list[str] = []
        self.progress = threading.Event()

    def run(self, deadline: float) -> None:
        for number in self.numbers:
            body = json.dumps({"entries": [number]}).encode()
            retried = False
            while True:
                if time.monotonic() > deadline:
                    self.failures.append(f"#{number}: gave up at the deadline")
                    return
                try:
                    status, answer = http("POST", self.url, token=self.token, body=body)
                except OSError:
                    status, answer = None, b""
                if status == 201:
                    self.recorded.append(number)
                    break
                if status == 409 and retried and b"out" in answer:
                    self.already_out_on_retry.append(number)
                    break
                if status is not None and status < 500:
                    self.failures.append(f"#{number}: {status} {answer[:200]!r}")
                    return
                retried = True
                self.retries += 1
                time.sleep(0.2)
            if len(self.recorded) + len(self.already_out_on_retry) == RESTART_AFTER:
                self.progress.set()


def test_no_bust_out_is_lost_or_doubled_when_postgresql_restarts(tmp_path):
    with private_postgres(tmp_path, "tdsystem_fault") as (cluster, env):
        event_id, token = manage(env, "shell", "-c", SETUP).split()[-2:]
        numbers = random.Random(1).sample(range(1, PLAYERS + 1), BUSTS)
        with WebServer(env, tmp_path / "web.log") as web:
            url = web.url(f"/api/events/{event_id}/bustouts")
            floors = [Floor(url, token, numbers[i::FLOORS]) for i in range(FLOORS)]
            deadline = time.monotonic() + 40
            threads = [threading.Thread(target=f.run, args=(deadline,)) for f in floors]
            for thread in threads:
                thread.start()
            try:
                assert all(f.progress.wait(20) for f in floors), [f.failures for f in floors]
                cluster.stop("immediate")  # a crash: clients lose connections mid-request
                time.sleep(1.5)
                cluster.start()
            finally:
                for thread in threads:
                    thread.join(45)
        recorded = [n for f in floors for n in f.recorded]
        on_retry = [n for f in floors for n in f.already_out_on_retry]
        retries = sum(f.retries for f in floors)
        print(
            f"recorded {len(recorded)}, already out on a retry {len(on_retry)}, retries {retries}"
        )
        assert not [f.failures for f in floors if f.failures]
        assert sorted(recorded + on_retry) == sorted(numbers)
        assert retries > 0  # the restart did reach the clients

        with psycopg.connect(env["DATABASE_URL"].replace("postgres://", "postgresql://")) as db:
            rows = db.execute(
                "SELECT e.number, e.status, count(f.id), min(f.place), max(f.place_to)"
                " FROM seating_entry e LEFT JOIN results_finish f"
                "   ON f.entry_id = e.id AND f.undone_at IS NULL"
                " WHERE e.event_id = %s GROUP BY e.number, e.status",
                [int(event_id)],
            ).fetchall()
    busted = {
        number: (count, place, place_to)
        for number, status, count, place, place_to in rows
        if status == "busted"
    }
    assert sorted(busted) == sorted(numbers)  # none lost, none extra
    assert all(count == 1 for count, _, _ in busted.values()), busted  # none doubled
    places = sorted(place for _, place, _ in busted.values())
    assert places == list(range(PLAYERS - BUSTS + 1, PLAYERS + 1))  # contiguous from last
    assert all(place == place_to for _, place, place_to in busted.values())
    still_in = [n for n, status, count, _, _ in rows if status != "busted"]
    assert len(still_in) == PLAYERS - BUSTS
