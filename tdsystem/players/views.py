"""The player's own page, reached by its secret link (no login)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from tdsystem.core.languages import screen_language

from .links import link_by_token


@require_safe
def me(request: HttpRequest, token: str) -> HttpResponse:
    link = link_by_token(token)
    if link is None:
        raise Http404
    screen_language(request, link.event.screen_language)
    return render(request, "players/me.html", {"link": link, "event": link.event})
