"""Entry rules in the services: each refusal, the prices, the prize pool and the fees."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db.models import Sum

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Clock
from tdsystem.results.services import bustout_record
from tdsystem.results.services.standings import field_read
from tdsystem.seating import services
from tdsystem.seating.entry_rules import EntryRefused
from tdsystem.seating.models import Entry, Purchase
from tdsystem.simulation.seatings import ACTOR
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

# level 1, level 2, break 1, level 3, level 4 (index 0 to 4)
LEVELS = (600, 600, "B300", 600, 600)


def event_with(**rules):
    rules.setdefault("fee", Decimal("10"))
    return make_event(*LEVELS, **rules)


def clock_at(event, index: int) -> None:
    """The clock paused at segment `index` (paused: no level runs out during the test)."""
    Clock.objects.filter(pk=event.pk).update(status="paused", level_index=index, remaining_ms=1000)


def register(event, name: str = "Ana"):
    return services.player_register(event=event, name=name, actor=ACTOR).entry


def draw(event) -> None:
    """Three others in the field and the seats drawn, so Ana can bust and come back (with
    two left the event is heads-up: no entry comes back)."""
    register(event, "Bob")
    register(event, "Cy")
    register(event, "Di")
    services.tables_setup(event=event, numbers=[1], seats=9, actor=ACTOR)
    services.seats_draw(event=event, seed=1, actor=ACTOR)


def bust(event, entry) -> None:
    bustout_record(event_id=event.pk, entry_ids=[entry.pk], actor=ACTOR)


def reenter(event, entry):
    return services.entry_reenter(event_id=event.pk, entry_id=entry.pk, actor=ACTOR).entry


def buy(event, entry, kind: str, **kwargs):
    return services.entry_purchase(
        event_id=event.pk, entry_id=entry.pk, kind=kind, actor=ACTOR, **kwargs
    )


def refused(code: str, call, *args, **kwargs) -> str:
    with pytest.raises(EntryRefused) as error:
        call(*args, **kwargs)
    assert error.value.refusal.code == code
    return str(error.value)


def test_it_refuses_a_reentry_past_the_limit():
    event = event_with(late_registration_end_level=4, reentry_allowed=True, reentry_max=2)
    entry = register(event)
    draw(event)
    for _ in range(2):
        bust(event, entry)
        entry = reenter(event, entry)
    bust(event, entry)
    message = refused("reentry-limit", reenter, event, entry)
    assert message == f"#{entry.number} Ana has 2 re-entries: the limit is 2"
    assert Entry.objects.filter(event=event).count() == 6


def test_it_refuses_a_reentry_after_its_level():
    event = event_with(late_registration_end_level=4, reentry_allowed=True, reentry_until_level=1)
    entry = register(event)
    draw(event)
    bust(event, entry)
    clock_at(event, 1)
    assert refused("reentry-closed", reenter, event, entry) == "re-entries ended with level 1"
    clock_at(event, 0)
    assert reenter(event, entry).is_reentry


def test_it_refuses_a_new_entry_once_late_registration_has_closed():
    event = event_with(late_registration_end_level=2)
    clock_at(event, 2)  # the break after level 2
    message = refused("registration-closed", register, event)
    assert message == "No new entries: late registration closed at the end of level 2."
    assert not Entry.objects.filter(event=event).exists()


def test_it_refuses_a_rebuy_after_its_period():
    event = event_with(rebuy_until_level=1, rebuy_price=50)
    entry = register(event)
    clock_at(event, 1)
    assert refused("rebuy-closed", buy, event, entry, "rebuy", stack=0) == (
        "Rebuys ended with level 1"
    )


def test_it_refuses_a_rebuy_over_the_threshold():
    event = event_with(rebuy_until_level=2, rebuy_threshold=5000, rebuy_price=50)
    entry = register(event)
    message = refused("rebuy-over-threshold", buy, event, entry, "rebuy", stack=8200)
    assert message == f"a rebuy needs 5,000 chips or fewer: #{entry.number} Ana has 8,200"
    assert refused("rebuy-stack-unknown", buy, event, entry, "rebuy").startswith(
        "say how many chips"
    )
    entry.refresh_from_db()
    assert entry.chips == 10_000 and not entry.purchases.filter(kind="rebuy").exists()


def test_it_takes_the_starting_stack_as_the_threshold_by_default():
    event = event_with(rebuy_until_level=2, rebuy_price=50)
    entry = register(event)
    assert buy(event, entry, "rebuy", stack=10_000).chips == 10_000
    refused("rebuy-over-threshold", buy, event, entry, "rebuy", stack=10_001)


def test_it_refuses_a_rebuy_past_the_limit():
    event = event_with(rebuy_until_level=2, rebuy_price=50, rebuy_max=2)
    entry = register(event)
    buy(event, entry, "rebuy", stack=0)
    buy(event, entry, "rebuy", stack=0)
    message = refused("rebuy-limit", buy, event, entry, "rebuy", stack=0)
    assert message == f"#{entry.number} Ana has 2 rebuys: the limit is 2"


def test_it_refuses_the_addon_away_from_its_break():
    event = event_with(addon_break=1, addon_price=30)
    entry = register(event)
    clock_at(event, 1)
    assert refused("addon-not-now", buy, event, entry, "addon") == (
        "the add-on is taken at the first break"
    )


def test_it_refuses_the_addon_twice():
    event = event_with(addon_break=1, addon_price=30)
    entry = register(event)
    clock_at(event, 2)
    buy(event, entry, "addon")
    message = refused("addon-taken", buy, event, entry, "addon")
    assert message == f"#{entry.number} Ana has taken the add-on already"


def test_it_refuses_the_addon_in_an_event_without_one():
    event = event_with()
    entry = register(event)
    clock_at(event, 2)
    assert refused("addon-none", buy, event, entry, "addon") == "this event has no add-on"
    assert refused("rebuy-none", buy, event, entry, "rebuy", stack=0) == (
        "this event has no rebuys"
    )


def test_the_prize_pool_follows_every_purchase_and_the_fees_stay_apart():
    event = event_with(
        late_registration_end_level=4,
        reentry_allowed=True,
        rebuy_until_level=2,
        rebuy_price=Decimal("50"),
        rebuy_fee=Decimal("5"),
        rebuy_chips=8000,
        addon_break=1,
        addon_price=Decimal("30"),
        addon_fee=Decimal("3"),
        addon_chips=12_000,
    )
    ana = register(event)
    assert field_read(event).pool == Decimal("100")
    draw(event)
    assert field_read(event).pool == Decimal("400")
    bob = Entry.objects.get(event=event, player__name="Bob")
    bust(event, ana)
    ana = reenter(event, ana)
    assert field_read(event).pool == Decimal("500")
    rebuy = buy(event, ana, "rebuy", stack=100)
    assert (rebuy.amount, rebuy.fee, rebuy.chips) == (Decimal("50"), Decimal("5"), 8000)
    assert field_read(event).pool == Decimal("550")
    clock_at(event, 2)
    addon = buy(event, bob, "addon")
    assert (addon.amount, addon.fee, addon.chips) == (Decimal("30"), Decimal("3"), 12_000)
    assert field_read(event).pool == Decimal("580")
    fees = Purchase.objects.filter(event=event).aggregate(s=Sum("fee"))["s"]
    assert fees == Decimal("10") * 5 + Decimal("5") + Decimal("3")
    kinds = dict(Purchase.objects.filter(event=event).values_list("kind", "fee"))
    assert kinds["reentry"] == Decimal("10") and kinds["entry"] == Decimal("10")
    log = LogEntry.objects.filter(event=event, action="entry.addon").get()
    assert log.data["fee"] == "3.00" and "3.00 fee" in log.summary
    ana.refresh_from_db()
    assert (ana.chips, ana.paid) == (10_000 + 8000, Decimal("150"))


def test_it_logs_an_override_of_the_event_figures():
    event = event_with(rebuy_until_level=2, rebuy_price=50)
    entry = register(event)
    buy(event, entry, "rebuy", stack=0, chips=5000, amount=Decimal("20"))
    log = LogEntry.objects.filter(event=event, action="entry.rebuy").get()
    assert log.data["overridden"] is True and "not the event's figures" in log.summary
