"""The systemd units' own commands, started as the units start them, on loopback.

The web unit's ExecStartPre and ExecStart, the push process's, the worker's and the clock
ticker's ExecStart are read from deploy/systemd/, their paths moved to this checkout,
their variables from deploy/tdsystem.env.example with this machine's database (the test
database, SQLite or PostgreSQL), broker (a SQLite file) and address (127.0.0.2). The web
server answers a page and its static file; /healthz reaches 200 only once the ticker has
sent a heartbeat and the worker has written it (a round trip through all three); the push
process streams a player's page its part. nginx, when installed, then serves the same
site as deploy/nginx/tdsystem.conf would, over TLS on loopback: compressed pages, static
files from its own copy, the proxy headers trusted, and the player's stream routed to the
push process.
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import re
import shlex
import signal
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.faults.servers import free_port
from tests.worker import test_database_url as database_url

from .test_deploy_files import DEPLOY, INSTALLED, ROOT, nginx_site, tool, unit_lines

# Starts a real Celery worker and beat; the processes share the test database.
pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
HOST = "127.0.0.2"


def unit_env(tmp: Path, port: int, push_port: int) -> dict:
    env = dict(os.environ)
    for line in (DEPLOY / "tdsystem.env.example").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, value = line.split("=", 1)
            env[name] = value
    return env | {
        "SECRET_KEY": "deploy-test-only",
        "ALLOWED_HOSTS": f"{HOST},td.example.com",
        "VAR_DIR": str(tmp / "var"),
        "DATABASE_URL": database_url(),
        "DB_POOL_MIN": "1",
        "CELERY_BROKER_URL": f"sqla+sqlite:///{tmp / 'broker.sqlite3'}",
        "WEB_BIND": f"{HOST}:{port}",
        "UVICORN_HOST": HOST,
        "UVICORN_PORT": str(push_port),
        "WEB_WORKERS": "1",
        "WORKER_HEARTBEAT_SECONDS": "1",
        "PYTHONUNBUFFERED": "1",
        "PYTEST_XDIST_WORKER": "",
    }


def command(line: str, env: dict) -> list[str]:
    """A unit's command line as systemd runs it: ${NAME} from the environment, %% as %."""
    line = re.sub(r"\$\{(\w+)\}", lambda m: env[m[1]], line).replace("%%", "%")
    return [part.replace(f"{INSTALLED}/", f"{ROOT}/") for part in shlex.split(line)]


