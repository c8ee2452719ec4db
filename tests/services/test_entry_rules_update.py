"""Changing an existing event's entry rules: event_entry_rules_update."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tdsystem.core import screencache
from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.events import selectors
from tdsystem.events.models import Clock, Event
from tdsystem.events.services import EntryRulesError, event_entry_rules_update
from tdsystem.seating import services
from tdsystem.seating.entry_rules import EntryRefused
from tdsystem.seating.models import Purchase
from tdsystem.simulation.seatings import ACTOR
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

DIRECTOR = Actor(label="Dora")
# level 1, level 2, break 1, level 3, level 4 (index 0 to 4)
LEVELS = (600, 600, "B300", 600, 600)


def running_at(event, index: int) -> None:
    """The clock paused at segment `index` (paused: no level runs out during the test)."""
    Clock.objects.filter(pk=event.pk).update(status="paused", level_index=index, remaining_ms=1000)
    Event.objects.filter(pk=event.pk).update(status="paused")


def update(event, **changes):
    return event_entry_rules_update(event_id=event.pk, changes=changes, actor=DIRECTOR)


def notices(event) -> dict:
    from django.utils import timezone

    payload = selectors.event_clock_payload(event.pk, timezone.now())
    return {n["code"]: n for n in payload["entry_notices"]}


def test_it_extends_late_registration_while_the_event_runs_and_logs_before_and_after():
    event = make_event(*LEVELS, late_registration_end_level=1)
    running_at(event, 3)  # level 3: late registration closed with level 1
    assert "late-registration" not in notices(event)
    with pytest.raises(EntryRefused):
        services.player_register(event=event, name="Late Lou", actor=ACTOR)

    _, changed = update(event, late_registration_end_level=4, reentry_max=0)

    assert changed == ["late_registration_end_level"]
    assert Event.objects.get(pk=event.pk).late_registration_end_level == 4
    entry = LogEntry.objects.get(event=event, action="event.entry_rules")
    assert entry.summary == "Late registration: until level 1 → until level 4 (while paused)"
    assert entry.actor_label == "Dora"
    assert entry.data["before"] == {"late_registration_end_level": 1}
    assert entry.data["after"] == {"late_registration_end_level": 4}
    assert notices(event)["late-registration"]["params"]["level"] == 4
    services.player_register(event=event, name="Late Lou", actor=ACTOR)  # open again


def test_it_allows_a_third_reentry_and_cancels_the_addon_in_one_change():
    event = make_event(
        *LEVELS, late_registration_end_level=4, reentry_allowed=True, reentry_max=2, addon_break=1
    )
    running_at(event, 1)
    update(event, reentry_max=3, addon_break=0, addon_price="0")
    entry = LogEntry.objects.get(event=event, action="event.entry_rules")
    assert entry.summary == (
        "Re-entries per player: 2 per player → 3 per player; "
        "Add-on: at the first break → no add-on (while paused)"
    )
    shown = notices(event)
    assert shown["reentries"]["params"]["limit"] == 3
    assert "addon" not in shown


def test_a_change_of_nothing_writes_nothing():
    event = make_event(*LEVELS, rebuy_until_level=2, rebuy_price=Decimal("40"))
    _, changed = update(event, rebuy_until_level=2, rebuy_price="40.00", rebuy_chips=None)
    assert changed == []
    assert not LogEntry.objects.filter(event=event, action="event.entry_rules").exists()


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"rebuy_chips": 0}, "rebuy_chips"),
        ({"addon_price": Decimal("-1")}, "addon_price"),
        ({"rebuy_fee": Decimal("1.234")}, "rebuy_fee"),
        ({"reentry_max": None}, "reentry_max"),
        ({"reentry_until_level": -2}, "reentry_until_level"),
        ({"buy_in": Decimal("5")}, "buy_in"),
    ],
)
def test_bad_input_names_its_field_and_changes_nothing(changes, field):
    event = make_event(*LEVELS, late_registration_end_level=2, rebuy_chips=5000)
    with pytest.raises(EntryRulesError) as error:
        update(event, late_registration_end_level=6, **changes)
    assert error.value.field == field
    stored = Event.objects.get(pk=event.pk)
    assert stored.late_registration_end_level == 2 and stored.rebuy_chips == 5000
    assert stored.buy_in == Decimal("100")
    assert not LogEntry.objects.filter(event=event, action="event.entry_rules").exists()


def test_a_finished_event_is_refused():
    event = make_event(*LEVELS, late_registration_end_level=2)
    Event.objects.filter(pk=event.pk).update(status="finished")
    with pytest.raises(EntryRulesError, match="finished") as error:
        update(event, late_registration_end_level=6)
    assert error.value.field is None
    assert Event.objects.get(pk=event.pk).late_registration_end_level == 2


def test_purchases_already_made_stay_when_rebuys_end():
    event = make_event(*LEVELS, rebuy_until_level=2, rebuy_price=Decimal("40"))
    entry = services.player_register(event=event, name="Ana", actor=ACTOR).entry
    running_at(event, 1)
    services.entry_purchase(
        event_id=event.pk, entry_id=entry.pk, kind="rebuy", stack=0, actor=ACTOR
    )
    update(event, rebuy_until_level=0, rebuy_price=Decimal("50"))
    rebuy = Purchase.objects.get(entry=entry, kind="rebuy")
    assert rebuy.amount == Decimal("40")
    with pytest.raises(EntryRefused) as refused:
        services.entry_purchase(
            event_id=event.pk, entry_id=entry.pk, kind="rebuy", stack=0, actor=ACTOR
        )
    assert refused.value.refusal.code == "rebuy-none"


def test_the_clock_screen_follows_within_the_screen_cache_ttl(settings, monkeypatch):
    """The screens cache the event for SCREEN_CACHE_SECONDS: a change shows at the latest
    once that has passed."""
    settings.SCREEN_CACHE_SECONDS = 1
    now = [1000.0]
    monkeypatch.setattr(screencache, "_now", lambda: now[0])
    screencache.clear()
    try:
        event = make_event(*LEVELS, late_registration_end_level=2)
        running_at(event, 1)
        assert notices(event)["late-registration"]["params"]["level"] == 2
        update(event, late_registration_end_level=4)
        now[0] += 1.01  # just past the TTL
        assert notices(event)["late-registration"]["params"]["level"] == 4
    finally:
        screencache.clear()
