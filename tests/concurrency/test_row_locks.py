"""A bust-out and a row made at the same moment that refers to what it locks, on PostgreSQL.

The floor opens a player in the seating console, and its player's-page panel makes the
entry's link (`players.links`: a row referring to the event and the entry, made without
the event's lock); a second floor person busts that player out at the same moment. The
link checks its references at its commit (`FOR KEY SHARE` of the entry and the event).
When the bust-out locked the event's and the entry's rows `FOR UPDATE`, the two could
each hold one row the other waited for: PostgreSQL broke the deadlock by failing the
bust-out ("Someone else is changing this event right now"). Locked `FOR NO KEY UPDATE`,
both go through.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from tdsystem.players.links import link_of_entry
from tdsystem.players.models import PlayerLink
from tdsystem.results.services import bustouts
from tdsystem.seating.models import Entry
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.concurrency.threads import errors_of, run_together
from tests.fixtures import make_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_player_s_link_made_during_their_bust_out_lets_both_through(settings):
    settings.LOCK_TIMEOUT_SECONDS = 10
    event = make_event(600, 600)
    players = arrange(event, {1: [1, 2, 3, 4], 2: [1, 2, 3, 4]})
    entry = players["T1S2"]
    checked, busting = threading.Event(), threading.Event()

    def link():
        with transaction.atomic():
            # The link's check of its entry first (as at its commit), the event's after.
            with connection.cursor() as cursor:
                cursor.execute(
                    f"SELECT 1 FROM {Entry._meta.db_table} WHERE id = %s FOR KEY SHARE",
                    [entry.pk],
                )
            made = link_of_entry(entry)
            checked.set()
            busting.wait(5)
            threading.Event().wait(1.5)  # the bust-out is at the entry's row by now
        return made.pk

    def bust_out():
        checked.wait(5)
        busting.set()
        return bustouts.bustout_record(event_id=event.pk, entry_ids=[entry.pk], actor=ACTOR)

    results = run_together(link, bust_out)
    assert errors_of(results) == []
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.BUSTED
    assert PlayerLink.objects.filter(entry=entry, revoked_at__isnull=True).count() == 1
