"""The crash test: `kill -9` of every process of the embedded run (`make run`: runsystem,
gunicorn's master and worker, the Celery worker, beat, the guard) in the middle of a burst
of bust-outs, then the run started again on the same var folder, as `make run` starts it.

- No orphan survives: every process gone, the port free, nothing holding the run's lock.
- Every acknowledged bust-out (answered 201 before the kill) is in the database exactly
  once, with the place and bust-out id its answer gave; no other player is out; the places
  have no gap and no tie.
- Each report sent again with its own Idempotency-Key gets, if it was acknowledged, exactly
  its first answer (`Idempotent-Replayed: true`); if it had no answer, either that replay
  (it committed, and the answer was lost with the connection) or a first execution (it did
  not): never a second bust-out, never a 409 "already out". One report's answer is lost
  for sure: its device gave up waiting (closed its connection) before the kill.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sqlite3
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

from tdsystem.core.processes import RunLock

from .runs import Run, commands, gone_within, kill_all, migrated, port_free, run_environment
from .servers import _wait, http_exchange, manage

pytestmark = pytest.mark.worker

CLIENTS = 3  # floor people, each on a thread of its own
EACH = 6  # bust-outs each: 18 of the demo's 27 players, and one more whose answer is lost
KILL_AFTER = 6  # answers received before the kill


@dataclass
class Report:
    """One bust-out report and what the floor person's device saw of it."""

    entry: int
    key: str
    sent: bool = False
    status: int | None = None
    headers: dict | None = None
    body: bytes = b""

    @property
    def request(self) -> bytes:
        return json.dumps({"entries": [self.entry]}).encode()

    @property
    def answered(self) -> bool:
        return self.status is not None


class Floor:
    """The burst: each floor person sends their reports one after another, each with a key
    of its own, until the server stops answering."""

    def __init__(self, run: Run, event_id: int, token: str, entries: list[int]):
        self.port, self.path = run.port, f"/api/events/{event_id}/bustouts"
        self.token = token
        self.reports = [Report(entry, str(uuid.uuid4())) for entry in entries]
        self.answers = threading.Semaphore(0)
        self.threads = [
            threading.Thread(target=self.person, args=(self.reports[i::CLIENTS],))
            for i in range(CLIENTS)
        ]

    def send(self, report: Report) -> tuple[int, dict, bytes]:
        return http_exchange(
            "POST",
            f"http://127.0.0.1:{self.port}{self.path}",
            token=self.token,
            body=report.request,
            headers={"Idempotency-Key": report.key},
            timeout=20,
        )

    def send_and_give_up(self, report: Report) -> None:
        """The report sent, and the connection closed before any answer could come."""
        head = (
            f"POST {self.path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"Authorization: Bearer {self.token}\r\nContent-Type: application/json\r\n"
            f"Idempotency-Key: {report.key}\r\nContent-Length: {len(report.request)}\r\n"
            "Connection: close\r\n\r\n"
        )
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as connection:
            connection.sendall(head.encode() + report.request)
        report.sent = True

    def person(self, reports: list[Report]) -> None:
        for report in reports:
            report.sent = True
            try:
                report.status, report.headers, report.body = self.send(report)
            except (OSError, http.client.HTTPException):
                return  # the run is gone: no answer, and nothing more to send
            self.answers.release()

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def wait_for_answers(self, count: int) -> None:
        for _ in range(count):
            assert self.answers.acquire(timeout=30), "the burst stalled"

    def join(self) -> None:
        for thread in self.threads:
            thread.join(30)
            assert not thread.is_alive()


def kill_9_everything(run: Run) -> tuple[set[int], list[str]]:
    """`kill -9` of every process of the run: each process group (gunicorn's workers are in
    its master's), then each process found, whatever its group; their pids and commands."""
    pids = run.processes()
    listed = commands(pids)
    groups = set()
    for pid in pids:
        try:
            groups.add(os.getpgid(pid))
        except ProcessLookupError:
            continue
    for group in groups - {os.getpgid(0)}:  # never the test's own
        try:
            os.killpg(group, signal.SIGKILL)
        except ProcessLookupError:
            continue
    kill_all(pids)
    assert run.proc is not None
    run.proc.wait(10)  # the test's own child: reaped
    return pids, listed


