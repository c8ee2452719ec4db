"""'Follow my seat': the seat lookup hands a player their page's link.

The lookup already shows anyone's seat by name or number, and its "Follow my seat" gives
the page of that entry, so the link is only as secret as the entry's number. Two things
keep that sane: only an active entry of the event is followed (no page for a player out or
of another event), and a device may ask for the links of only so many entries in a while
(`FOLLOW_LIMIT` per `FOLLOW_WINDOW_SECONDS`), so a script cannot collect the room's links
from one phone. Once the floor has made a new link for an entry (a lost phone), the lookup
no longer hands it out: whoever holds the lost phone could otherwise follow the player
again; the player's new card carries it (`followable`).
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
    if not followable(entry):
        raise PlayersRefused(
            _("The floor gave #%(number)s a new card: its page is on that card.")
            % {"number": number}
        )
    return link_of_entry(entry)


def followable(entry: Entry) -> bool:
    """Whether the lookup may hand out the entry's link: not once the floor renewed it."""
    return not PlayerLink.objects.filter(entry=entry, revoked_at__isnull=False).exists()


def follow_allowed(request: HttpRequest, *, event_id: int, number: int) -> bool:
    """Whether this device may be given the link of one more entry now (and count it). The
    same entry asked again is not counted: a phone that reloads its own page is never
    stopped. The counts live in Django's cache: a cache that is emptied forgets them, which
    only lets a few more in."""
    device = client_ip(request) or "-"
    window = FOLLOW_WINDOW_SECONDS
    if not cache.add(f"players-follow:{device}:{event_id}:{number}", 1, window):
        return True  # this entry was given to this device lately
    key = f"players-follow:{device}"
    if cache.add(key, 1, window):
        return True
    try:
        return cache.incr(key) <= FOLLOW_LIMIT
    except ValueError:  # expired between the two asks
        cache.add(key, 1, window)
        return True
