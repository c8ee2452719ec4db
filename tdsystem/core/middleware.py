"""Requests that would fail as a 500 answer what they are: a database that does not
answer is a 503 the floor can read; a NUL character is a 400; a body too large a 413."""

from __future__ import annotations

import json
import logging
import re

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from .locking import BUSY_MESSAGE, Busy, lock_timed_out
from .numbers import grouped
from .postgresql.gate import server_gone

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 10


def database_unreachable(exc: BaseException) -> bool:
    """True for a lost or refused connection (or a pool that has none to give), False for
    an error of a query on a working connection (a deadlock, a lock or statement timeout)."""
    if isinstance(exc, InterfaceError):
        return True
    if not isinstance(exc, OperationalError):
        return False
    return server_gone(getattr(exc.__cause__, "sqlstate", None))


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
        response: HttpResponse
        if wants_json(request):
            response = JsonResponse(
                {"error": _("the database is unreachable; try again shortly")}, status=503
            )
        else:
            # A page asked for with GET reloads itself (a TV that opened the schedule during
            # the outage shows it again afterwards); a form sent is never sent again.
            retry = RETRY_AFTER_SECONDS if request.method in ("GET", "HEAD") else None
            page = render_to_string("503_database.html", {"retry": retry})
            response = HttpResponse(page, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        response["Cache-Control"] = "no-store"
        return response


# A change that met another of the same event holding its lock waits at most the lock
# timeout: asking again a second later usually finds it done.
BUSY_RETRY_AFTER_SECONDS = 1


class BusyMiddleware:
    """A change that waited past the lock timeout (core.locking.Busy, or the database's own
    lock timeout later in the change) answers "busy, try again"; its transaction rolled
    back, so nothing changed. A JSON 503 with Retry-After under /api/; for HTMX a 409 with
    the message as a flash at the top of the page (static/js/page-actions.js lets it swap,
    whatever the request's target: nothing of the page is replaced); else a 409 page.

    Listed after HtmxMiddleware, so its process_exception runs first and request.htmx is
    set. The API's own handlers hand Busy on to Django (tdsystem/api/errors.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not lock_timed_out(exc):
            return None
        message = exc.message if isinstance(exc, Busy) else str(BUSY_MESSAGE)
        logger.info("busy on %s %s: %s", request.method, request.path, exc.__cause__ or exc)
        if wants_json(request):
            response: HttpResponse = JsonResponse({"error": message}, status=503)
            response["Retry-After"] = str(BUSY_RETRY_AFTER_SECONDS)
        elif getattr(request, "htmx", False):
            response = HttpResponse(
                render_to_string("409_busy.html#flash", {"message": message}, request=request),
                status=409,
            )
            response["HX-Retarget"] = "main"
            response["HX-Reswap"] = "afterbegin"
            response["X-Busy"] = "1"
        else:
            back = request.headers.get("Referer", "")
            if not url_has_allowed_host_and_scheme(
                back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
            ):
                back = ""
            context = {"message": message, "back": back}
            response = HttpResponse(
                render_to_string("409_busy.html", context, request=request), status=409
            )
        response["Cache-Control"] = "no-store"
        return response


NUL = "\x00"
# In a JSON body a NUL is written \u0000; the bytes are checked before any parsing, and
# the body is parsed (to name the field) only when they are there.
JSON_NUL = re.compile(rb"\\u0000", re.IGNORECASE)
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class _Nul(Exception):
    def __init__(self, field: str | None = None):
        super().__init__(field)
        self.field = field


def _check_pairs(pairs) -> None:
    for key, values in pairs:
        if NUL in key or any(isinstance(v, str) and NUL in v for v in values):
            raise _Nul(key.replace(NUL, ""))


def _holds_nul(value) -> bool:
    stack = [value]  # not recursive: a body nested as deep as the parser allows is fine
    while stack:
        item = stack.pop()
        if isinstance(item, str) and NUL in item:
            return True
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _check_body(body: bytes) -> None:
    raw = b"\x00" in body
    if not raw and not JSON_NUL.search(body):
        return
    try:
        data = json.loads(body, strict=False)  # strict=False: a raw NUL in a string too
    except (ValueError, RecursionError):
        if raw:
            raise _Nul() from None
        return  # not JSON: the view says what is wrong with it
    if isinstance(data, dict):
        for key, value in data.items():
            if NUL in key or _holds_nul(value):
                raise _Nul(key.replace(NUL, ""))
    if raw or _holds_nul(data):
        raise _Nul()


def check_no_nul(request: HttpRequest) -> None:
    """Raises _Nul naming the field (when known) of a NUL anywhere in the request's path,
    query, cookies, form fields or body. Reads a body at most once (Django keeps it)."""
    if NUL in request.path:
        raise _Nul()
    _check_pairs(request.GET.lists())
    _check_pairs((key, [value]) for key, value in request.COOKIES.items())
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    content_type = request.content_type or ""
    if wants_json(request) or content_type not in FORM_TYPES:
        # The API reads the raw body itself: read it here first (so it stays readable),
        # within DATA_UPLOAD_MAX_MEMORY_SIZE (RequestDataTooBig beyond).
        _check_body(request.body)
        return
    # Form pages: the parsed fields; uploaded files stay on disk, unread.
    _check_pairs(request.POST.lists())


def too_big_answer(request: HttpRequest) -> HttpResponse:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    message = _("the request is too large (at most %(size)s bytes)") % {"size": grouped(limit)}
    if wants_json(request):
        return JsonResponse({"error": message}, status=413)
    page = render_to_string(
        "400.html", {"heading": _("This request is too large"), "reason": message}
    )
    return HttpResponse(page, status=413)


def bad_request_answer(request: HttpRequest, message: str, field: str | None) -> HttpResponse:
    if wants_json(request):
        body = {"error": message}
        if field:
            body["field"] = field
        return JsonResponse(body, status=400)
    return HttpResponse(render_to_string("400.html", {"reason": message}), status=400)


class BadInputMiddleware:
    """Answers 400 for a NUL character anywhere in a request (PostgreSQL text cannot hold
    one, so it would fail deep inside a query as a 500), and 413 for a body past
    DATA_UPLOAD_MAX_MEMORY_SIZE, before any session, user or view is looked up. JSON under
    /api/ ({"error", "field"}), the house 400 page otherwise."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            check_no_nul(request)
        except _Nul as nul:
            message = _("the request may not contain NUL characters")
            if nul.field:
                message = _("%(field)s may not contain NUL characters") % {"field": nul.field}
            return bad_request_answer(request, message, nul.field)
        except RequestDataTooBig:
            # Django's own private hook (what it does itself on this error): not in the stubs.
            request._mark_post_parse_error()  # type: ignore[attr-defined]
            return too_big_answer(request)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        # A view that reads the body itself meets the size limit there.
        if isinstance(exc, RequestDataTooBig):
            return too_big_answer(request)
        return None
