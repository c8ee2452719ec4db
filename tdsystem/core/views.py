from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET, require_safe

from .access import has_right, staff_required
from .backup import backup_status
from .health import check_database, health, public
from .middleware import database_unreachable

logger = logging.getLogger(__name__)


# The spade of the pages' icon (templates/_favicon.html, a data: URL there), for what asks
# /favicon.ico by itself: a browser showing the API's JSON, a bookmark, a monitor.
FAVICON_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
    '<text y=".9em" font-size="90" fill="#f5c542">\u2660</text></svg>'
)


@require_safe
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    return HttpResponse(FAVICON_SVG, content_type="image/svg+xml; charset=utf-8")


@never_cache
@require_safe
def healthz_live(request: HttpRequest) -> JsonResponse:
    """This process answers (for a load balancer): nothing is asked of the database or the
    broker, so a part down elsewhere never takes the node out of the room."""
    return JsonResponse({"ok": True})


@never_cache
@require_safe
def healthz_ready(request: HttpRequest) -> JsonResponse:
    """This node can serve: its database answers. The worker, the clock ticker, the broker
    and the time are /healthz's, for monitoring: the pages work without them."""
    ok, detail = check_database()
    database: dict[str, object] = {"ok": ok}
    if request.GET.get("detail") and ok and _is_console_staff(request):
        database["detail"] = detail
    return JsonResponse({"ok": ok, "database": database}, status=200 if ok else 503)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Up or down for each part; with ?detail=1, console staff also get each part's detail."""
    report = health()
    if not (request.GET.get("detail") and _is_console_staff(request)):
        report = public(report)
    elif report["database"]["ok"]:
        # The backups, for the staff: what they say does not make the system up or down.
        report["backup"] = backup_status().as_json()
    return JsonResponse(report, status=200 if report["ok"] else 503)


def _is_console_staff(request: HttpRequest) -> bool:
    try:
        return has_right(request.user, "console")
    except Exception as exc:  # the session lives in the database, which may be the part down
        if database_unreachable(exc):
            return False
        raise


def _banner_without_database(view: Callable) -> Callable:
    """The banner must say the database is down when the staff check itself cannot reach
    it. Only a request with a session cookie gets this far (without one, the check needs
    no database and sends the visitor to the login page), and it learns no more than the
    public /healthz tells."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except Exception as exc:
            if not database_unreachable(exc):
                raise
            # Who asks is unknown without the database: the error's text goes to the log.
            logger.warning("health banner: database unreachable: %s", exc)
            report = health(database=(False, type(exc).__name__))
            return render(request, "core/health_banner.html", {"health": report})

    return wrapped


@never_cache
@require_GET
@_banner_without_database
@staff_required("console")
def health_banner(request: HttpRequest) -> HttpResponse:
    report = health()
    backup = backup_status() if report["database"]["ok"] else None
    return render(request, "core/health_banner.html", {"health": report, "backup": backup})
