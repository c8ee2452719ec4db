"""Results out: an event's results files (staff) and its public feed."""

from __future__ import annotations

import json

from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET

from tdsystem.core.access import staff_required
from tdsystem.events.models import Event

from . import exports
from .feed import body_and_etag

FILES = {
    "hendon-mob.csv": ("text/csv; charset=utf-8", exports.hendon_mob_csv),
    "csv": ("text/csv; charset=utf-8", exports.generic_csv),
    "json": (
        "application/json",
        lambda event: json.dumps(
            exports.generic_json(event), cls=DjangoJSONEncoder, ensure_ascii=False, indent=1
        ),
    ),
}


@require_GET
@staff_required("seating")
def results_file(request: HttpRequest, event_id: int, fmt: str) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    if fmt not in FILES:
        raise Http404
    content_type, make = FILES[fmt]
    response = HttpResponse(make(event), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="results-{event.pk}.{fmt}"'
    return response


@require_GET
def feed(request: HttpRequest, event_id: int) -> HttpResponse:
    """Public and read-only, for any website: CORS open, revalidated on every poll."""
    try:
        body, etag = body_and_etag(event_id)
    except Event.DoesNotExist:
        raise Http404 from None
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    response["Access-Control-Allow-Origin"] = "*"
    response["Access-Control-Expose-Headers"] = "ETag"
    patch_cache_control(response, no_cache=True)
    return response
