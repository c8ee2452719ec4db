"""PostgreSQL down (an immediate stop, as in a crash) under a logged-in director: the
console says so instead of failing, the API and the screens get a clear 503, and all of it
recovers by itself when the database is back, on the same session and the same gunicorn.
The server is a throwaway cluster of the test's own."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar

import pytest

from tests.worker import wait_for

from .servers import WebServer, http, manage, private_postgres

pytestmark = [pytest.mark.postgres]

SETUP = """
from tdsystem.core.tasks import heartbeat
from tdsystem.core.actors import Actor
from tdsystem.events.services import clock_action
from tests.fixtures import make_event
from tests.personas import make_token, make_user

event = make_event(3600, 3600, name="Outage")
clock_action(event_id=event.pk, action="start", actor=Actor(label="fault test"))
heartbeat()  # a worker seen now; the web server counts it alive for an hour
# ...and its clock ticker (tdsystem/events/ticker.py), counted alive for three minutes
from django.utils import timezone
from tdsystem.core.health import TICKER_PREFIX
from tdsystem.core.models import Heartbeat
Heartbeat.objects.create(name=TICKER_PREFIX + "fault-test", seen_at=timezone.now())
print(event.pk, make_token(make_user("dora", "director")))
"""


class Staff:
    """A browser's cookie jar: logs in through the login form, keeps its session."""

    def __init__(self, web: WebServer):
        self.web = web
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def request(self, path: str, data: dict | None = None) -> tuple[int, str, str]:
        """(status, content type, body); an HTTP error status is an answer."""
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        try:
            with self.opener.open(self.web.url(path), data=body, timeout=30) as response:
                return response.status, response.headers["Content-Type"], response.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.headers["Content-Type"], exc.read().decode()

    def log_in(self, username: str, password: str) -> str:
        status, _, page = self.request("/login/")
        assert status == 200, page
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        status, _, page = self.request(
            "/login/",
            {"csrfmiddlewaretoken": token, "username": username, "password": password},
        )
        assert status == 200 and "Log out" in page, page[:2000]
        return page

    def session_key(self) -> str:
        return next(c.value for c in self.jar if c.name == "sessionid")


def test_staff_see_the_database_outage_and_it_recovers_by_itself(tmp_path):
    from tests.personas import PASSWORD

    with private_postgres(
        tmp_path,
        "tdsystem_outage",
        WORKER_HEARTBEAT_SECONDS="3600",  # the worker is not what this test breaks
        CLOCK_TICK_SECONDS="60",  # nor its ticker: seen alive for 3 minutes
        # Two pooled connections, both broken by a restart: the pool's check discards
        # them (waiting 1 s, then 2 s) within the 5 s a request waits for one.
        DB_POOL_MIN="2",
        DB_POOL_MAX="2",
        DB_POOL_TIMEOUT="5",
    ) as (cluster, env):
        event_id, token = manage(env, "shell", "-c", SETUP).split()[-2:]
        clock_url = f"/api/events/{event_id}/clock"
        pause = json.dumps({"action": "pause"}).encode()

        with WebServer(env, tmp_path / "web.log") as web:
            staff = Staff(web)
            staff.log_in("dora", PASSWORD)
            session = staff.session_key()

            def banner() -> str:
                status, _, body = staff.request("/health/banner")
                assert status == 200, body[:2000]
                return body

            assert "health-banner" not in banner()
            assert staff.request("/console/")[0] == 200

            # A crash and restart that no request saw: the pooled connections are all
            # broken, yet the next request is answered, not failed.
            cluster.stop("immediate")
            cluster.start()
            status, _, page = staff.request("/console/")
            assert status == 200, page[:2000]

            cluster.stop("immediate")  # a crash: every pooled connection is now broken

            text = banner()
            assert "health-banner" in text and "Database unreachable" in text, text
            assert "Traceback" not in text
            # The heartbeat lives in the database: no claim about the worker either way.
            assert "No Celery worker" not in text

            status, body = http("GET", web.url("/healthz"), timeout=30)
            assert status == 503, body
            assert json.loads(body)["database"]["ok"] is False

            status, kind, page = staff.request("/console/")
            assert status == 503, page[:2000]
            assert kind.startswith("text/html")
            assert "database is unreachable" in page and "paper" in page, page
            assert "Traceback" not in page

            status, body = http("POST", web.url(clock_url), token=token, body=pause, timeout=30)
            assert status == 503, body
            assert "database" in json.loads(body)["error"]

            status, body = http("GET", web.url(clock_url), timeout=30)  # the clock screens
            assert status == 503, body
            assert "database" in json.loads(body)["error"]

            # Without a session cookie nobody is taken for staff, database or not.
            status, anonymous = http("GET", web.url("/health/banner"), timeout=30)
            assert status == 200 and "Staff login" in anonymous.decode()  # the login page

            cluster.start()

            assert wait_for(lambda: "health-banner" not in banner(), timeout=30), banner()
            status, _, page = staff.request("/console/")
            assert status == 200 and "dora" in page, page[:2000]
            assert staff.session_key() == session
            status, body = http("POST", web.url(clock_url), token=token, body=pause, timeout=30)
            assert status == 200, body
            status, body = http("GET", web.url(clock_url), timeout=30)
            assert status == 200 and json.loads(body)["status"] == "paused", body
            assert web.proc.poll() is None  # the same gunicorn all along
        log = (tmp_path / "web.log").read_text()
    assert "Traceback" not in log, log[-5000:]
