"""The end-of-level tasks without a worker: what is sent, and what a delivery changes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.test import TestCase

from tdsystem.core.actors import Actor
from tdsystem.events import services, tasks
from tdsystem.events.models import Clock
from tests.fixtures import make_event

T0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """The end-of-level tasks sent, as (eta, version), once their transaction commits."""
    out: list[tuple[datetime, int]] = []
    monkeypatch.setattr(
        tasks.clock_advance, "apply_async", lambda args, eta: out.append((eta, args[1]))
    )
    return out


def act(event, action, *, at, seconds=None):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return services.clock_action(
            event_id=event.pk, action=action, seconds=seconds, now=at, actor=Actor()
        )


def deliver(event, version, *, at):
    with time_machine.travel(at, tick=False), TestCase.captureOnCommitCallbacks(execute=True):
        return tasks.clock_advance(event.pk, version)


def test_it_sends_the_next_levels_end_with_the_current_ones(sent):
    event = make_event(1, 1, 600)
    clock = act(event, "start", at=T0)
    ends = [T0 + timedelta(seconds=1), T0 + timedelta(seconds=2)]
    assert sent == [(end, clock.version) for end in ends]


def test_it_sends_no_end_past_the_horizon(sent):
    event = make_event(30, 600, 600)
    clock = act(event, "start", at=T0)
    assert sent == [(T0 + timedelta(seconds=30), clock.version)]


def test_a_long_level_is_sent_when_its_end_comes_near(sent):
    event = make_event(600, 600, 600)
    act(event, "start", at=T0)
    assert sent == []
    near = T0 + timedelta(seconds=550)
    with time_machine.travel(near, tick=False), TestCase.captureOnCommitCallbacks(execute=True):
        services.clocks_settle_due()
    assert [eta for eta, _ in sent] == [T0 + timedelta(seconds=600)]


def test_a_task_sent_a_level_ahead_changes_that_level(sent):
    event = make_event(1, 1, 600)
    start = act(event, "start", at=T0)
    assert deliver(event, start.version, at=T0 + timedelta(seconds=1, milliseconds=5)) == 1
    # The second end's task was sent with the start's version: the clock's moved on since.
    assert Clock.objects.get(pk=event.pk).version == start.version + 1
    assert deliver(event, start.version, at=T0 + timedelta(seconds=2, milliseconds=5)) == 1
    assert Clock.objects.get(pk=event.pk).level_index == 2


def test_the_second_task_of_an_end_changes_nothing(sent):
    event = make_event(1, 1, 600)
    start = act(event, "start", at=T0)
    assert deliver(event, start.version, at=T0 + timedelta(seconds=1, milliseconds=5)) == 1
    version = Clock.objects.get(pk=event.pk).version
    assert deliver(event, start.version, at=T0 + timedelta(seconds=1, milliseconds=9)) == 0
    assert Clock.objects.get(pk=event.pk).version == version


def test_a_stale_task_of_a_level_given_more_time_changes_nothing_and_comes_back_never(sent):
    event = make_event(1, 1, 600)
    start = act(event, "start", at=T0)
    later = act(event, "add_time", seconds=60, at=T0 + timedelta(milliseconds=500))
    sent.clear()
    assert deliver(event, start.version, at=T0 + timedelta(seconds=1, milliseconds=5)) == 0
    assert sent == []  # the add_time's own task comes at the new end
    assert deliver(event, later.version, at=T0 + timedelta(seconds=1, milliseconds=5)) == 0
    assert sent == [(later.ends_at, later.version)]  # its version's own: back at the end
    assert Clock.objects.get(pk=event.pk).level_index == 0


def test_a_task_for_a_paused_clock_changes_nothing(sent):
    event = make_event(1, 1, 600)
    start = act(event, "start", at=T0)
    act(event, "pause", at=T0 + timedelta(milliseconds=500))
    assert deliver(event, start.version, at=T0 + timedelta(seconds=2)) == 0
    assert Clock.objects.get(pk=event.pk).status == "paused"
