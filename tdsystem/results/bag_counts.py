"""A bag's count is the player's chip count: the chip count history is the truth of a
stack. Seating's bags (`seating.services.dayend.bag_hooks`) call this in their own
transaction, so a bag and its count are recorded together or not at all."""

from __future__ import annotations

from tdsystem.core.actors import Actor
from tdsystem.events.models import Event
from tdsystem.seating.models import Bag

from .services.chips import chip_counts_record


def bags_counted(event: Event, bags: list[Bag], actor: Actor) -> None:
    chip_counts_record(
        event_id=event.pk, counts={bag.entry.number: bag.chips for bag in bags}, actor=actor
    )
