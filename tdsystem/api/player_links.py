"""The players' links: the seat lookup as JSON (its one match with the player's page) and
an entry's link for the staff, read or made anew (a lost phone)."""

from __future__ import annotations

from datetime import datetime

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import Field, Query, Router, Status

from tdsystem.core.actors import Actor
from tdsystem.core.numbers import ENTRY_NUMBER
from tdsystem.players.follow import FOLLOW_WINDOW_SECONDS, follow_allowed, followable
from tdsystem.players.links import link_of_entry, link_renew, player_url
from tdsystem.players.models import PlayerLink
from tdsystem.results.selectors import places_of
from tdsystem.seating import lookup
from tdsystem.seating.models import Entry as EntryRow

from .auth import AuthedRequest, StaffToken
from .common import READ_ERRORS, WRITE_ERRORS, event_found
from .errors import NotFound
from .schemas import Error, Out

router = Router(tags=["Players"], exclude_unset=True)
EVENT = "/events/{int:event_id}"


class LookupMatch(Out):
    entry: int = Field(description="Entry number in the event.")
    player: str
    note: str = Field(description="Tells namesakes apart; empty when none.")
    status: str = Field(description="active, busted or carried (through to Day 2).")
    table: int | None
    seat: int | None
    place: int | None = Field(description="Where a player out finished.")
    player_url: str | None = Field(
        description="The player's own page (`/me/<token>/`), as the lookup page's "
        "'Follow my seat' gives it: only when the answer is one entry in play; null "
        "otherwise."
    )


class PlayerLinkOut(Out):
    entry: int = Field(description="Entry number in the event.")
    player: str
    player_url: str = Field(description="The player's own page: secret, no login.")
    created_at: datetime = Field(description="When this link was made.")
    seen_at: datetime | None = Field(description="The last time the page asked; null if never.")


@router.get(
    EVENT + "/seats/lookup",
    response={200: list[LookupMatch], 400: Error, 429: Error, **READ_ERRORS},
    url_name="seat_lookup",
    summary="Look up a seat",
    description="The seat lookup page's answer: the entries whose player's name holds `q` "
    "(any part, any case and accents) or whose number it is, players in play first, at most "
    "20; or the entry numbered `entry`. When the answer is one entry in play, it carries its "
    "player's page in `player_url` (made the first time it is asked for). A device is given "
    "the pages of at most 20 entries in 10 minutes: past that, 429 with `Retry-After`.",
)
def seat_lookup(
    request: HttpRequest,
    response: HttpResponse,
    event_id: int,
    q: str = Query("", max_length=80, description="A name, or part of it, or a number."),
    entry: int | None = Query(None, ge=1, le=ENTRY_NUMBER.high),
):
    event = event_found(event_id)
    if entry is not None:
        one = lookup.entry_by_number(event.pk, entry)
        found = [one] if one else []
    else:
        found = lookup.seat_search(event.pk, q) if q.strip() else []
    out = [f.pk for f in found if f.status == EntryRow.Status.BUSTED]
    places = places_of(event, out) if out else {}
    followed = found[0] if len(found) == 1 and found[0].status == EntryRow.Status.ACTIVE else None
    url = None
    if followed is not None:
        if not follow_allowed(request, event_id=event.pk, number=followed.number):
            response["Retry-After"] = str(FOLLOW_WINDOW_SECONDS)
            text = _("Too many pages asked from this device. Try again in a few minutes.")
            return Status(429, {"error": text})
        row = EntryRow.objects.get(pk=followed.pk)
        url = player_url(link_of_entry(row)) if followable(row) else None
    return [
        {
            "entry": f.number,
            "player": f.name,
            "note": f.note,
            "status": f.status,
            "table": f.table,
            "seat": f.seat,
            "place": places.get(f.pk),
            "player_url": url if f is followed else None,
        }
        for f in found
    ]


def _entry(event_id: int, number: int) -> EntryRow:
    event_found(event_id)
    row = EntryRow.objects.filter(event_id=event_id, number=number).select_related("player")
    entry = row.first()
    if entry is None:
        raise NotFound(_("no entry #%(number)s in this event") % {"number": number})
    return entry


def _link_json(entry: EntryRow, link: PlayerLink) -> dict:
    return {
        "entry": entry.number,
        "player": entry.player.name,
        "player_url": player_url(link),
        "created_at": link.created_at,
        "seen_at": link.seen_at,
    }


@router.get(
    EVENT + "/entries/{int:number}/player-link",
    auth=StaffToken("seating"),
    response={200: PlayerLinkOut, 401: Error, 403: Error, 404: Error},
    url_name="player_link",
    summary="Read an entry's player page link",
    description="The entry's live link to its player's own page (made the first time it is "
    "asked for), and whether the page was seen. Staff only: it needs a token.",
)
def player_link(request: AuthedRequest, event_id: int, number: int):
    entry = _entry(event_id, number)
    return _link_json(entry, link_of_entry(entry))


@router.post(
    EVENT + "/entries/{int:number}/player-link",
    auth=StaffToken("seating"),
    response={201: PlayerLinkOut, **WRITE_ERRORS},
    url_name="player_link_renew",
    summary="Make a new player page link",
    description="A lost phone: the entry's link stops working at once (its page answers "
    "404) and a new one is made, for a new seat card. Logged.",
)
def player_link_renew(request: AuthedRequest, event_id: int, number: int):
    entry = _entry(event_id, number)
    link = link_renew(entry=entry, actor=Actor.of(request.auth))
    return Status(201, _link_json(entry, link))