class Unfollowed(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect is an answer here (and may name a host off this machine)


def get(url: str, *, host: str | None = None, gzipped: bool = False, tls=None):
    """(status, headers, body unpacked); redirects are not followed."""
    request = urllib.request.Request(url)
    if host:
        request.add_header("Host", host)
    if gzipped:
        request.add_header("Accept-Encoding", "gzip")
    opener = urllib.request.build_opener(Unfollowed, urllib.request.HTTPSHandler(context=tls))
    try:
        with opener.open(request, timeout=10) as answer:
            status, headers, body = answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        status, headers, body = error.code, error.headers, error.read()
    if headers.get("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    return status, headers, body


def wait_for(what: str, check, procs: dict, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for name, (proc, log) in procs.items():
            if proc.poll() is not None:
                raise AssertionError(f"{name} exited:\n{log.read_text()[-3000:]}")
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.3)
    logs = "\n".join(f"--- {n}\n{log.read_text()[-1500:]}" for n, (_, log) in procs.items())
    raise AssertionError(f"{what} did not happen in {timeout:.0f} s\n{logs}")


def test_the_units_commands_serve_on_loopback(tmp_path):
    started = time.monotonic()
    port, push_port = free_port(), free_port()
    env = unit_env(tmp_path, port, push_port)
    token, clock = a_players_link()
    (pre,) = unit_lines("tdsystem-web.service", "ExecStartPre")
    collected = subprocess.run(
        command(pre, env), cwd=ROOT, env=env, capture_output=True, text=True, timeout=180
    )
    assert collected.returncode == 0, collected.stderr
    procs: dict[str, tuple[subprocess.Popen, Path]] = {}
    try:
        units = ("web", "push", "worker", "clock")
        for unit in (f"tdsystem-{name}.service" for name in units):
            (line,) = unit_lines(unit, "ExecStart")
            log = tmp_path / f"{unit}.log"
            procs[unit] = (
                subprocess.Popen(
                    command(line, env),
                    cwd=ROOT,
                    env=env,
                    stdout=log.open("w"),
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                ),
                log,
            )
        web = f"http://{HOST}:{port}"
        print(f"collected in {time.monotonic() - started:.1f} s")
        wait_for("/healthz 200", lambda: get(f"{web}/healthz")[0] == 200, procs, timeout=90)
        print(f"/healthz 200 after {time.monotonic() - started:.1f} s")
        status, _headers, body = get(f"{web}/healthz")
        assert body.startswith(b'{"ok": true') or b'"ok": true' in body

        status, headers, page = get(f"{web}{clock}", gzipped=True)
        assert status == 200 and b"</html>" in page  # the room's page, static names and all
        assert headers.get("Content-Encoding") == "gzip"
        script = re.search(rb'src="(/static/js/[^"]+\.js)"', page)
        assert script, page[:500]
        assert get(f"{web}{script[1].decode()}")[0] == 200

        # The push process: a player's page's stream, its first message the page's part.
        stream = http.client.HTTPConnection(HOST, push_port, timeout=10)
        wait_for("the push process", lambda: first_message(stream, token), procs, timeout=30)

        if tool_or_none("nginx"):
            through_nginx(
                tmp_path, env, (port, push_port), (clock, script[1].decode()), procs, token
            )
    finally:
        for proc, _log in procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc, _log in procs.values():
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)


def tool_or_none(name: str) -> str | None:
    try:
        return tool(name)
    except pytest.skip.Exception:
        return None


def a_players_link() -> tuple[str, str]:
    """The token of a seated player's page in an event of the test database, and the
    event's clock page."""
    from tdsystem.players.links import link_of_entry
    from tdsystem.simulation.seatings import arrange
    from tests.fixtures import make_event

    event = make_event(600, name="Deploy check")
    people = arrange(event, {1: [1, 2, 3]})
    return link_of_entry(people["T1S2"]).token, f"/events/{event.pk}/clock/"


def first_message(connection: http.client.HTTPConnection, token: str) -> bool:
    """The page's stream opened, and its first message is the page's part (table, seat)."""
    connection.request("GET", f"/api/me/{token}/stream", headers={"Accept": "text/event-stream"})
    answer = connection.getresponse()
    assert answer.status == 200, answer.read()
    assert answer.headers["Content-Type"].startswith("text/event-stream")
    seen = b""
    while b"\n\n" not in seen.partition(b"event: me")[2]:
        chunk = answer.read1(65536)
        assert chunk, seen
        seen += chunk
    data = seen.partition(b"event: me")[2].split(b"data: ", 1)[1].split(b"\n", 1)[0]
    assert json.loads(data)["seat"] == 2
    connection.close()
    return True


def through_nginx(
    tmp_path: Path,
    env: dict,
    ports: tuple[int, int],
    paths: tuple[str, str],
    procs: dict,
    token: str,
) -> None:
    """The site of deploy/nginx/tdsystem.conf on 127.0.0.2, TLS with a test certificate,
    in front of the web server and the push process above."""
    port, push_port = ports
    clock, script = paths
    tls_port, plain_port = free_port(), free_port()
    conf = nginx_site(
        tmp_path / "nginx",
        "tdsystem.conf",
        static=f"{env['VAR_DIR']}/staticfiles/",
        **{
            "server 10.0.0.11:8000": f"server {HOST}:{port}",
            "server 10.0.0.12:8000": f"server {HOST}:{port}",
            "server 10.0.0.11:8001": f"server {HOST}:{push_port}",
            "server 10.0.0.12:8001": f"server {HOST}:{push_port}",
            "listen [::]:80;": "",
            "listen [::]:443 ssl http2;": "",
            "listen 80;": f"listen {HOST}:{plain_port};",
            "listen 443 ssl http2;": f"listen {HOST}:{tls_port} ssl http2;",
        },
    )
    log = tmp_path / "nginx.log"
    procs["nginx"] = (
        subprocess.Popen(
            [tool("nginx"), "-c", str(conf), "-p", str(tmp_path / "nginx"), "-g", "daemon off;"],
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        ),
        log,
    )
    tls = ssl.create_default_context()
    tls.check_hostname, tls.verify_mode = False, ssl.CERT_NONE
    site = f"https://{HOST}:{tls_port}"
    asks = {"host": "td.example.com", "tls": tls}
    wait_for("nginx", lambda: get(f"{site}/healthz", **asks)[0] == 200, procs, timeout=20)

    status, headers, page = get(f"{site}{clock}", gzipped=True, **asks)
    assert status == 200 and b"</html>" in page
    assert headers.get("Content-Encoding") == "gzip"
    # X-Forwarded-Proto https from nginx: the web server knows the request came over TLS
    # (HSTS is sent on HTTPS requests only, and PUBLIC_URL is https://).
    assert "max-age=31536000" in headers.get("Strict-Transport-Security", "")
    assert "Strict-Transport-Security" not in get(f"http://{HOST}:{port}{clock}")[1]

    status, headers, body = get(f"{site}{script}", gzipped=True, **asks)
    assert status == 200 and "immutable" in headers["Cache-Control"]
    assert headers.get("Content-Encoding") == "gzip"  # the .gz collectstatic wrote
    assert (
        Path(env["VAR_DIR"]) / "staticfiles" / script.removeprefix("/static/")
    ).read_bytes() == body
    # A player's page's stream, routed to the push process, its messages not held back.
    stream = http.client.HTTPSConnection(HOST, tls_port, timeout=10, context=tls)
    assert first_message(stream, token)
    # Plain HTTP is sent to HTTPS.
    status, headers, _ = get(f"http://{HOST}:{plain_port}/clock/", host="td.example.com")
    assert (status, headers["Location"]) == (301, "https://td.example.com/clock/")