def database(var: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{var / 'tdsystem.sqlite3'}?mode=ro", uri=True, timeout=20)


def answer_kept(var: Path, key: str) -> bool:
    """Whether the write sent with `key` has committed (its answer kept with the key)."""
    db = database(var)
    try:
        row = db.execute("SELECT status FROM core_idempotencykey WHERE key = ?", (key,))
        return (row.fetchone() or (None,))[0] is not None
    finally:
        db.close()


def finishes(var: Path, event_id: int) -> dict[int, list[tuple[int, int]]]:
    """entry number: [(place, bust-out id)] for every standing finish of the event."""
    db = database(var)
    try:
        rows = db.execute(
            "SELECT e.number, f.place, f.bustout_id FROM results_finish f "
            "JOIN seating_entry e ON e.id = f.entry_id "
            "WHERE f.event_id = ? AND f.undone_at IS NULL",
            (event_id,),
        ).fetchall()
    finally:
        db.close()
    found: dict[int, list[tuple[int, int]]] = {}
    for number, place, bustout in rows:
        found.setdefault(number, []).append((place, bustout))
    return found


def assert_each_out_once(found: dict[int, list[tuple[int, int]]], field: int) -> None:
    """One finish per player out, the places from the last one up without a gap or tie."""
    assert all(len(rows) == 1 for rows in found.values()), found
    places = sorted(rows[0][0] for rows in found.values())
    assert places == list(range(field - len(found) + 1, field + 1)), places


def test_every_acknowledged_bust_out_outlives_a_kill_9_of_the_whole_run(tmp_path):
    var = tmp_path / "var"
    env = run_environment(var)
    migrated(env, demo=True)
    token = manage(env, "create_api_token", "director").split()[-1]
    run = Run(env, tmp_path / "first.log").start()
    pids: set[int] = set()
    try:
        event_id = run.get("/api/current-event")["id"]
        seated = sorted(row["entry"] for row in run.get(f"/api/events/{event_id}/seats"))
        field = len(seated)
        floor = Floor(run, event_id, token, seated[: CLIENTS * EACH])
        # One more, sent by none of the floor people: its answer is never read.
        given_up = Report(seated[CLIENTS * EACH], str(uuid.uuid4()))
        floor.send_and_give_up(given_up)
        _wait(lambda: answer_kept(var, given_up.key), 20, "the report given up on")
        floor.reports.append(given_up)
        floor.start()
        floor.wait_for_answers(KILL_AFTER)
        pids, listed = kill_9_everything(run)
        floor.join()

        # No orphan: every process gone, the port free, nobody holding the run's lock.
        gone_within(pids, 5)
        # (The kernel may take a moment to let the port go after its listener died.)
        _wait(lambda: port_free(run.port), 5, "the port free")
        assert RunLock(var / "run.lock").holders() == []
        assert sum("gunicorn" in line for line in listed) == 2, listed
        assert sum("celery" in line for line in listed) == 2, listed
    finally:
        kill_all(pids)
        run.kill()

    sent = [report for report in floor.reports if report.sent]
    acknowledged = [report for report in sent if report.answered]
    lost = [report for report in sent if not report.answered]
    assert all(report.status == 201 for report in acknowledged), [
        (report.status, report.body[:200]) for report in acknowledged
    ]
    assert len(acknowledged) >= KILL_AFTER and len(sent) < len(floor.reports)

    # `make run` again on the same folder.
    migrated(env, demo=True)
    again = Run(env, tmp_path / "second.log", port=run.port).start()
    try:
        assert "what was left of an earlier run" not in again.log.read_text()
        before = finishes(var, event_id)
        assert_each_out_once(before, field)
        for report in acknowledged:
            answer = json.loads(report.body)
            place = answer["finishes"][0]["place"]
            assert before[report.entry] == [(place, answer["bustout"])], report.entry
        assert set(before) <= {report.entry for report in sent}, (before, sent)

        # Every report sent again with its own key.
        replays, firsts = [], []
        for report in sent:
            status, headers, body = floor.send(report)
            replayed = headers.get("idempotent-replayed") == "true"
            if report.answered:
                assert (status, body, replayed) == (report.status, report.body, True)
            elif replayed:  # committed before the kill; its answer never arrived
                assert report.entry in before and status == 201, (status, body)
                replays.append(report)
            else:  # never committed: made now, once
                assert report.entry not in before and status == 201, (status, body)
                firsts.append(report)
        assert given_up in replays
        after = finishes(var, event_id)
        assert set(after) == {report.entry for report in sent}
        assert_each_out_once(after, field)
        print(
            f"{len(pids)} processes killed; {len(acknowledged)} bust-outs acknowledged and "
            f"{len(lost) - 1} sent without an answer at the kill, besides the one given up "
            f"on; after the restart {len(replays) - 1} of those replayed (committed, answer "
            f"lost) and {len(firsts)} made for the first time"
        )
    finally:
        again.kill()
