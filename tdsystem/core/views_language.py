"""The language switcher on every page: one POST, remembered per browser and per staff user."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from .languages import CODES, PARAM, SESSION_KEY, remember
from .models import StaffLanguage


def _back_to(request: HttpRequest) -> str:
    """The page the switcher was on, without its ?lang= (it would outvote the choice)."""
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return "/"
    parts = urlsplit(target)
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if k != PARAM])
    return urlunsplit(("", "", parts.path or "/", query, parts.fragment))


@require_POST
def language_choose(request: HttpRequest) -> HttpResponse:
    code = request.POST.get("language", "")
    if code not in CODES:
        return HttpResponseBadRequest(gettext("Choose one of the languages offered."))
    response = redirect(_back_to(request))
    remember(response, code)
    if request.user.is_authenticated:
        request.session[SESSION_KEY] = code
        StaffLanguage.objects.update_or_create(user=request.user, defaults={"language": code})
    return response
