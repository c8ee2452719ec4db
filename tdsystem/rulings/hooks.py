"""What the ruling page may learn from the apps that know the tables.

The rulings app imports neither seating nor results: the app that spans them (tdsystem/venue)
registers a reader here from its AppConfig.ready, and the page asks it for the hand being
played at an event's table. Without a reader the page simply starts from the event.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tdsystem.events.models import Event


@dataclass(frozen=True, slots=True)
class TableHand:
    """The players of a table's current hand, clockwise from the button (an empty button
    seat left out), with the dead button as the table's positions give it (D11)."""

    number: int
    players: tuple[tuple[str, int], ...]  # (name, chips)
    dead_small_blind: bool = False
    dead_button: bool = False


# The hand at table ``number`` of an event, or None when the reader does not know it.
TableReader = Callable[["Event", int], "TableHand | None"]

table_readers: list[TableReader] = []


def register(*, table_reader: TableReader) -> None:
    if table_reader not in table_readers:
        table_readers.append(table_reader)


def table_hand(event: Event, number: int) -> TableHand | None:
    """What the first reader that knows the table says about it."""
    for read in table_readers:
        found = read(event, number)
        if found is not None:
            return found
    return None
