"""A purchase's prize refresh runs after the purchase commits: when it cannot run, the
purchase still stands, the request does not fail, and the prizes are worked out later."""

from __future__ import annotations

import logging
from decimal import Decimal

import pytest

from tdsystem.core.locking import Busy
from tdsystem.core.models import LogEntry
from tdsystem.results import services, tasks
from tdsystem.results.errors import ResultsError
from tdsystem.results.models import Finish
from tdsystem.seating import services as seating
from tdsystem.seating.models import Entry
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

D = Decimal


@pytest.fixture
def paid(db):
    """Six players at 100 each, top 5 paid; two out (the 6th, then the 5th: 48 of 600). The
    room takes late entries in the money (the sets close there), the desk confirming."""
    event = make_event(
        600,
        600,
        late_registration_end_level=2,
        buy_in=D(100),
        rule_overrides={"entries_close": "level"},
    )
    people = arrange(event, {1: [1, 2, 3, 4, 5, 6]})
    services.payout_plan_update(event_id=event.pk, table="top-5", unit=D(1), actor=ACTOR)
    for name in ("T1S1", "T1S2"):
        services.bustout_record(event_id=event.pk, entry_ids=[people[name].pk], actor=ACTOR)
    assert Finish.objects.get(entry=people["T1S2"]).prize == D(48)
    return event, people


def refresh_fails(monkeypatch, exc: Exception) -> list:
    """The refresh raises `exc` once; returns the tasks queued meanwhile."""
    real, queued = services.standings_update, []

    def failing(**kwargs):
        monkeypatch.setattr(services, "standings_update", real)
        raise exc

    monkeypatch.setattr(services, "standings_update", failing)
    monkeypatch.setattr(
        tasks.standings_update, "apply_async", lambda **kw: queued.append(kw["args"])
    )
    return queued


def register_late(event, django_capture_on_commit_callbacks) -> Entry:
    with django_capture_on_commit_callbacks(execute=True):
        return seating.player_register(
            event=event, name="Late Larry", confirm_changes=True, actor=ACTOR
        ).entry


def test_a_busy_event_after_a_purchase_queues_the_refresh_and_the_task_does_it(
    paid, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    event, people = paid
    queued = refresh_fails(monkeypatch, Busy())
    with caplog.at_level(logging.WARNING, logger="tdsystem.results.signals"):
        late = register_late(event, django_capture_on_commit_callbacks)
    assert Entry.objects.filter(pk=late.pk).exists()  # the purchase stands
    assert "busy after a purchase" in caplog.text
    assert queued == [[event.pk]]
    assert Finish.objects.get(entry=people["T1S2"]).prize == D(48)  # not yet
    assert tasks.standings_update.apply(args=[event.pk]).get() == 2
    second = Finish.objects.get(entry=people["T1S2"])
    assert (second.place, second.prize) == (6, D(0))
    # A duplicate delivery finds the prizes current and changes nothing.
    assert tasks.standings_update.apply(args=[event.pk]).get() == 0
    assert LogEntry.objects.filter(action="payouts.refresh").count() == 1


def test_a_refused_refresh_after_a_purchase_is_logged_and_the_next_bust_out_does_it(
    paid, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    event, people = paid
    queued = refresh_fails(monkeypatch, ResultsError("the payout plan cannot be used"))
    with caplog.at_level(logging.WARNING, logger="tdsystem.results.signals"):
        register_late(event, django_capture_on_commit_callbacks)
    assert "prizes not worked out after a purchase" in caplog.text and not queued
    assert Finish.objects.get(entry=people["T1S2"]).place == 5  # not yet
    services.bustout_record(event_id=event.pk, entry_ids=[people["T1S3"].pk], actor=ACTOR)
    places = {f.entry_id: (f.place, f.prize) for f in Finish.objects.all()}
    assert places[people["T1S1"].pk] == (7, D(0))
    assert places[people["T1S2"].pk] == (6, D(0))
    assert places[people["T1S3"].pk] == (5, D(56))  # 5th of 700 with top 5: 8%


def test_the_task_tries_again_while_the_event_is_busy(paid, monkeypatch):
    event, _ = paid

    def busy(**kwargs):
        raise Busy()

    monkeypatch.setattr(services, "standings_update", busy)
    retried = []
    monkeypatch.setattr(
        tasks.standings_update, "retry", lambda **kw: retried.append(kw) or RuntimeError("again")
    )
    with pytest.raises(RuntimeError, match="again"):
        tasks.standings_update.run(event.pk)
    assert retried and retried[0]["countdown"] == tasks.RETRY_SECONDS
