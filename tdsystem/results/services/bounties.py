"""Bounties of a knockout or progressive knockout event, as `Bounty` rows.

The bounty is part of the buy-in: each entry's `bounty_amount` is its head, and the
prize pool of the places is what is left (standings.field_read). A bust-out names who
eliminated its players (`eliminated_by`, entries at the same table, still in); each player
out is shared by all of them (a split pot). The engine works out what moves; the rows
keep it, one per eliminator and player out. A head is the bounty plus what its player
won onto it (PKO), so it is read from the rows, never stored on the entry; undo marks the
bust-out's rows undone and every amount goes back. What a bust-out moves is the engine's
decision (`engine/bustout.py`, `knocks_of`), from the heads and eliminators read here.

Callers hold the event's row lock (every bust-out and undo does).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.db.models import Sum
from django.utils.translation import gettext as _

from tdsystem.engine import bounties as rules
from tdsystem.engine.bustout import Knock
from tdsystem.events.models import Event
from tdsystem.seating.models import Entry, EventTable

from ..errors import ResultsError
from ..models import Bounty, BustOut

UNIT = Decimal("0.01")  # amounts are kept in cents (the money columns' two decimals)


def eliminators_for(
    event: Event, out: Sequence[Entry], eliminated_by: Sequence[int] | None
) -> list[Entry]:
    """The report's eliminators, checked: required in a bounty event, in this event and
    still in, not among the players out, at their table. Ordered clockwise from the
    button (the leftover units of a split go first to the first, as an odd chip does)."""
    ids = list(eliminated_by or ())
    if not ids:
        if event.has_bounties:
            raise ResultsError(
                _("this is a bounty event: name who eliminated the players (eliminated by)"),
                field="eliminated_by",
            )
        return []
    if len(set(ids)) != len(ids):
        raise ResultsError(_("an eliminator is named twice"), field="eliminated_by")
    if set(ids) & {e.pk for e in out}:
        raise ResultsError(_("a player out cannot be their own eliminator"), field="eliminated_by")
    found = {
        e.pk: e
        for e in Entry.objects.select_related("player", "table").filter(event=event, pk__in=ids)
    }
    missing = [i for i in ids if i not in found]
    if missing:
        raise ResultsError(
            _("no entry %(id)s in this event") % {"id": missing[0]}, field="eliminated_by"
        )
    table = out[0].table
    for entry in found.values():
        if entry.status != Entry.Status.ACTIVE:
            raise ResultsError(
                _("#%(number)s %(name)s is out: only a player still in eliminates")
                % {"number": entry.number, "name": entry.player.name},
                field="eliminated_by",
            )
        if table is not None and entry.table_id != table.pk:
            raise ResultsError(
                _("#%(number)s %(name)s does not sit at table %(table)s")
                % {"number": entry.number, "name": entry.player.name, "table": table.number},
                field="eliminated_by",
            )
    return _clockwise([found[i] for i in ids], table, event.seats_per_table)


def _clockwise(entries: list[Entry], table: EventTable | None, seats: int) -> list[Entry]:
    button = table.button if table is not None and table.button is not None else 0
    return sorted(entries, key=lambda e: ((e.seat or 0) - button - 1) % (seats + 1))


def heads(event: Event, entry_ids: Sequence[int]) -> dict[int, Decimal]:
    """Each entry's head now: the bounty, plus what it won onto it in PKO."""
    amount = Decimal(event.bounty_amount)
    grown = dict(
        Bounty.objects.filter(event=event, eliminator__in=entry_ids, undone_at__isnull=True)
        .values("eliminator")
        .annotate(total=Sum("to_head"))
        .values_list("eliminator", "total")
    )
    return {pk: amount + (grown.get(pk) or Decimal(0)) for pk in entry_ids}


def knocks_write(event: Event, bustout: BustOut, knocks: Sequence[Knock]) -> list[Bounty]:
    """Keep what the engine decided the bounties move (`engine/bustout.py`), one row per
    eliminator and player out (and the winner's own head)."""
    rows = [
        Bounty(
            event=event,
            bustout=bustout,
            eliminated_id=k.eliminated,
            eliminator_id=k.eliminator,
            paid=k.paid,
            to_head=k.to_head,
        )
        for k in knocks
    ]
    return Bounty.objects.bulk_create(rows) if rows else []


def bounties_undo(bustout: BustOut, now) -> int:
    """The bust-out's bounties go back: its rows are marked undone."""
    return Bounty.objects.filter(bustout=bustout, undone_at__isnull=True).update(undone_at=now)


def kind_of(event: Event) -> rules.BountyType:
    if event.bounty_type == Event.BountyType.KNOCKOUT:
        return rules.KNOCKOUT
    if event.bounty_type == Event.BountyType.PROGRESSIVE:
        return rules.PROGRESSIVE
    return rules.NONE
