"""What registration asks the apps above seating about the money (docs/architecture.md,
"When a lower app needs something from a higher one").

Places and prizes are results': before a purchase changes the field or the prize pool,
registration asks how many places are paid (late registration closes at the money, by the
rule set) and what the purchase would change among the players already in the money (the
desk confirms it; a prize already paid is never changed). Results registers both from its
AppConfig.ready; without it nothing is paid and nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from tdsystem.core.numbers import grouped

if TYPE_CHECKING:
    from tdsystem.events.models import Event


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


# (event) -> the places the event pays for its field as it is now.
PaidPlaces = Callable[["Event"], int]
# (event, entries added, amount added to the prize pool) -> the changes among the paid.
FieldChanges = Callable[["Event", int, Decimal], list[PrizeChange]]

_paid_places: list[PaidPlaces] = []
_field_changes: list[FieldChanges] = []


def register(*, paid_places: PaidPlaces, field_changes: FieldChanges) -> None:
    """Registering twice is harmless."""
    if paid_places not in _paid_places:
        _paid_places.append(paid_places)
    if field_changes not in _field_changes:
        _field_changes.append(field_changes)


def paid_places(event: Event) -> int:
    return max((ask(event) for ask in _paid_places), default=0)


def field_changes(event: Event, entries: int, pool: Decimal) -> list[PrizeChange]:
    changes: list[PrizeChange] = []
    for ask in _field_changes:
        changes += ask(event, entries, pool)
    return changes
