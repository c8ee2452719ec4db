"""Entry rules: when a new entry, a re-entry, a rebuy or the add-on is allowed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tdsystem.engine import entry_rules as r
from tdsystem.engine import rulesets

# level 1, level 2, break 1, level 3, level 4, break 2, level 5, level 6, level 7
SCHEDULE = [True, True, False, True, True, False, True, True, True]

statuses = st.sampled_from([r.NOT_STARTED, r.RUNNING, r.PAUSED])
levels = st.integers(min_value=0, max_value=12)
counts = st.integers(min_value=0, max_value=20)
indexes = st.integers(min_value=0, max_value=len(SCHEDULE) - 1)


def at(index: int, status: str = r.RUNNING) -> r.Moment:
    return r.moment(SCHEDULE, index, status)


def test_it_counts_levels_and_breaks():
    assert at(0) == r.Moment(r.RUNNING, 1)
    assert at(2) == r.Moment(r.RUNNING, 2, 1)
    assert at(5) == r.Moment(r.RUNNING, 4, 2)
    assert at(6) == r.Moment(r.RUNNING, 5)


def test_it_closes_late_registration_when_the_level_ends():
    rules = r.EntryRules(late_registration_end_level=2)
    assert r.entry_refusal(rules, at(1)) is None
    refusal = r.entry_refusal(rules, at(2))  # the break after level 2
    assert refusal is not None and refusal.code == "registration-closed"
    assert refusal.params == {"level": 2}
    assert str(refusal) == "late registration closed at the end of level 2"


def test_it_refuses_a_reentry_past_the_limit():
    rules = r.EntryRules(late_registration_end_level=4, reentry_allowed=True, reentry_max=2)
    refusal = r.reentry_refusal(rules, at(0), who="#12 Ana", reentries=2)
    assert refusal is not None and refusal.code == "reentry-limit"
    assert refusal.message == "#12 Ana has 2 re-entries: the limit is 2"
    assert r.reentry_refusal(rules, at(0), who="#12 Ana", reentries=1) is None


def test_it_ends_reentries_with_their_own_level():
    rules = r.EntryRules(late_registration_end_level=6, reentry_allowed=True, reentry_until_level=3)
    assert r.reentry_refusal(rules, at(3), who="x", reentries=0) is None
    refusal = r.reentry_refusal(rules, at(4), who="x", reentries=0)
    assert refusal is not None and refusal.message == "re-entries ended with level 3"


def test_it_refuses_rebuys_after_their_period_over_the_threshold_and_past_the_limit():
    rules = r.EntryRules(rebuy_until_level=6, rebuy_threshold=5000, rebuy_max=3)
    late = r.Moment(r.RUNNING, 7)
    assert r.rebuy_refusal(rules, late, who="x", rebuys=0, stack=0).message == (
        "Rebuys ended with level 6"
    )
    over = r.rebuy_refusal(rules, at(0), who="#12", rebuys=0, stack=8200)
    assert over.message == "a rebuy needs 5,000 chips or fewer: #12 has 8,200"
    assert r.rebuy_refusal(rules, at(0), who="#12", rebuys=3, stack=0).code == "rebuy-limit"
    assert r.rebuy_refusal(rules, at(0), who="#12", rebuys=2, stack=5000) is None
    assert r.rebuy_refusal(rules, at(0), who="#12", rebuys=0, stack=None).code == (
        "rebuy-stack-unknown"
    )


def test_it_offers_the_addon_at_its_break_once():
    rules = r.EntryRules(addon_break=1)
    assert r.addon_refusal(rules, at(2), who="Ana", addons=0) is None
    refusal = r.addon_refusal(rules, at(1), who="Ana", addons=0)
    assert refusal.message == "the add-on is taken at the first break"
    assert r.addon_refusal(rules, at(2), who="Ana", addons=1).message == (
        "Ana has taken the add-on already"
    )
    none = r.addon_refusal(r.EntryRules(), at(2), who="Ana", addons=0)
    assert none.code == "addon-none"


def test_it_refuses_everything_once_the_event_has_finished():
    rules = r.EntryRules(
        late_registration_end_level=9, reentry_allowed=True, rebuy_until_level=9, addon_break=1
    )
    done = r.Moment(r.FINISHED, 2, 1)
    assert r.entry_refusal(rules, done).code == "event-finished"
    assert r.reentry_refusal(rules, done, who="x", reentries=0).code == "event-finished"
    assert r.rebuy_refusal(rules, done, who="x", rebuys=0, stack=0).code == "event-finished"
    assert r.addon_refusal(rules, done, who="x", addons=0).code == "event-finished"


def test_it_refuses_bad_rules():
    with pytest.raises(ValueError):
        r.EntryRules(rebuy_max=-1)


@given(last=levels, status=statuses, first=indexes, second=indexes)
def test_property_a_closed_period_never_opens_again(last, status, first, second):
    """Late registration, re-entries and rebuys only close as the clock moves on."""
    first, second = sorted((first, second))
    rules = r.EntryRules(
        late_registration_end_level=last,
        reentry_allowed=True,
        reentry_until_level=last,
        rebuy_until_level=last,
        rebuy_threshold=10**9,
    )
    checks = [
        lambda m: r.entry_refusal(rules, m),
        lambda m: r.reentry_refusal(rules, m, who="x", reentries=0),
        lambda m: r.rebuy_refusal(rules, m, who="x", rebuys=0, stack=0),
    ]
    for check in checks:
        if check(at(first, status)) is not None and status != r.NOT_STARTED:
            assert check(at(second, status)) is not None


@given(number=st.integers(min_value=1, max_value=3), addons=counts)
def test_property_the_addon_is_open_at_exactly_one_segment(number, addons):
    rules = r.EntryRules(addon_break=number)
    open_at = [i for i in range(len(SCHEDULE)) if r.addon_open(rules, at(i))]
    breaks = [i for i, level in enumerate(SCHEDULE) if not level]
    assert open_at == ([breaks[number - 1]] if number <= len(breaks) else [])
    refusal = r.addon_refusal(rules, at(breaks[0]), who="x", addons=addons + 1)
    assert refusal is not None and refusal.code in ("addon-taken",)


@given(threshold=counts.map(lambda n: n * 1000), stack=counts.map(lambda n: n * 500))
def test_property_a_rebuy_needs_the_threshold_or_fewer(threshold, stack):
    rules = r.EntryRules(rebuy_until_level=9, rebuy_threshold=threshold)
    refusal = r.rebuy_refusal(rules, at(0), who="x", rebuys=0, stack=stack)
    assert (refusal is None) == (stack <= threshold)


@given(limit=counts, used=counts, index=indexes)
def test_property_limits_refuse_only_when_reached(limit, used, index):
    rules = r.EntryRules(
        late_registration_end_level=99,
        reentry_allowed=True,
        reentry_max=limit,
        rebuy_until_level=99,
        rebuy_threshold=10**9,
        rebuy_max=limit,
    )
    reached = limit > 0 and used >= limit
    reentry = r.reentry_refusal(rules, at(index), who="x", reentries=used)
    rebuy = r.rebuy_refusal(rules, at(index), who="x", rebuys=used, stack=0)
    assert (reentry is not None) == reached
    assert (rebuy is not None) == reached
    for refusal in (reentry, rebuy):
        if refusal is not None:
            assert refusal.params["limit"] == limit and str(limit) in refusal.message


# Where the field is: what closes late registration and re-entries before their level ends.
MONEY, FINAL, LEVEL = (
    rulesets.CLOSE_AT_MONEY,
    rulesets.CLOSE_AT_FINAL_TABLE,
    rulesets.CLOSE_BY_LEVEL,
)


@pytest.mark.parametrize(
    ("close", "field", "code"),
    [
        (MONEY, r.FieldNow(left=6, out=18, paid=5, final_table=9), None),  # on the bubble
        (MONEY, r.FieldNow(left=5, out=19, paid=5, final_table=9), "closed-in-the-money"),
        (MONEY, r.FieldNow(left=4, out=20, paid=0, final_table=9), None),  # nothing paid
        (FINAL, r.FieldNow(left=4, out=20, paid=5, final_table=9), "closed-final-table"),
        (FINAL, r.FieldNow(left=10, out=14, paid=5, final_table=9), None),
        (LEVEL, r.FieldNow(left=4, out=20, paid=5, final_table=9), None),
        (LEVEL, r.FieldNow(left=2, out=22, paid=5, final_table=9), "closed-heads-up"),
        (LEVEL, r.FieldNow(left=2, out=0, paid=1, final_table=9), None),  # nobody out yet
        (LEVEL, r.FieldNow(left=30, out=0, last_hands=True), "last-hands"),
    ],
)
def test_the_field_closes_entries_by_the_rule_set_heads_up_and_in_the_last_hands(
    close, field, code
):
    refusal = r.field_refusal(close, field)
    assert (refusal.code if refusal else None) == code


def test_the_money_refusal_says_how_many_places_are_paid():
    refusal = r.field_refusal(MONEY, r.FieldNow(left=4, out=20, paid=5, final_table=9))
    assert refusal is not None and refusal.params == {"paid": 5}
    assert str(refusal) == "the field is in the money (5 places paid)"
