from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tdsystem.events.models import Event

from .access import staff_required
from .health import health
from .middleware import database_unreachable


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    events = Event.objects.exclude(status=Event.Status.FINISHED).order_by("-created_at")[:50]
    return render(request, "core/home.html", {"events": events})


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    report = health()
    return JsonResponse(report, status=200 if report["ok"] else 503)


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
            report = health(database=(False, f"{type(exc).__name__}: {exc}"[:200]))
            return render(request, "core/health_banner.html", {"health": report})

    return wrapped


@never_cache
@require_GET
@_banner_without_database
@staff_required("console")
def health_banner(request: HttpRequest) -> HttpResponse:
    return render(request, "core/health_banner.html", {"health": health()})
