"""What an event made from another takes over: the entry settings and the house rules.

A copy for next week (venue's `event_copy`) and a flight of a festival event (seating's
`flight_add`) both start from these; neither takes the source's night (players, entries,
clock, log).
"""

from __future__ import annotations

from .models import Event

COPIED_SETTINGS = (
    "game",
    "betting",
    "ante_type",
    "starting_stack",
    "buy_in",
    "fee",
    "bounty_type",
    "bounty_amount",
    "seats_per_table",
    "incomplete_raise",
    "pot_limit_preflop",
    "bb_must_cover_sb",
    "button_rule",
    "balance_threshold",
    "late_registration_end_level",
    "reentry_allowed",
    "reentry_max",
    "reentry_until_level",
    "rebuy_until_level",
    "rebuy_threshold",
    "rebuy_price",
    "rebuy_fee",
    "rebuy_chips",
    "rebuy_max",
    "addon_break",
    "addon_price",
    "addon_fee",
    "addon_chips",
    "rule_set",
    "house_rules",
    "rule_overrides",
    "screen_language",
    "simulated",  # a rehearsal's flights and copies are rehearsals too
)


def copied_settings(source: Event) -> dict[str, object]:
    """The source's settings an event made from it starts with."""
    return {field: getattr(source, field) for field in COPIED_SETTINGS}
