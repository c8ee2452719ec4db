"""Move slips: the floor confirms a player has moved."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.log import Text, log_record
from tdsystem.events.models import Event

from ..errors import SeatingError
from ..models import Move


def move_acknowledge(*, event_id: int, move_id: int, actor: Actor) -> Move:
    """The floor confirms a move slip was carried out. A second confirmation is a no-op."""
    now = timezone.now()
    with transaction.atomic():
        updated = Move.objects.filter(
            pk=move_id, event_id=event_id, acknowledged_at__isnull=True
        ).update(acknowledged_at=now, acknowledged_by=actor.user)
        rows = Move.objects.select_related("entry__player", "event").filter(
            pk=move_id, event_id=event_id
        )
        move = rows.first()
        if move is None:
            raise SeatingError(
                gettext("no move slip %(move)s in this event") % {"move": move_id}, field="move"
            )
        if updated:
            log_record(
                event=move.event,
                actor=actor,
                action="move.ack",
                summary=Text(gettext_noop("Move done: %(move)s"), move=move.text()),
                data={"move": move.pk},
            )
    return move


def moves_acknowledge(*, event_id: int, actor: Actor, to_table: int | None = None) -> int:
    """The floor confirms every slip still waiting (to one table, or all of them) at once,
    after a break or a redraw. Returns how many it confirmed; a second tap confirms none
    (the same conditional update as one slip's)."""
    now = timezone.now()
    with transaction.atomic():
        waiting = Move.objects.filter(event_id=event_id, acknowledged_at__isnull=True)
        if to_table is not None:
            waiting = waiting.filter(to_table=to_table)
        ids = list(waiting.values_list("pk", flat=True))
        count = Move.objects.filter(pk__in=ids, acknowledged_at__isnull=True).update(
            acknowledged_at=now, acknowledged_by=actor.user
        )
        if count:
            summary = (
                Text(gettext_noop("Moves done: %(count)s slips at once"), count=count)
                if to_table is None
                else Text(
                    gettext_noop("Moves done: %(count)s slips to table %(table)s at once"),
                    count=count,
                    table=to_table,
                )
            )
            log_record(
                event=Event.objects.get(pk=event_id),
                actor=actor,
                action="move.ack_all",
                summary=summary,
                data={"moves": ids, "table": to_table},
            )
    return count
