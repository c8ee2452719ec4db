"""The secret links to players' own pages: made, found, renewed.

A link is the only key to its page (no login): 128 random bits, unique, and revocable by
the floor (a lost phone), which makes a new one for a new card. One live link per entry
or alternate (a constraint); a revoked link's page answers 404 like a link never made.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.log import Text, log_record
from tdsystem.core.network import public_url
from tdsystem.seating.models import Entry

from .models import Alternate, PlayerLink

TOKEN_MAX = 32  # PlayerLink.token's max_length


def link_of_entry(entry: Entry) -> PlayerLink:
    """The entry's live link, made the first time it is asked for."""
    return _live_link(entry.event_id, entry=entry)


def link_of_alternate(alternate: Alternate) -> PlayerLink:
    """The alternate's live link, made the first time it is asked for."""
    return _live_link(alternate.event_id, alternate=alternate)


def _live_link(event_id: int, **follows: Entry | Alternate) -> PlayerLink:
    """The live link following `follows` (entry= or alternate=), made if there is none;
    two askers at once get the same link: the constraint decides, the loser reads the
    winner's."""
    live = PlayerLink.objects.filter(revoked_at__isnull=True, **follows).first()
    if live is not None:
        return live
    try:
        with transaction.atomic():
            return PlayerLink.objects.create(event_id=event_id, **follows)
    except IntegrityError:
        return PlayerLink.objects.get(revoked_at__isnull=True, **follows)


def link_by_token(token: str) -> PlayerLink | None:
    """The live link of a token, with what its page reads first; None for an unknown or
    revoked token (the page cannot tell the two apart, and neither can a guesser)."""
    if not token or len(token) > TOKEN_MAX:
        return None
    return (
        PlayerLink.objects.select_related("event", "entry", "entry__player", "alternate")
        .filter(token=token, revoked_at__isnull=True)
        .first()
    )


def link_renew(*, entry: Entry, actor: Actor) -> PlayerLink:
    """A lost phone: the entry's live link stops working and a new one is made (for a new
    card). Logged."""
    with transaction.atomic():
        PlayerLink.objects.select_for_update(no_key=True).filter(
            entry=entry, revoked_at__isnull=True
        ).update(revoked_at=timezone.now())
        link = PlayerLink.objects.create(event_id=entry.event_id, entry=entry)
        log_record(
            event=entry.event,
            actor=actor,
            action="player_link_renew",
            summary=Text(
                gettext_noop("New player's page link for entry #%(number)s"),
                number=entry.number,
            ),
            data={"entry": entry.pk},
        )
    return link


def player_url(link: PlayerLink) -> str:
    """The page's address as other devices reach it (PUBLIC_URL, else the room's address):
    what the QR code, the API's `player_url` and the seat lookup give."""
    return public_url(reverse("players:me", args=[link.token]))


def links_of_entries(entries: list[Entry]) -> dict[int, PlayerLink]:
    """Each entry's live link by entry id, the missing ones made together: a table's or the
    event's seat cards at once, in three statements rather than two per card."""
    ids = [entry.pk for entry in entries]
    live = _by_entry(PlayerLink.objects.filter(entry_id__in=ids, revoked_at__isnull=True))
    missing = [entry for entry in entries if entry.pk not in live]
    if missing:
        PlayerLink.objects.bulk_create(
            [PlayerLink(event_id=entry.event_id, entry=entry) for entry in missing],
            ignore_conflicts=True,  # made meanwhile by another asker: read below
        )
        made = PlayerLink.objects.filter(
            entry_id__in=[entry.pk for entry in missing], revoked_at__isnull=True
        )
        live.update(_by_entry(made))
    return live


def _by_entry(links: Iterable[PlayerLink]) -> dict[int, PlayerLink]:
    """Links by their entry's id (asked by entry: none is an alternate's, entry-less)."""
    return {link.entry_id: link for link in links if link.entry_id is not None}
