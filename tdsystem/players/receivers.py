"""A seat opens: the alternates list hears it from results and seating.

Each receiver acts after the change commits, in its own transaction (the bust-out or the
tables' set-up is done: a failure here must not undo or fail it; the desk can still call
by hand, and the next seat opened tries again).
"""

from __future__ import annotations

import logging
from functools import partial

from django.db import transaction
from django.dispatch import receiver

from tdsystem.core.actors import Actor
from tdsystem.results.signals import players_out
from tdsystem.seating.signals import tables_changed

from .alternates import alternates_seats_opened

ACTOR = Actor(label="alternates")
logger = logging.getLogger(__name__)


def _opened(event_id: int, opened: int | None) -> None:
    try:
        alternates_seats_opened(event_id=event_id, opened=opened, actor=ACTOR)
    except Exception:
        logger.exception("event %s: the alternates list was not called", event_id)


@receiver(players_out, dispatch_uid="players-alternates-out")
def seats_of_players_out(sender, event_id: int, finish_ids: list[int], **kwargs) -> None:
    if finish_ids:
        transaction.on_commit(partial(_opened, event_id, len(finish_ids)))


@receiver(tables_changed, dispatch_uid="players-alternates-tables")
def seats_of_tables_opened(sender, event_id: int, opened=(), **kwargs) -> None:
    if opened:
        transaction.on_commit(partial(_opened, event_id, None))  # as many as seats free
