from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tdsystem.events.models import Event

from .access import staff_required
from .health import health


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    events = Event.objects.exclude(status=Event.Status.FINISHED).order_by("-created_at")[:50]
    return render(request, "core/home.html", {"events": events})


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    report = health()
    return JsonResponse(report, status=200 if report["ok"] else 503)


@never_cache
@require_GET
@staff_required("console")
def health_banner(request: HttpRequest) -> HttpResponse:
    return render(request, "core/health_banner.html", {"health": health()})
