"""The player's own page, reached by its secret link (no login): the token is the key."""

from __future__ import annotations

import time

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from tdsystem.core.forms import whole_number
from tdsystem.core.languages import screen_language

from .errors import PlayersRefused
from .links import link_by_token
from .models import PlayerLink
from .selectors import me_answer
from .services import move_there

# How often a page's reads mark its link seen (the floor sees who follows their page): a
# write every quarter of an hour at most by each process, not one a poll. Each write is a
# commit: at once a minute, 10,000 open pages would make one web process write 166 times a
# second.
SEEN_EVERY = 900.0  # seconds


def live_link(request: HttpRequest, token: str) -> PlayerLink:
    """The token's live link, in the event's screen language unless the reader chose; 404
    for an unknown or revoked token."""
    link = link_by_token(token)
    if link is None:
        raise Http404
    screen_language(request, link.event.screen_language)
    link_seen(link.pk)
    return link


# The links this process marked seen lately, and when (time.monotonic()).
_seen: dict[int, float] = {}
SEEN_KEPT = 20_000


def link_seen(link_pk: int) -> None:
    """The floor sees whether a player follows their page (`PlayerLink.seen_at`): written
    once every SEEN_EVERY at most by each process, not on every poll."""
    now = time.monotonic()
    if now - _seen.get(link_pk, -SEEN_EVERY) < SEEN_EVERY:
        return
    if len(_seen) > SEEN_KEPT:
        _seen.clear()
    _seen[link_pk] = now
    PlayerLink.objects.filter(pk=link_pk).update(seen_at=timezone.now())


def stream_path(token: str) -> str:
    """The page's push stream (players/push.py), when a push process serves this room:
    on the page's own address (a proxy routes it) or on PUSH_PORT of the page's host."""
    if not (settings.PUSH_SAME_ORIGIN or settings.PUSH_PORT):
        return ""
    return f"/api/me/{token}/stream"


@require_safe
def me(request: HttpRequest, token: str) -> HttpResponse:
    """The page; `?part=details` (or htmx) its details alone, which the page's script asks
    for when its JSON says they changed."""
    link = live_link(request, token)
    if link.entry_id is None:
        return render(request, "players/me_alternate.html", {"link": link, "event": link.event})
    answer = me_answer(link)
    context: dict[str, object] = {
        "link": link,
        "event": link.event,
        "me": answer.state,
        "clock": answer.clock,
        "time_zone": settings.TIME_ZONE,
        "stream": stream_path(link.token),
        "stream_port": settings.PUSH_PORT or "",
    }
    part = request.GET.get("part") == "details" or "HX-Request" in request.headers
    response = render(request, "players/me.html#details" if part else "players/me.html", context)
    if settings.PUSH_PORT:  # the stream comes from the push process's port of this host
        response._csp_update = {"connect-src": [f"http://*:{settings.PUSH_PORT}"]}  # type: ignore[attr-defined]
    return response


@require_POST
def there(request: HttpRequest, token: str) -> HttpResponse:
    """ "I'm there": the move slip's time the floor sees. The page's script posts it (204);
    without a script the form posts and the page comes back."""
    link = live_link(request, token)
    move_id = whole_number(request.POST.get("move", ""), high=2**31 - 1)
    if move_id is None:
        return HttpResponse(status=400)
    try:
        move_there(link=link, move_id=move_id)
    except PlayersRefused as refused:
        return HttpResponse(str(refused), status=400 if refused.field else 409)
    if (
        request.headers.get("Accept", "").startswith("application/json")
        or "HX-Request" in request.headers
    ):
        return HttpResponse(status=204)
    return redirect("players:me", token=token)
