"""Every write request in one transaction, answered once per key.

A write (any method but GET, HEAD, OPTIONS and TRACE; the API's and the pages' alike) runs
its service and builds its answer in one transaction, so:

- an answer of 400 or more rolls everything back: an exception in the service or while
  building the answer (a 500), a refusal (4xx), "busy" (BusyMiddleware) all change
  nothing. The records of the request itself that must stay (the audit log's refusal,
  a token's last use) are written aside (`core.transactions.outside_write`);
- the answer shows what this write did: built before the commit, while the write's locks
  are held, so no other writer's change lands between them;
- what a service leaves for after its commit (`transaction.on_commit`: the clock's level
  tasks, the prizes worked out again) runs once the whole request commits;
- a write sent with a key (`core.idempotency`) keeps its answer in the same transaction,
  and the key sent again gets that answer again (`Idempotent-Replayed: true`).

Reads stay out of transactions: SQLite takes its write lock at BEGIN (transaction_mode
IMMEDIATE), so a read in one would queue behind every write and every other screen.

Logging in (with a password or a one-time code) is left out (UNWRAPPED): django-axes
counts a failed login in a write of its own that must stay when the answer is the lockout
(429), and on SQLite a transaction would hold the write lock over the password's hash.
"""

from __future__ import annotations

import logging

from django.db import DatabaseError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

from . import idempotency
from .access import user_from_bearer
from .idempotency import Claim
from .middleware import DatabaseUnavailableMiddleware, bad_request_answer, wants_json
from .transactions import outside_writes_held, outside_writes_run

logger = logging.getLogger(__name__)

SAFE_METHODS = ("GET", "HEAD", "OPTIONS", "TRACE")
# The views (by URL name) that run outside: see the module's docstring.
UNWRAPPED = frozenset({"login", "login_code", "admin:login"})
REPLAYED = "Idempotent-Replayed"
RETRY_AFTER_SECONDS = 1


def wrapped(request: HttpRequest) -> bool:
    """True for a write request to a view that runs in the write's transaction."""
    if request.method in SAFE_METHODS:
        return False
    try:
        match = resolve(request.path_info, getattr(request, "urlconf", None))
    except Resolver404:
        return False  # nothing there to write: Django answers 404
    return match.view_name not in UNWRAPPED


class WriteMiddleware:
    """See the module's docstring. After the session, the user and htmx are known; the
    middleware that answer a view's exception (busy, the database unreachable) answer
    inside the transaction, so their answers roll it back too."""

    def __init__(self, get_response):
        self.get_response = get_response
        # Its answer when the database cannot even begin or commit the transaction.
        self.unreachable = DatabaseUnavailableMiddleware(get_response)

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if not wrapped(request):
            return self.get_response(request)
        try:
            return self.write(request)
        except DatabaseError as exc:
            answer = self.unreachable.process_exception(request, exc)
            if answer is None:
                raise
            return answer

    def write(self, request: HttpRequest) -> HttpResponseBase:
        try:
            key = idempotency.key_of(request)
        except idempotency.BadKey as exc:
            return bad_request_answer(request, str(exc), None)
        user = writer(request) if key else None
        committed: list[bool] = []
        outside_writes_held(request)
        try:
            with transaction.atomic():
                transaction.on_commit(lambda: committed.append(True))
                response = self.answer(request, key, user)
                if response.status_code >= 400:
                    transaction.set_rollback(True)
        except Exception:
            if not committed:
                raise
            # The change and its answer are committed: a follow-up after the commit
            # failed, which the answer does not undo.
            logger.exception("after the commit of %s %s", request.method, request.path)
        finally:
            outside_writes_run(request)
        return response

    def answer(self, request: HttpRequest, key: str | None, user) -> HttpResponseBase:
        if key is None or user is None:
            return self.get_response(request)
        claimed = idempotency.key_claim(
            user=user,
            key=key,
            method=request.method or "",
            path=request.get_full_path(),
            body_hash=idempotency.body_hash(request),
        )
        if claimed.claim is Claim.DONE:
            assert claimed.row is not None
            return replayed(claimed.row)
        if claimed.claim is Claim.OTHER:
            return key_reused(request)
        if claimed.claim is Claim.RUNNING:
            return key_running(request)
        assert claimed.row is not None
        response = self.get_response(request)
        if response.status_code < 400:
            if response.streaming or not isinstance(response, HttpResponse):
                idempotency.key_release(claimed.row)
            else:
                idempotency.key_answer_keep(
                    claimed.row,
                    status=response.status_code,
                    content_type=response.get("Content-Type", ""),
                    headers=dict(response.items()),
                    body=response.content,
                )
        return response


def writer(request: HttpRequest):
    """Whose key it is: an API token's user, else the signed-in user; None for nobody (a
    key of nobody's is not kept)."""
    if request.headers.get("Authorization", "").startswith("Bearer "):
        return user_from_bearer(request)
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


def replayed(row) -> HttpResponse:
    response = HttpResponse(bytes(row.body), status=row.status, content_type=row.content_type)
    for name, value in row.headers.items():
        response[name] = value
    response[REPLAYED] = "true"
    add_never_cache_headers(response)
    return response


def key_reused(request: HttpRequest) -> HttpResponse:
    """422: the key came with another request (method, path or body) before."""
    if wants_json(request):
        return _refusal(
            request,
            422,
            _(
                "this %(header)s was sent with another request (method, path or body): "
                "a new request needs a new key"
            )
            % {"header": idempotency.HEADER},
        )
    return _refusal(
        request,
        422,
        _("This form was sent already with other values: reload the page to send it again."),
        heading=_("This form was sent already"),
    )


def key_running(request: HttpRequest) -> HttpResponse:
    """409 with Retry-After: the key's first request is still being answered."""
    if wants_json(request):
        message = _(
            "a request with this %(header)s is still being answered: send it again after "
            "Retry-After seconds to get its answer"
        ) % {"header": idempotency.HEADER}
    else:
        message = _("This form is being sent already: wait a moment for its answer.")
    response = _refusal(request, 409, message, heading=_("Busy: try again"))
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _refusal(request: HttpRequest, status: int, message: str, heading: str = "") -> HttpResponse:
    """An answer that changed nothing: JSON under /api/, a flash at the top of the page for
    htmx (X-Flash: static/js/page-actions.js lets it swap), else a page."""
    response: HttpResponse
    if wants_json(request):
        response = JsonResponse({"error": message}, status=status)
    elif getattr(request, "htmx", False):
        page = render_to_string("409_busy.html#flash", {"message": message}, request=request)
        response = HttpResponse(page, status=status)
        response["HX-Retarget"] = "main"
        response["HX-Reswap"] = "afterbegin"
        response["X-Flash"] = "1"
    else:
        page = render_to_string(
            "400.html", {"heading": heading, "reason": message}, request=request
        )
        response = HttpResponse(page, status=status)
    response["Cache-Control"] = "no-store"
    return response
