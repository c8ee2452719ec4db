"""Whatever is undone is marked undone where the console's log shows it: the log entry
of a bust-out taken back gets its undone_at, like an undone clock action's."""

from __future__ import annotations

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.results import services
from tdsystem.results.models import BustOut
from tdsystem.simulation.seatings import ACTOR, arrange

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))


def test_an_undone_bust_out_marks_its_log_entry_undone(event):
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    first = services.bustout_record(
        event_id=event.pk, entry_ids=[people["T1S2"].pk], actor=ACTOR, rng_seed=7
    )
    second = services.bustout_record(
        event_id=event.pk, entry_ids=[people["T2S4"].pk], actor=ACTOR, rng_seed=7
    )
    services.bustout_undo(event_id=event.pk, bustout_id=second.bustout.pk, actor=ACTOR)
    undone = BustOut.objects.get(pk=second.bustout.pk).undone_at
    records = LogEntry.objects.filter(event=event, action="bustout.record")
    assert undone is not None
    assert records.get(data__bustout=second.bustout.pk).undone_at == undone
    assert records.get(data__bustout=first.bustout.pk).undone_at is None
