"""Prizes follow the field: a late entry, re-entry, rebuy or add-on changes the field size
or the pool, so the places and prizes already awarded are worked out again.

Purchases are the seating app's; listening for them keeps the prizes right without the
registration code knowing about results. The work runs after the purchase commits, in its
own transaction (it takes the event's lock), and only when someone is already out.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from tdsystem.core.actors import Actor
from tdsystem.seating.models import Purchase

from .models import Finish

ACTOR = Actor(label="results")


@receiver(post_save, sender=Purchase, dispatch_uid="results-field-changed")
def field_changed(sender, instance: Purchase, created: bool, **kwargs) -> None:
    if not created:
        return
    event_id = instance.event_id

    def refresh() -> None:
        from .services import standings_update

        if Finish.objects.filter(event_id=event_id, undone_at__isnull=True).exists():
            standings_update(event_id=event_id, actor=ACTOR)

    transaction.on_commit(refresh)
