"""A database that does not answer is a 503 the floor can read, not a 500."""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 10
# SQLSTATEs of a server that is gone, going or not yet back: connection exceptions (08),
# admin shutdown, crash shutdown, cannot connect now (starting up, in recovery).
SERVER_GONE = ("08", "57P01", "57P02", "57P03")


def database_unreachable(exc: BaseException) -> bool:
    """True for a lost or refused connection (or a pool that has none to give), False for
    an error of a query on a working connection (a deadlock, a lock or statement timeout)."""
    if isinstance(exc, InterfaceError):
        return True
    if not isinstance(exc, OperationalError):
        return False
    sqlstate = getattr(exc.__cause__, "sqlstate", None)
    return sqlstate is None or sqlstate.startswith(SERVER_GONE)


def wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/") or request.path.startswith("/healthz")


class DatabaseUnavailableMiddleware:
    """Answers 503 when a view fails because the database is unreachable: JSON under
    /api/, a plain page otherwise. It never touches the database itself: no session, no
    user, no template context processors."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not database_unreachable(exc):
            return None
        logger.warning("database unreachable on %s %s: %s", request.method, request.path, exc)
        if wants_json(request):
            response = JsonResponse(
                {"error": "the database is unreachable; try again shortly"}, status=503
            )
        else:
            response = HttpResponse(render_to_string("503_database.html"), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        response["Cache-Control"] = "no-store"
        return response
