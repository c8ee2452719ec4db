"""The floor's side of a player's page, shown in the seating console's entry panel: the
page's link as a QR code and an address, whether the page was seen, and a new link for a
lost phone. Seating's panel loads it by its URL (seating cannot import players); the
card is printed by printing's route (printing is above players)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor
from tdsystem.seating.models import Entry
from tdsystem.seating.views import qr_svg

from .links import link_of_entry, link_renew, player_url
from .models import PlayerLink

PAGE = "players/floor_entry.html"


def _entry(event_id: int, number: int) -> Entry:
    rows = Entry.objects.select_related("event", "player", "table")
    return get_object_or_404(rows, event_id=event_id, number=number)


def _render(request, entry: Entry, link: PlayerLink, message: str = "") -> HttpResponse:
    url = player_url(link)
    context = {
        "event": entry.event,
        "entry": entry,
        "link": link,
        "url": url,
        "qr": mark_safe(qr_svg(url)),
        "message": message,
    }
    return render(request, f"{PAGE}#panel" if request.htmx else PAGE, context)


@require_GET
@staff_required("seating")
def entry_page(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """The entry's page link (made the first time the floor or the player asks for it)."""
    entry = _entry(event_id, number)
    return _render(request, entry, link_of_entry(entry))


@require_POST
@staff_required("seating")
def entry_page_renew(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """A lost phone: the old link (and its card) stops opening the page, a new one is made."""
    entry = _entry(event_id, number)
    link = link_renew(entry=entry, actor=Actor.of(request.user))
    message = _("New link made: the old card no longer opens the page. Print the new card.")
    if not request.htmx:
        messages.success(request, message)
        return redirect("players:entry_page", event_id, number)
    return _render(request, entry, link, message)
