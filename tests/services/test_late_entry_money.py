"""Late entries once the money is reached: the rule set closes registration (at the money by
default, or at the final table, or only by the level); where the director allows a late
entry, the desk confirms what it changes; a prize marked paid never changes."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.engine import rulesets
from tdsystem.results import services
from tdsystem.results.errors import ResultsError
from tdsystem.results.models import Finish
from tdsystem.results.services.cashier import prize_paid_set
from tdsystem.seating import services as seating
from tdsystem.seating.entry_rules import ChangesToConfirm, EntryRefused, entries_closed
from tdsystem.seating.models import Entry
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

D = Decimal


def in_the_money(close: str | None = None, players: int = 6):
    """`players` at 100 each on one table, top 5 paid, late registration open until level
    4; two out: the 6th (no prize) and the 5th (8% of 600: 48). Four left, all paid."""
    overrides = {"entries_close": close} if close else {}
    event = make_event(
        1200,
        1200,
        1200,
        1200,
        late_registration_end_level=4,
        reentry_allowed=True,
        buy_in=D(100),
        rule_overrides=overrides,
    )
    people = arrange(event, {1: list(range(1, players + 1))})
    services.payout_plan_update(event_id=event.pk, table="top-5", unit=D(1), actor=ACTOR)
    for name in ("T1S1", "T1S2"):
        services.bustout_record(event_id=event.pk, entry_ids=[people[name].pk], actor=ACTOR)
    if players == 6:
        assert Finish.objects.get(entry=people["T1S2"]).prize == D(48)
    return event, people


def register_late(event, django_capture_on_commit_callbacks, **kwargs) -> Entry:
    with django_capture_on_commit_callbacks(execute=True):
        return seating.player_register(event=event, name="Late Larry", actor=ACTOR, **kwargs).entry


def test_each_set_closes_late_entries_at_the_money():
    for code in rulesets.RULE_SETS:
        assert rulesets.rule_set(code).settings.entries_close == rulesets.CLOSE_AT_MONEY


def test_a_field_in_the_money_takes_no_late_entry_nor_re_entry(
    django_capture_on_commit_callbacks,
):
    event, people = in_the_money()
    with pytest.raises(EntryRefused) as refused:
        register_late(event, django_capture_on_commit_callbacks)
    assert refused.value.refusal.code == "closed-in-the-money"
    assert str(refused.value) == "No new entries: the field is in the money (5 places paid)."
    with pytest.raises(EntryRefused) as again:
        seating.entry_reenter(event_id=event.pk, entry_id=people["T1S2"].pk, actor=ACTOR)
    assert again.value.refusal.code == "closed-in-the-money"
    assert Entry.objects.filter(event=event).count() == 6
    assert Finish.objects.get(entry=people["T1S2"]).place == 5  # nothing moved


def test_before_the_money_a_late_entry_moves_no_prize_and_needs_no_confirmation(
    django_capture_on_commit_callbacks,
):
    event, people = in_the_money(players=8)  # 6 left, 5 paid: on the bubble
    assert entries_closed(event) is None
    late = register_late(event, django_capture_on_commit_callbacks)
    assert late.number == 9
    assert Finish.objects.get(entry=people["T1S2"]).place == 8  # 7th became 8th, unpaid


def test_a_final_table_rule_closes_at_the_final_table_not_at_the_money():
    event = make_event(
        1200,
        1200,
        late_registration_end_level=2,
        rule_overrides={"entries_close": rulesets.CLOSE_AT_FINAL_TABLE},
    )
    people = arrange(event, {1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4, 5, 6]})
    services.payout_plan_update(event_id=event.pk, table="top-5", unit=D(1), actor=ACTOR)
    for name in ("T1S1", "T2S1"):
        services.bustout_record(event_id=event.pk, entry_ids=[people[name].pk], actor=ACTOR)
    assert entries_closed(event) is None  # 10 left: more than the 9-seat final table
    services.bustout_record(event_id=event.pk, entry_ids=[people["T1S2"].pk], actor=ACTOR)
    closed = entries_closed(event)
    assert closed is not None and closed.code == "closed-final-table"  # 9 left, 5 paid


def test_where_the_director_allows_it_the_desk_confirms_what_a_late_entry_changes(
    django_capture_on_commit_callbacks,
):
    event, people = in_the_money(rulesets.CLOSE_BY_LEVEL)
    with pytest.raises(ChangesToConfirm) as asked:
        register_late(event, django_capture_on_commit_callbacks)
    changes = asked.value.changes
    # The 5th (48 of 600) becomes 6th, out of the money; the 6th stays unpaid, unlisted.
    assert [(c.number, c.place_before, c.place_after) for c in changes] == [(2, "5", "6")]
    assert (changes[0].prize_before, changes[0].prize_after) == (D(48), D(0))
    assert asked.value.refusal.code == "confirm-changes"
    assert "#2 T1S2: place 5 → 6, 48 → 0" in str(asked.value)
    assert Entry.objects.filter(event=event).count() == 6  # nothing sold yet
    register_late(event, django_capture_on_commit_callbacks, confirm_changes=True)
    second = Finish.objects.get(entry=people["T1S2"])
    assert (second.place, second.prize) == (6, D(0))


def test_a_paid_prize_is_never_changed_by_a_late_entry_whatever_is_confirmed(
    django_capture_on_commit_callbacks,
):
    event, people = in_the_money(rulesets.CLOSE_BY_LEVEL)
    prize_paid_set(event_id=event.pk, entry_number=2, paid=True, actor=ACTOR)
    with pytest.raises(EntryRefused) as refused:
        register_late(event, django_capture_on_commit_callbacks, confirm_changes=True)
    assert refused.value.refusal.code == "prize-paid"
    assert "#2 T1S2, place 5, 48" in str(refused.value)
    assert Entry.objects.filter(event=event).count() == 6
    assert Finish.objects.get(entry=people["T1S2"]).prize == D(48)


def test_a_rebuy_into_a_field_in_the_money_is_confirmed_and_never_changes_a_paid_prize():
    event, people = in_the_money()
    event.rebuy_until_level = 4
    event.rebuy_threshold = 100_000
    event.rebuy_price = D(60)
    event.save()
    ask = {"event_id": event.pk, "entry_id": people["T1S3"].pk, "kind": "rebuy", "stack": 10}
    with pytest.raises(ChangesToConfirm):
        seating.entry_purchase(**ask, actor=ACTOR)
    prize_paid_set(event_id=event.pk, entry_number=2, paid=True, actor=ACTOR)
    with pytest.raises(EntryRefused) as refused:
        seating.entry_purchase(**ask, actor=ACTOR, confirm_changes=True)
    assert refused.value.refusal.code == "prize-paid"


def test_the_field_closes_heads_up_whatever_the_rule_set():
    event, people = in_the_money(rulesets.CLOSE_BY_LEVEL)
    for name in ("T1S3", "T1S4"):
        services.bustout_record(event_id=event.pk, entry_ids=[people[name].pk], actor=ACTOR)
    assert entries_closed(event).code == "closed-heads-up"


def test_a_paid_prize_stops_a_payout_plan_or_an_undo_that_would_change_it():
    event, people = in_the_money()
    prize_paid_set(event_id=event.pk, entry_number=2, paid=True, actor=ACTOR)
    with pytest.raises(ResultsError, match="a paid prize is never changed"):
        services.payout_plan_update(event_id=event.pk, table="top-3", unit=D(1), actor=ACTOR)
    bustout = Finish.objects.get(entry=people["T1S2"]).bustout
    with pytest.raises(ResultsError, match="a paid prize is never changed"):
        services.bustout_undo(event_id=event.pk, bustout_id=bustout.pk, actor=ACTOR)
    # A bust-out after it leaves the paid place as it is.
    services.bustout_record(event_id=event.pk, entry_ids=[people["T1S3"].pk], actor=ACTOR)
    assert Finish.objects.get(entry=people["T1S2"]).prize == D(48)


def test_marking_a_prize_paid_is_logged_refused_without_a_prize_and_taken_back():
    event, people = in_the_money()
    with pytest.raises(ResultsError, match="won no prize"):
        prize_paid_set(event_id=event.pk, entry_number=1, paid=True, actor=ACTOR)
    with pytest.raises(ResultsError, match="no place"):
        prize_paid_set(event_id=event.pk, entry_number=3, paid=True, actor=ACTOR)
    finish = prize_paid_set(event_id=event.pk, entry_number=2, paid=True, actor=ACTOR)
    assert finish.paid_at is not None and finish.paid_by == "test"
    prize_paid_set(event_id=event.pk, entry_number=2, paid=True, actor=ACTOR)  # no change
    assert LogEntry.objects.filter(action="prize.paid").count() == 1
    prize_paid_set(event_id=event.pk, entry_number=2, paid=False, actor=ACTOR)
    assert Finish.objects.get(entry=people["T1S2"]).paid_at is None
    summary = LogEntry.objects.get(action="prize.unpaid").summary
    assert "Prize of #2 T1S2 marked not paid: 48.00 for place 5" in str(summary)
