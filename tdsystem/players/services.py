"""What a player does on their own page: "I'm there" after a move."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import locks_take
from tdsystem.core.log import Text, log_record
from tdsystem.seating.models import Move

from .errors import PlayersRefused
from .models import PlayerLink


def move_there(*, link: PlayerLink, move_id: int) -> Move:
    """The player tapped "I'm there" on a move slip of their own entry: the floor sees the
    time on the slip. A second tap changes nothing; a slip of another entry (or none) is
    refused. Takes the event's lock so every page reads the change (core.screencache)."""
    if link.entry_id is None:
        raise PlayersRefused(gettext("This page follows no seat."))
    with transaction.atomic():
        locks_take(event=link.event_id)
        move = (
            Move.objects.select_related("entry__player", "event")
            .filter(pk=move_id, entry_id=link.entry_id)
            .first()
        )
        if move is None:
            raise PlayersRefused(gettext("No such move for this seat."), field="move")
        if move.player_there_at is None:
            move.player_there_at = timezone.now()
            Move.objects.filter(pk=move.pk, player_there_at=None).update(
                player_there_at=move.player_there_at
            )
            log_record(
                event=move.event,
                actor=Actor(label=f"player #{move.entry.number}"),
                action="move.player_there",
                summary=Text(gettext_noop("Player there: %(move)s"), move=move.text()),
                data={"move": move.pk},
            )
    return move
