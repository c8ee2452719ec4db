"""The rule sets: what each decides, overrides checked, citations per text."""

from __future__ import annotations

import pytest

from tdsystem.engine import rulesets as rs


def test_each_set_decides_where_the_texts_differ():
    tda24, tda26, wsop = (rs.rule_set(c).settings for c in (rs.TDA_2024, rs.TDA_2026, rs.WSOP_2026))
    assert tda24.other_tables == rs.OTHER_TABLES_BY_STACK
    assert wsop.other_tables == rs.OTHER_TABLES_TIE
    assert (tda24.stack_after_ante, tda26.stack_after_ante) == (False, True)
    assert (tda24.bubble_share, tda26.bubble_share, wsop.bubble_share) == (True, True, False)
    assert (tda24.final_table_size, wsop.final_table_size) == (0, 10)
    assert (tda24.halting, wsop.halting) == (rs.HALT_BLINDS_IMPACTED, rs.HALT_AT_ONCE)
    assert (tda24.dead_button_skips_empty, tda26.dead_button_skips_empty) == (False, True)
    assert wsop.balance_from_large == rs.BALANCE_FROM_NEXT_FULL
    assert wsop.balance_from_small == rs.BALANCE_FROM_BREAK_ORDER
    assert (tda24.balance_within_one_at, wsop.balance_within_one_at) == (0, 12)
    # Late entries close once the field is in the money, whichever set.
    assert {tda24.entries_close, tda26.entries_close, wsop.entries_close} == {rs.CLOSE_AT_MONEY}


@pytest.mark.parametrize(
    ("entries", "tables"),
    [(30, ()), (50, (2, 1)), (99, (2, 1)), (100, (3, 2, 1)), (5000, (3, 2, 1))],
)
def test_wsop_redraws_by_field_size(entries, tables):
    assert rs.redraw_tables(rs.rule_set(rs.WSOP_2026).settings, entries) == tables


def test_citations_follow_each_text():
    assert rs.rule_set(rs.TDA_2024).cite("halting") == "TDA 11-D"
    assert rs.rule_set(rs.TDA_2026).cite("halting") == "TDA 12-D"
    assert rs.rule_set(rs.WSOP_2026).cite("halting") == "WSOP R67"
    assert rs.rule_set(rs.TDA_2026).cite("dead_button") == "TDA 34"
    # A concept the text gives no number: the set's name.
    assert rs.rule_set(rs.TDA_2024).cite("final_table") == "TDA 2024"
    with pytest.raises(KeyError):
        rs.rule_set(rs.TDA_2024).cite("no-such-concept")


def test_overrides_apply_in_turn_and_are_checked():
    house = {"final_table_size": 8, "hfh_minutes_per_hand": 3}
    event = {"hfh_minutes_per_hand": 1}
    settings = rs.effective(rs.WSOP_2026, house, event)
    assert (settings.final_table_size, settings.hfh_minutes_per_hand) == (8, 1)
    assert settings.halting == rs.HALT_AT_ONCE  # the rest is the set's
    redraws = rs.effective(rs.TDA_2024, {"redraws": [{"min_entries": 0, "tables": [1]}]})
    assert rs.redraw_tables(redraws, 12) == (1,)
    assert rs.as_overrides(settings, rs.rule_set(rs.WSOP_2026).settings) == {
        "final_table_size": 8,
        "hfh_minutes_per_hand": 1,
    }


@pytest.mark.parametrize(
    "bad",
    [
        {"no_such": 1},
        {"final_table_size": 11},
        {"final_table_size": True},
        {"balance_within_one_at": -1},
        {"hfh_minutes_per_hand": "2"},
        {"halting": "never"},
        {"stack_after_ante": 1},
        {"bubble_share": "yes"},
        {"redraws": [{"tables": [3]}]},
        {"redraws": [{"min_entries": 10, "tables": [12]}]},
        {"entries_close": "never"},
    ],
)
def test_a_bad_override_is_refused_with_its_reason(bad):
    with pytest.raises(rs.RuleSetError) as refused:
        rs.effective(rs.TDA_2024, bad)
    assert str(refused.value)


def test_an_unknown_set_is_refused():
    with pytest.raises(rs.RuleSetError):
        rs.rule_set("tda-1999")


def test_every_number_and_choice_setting_states_its_bounds():
    """The console's forms offer RANGES and CHOICES: a setting missing there has no field."""
    defaults = rs.Settings()
    for name in rs.SETTING_NAMES:
        value = getattr(defaults, name)
        if isinstance(value, bool) or name == "redraws":
            continue
        if name in rs.LISTS:
            (low, high), (fewest, most) = rs.LISTS[name]
            assert fewest <= len(value) <= most and all(low <= v <= high for v in value)
            continue
        if isinstance(value, int):
            low, high = rs.RANGES[name]
            assert low <= value <= high
        else:
            assert value in rs.CHOICES[name]
