"""Walk every URL pattern: a staff page or write endpoint is never left open.

Every view is either on the public list below or carries a staff right (set by
`staff_required`, or the API's `StaffToken` auth); an anonymous request and a request from a role
without that right are refused and change nothing.
"""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tdsystem.core.models import LogEntry

pytestmark = pytest.mark.django_db

PUBLIC = {
    "home",
    "healthz",
    "healthz_live",  # this process answers (load balancers)
    "healthz_ready",  # its database answers (load balancers)
    "favicon",  # the pages' icon, for what asks /favicon.ico by itself
    "language",  # the language switcher: a cookie, and a signed-in user's own choice
    "js_catalog",  # the scripts' words in each language (static text)
    "login",
    "login_code",  # a one-time code's login, as the login page
    "logout",
    "clock_screen",
    "schedule",
    "api:events",
    "api:clock",
    # The clock's read, answered ahead of the API's route; its POST goes on to "api:clock".
    "clock_json",
    "seating:lookup",
    "api:seats",
    "api:slips",  # the clock screen's move slips, page by page
    "seating:poster",
    "seating:draw_screen",
    "api:moves",
    "results:page",
    "results:csv",
    "api:results",
    "api:openapi-json",
    "api:openapi-view",
    "api:api-root",
    "screen_clock",
    "screen_schedule",
    "screen_seats",
    "screen_draw",
    "screen_poster",
    "api:current_event",
    "chips_screen",
    "screen_chips",
    "api:chips",
    "screen_clocks",
    # The list of tickets; giving one is a POST to the same path, behind a token
    # (tests/api/test_tickets_api.py).
    "api:tickets",
    # An event's flights and its Day 2 preview, a read like the seats; adding a flight is a
    # POST to the same path, behind a token (tests/api/test_flights_api.py).
    "api:flights",
    "api:flight_add",
    # A table's shot clock, a read like the seats; the dealer's buttons are a POST to the
    # same path, behind a token (tests/views/test_shotclock_pages.py).
    "api:shot_clock",
    "api:shot_clock_act",
    # A ruling the floor shared, read by the player who disputes it: the link's token is
    # its secret (docs/ruling-page.md); asking for a ruling is a POST behind a token.
    "rulings:shared",
    "api:ruling_shared",
    # An event's public feed for a room's website (docs/printing.md), read-only.
    "printing:feed",
    # The dealers' room TV, read-only; a dealer's own page and its clock in or out, by
    # the dealer's secret link (docs/dealers.md).
    "dealers:board",
    "dealers:phone",
    "dealers:phone_clock",
    # A player's own page, its JSON and "I'm there": the secret link's token is the key
    # (docs/players.md).
    "players:me",
    "players:there",
    "api:me",
    # The seat lookup's "Follow my seat", a POST
    # that gives an entry in play its link (tests/players/test_follow.py).
    "players:follow",
    # The seat lookup as JSON: its one match in play carries the player's page, as the
    # lookup page's "Follow my seat" (tests/players/test_link_api.py).
    "api:seat_lookup",
    # The alternates list: a place's page polls its JSON by its secret link; joining from
    # the seat lookup (rate-limited) and the list's read; the floor's actions are behind a
    # token or a staff login (docs/players.md).
    "players:me_alternate",
    "players:join",
    "api:alternates",
    "api:alternates_join",  # the list's read (the same path); joining is a POST behind a token
}
PUBLIC_PREFIXES = ("admin:",)  # Django's admin guards itself (staff flag)


def walk(resolver=None, prefix="", namespace=""):
    resolver = resolver or get_resolver()
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            ns = f"{namespace}{p.namespace}:" if p.namespace else namespace
            yield from walk(p, prefix + str(p.pattern), ns)
        elif isinstance(p, URLPattern):
            yield namespace + (p.name or "?"), prefix + str(p.pattern), p.callback


def concrete(route: str, pk: int) -> str:
    route = re.sub(r"<int:[^>]+>", str(pk), route)
    route = re.sub(r"<(str:)?[^>]+>", "json", route)
    return "/" + route.lstrip("^").rstrip("$")


def rights(callback) -> str | None:
    from ninja.operation import PathView

    for cell in getattr(callback, "__closure__", None) or ():  # a django-ninja route
        if isinstance(cell.cell_contents, PathView):
            found = [
                getattr(a, "right", None)
                for op in cell.cell_contents.operations
                for a in op.auth_callbacks or ()
            ]
            return next((r for r in found if r), None)
    while callback is not None:
        if hasattr(callback, "staff_right"):
            return callback.staff_right
        callback = getattr(callback, "__wrapped__", None)
    return None


def staff_routes():
    return [
        (n, r, c) for n, r, c in walk() if n not in PUBLIC and not n.startswith(PUBLIC_PREFIXES)
    ]


def test_every_view_is_public_by_name_or_guarded():
    unguarded = [name for name, _, callback in staff_routes() if rights(callback) is None]
    assert unguarded == [], f"views with neither a staff right nor a public listing: {unguarded}"


@pytest.mark.parametrize("method", ["get", "post"])
def test_anonymous_requests_to_staff_urls_are_refused(client, event, method):
    before = LogEntry.objects.count()
    for name, route, _ in staff_routes():
        response = getattr(client, method)(concrete(route, event.pk))
        if response.status_code == 302:
            assert "/login/" in response["Location"], name
        else:
            assert response.status_code in (401, 403, 405), (name, response.status_code)
    assert LogEntry.objects.count() == before


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_table_device_is_refused_everywhere_but_table_pages(client, event, table_device, method):
    from tests.personas import make_token

    client.force_login(table_device)
    token = make_token(table_device)
    changes = LogEntry.objects.exclude(action="access.refused")  # refusals are logged
    before = changes.count()
    for name, route, callback in staff_routes():
        if rights(callback) == "table":
            continue
        response = getattr(client, method)(
            concrete(route, event.pk), HTTP_AUTHORIZATION=f"Bearer {token}"
        )
        assert response.status_code in (403, 405), (name, response.status_code)
    assert changes.count() == before
    assert LogEntry.objects.filter(action="access.refused", actor=table_device).exists()
