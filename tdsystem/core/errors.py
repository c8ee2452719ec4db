"""Error answers: the house pages (templates/400.html, 404.html, 403.html, 500.html) for
people, and JSON with an `error` under /api/, the contract the API's own errors follow."""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults

from .middleware import bad_request_answer, too_big_answer, wants_json


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    # Django's SuspiciousOperation answers (a body past DATA_UPLOAD_MAX_MEMORY_SIZE, too
    # many fields, a bad Host) land here; the page needs no database, like the 500.
    if isinstance(exception, RequestDataTooBig):
        return too_big_answer(request)
    return bad_request_answer(request, _("bad request"), None)


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
