"""What the players' side hears from results and seating: players out (their webhooks, and
the alternates list called to the seats they left) and tables put into play (the list).

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
from tdsystem.core.sql import fetch_one
from tdsystem.results.signals import players_out
from tdsystem.seating.signals import tables_changed

from . import webhooks
from .alternates import alternates_seats_opened, anyone_waiting_sql
from .models import Webhook

ACTOR = Actor(label="alternates")
logger = logging.getLogger(__name__)


def _opened(event_id: int, opened: int | None, waiting: bool | None = None) -> None:
    try:
        alternates_seats_opened(event_id=event_id, opened=opened, actor=ACTOR, waiting=waiting)
    except Exception:
        logger.exception("event %s: the alternates list was not called", event_id)


def _listening(event_id: int) -> tuple[bool, bool]:
    """(whether any webhook is active, whether anyone waits on the event's alternates
    list): asked after every bust-out's commit, where the answer is almost always no to
    both, in one small statement."""
    waiting, params = anyone_waiting_sql()
    row = fetch_one(f"SELECT {webhooks.any_active_sql()}, {waiting}", [event_id, *params])
    return (bool(row[0]), bool(row[1])) if row else (False, False)


def _out(event_id: int, finish_ids: list[int]) -> None:
    try:
        active, waiting = _listening(event_id)
    except Exception:  # the database gone since the commit: the next change tries again
        logger.exception("event %s: the players out not told", event_id)
        return
    webhooks.events_send(Webhook.Kind.OUT, lambda: webhooks.out_payloads(finish_ids), active=active)
    _opened(event_id, len(finish_ids), waiting=waiting)


@receiver(players_out, dispatch_uid="players-out")
def players_of_the_event_out(sender, event_id: int, finish_ids: list[int], **kwargs) -> None:
    if finish_ids:
        transaction.on_commit(partial(_out, event_id, list(finish_ids)))


@receiver(tables_changed, dispatch_uid="players-alternates-tables")
def seats_of_tables_opened(sender, event_id: int, opened=(), **kwargs) -> None:
    if opened:
        transaction.on_commit(partial(_opened, event_id, None))  # as many as seats free
