"""Chip counts the floor enters, for the average, the chip leader and the count list.

One way in: `chip_counts_record` takes one player's count (the console) or a whole table's
(the table page, the API) and records them all or none. Nothing is overwritten: the
current count (`ChipCount`) moves on, and every count stays in `ChipCountHistory` with who
and when.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Text, log_record
from tdsystem.core.numbers import STACK
from tdsystem.events.models import Event
from tdsystem.seating.models import Entry

from ..errors import ResultsError
from ..models import ChipCount, ChipCountHistory

# The most chips a stack, a count or a short big blind may be entered with: 15 digits, far
# above any real stack and well inside the 64-bit columns. The API's schema and the pages'
# forms both state it.
MAX_CHIPS = STACK.high


def chip_count_record(*, event_id: int, entry_number: int, chips: int, actor: Actor) -> ChipCount:
    """One player's count (the console's form): `chip_counts_record` with one count."""
    counts = chip_counts_record(event_id=event_id, counts={entry_number: chips}, actor=actor)
    return counts[0]


def chip_counts_record(
    *,
    event_id: int,
    counts: Mapping[int, int],
    actor: Actor,
    table: int | None = None,
) -> list[ChipCount]:
    """Counts of players still in, by entry number, recorded together or not at all.

    Each becomes its player's current count and is added to the history with who and when.
    With `table`, every player must sit at that table (a table device counts its own).
    `chips` are 1 to MAX_CHIPS (the forms' and the schema's rule); a count for a player who
    is out, unknown or elsewhere refuses them all, naming the player."""
    if not counts:
        raise ResultsError(_("no chip counts given"), field="counts")
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=ResultsError)
        rows = Entry.objects.filter(event=event, number__in=list(counts))
        entries = {e.number: e for e in rows.select_related("player", "table")}
        for number in sorted(counts):
            _check(entries.get(number), number, counts[number], table)
        now = timezone.now()
        done = []
        for number in sorted(counts):
            entry = entries[number]
            count, _created = ChipCount.objects.update_or_create(
                entry=entry,
                defaults={
                    "event": event,
                    "chips": counts[number],
                    "counted_at": now,
                    "actor_label": actor.label,
                },
            )
            count.entry = entry
            done.append(count)
        ChipCountHistory.objects.bulk_create(
            ChipCountHistory(
                entry=c.entry, event=event, chips=c.chips, counted_at=now, actor_label=actor.label
            )
            for c in done
        )
        log_record(
            event=event,
            actor=actor,
            action="chips.count",
            summary=_summary(done, table),
            at=now,
            data={"table": table, "counts": {str(c.entry.number): c.chips for c in done}},
        )
    return done


def _check(entry: Entry | None, number: int, chips: int, table: int | None) -> None:
    if entry is None:
        raise ResultsError(
            _("no entry #%(number)s in this event") % {"number": number}, field="entry"
        )
    who = {"number": entry.number, "name": entry.player.name, "table": table}
    if entry.status != Entry.Status.ACTIVE:
        raise ResultsError(_("#%(number)s %(name)s is out") % who, field="entry")
    if table is not None and (entry.table is None or entry.table.number != table):
        raise ResultsError(
            _("#%(number)s %(name)s does not sit at table %(table)s") % who, field="entry"
        )
    if not 1 <= chips <= MAX_CHIPS:
        raise ResultsError(
            _("#%(number)s %(name)s: give a chip count from 1 to 999,999,999,999,999") % who,
            field="chips",
        )


def _summary(done: list[ChipCount], table: int | None) -> Text:
    counts = ", ".join(f"#{c.entry.number} {c.chips:,}" for c in done)
    if table is None:
        return Text(gettext_noop("Chip counts: %(counts)s"), counts=counts)
    return Text(
        gettext_noop("Chip counts at table %(table)s: %(counts)s"), table=table, counts=counts
    )
