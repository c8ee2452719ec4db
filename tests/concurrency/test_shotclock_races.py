"""Two devices press "Extension" for the same player at once, on PostgreSQL with threads:
the table's clock row is locked first, so they take turns and one is refused."""

from __future__ import annotations

import time

import pytest

from tdsystem.engine import shotclock as sc
from tdsystem.events.models import Event
from tdsystem.shotclock import services
from tdsystem.shotclock.errors import ShotClockRefused
from tdsystem.shotclock.models import Call, Extensions
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.concurrency.threads import errors_of, run_together
from tests.fixtures import make_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_extensions_at_once_spend_the_players_last_one_once(monkeypatch):
    event = make_event(600, name="Race night")
    Event.objects.filter(pk=event.pk).update(
        rule_overrides={"shot_clock_starts": sc.STARTS_AT_START, "shot_clock_extensions": 1}
    )
    people = arrange(event, {1: [1, 2, 3, 4]})
    services.shot_clock_start(
        event_id=event.pk, table_number=1, seat=2, street="flop", facing="bet", actor=ACTOR
    )
    use = sc.allowance_use

    def slow_use(allowance):  # widens the window between the read and the write
        time.sleep(0.3)
        return use(allowance)

    monkeypatch.setattr(sc, "allowance_use", slow_use)

    def extend():
        return services.shot_clock_extend(event_id=event.pk, table_number=1, seat=2, actor=ACTOR)

    results = run_together(extend, extend)
    refused = errors_of(results)
    assert len(refused) == 1 and isinstance(refused[0], ShotClockRefused)
    assert "no extensions left" in str(refused[0])
    held = Extensions.objects.get(entry=people["T1S2"])
    assert (held.left, held.used) == (0, 1)
    assert Call.objects.filter(event=event, action="extension").count() == 1
