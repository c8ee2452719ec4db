"""What the chip counts say: the count list by chips, and the counted total against the
chips in play (the console, the table page, the public chip-count page and the API)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Max
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tdsystem.core.numbers import grouped
from tdsystem.events.models import Event
from tdsystem.events.selectors import field_figures
from tdsystem.seating.models import Entry, Purchase

from .models import BustOut, ChipCount


@dataclass(frozen=True)
class CountRow:
    """A player still in: the latest count (None: never counted) and its rank by chips."""

    rank: int | None
    entry: Entry
    count: ChipCount | None

    @property
    def chips(self) -> int | None:
        return self.count.chips if self.count else None

    @property
    def age(self) -> str:
        """How old the count is: "just now", "12 minutes ago" ("" when never counted)."""
        if self.count is None:
            return ""
        if timezone.now() - self.count.counted_at < timedelta(minutes=1):
            return _("just now")
        return _("%(age)s ago") % {"age": timesince(self.count.counted_at)}


@dataclass(frozen=True)
class ChipTotal:
    """The counted chips against the chips in play.

    In play: every chip bought (buy-ins, re-entries, rebuys, add-ons: the entries' `chips`,
    busted ones included, since their chips went to the players still in) minus the chips
    taken out of play (`chips_removed`). The check is exact only when every player still in
    is counted; `stale` counts were taken before the last purchase or bust-out, when chips
    may have changed hands since."""

    in_play: int
    counted_chips: int
    counted: int
    players: int
    stale: int
    since: datetime | None

    @property
    def all_counted(self) -> bool:
        return self.players > 0 and self.counted == self.players

    @property
    def difference(self) -> int:
        """Counted minus in play (meaningful once all are counted)."""
        return self.counted_chips - self.in_play

    @property
    def summary(self) -> str:
        return ngettext(
            "Counted %(counted_chips)s of %(in_play)s chips in play "
            "(%(counted)s of %(players)s player counted)",
            "Counted %(counted_chips)s of %(in_play)s chips in play "
            "(%(counted)s of %(players)s players counted)",
            self.players,
        ) % {
            "counted_chips": grouped(self.counted_chips),
            "in_play": grouped(self.in_play),
            "counted": self.counted,
            "players": self.players,
        }

    @property
    def warning(self) -> str | None:
        """When every player still in is counted and the counts do not add up."""
        if not self.all_counted or not self.difference:
            return None
        figures = {"chips": grouped(abs(self.difference))}
        if self.difference > 0:
            return _("The counts add up to %(chips)s more than the chips in play.") % figures
        return _("The counts add up to %(chips)s less than the chips in play.") % figures

    @property
    def matches(self) -> bool:
        return self.all_counted and not self.difference


def count_rows(event: Event, table: int | None = None) -> list[CountRow]:
    """The players still in, largest count first (equal counts: the earlier count first),
    then those never counted by entry number; `table`: only that table's, by seat."""
    entries = Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).select_related(
        "player", "table", "chip_count"
    )
    if table is not None:
        entries = entries.filter(table__number=table, table__in_play=True).order_by("seat")
        return [CountRow(None, e, _count_of(e)) for e in entries]
    counted: list[Entry] = []
    never: list[Entry] = []
    for entry in entries.order_by("number"):
        (counted if _count_of(entry) else never).append(entry)
    counted.sort(key=lambda e: (-e.chip_count.chips, e.chip_count.counted_at, e.number))
    rows = [CountRow(rank, e, e.chip_count) for rank, e in enumerate(counted, start=1)]
    return rows + [CountRow(None, e, None) for e in never]


def _count_of(entry: Entry) -> ChipCount | None:
    try:
        return entry.chip_count
    except ChipCount.DoesNotExist:
        return None


def chip_total(event: Event, rows: list[CountRow] | None = None) -> ChipTotal:
    """The counted total of the players still in against the chips in play."""
    rows = count_rows(event) if rows is None else rows
    counts = [r.count for r in rows if r.count is not None]
    bought = Purchase.objects.filter(event=event).aggregate(at=Max("created_at"))["at"]
    busted = BustOut.objects.filter(event=event, undone_at__isnull=True).aggregate(
        at=Max("recorded_at")
    )["at"]
    since = max((t for t in (bought, busted) if t is not None), default=None)
    return ChipTotal(
        in_play=field_figures(event)["chips_in_play"],
        counted_chips=sum(c.chips for c in counts),
        counted=len(counts),
        players=len(rows),
        stale=sum(1 for c in counts if since and c.counted_at < since),
        since=since,
    )
