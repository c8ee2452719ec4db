"""Event services: the level clock, an event's creation, its levels, rules, entry rules,
screen language and staff.

One module per concept: clock.py (clock actions, their undo, the level changes as they
fall due and their tasks), create.py (a new event with its clock), days.py (a day's
first level), levels.py (editing the levels under a running clock, and its undo),
rules.py (the house rule sets and an event's rule set), entry_rules.py (re-entries and
late registration), screen.py (the screens' language) and staff.py (an event's staff).
Callers use the names below from this package; a test that replaces a name a service
looks up replaces it in the module that holds the service.
"""

from __future__ import annotations

from .clock import (
    ENDS_SENT_AHEAD,
    HANDFORHAND,
    LEVELS_EDIT,
    NobodySeated,
    clock_action,
    clock_settle,
    clock_undo,
    clock_undoable,
    clocks_next_end,
    clocks_rearm,
    clocks_settle_due,
    level_durations,
)
from .create import event_create
from .days import clock_day_start
from .entry_rules import (
    ENTRY_RULE_COLUMNS,
    REENTRY_NOT_ALLOWED,
    EntryRulesError,
    event_entry_rules_update,
    reentry_rules_unused,
)
from .levels import event_levels_edit, event_levels_undo
from .rules import (
    BALANCE_THRESHOLD_MAX,
    RulesError,
    event_rules_set,
    house_rule_set_create,
    house_rule_set_delete,
    house_rule_set_delete_refusal,
    house_rule_set_update,
)
from .screen import ScreenLanguageError, event_screen_language_set
from .staff import (
    ROLE_LABELS,
    StaffError,
    StaffRefused,
    event_staff_add,
    event_staff_copy,
    event_staff_creator,
    event_staff_remove,
    staff_candidates,
    staff_event,
    staff_rows,
)

__all__ = [
    "BALANCE_THRESHOLD_MAX",
    "ENDS_SENT_AHEAD",
    "ENTRY_RULE_COLUMNS",
    "HANDFORHAND",
    "LEVELS_EDIT",
    "REENTRY_NOT_ALLOWED",
    "ROLE_LABELS",
    "EntryRulesError",
    "NobodySeated",
    "RulesError",
    "ScreenLanguageError",
    "StaffError",
    "StaffRefused",
    "clock_action",
    "clock_day_start",
    "clock_settle",
    "clock_undo",
    "clock_undoable",
    "clocks_next_end",
    "clocks_rearm",
    "clocks_settle_due",
    "event_create",
    "event_entry_rules_update",
    "event_levels_edit",
    "event_levels_undo",
    "event_rules_set",
    "event_screen_language_set",
    "event_staff_add",
    "event_staff_copy",
    "event_staff_creator",
    "event_staff_remove",
    "house_rule_set_create",
    "house_rule_set_delete",
    "house_rule_set_delete_refusal",
    "house_rule_set_update",
    "level_durations",
    "reentry_rules_unused",
    "staff_candidates",
    "staff_event",
    "staff_rows",
]
