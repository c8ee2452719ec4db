"""The web server's worker: a connection not kept alive is closed off the main thread, and
the client still reads its whole answer."""

from __future__ import annotations

import gc
import logging
import os
import socket
import subprocess
import sys
import threading
from concurrent.futures import Future

from gunicorn.workers.gthread import ThreadWorker

from tdsystem import serving
from tdsystem.serving import Worker, client_gone
from tests.faults.servers import ROOT, _kill_group, _wait, free_port

CLOSING_GET = b"GET /no-such-page/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


class Conn:
    """What finish_request asks of a connection, recording how it was closed."""

    def __init__(self) -> None:
        self.closed: list[tuple[bool, str]] = []

    def close(self, graceful: bool = False) -> None:
        self.closed.append((graceful, threading.current_thread().name))


def finished(result) -> Future:
    future: Future = Future()
    future.set_result(result)
    return future


def worker() -> Worker:
    from concurrent.futures import ThreadPoolExecutor

    w = Worker.__new__(Worker)  # no process, sockets or loop: only finish_request is run
    w.closers = ThreadPoolExecutor(1, thread_name_prefix="close")
    w.nr_conns, w.alive = 1, True
    return w


def test_it_closes_a_connection_not_kept_alive_on_a_closer_thread():
    w, conn = worker(), Conn()
    w.finish_request(conn, finished(False))  # the answer said "Connection: close"
    w.closers.shutdown(wait=True)
    [(graceful, thread)] = conn.closed
    assert graceful and thread.startswith("close") and w.nr_conns == 0


def test_it_still_closes_a_broken_connection_at_once():
    w, conn = worker(), Conn()
    failed: Future = Future()
    failed.set_exception(OSError("reset"))
    w.finish_request(conn, failed)
    w.closers.shutdown(wait=True)
    assert conn.closed == [(False, threading.current_thread().name)]


