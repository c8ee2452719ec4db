"""What seating tells the apps above it, and the money it asks them about (they connect
from their AppConfig.ready: results does; docs/architecture.md, "Results and seating")."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.dispatch import Signal

from tdsystem.core.numbers import grouped
from tdsystem.events.models import Event

# Sent inside the transaction that wrote a plan's moves (a balancing move, a table break,
# a redraw, a reserved seat): `event_id`, `move_ids` (the Move rows, the slips) and
# `broken` (the numbers of the tables that broke). A receiver that acts on them does so on
# commit: the plan may still be rolled back.
moves_applied = Signal()

# Sent inside the transaction that put tables into play or released them (the console's
# table set-up): `event_id`, `opened` and `released` (table numbers). Tables broken by a
# plan are told by `moves_applied`'s `broken`. A receiver acts on commit.
tables_changed = Signal()

# Sent inside the transaction that recorded bags (a table bagged, a bag corrected): `event`,
# `bags` (the Bag rows) and `actor`. Results records each count as the player's chip count
# in the same transaction (the chip count history is the truth of a stack), so a bag and
# its count are written together or not at all.
bags_recorded = Signal()

# Where a player out finished is results' (its Finish): the seat lookup and the console's
# entry panel ask, to say "Out in place 17". Sent with `event` and `entry_ids`; the
# receiver answers {entry id: place} for those that finished (the first place of a tie).
places_asked = Signal()

# Places and prizes are results': before a purchase changes the field or the prize pool,
# registration asks how many places are paid (late registration closes at the money, by
# the rule set) and what the purchase would change among the players already in the money
# (the desk confirms it; a prize already paid is never changed). Sent with `event` (and
# `entries`, `pool` for the changes) in the purchase's transaction; the receiver answers.
# With none connected nothing is paid and nothing changes.
paid_places_asked = Signal()
field_changes_asked = Signal()


@dataclass(frozen=True)
class PrizeChange:
    """A player in the money whose place or prize a purchase would change."""

    number: int
    name: str
    place_before: str
    place_after: str
    prize_before: Decimal
    prize_after: Decimal
    paid: bool

    @property
    def moves(self) -> bool:
        return self.place_before != self.place_after

    @property
    def prize_before_text(self) -> str:
        return _money(self.prize_before)

    @property
    def prize_after_text(self) -> str:
        return _money(self.prize_after)


def _money(amount: Decimal) -> str:
    """1200.00 -> "1,200", 1234.50 -> "1,234.50", in the reader's separators."""
    amount = Decimal(amount)
    return grouped(amount, 0 if amount == amount.to_integral_value() else 2)


def places_of(event: Event, entry_ids: list[int]) -> dict[int, int]:
    """The places these entries finished in, for those out (none with nobody to answer)."""
    places: dict[int, int] = {}
    for _receiver, answer in places_asked.send(sender=Event, event=event, entry_ids=entry_ids):
        places.update(answer)
    return places


def paid_places(event: Event) -> int:
    """The places the event pays for its field as it is now (0 with nobody to answer)."""
    answers = paid_places_asked.send(sender=Event, event=event)
    return max((int(answer) for _receiver, answer in answers), default=0)


def field_changes(event: Event, entries: int, pool: Decimal) -> list[PrizeChange]:
    """What `entries` more entries and `pool` more in the prize pool would change among the
    players already in the money. The caller holds the event's lock."""
    answers = field_changes_asked.send(sender=Event, event=event, entries=entries, pool=pool)
    return [change for _receiver, changes in answers for change in changes]
