"""The console in Chromium while PostgreSQL is down: the banner says so, the page stays.

A private PostgreSQL cluster under gunicorn (the system as deployed); a director has the
event console open when the database crashes, and still has it open when it is back.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.browser.conftest import TABLET, login, screenshot
from tests.faults.servers import WebServer, manage, private_postgres
from tests.personas import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

SETUP = """
from tdsystem.core.tasks import heartbeat
from tdsystem.core.actors import Actor
from tdsystem.events.services import clock_action
from tests.fixtures import make_event
from tests.personas import make_user

event = make_event(3600, 3600, name="Outage Open")
clock_action(event_id=event.pk, action="start", actor=Actor(label="fault test"))
make_user("dora", "director")
heartbeat()  # a worker seen now; the web server counts it alive for an hour
# ...and its clock ticker (tdsystem/events/ticker.py), counted alive for three minutes
from django.utils import timezone
from tdsystem.core.health import TICKER_PREFIX
from tdsystem.core.models import Heartbeat
Heartbeat.objects.create(name=TICKER_PREFIX + "fault-test", seen_at=timezone.now())
print(event.pk)
"""
BANNER_POLL_MS = 10_000  # templates/base.html polls the banner every 10 s


@dataclass
class Server:
    url: str


def test_the_open_console_shows_the_outage_and_clears_it_when_the_database_is_back(
    tmp_path, new_page
):
    with private_postgres(
        tmp_path,
        "tdsystem_console_outage",
        WORKER_HEARTBEAT_SECONDS="3600",  # the worker is not what this test breaks
        CLOCK_TICK_SECONDS="60",  # nor its ticker: seen alive for 3 minutes
        DB_POOL_MIN="2",
        DB_POOL_MAX="2",
        DB_POOL_TIMEOUT="5",
    ) as (cluster, env):
        event_id = manage(env, "shell", "-c", SETUP).split()[-1]
        with WebServer(env, tmp_path / "web.log") as web:
            server = Server(web.url(""))
            page = new_page(TABLET)
            login(page, server, "dora", PASSWORD)
            page.goto(f"{server.url}/console/events/{event_id}/")
            heading = page.locator("main h1, h1").first
            assert heading.inner_text() == "Outage Open"
            page.wait_for_timeout(1000)  # the banner's first poll, on load
            assert page.locator(".health-banner").count() == 0

            cluster.stop("immediate")
            banner = page.locator(".health-banner")
            banner.wait_for(state="visible", timeout=BANNER_POLL_MS + 20_000)
            assert "Database unreachable" in banner.inner_text()
            assert "keep paper notes" in banner.inner_text()
            assert heading.inner_text() == "Outage Open"  # the page stays, with its panels
            screenshot(page, "console-database-down")

            cluster.start()
            banner.wait_for(state="detached", timeout=BANNER_POLL_MS + 30_000)
            assert heading.inner_text() == "Outage Open"
            page.reload()  # and the same session works again
            assert page.locator("h1").first.inner_text() == "Outage Open"
        assert "Traceback" not in (tmp_path / "web.log").read_text()