def test_the_server_sends_the_whole_answer_before_it_closes(tmp_path):
    from tdsystem.venue.management.commands.runsystem import web_command

    port = free_port()
    env = os.environ | {
        "DEBUG": "0",
        "SECRET_KEY": "test-only",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'web.sqlite3'}",
        "WEB_WORKERS": "1",
        # Its own static files: the suite's other processes read the checkout's var/.
        "VAR_DIR": str(tmp_path / "var"),
    }
    env.pop("TDSYSTEM_EMBEDDED", None)
    # Served as runsystem serves it: the manifest storage renders a page only once the
    # static files are collected (runsystem collects them before it starts the server).
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    server = subprocess.Popen(
        web_command(f"127.0.0.1:{port}"),
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        _wait(lambda: _answers(port), 30, "gunicorn")
        answers = []
        for _ in range(5):
            with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
                s.sendall(
                    b"GET /no-such-page/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                )
                answers.append(_read_all(s))
        for answer in answers:
            head, _, body = answer.partition(b"\r\n\r\n")
            length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length")))  # fmt: skip
            assert head.startswith(b"HTTP/1.1 404") and len(body) == length
    finally:
        _kill_group(server)


def _read_all(s: socket.socket) -> bytes:
    data = b""
    while chunk := s.recv(65536):
        data += chunk
    return data


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(
                b"GET /no-such-page/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            )
            return _read_all(s).startswith(b"HTTP/1.1")
    except OSError:
        return False


def test_it_tells_a_client_that_has_gone_from_one_that_waits():
    server, client = socket.socketpair()
    with server, client:
        client.sendall(CLOSING_GET)
        server.recv(len(CLOSING_GET))  # the request, read as the parser reads it
        assert not client_gone(server)  # waiting for its answer
        client.sendall(b"GET / HTTP/1.1\r\n")  # pipelined: data, not the end
        assert not client_gone(server)
        server.recv(100)
        client.shutdown(socket.SHUT_WR)
        assert client_gone(server)


class Request:
    def __init__(self, method: str) -> None:
        self.method, self.path = method, "/api/events/1/clock"


def test_it_drops_a_read_whose_client_has_gone_but_carries_out_a_write(monkeypatch):
    served = []
    monkeypatch.setattr(
        ThreadWorker, "handle_request", lambda self, req, conn: served.append(req.method) or True
    )
    w = worker()
    w.log = logging.getLogger("test")
    server, client = socket.socketpair()
    with server, client:
        client.shutdown(socket.SHUT_WR)
        conn = type("Conn", (), {"sock": server})()
        assert w.handle_request(Request("GET"), conn) is False
        assert w.handle_request(Request("POST"), conn) is True
    assert served == ["POST"]


def test_once_warm_it_keeps_what_it_loaded_out_of_the_full_collections(monkeypatch):
    monkeypatch.setattr(ThreadWorker, "load_wsgi", lambda self: None)
    monkeypatch.setattr(serving, "warm_up", lambda app, between: ["200 /clock/"])
    w = worker()

    def app(environ, start_response):
        return [b"answer"]

    w.wsgi, w.notify, w.pid, w.log = app, lambda: None, os.getpid(), logging.getLogger("test")
    gc.unfreeze()
    try:
        assert gc.get_freeze_count() == 0
        w.load_wsgi()
        assert gc.get_freeze_count() > 10_000, "Django's and the apps' objects are frozen"
    finally:
        gc.unfreeze()
    # and it serves through its turns (running_at_most, below)
    assert w.wsgi is not app and w.wsgi({}, None) == [b"answer"]


def test_the_venue_runs_four_processes_of_four_threads_on_postgresql(monkeypatch):
    from django.conf import settings

    from tdsystem.venue.management.commands.runsystem import web_command

    def counts() -> tuple[str, str]:
        command = web_command("127.0.0.1:8000")
        return command[command.index("--workers") + 1], command[command.index("--threads") + 1]

    monkeypatch.delenv("WEB_WORKERS", raising=False)
    monkeypatch.delenv("WEB_THREADS", raising=False)
    monkeypatch.setitem(settings.DATABASES["default"], "ENGINE", "tdsystem.core.postgresql")
    assert counts() == ("4", "4")
    monkeypatch.setitem(settings.DATABASES["default"], "ENGINE", "django.db.backends.sqlite3")
    assert counts() == ("1", "8")  # one process keeps the screens' cache in one place
    monkeypatch.setenv("WEB_WORKERS", "2")
    monkeypatch.setenv("WEB_THREADS", "6")
    assert counts() == ("2", "6")
    monkeypatch.setitem(settings.DATABASES["default"], "ENGINE", "tdsystem.core.postgresql")
    assert counts() == ("2", "6")  # gunicorn.conf.py reads them


def test_at_most_two_requests_run_the_application_at_once():
    inside, most, entered = [0], [0], threading.Semaphore(0)
    release = threading.Event()
    guard = threading.Lock()

    def app(environ, start_response):
        with guard:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        entered.release()
        release.wait(5)
        with guard:
            inside[0] -= 1
        return [b"ok"]

    limited = serving.running_at_most(app, 2)
    threads = [threading.Thread(target=limited, args=({}, None)) for _ in range(5)]
    for thread in threads:
        thread.start()
    assert entered.acquire(timeout=5) and entered.acquire(timeout=5)
    assert not entered.acquire(timeout=0.3), "a third went in while two were in"
    release.set()
    for thread in threads:
        thread.join(5)
    assert most[0] == 2 and inside[0] == 0


def test_an_answer_is_written_after_its_turn_is_given_back():
    written = []

    def app(environ, start_response):
        def body():  # what a slow client reads: taken off the turn before it is read
            written.append(environ["name"])
            yield b"answer"

        return body()

    limited = serving.running_at_most(app, 1)
    first = limited({"name": "first"}, None)  # not yet read
    second = limited({"name": "second"}, None)  # one turn only, and it is free again
    assert list(second) == [b"answer"] and list(first) == [b"answer"]
    assert written == ["second", "first"]
    assert serving.running_at_most(app, 0) is app  # WEB_RUNNING=0: no limit
