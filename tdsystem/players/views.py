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
    # A place on the alternates list (no entry yet) has its own page.
    template = "players/me.html" if link.entry_id else "players/me_alternate.html"
    return render(request, template, {"link": link, "event": link.event})
