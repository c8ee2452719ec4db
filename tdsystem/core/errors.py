"""Error answers: the house pages (templates/404.html, 403.html, 500.html) for people, and
JSON with an `error` under /api/, the contract the API's own errors follow."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults

from .middleware import wants_json


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if wants_json(request):
        return JsonResponse(
            {"error": _("no such URL: %(path)s") % {"path": request.path}}, status=404
        )
    return defaults.page_not_found(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if wants_json(request):
        return JsonResponse({"error": _("not allowed")}, status=403)
    return defaults.permission_denied(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    # No database, no context processors: templates/500.html needs neither.
    if wants_json(request):
        return JsonResponse({"error": _("server error; it is logged")}, status=500)
    return defaults.server_error(request)
