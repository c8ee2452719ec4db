"""What results hears from seating, and what it tells the apps above it.

Prizes follow the field: a late entry, re-entry, rebuy or add-on changes the field size
or the pool, so the places and prizes already awarded are worked out again.

Purchases are the seating app's; listening for them keeps the prizes right without the
registration code knowing about results. The work runs after the purchase commits, in its
own transaction (it takes the event's lock), and only when someone is already out.

The purchase is saved by then, so the refresh must not fail the request that made it (an
error there would answer "nothing was changed", which is false). If the event is busy, a
task tries again shortly; if the payout plan cannot be used for the new field, the payouts
page says so and saving a plan works the prizes out. Either way the stored figures no longer
match the field, so the next bust-out works every place and prize out again too
(`standings.is_current`).
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import Signal, receiver

from tdsystem.core.actors import Actor
from tdsystem.core.locking import Busy
from tdsystem.seating import signals as seating
from tdsystem.seating.models import Purchase

from .errors import ResultsError
from .models import Finish

ACTOR = Actor(label="results")

# Sent inside a bust-out's transaction (results.services.bustouts): `event_id` and
# `finish_ids`, the Finish rows of the players it put out (the winner's too when it ended
# the event). A receiver above results acts on them on commit.
players_out = Signal()
logger = logging.getLogger(__name__)


def field_refresh(event_id: int) -> None:
    """After a purchase commits: the places and prizes for the new field, if anyone is out."""
    from . import tasks
    from .services import standings_update

    if not Finish.objects.filter(event_id=event_id, undone_at__isnull=True).exists():
        return
    try:
        standings_update(event_id=event_id, actor=ACTOR)
    except ResultsError as exc:
        logger.warning("event %s: prizes not worked out after a purchase: %s", event_id, exc)
    except Busy:
        logger.warning("event %s busy after a purchase: prizes worked out again later", event_id)
        try:
            tasks.standings_update.apply_async(args=[event_id], countdown=tasks.RETRY_SECONDS)
        except Exception:  # no broker: the next bust-out still works them out
            logger.exception("event %s: the prize refresh could not be queued", event_id)


@receiver(post_save, sender=Purchase, dispatch_uid="results-field-changed")
def field_changed(sender, instance: Purchase, created: bool, **kwargs) -> None:
    if not created:
        return
    event_id = instance.event_id
    transaction.on_commit(lambda: field_refresh(event_id))


@receiver(seating.bags_recorded, dispatch_uid="results-bags-counted")
def bags_counted(sender, event, bags, actor: Actor, **kwargs) -> None:
    """A bag's count is the player's chip count, recorded in the bags' own transaction."""
    from .services.chips import chip_counts_record

    chip_counts_record(
        event_id=event.pk, counts={bag.entry.number: bag.chips for bag in bags}, actor=actor
    )


@receiver(seating.places_asked, dispatch_uid="results-places")
def places_answer(sender, event, entry_ids: list[int], **kwargs) -> dict[int, int]:
    from .selectors import places_of

    return places_of(event, entry_ids)


@receiver(seating.paid_places_asked, dispatch_uid="results-paid-places")
def paid_places_answer(sender, event, **kwargs) -> int:
    from .services.cashier import paid_places

    return paid_places(event)


@receiver(seating.field_changes_asked, dispatch_uid="results-field-changes")
def field_changes_answer(sender, event, entries: int, pool, **kwargs) -> list:
    from .services.cashier import field_changes

    return field_changes(event, entries, pool)
