"""The seat lookup's "Follow my seat": a form (no script needed) that opens the player's
own page. The rules and the limit per device are `follow.py`'s."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tdsystem.core.forms import whole_number
from tdsystem.core.languages import screen_language
from tdsystem.core.numbers import ENTRY_NUMBER
from tdsystem.events.models import Event

from .errors import PlayersRefused
from .follow import FOLLOW_WINDOW_SECONDS, follow_allowed, link_follow


@require_POST
def follow(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    screen_language(request, event.screen_language)
    number = whole_number(request.POST.get("entry"), high=ENTRY_NUMBER.high)
    if number is None:
        return _refused(request, event, None, _("Which entry? Find your seat first."), 400)
    if not follow_allowed(request, event_id=event.pk, number=number):
        text = _("Too many pages asked from this device. Try again in a few minutes.")
        response = _refused(request, event, number, text, 429)
        response["Retry-After"] = str(FOLLOW_WINDOW_SECONDS)
        return response
    try:
        link = link_follow(event_id=event.pk, number=number)
    except PlayersRefused as exc:
        return _refused(request, event, number, str(exc), 404 if exc.field else 409)
    return redirect("players:me", link.token)


def _refused(request, event: Event, number: int | None, text: str, status: int) -> HttpResponse:
    context = {"event": event, "number": number, "text": text}
    return render(request, "players/follow_refused.html", context, status=status)
