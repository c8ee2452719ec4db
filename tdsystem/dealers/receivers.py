"""The rotation follows the tables: seating tells which tables came into play, were
released (`tables_changed`) or broke (`moves_applied`'s `broken`) inside its transaction;
the rotation catches up after the commit, in a transaction of its own, so a change rolled
back moves no dealer and a dealers' fault never fails the seating's change. Whatever is
missed here, the next dealers' change, push or tick makes good (services' `_Locked`)."""

from __future__ import annotations

import logging

from django.db import transaction
from django.dispatch import receiver

from tdsystem.core.actors import Actor
from tdsystem.seating.models import EventTable, Move
from tdsystem.seating.signals import moves_applied, tables_changed

from . import services

ACTOR = Actor(label="dealers")
logger = logging.getLogger(__name__)


def _sync_after_commit(event_id: int) -> None:
    def run() -> None:
        try:
            services.rotation_sync(event_id=event_id, actor=ACTOR)
        except Exception:  # the tables changed; the rotation catches up at its next change
            logger.exception("the dealers' rotation did not follow the tables")

    transaction.on_commit(run)


@receiver(tables_changed, sender=EventTable, dispatch_uid="dealers-tables")
def tables_set_up(sender, event_id: int, **kwargs) -> None:
    _sync_after_commit(event_id)


@receiver(moves_applied, sender=Move, dispatch_uid="dealers-moves")
def tables_broken(sender, event_id: int, broken: list[int] = (), **kwargs) -> None:  # type: ignore[assignment]
    if broken:
        _sync_after_commit(event_id)
