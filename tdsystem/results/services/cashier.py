"""The cashier's mark: a prize paid out. From then on it never changes.

A late entry, a re-entry, a rebuy or an add-on that would move a paid place or change its
prize is refused before it is sold (seating asks `field_changes`); a payout plan, an undo
or a refresh that would change it is refused by `standings_refresh` itself. A mark made
by mistake is taken back by a director, and the log keeps both.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Grouped, Text, log_record
from tdsystem.events.models import Event
from tdsystem.seating.signals import PrizeChange

from ..errors import ResultsError
from ..models import Finish
from . import standings


def prize_paid_set(*, event_id: int, entry_number: int, paid: bool, actor: Actor) -> Finish:
    """Mark the prize of entry `entry_number` paid (or, `paid` false, not paid after all).

    Refused for an entry with no place or no prize. Marking a prize paid twice, or not
    paid twice, changes nothing and logs nothing."""
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=ResultsError)
        finish = (
            Finish.objects.select_for_update(of=("self",), no_key=True)
            .select_related("entry__player")
            .filter(event=event, undone_at__isnull=True, entry__number=entry_number)
            .first()
        )
        if finish is None:
            raise ResultsError(
                gettext("#%(number)s has no place in this event yet") % {"number": entry_number},
                field="entry",
            )
        if (finish.paid_at is not None) == paid:
            return finish
        if paid and not finish.prize:
            raise ResultsError(
                gettext("#%(number)s %(name)s won no prize: there is nothing to pay")
                % {"number": entry_number, "name": finish.entry.player.name}
            )
        finish.paid_at = timezone.now() if paid else None
        finish.paid_by = actor.label if paid else ""
        finish.save(update_fields=["paid_at", "paid_by"])
        log_record(
            event=event,
            actor=actor,
            action="prize.paid" if paid else "prize.unpaid",
            summary=Text(
                gettext_noop("Prize of #%(number)s %(name)s paid: %(prize)s for place %(place)s")
                if paid
                else gettext_noop(
                    "Prize of #%(number)s %(name)s marked not paid: %(prize)s for place %(place)s"
                ),
                number=entry_number,
                name=finish.entry.player.name,
                place=finish.place_label,
                prize=Grouped(finish.prize),
            ),
            data={"entry": finish.entry_id, "number": entry_number, "prize": str(finish.prize)},
        )
    return finish


def field_changes(event: Event, entries: int, pool: Decimal) -> list[PrizeChange]:
    """Seating's question before a purchase (`seating.signals.field_changes_asked`): what
    `entries` more entries and `pool` more in the prize pool would change among the
    players already in the money. The caller holds the event's lock."""
    return standings.field_change_preview(event, entries=entries, pool=pool)


def paid_places(event: Event) -> int:
    """How many places the event pays for its field as it is now (0 when its payout plan
    cannot be used, or for a flight, whose prizes are its event's): seating asks it
    (`seating.signals.paid_places_asked`), the shot clock calls it."""
    field = standings.field_read(event)
    try:
        prizes = standings.prizes_by_place(
            standings.plan_or_default(event), field.entries, field.pool
        )
    except ResultsError:
        return 0
    return sum(1 for prize in prizes if prize > 0)
