"""'Follow my seat': the seat lookup hands a player their page's link.

The lookup already shows anyone's seat by name or number, and its "Follow my seat" gives
the page of that entry, so the link is only as secret as the entry's number. Two things
keep that sane: only an active entry of the event is followed (no page for a player out or
of another event), and a device may ask for only so many links in a while
(`FOLLOW_LIMIT` per `FOLLOW_WINDOW_SECONDS`), so a script cannot collect the room's links
from one phone. The floor's "New link" (a lost phone) still cuts off the old card.
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext as _

from tdsystem.core.auth_views import client_ip
from tdsystem.seating.models import Entry

from .errors import PlayersRefused
from .links import link_of_entry
from .models import PlayerLink

FOLLOW_LIMIT = 20
FOLLOW_WINDOW_SECONDS = 600


def link_follow(*, event_id: int, number: int) -> PlayerLink:
    """The live link of the event's entry `number`, made the first time; refused for an
    entry that is not in the event or not in play."""
    entry = Entry.objects.filter(event_id=event_id, number=number).first()
    if entry is None:
        raise PlayersRefused(_("no entry #%(number)s in this event") % {"number": number}, "entry")
    if entry.status != Entry.Status.ACTIVE:
        raise PlayersRefused(_("#%(number)s is not in play") % {"number": number})
    return link_of_entry(entry)


def follow_allowed(request: HttpRequest) -> bool:
    """Whether this device may be given one more link now (and count it). The count lives
    in Django's cache: a cache that is emptied forgets it, which only lets a few more in."""
    key = f"players-follow:{client_ip(request) or '-'}"
    if cache.add(key, 1, FOLLOW_WINDOW_SECONDS):
        return True
    try:
        return cache.incr(key) <= FOLLOW_LIMIT
    except ValueError:  # expired between the two asks
        cache.add(key, 1, FOLLOW_WINDOW_SECONDS)
        return True
