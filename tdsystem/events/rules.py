"""How the rule sets read on the pages: each set's one-line description, each setting's
label, its values in words, and the redraws written as text ("100: 3 2 1; 50: 2 1").

The engine (engine/rulesets.py) says what a setting is; this module only words it. A
setting the engine adds later still shows, under its own name, until it gets a label here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tdsystem.engine import rulesets
from tdsystem.engine import shotclock as sc

# One line for the rule-set menus: what the text is and where it differs.
DESCRIPTIONS = {
    rulesets.TDA_2024: _(
        "Poker TDA rules of 2024: balance from the largest table, halt a table 3 short once "
        "the blinds are impacted, ranks by starting stack."
    ),
    rulesets.TDA_2026: _(
        "Poker TDA rules of 2026 (renumbered): as 2024, with big-blind-ante ranks after the "
        "ante paid and a dead button that skips empty seats (reported)."
    ),
    rulesets.WSOP_2026: _(
        "WSOP tournament rules of 2026: players out at different tables tie, redraws at 3, 2 "
        "and 1 tables, 10-player final table, halt at once."
    ),
}

LABELS = {
    "other_tables": _("Players out on one hand at different tables (hand-for-hand)"),
    "stack_after_ante": _(
        "Big blind ante: players out on one hand ranked by their stacks after the ante paid"
    ),
    "bubble_share": _("Players out on the bubble hand all share the paid places' prizes"),
    "hfh_minutes_per_hand": _("Minutes each hand-for-hand hand takes off the clock"),
    "redraws": _("Automatic redraws"),
    "final_table_size": _("Final table size (0: the usual size for the event's tables)"),
    "balance_from_large": _("Which table gives a player, in a large field"),
    "balance_from_small": _("Which table gives a player, below a large field"),
    "large_field_tables": _("A large field has at least this many tables"),
    "balance_within_one_at": _("Balance within one player from this many tables down (0: never)"),
    "dead_button_skips_empty": _("The dead button moves over several empty seats at once"),
    "halting": _("When a short table stops dealing"),
    "halt_short_by": _("A table halts when this many players short of the largest"),
    "limit_cap_heads_up": _("Limit games: when the raise cap is lifted heads-up"),
    "silent_chips": _("Several chips put out without a word, beyond a call"),
    "entries_close": _("Late registration and re-entries close, at the latest"),
    "shot_clock_starts": _("Shot clock: when it runs at every table"),
    "shot_clock_starts_at": _("Shot clock: from this level, tables off the money or players left"),
    "shot_clock_seconds": _(
        "Shot clock: seconds per action (one time, or pre-flop, flop, turn and river)"
    ),
    "shot_clock_facing_raise": _("Shot clock: seconds once facing a raise (0: the street's)"),
    "shot_clock_warnings": _("Shot clock: it sounds with this many seconds left"),
    "shot_clock_extension_seconds": _("Shot clock: seconds an extension adds"),
    "shot_clock_extensions": _("Shot clock: extensions each player holds"),
    "shot_clock_reset_day": _("Shot clock: extensions on a new day"),
    "shot_clock_reset_players": _(
        "Shot clock: extensions topped up at this many players (0: never)"
    ),
    "shot_clock_reset_final_table": _("Shot clock: extensions topped up at the final table"),
    "shot_clock_at_zero": _("Shot clock: at zero"),
}

CHOICE_LABELS = {
    rulesets.OTHER_TABLES_BY_STACK: _("Ranked by their starting stacks"),
    rulesets.OTHER_TABLES_TIE: _("They tie and share the places' prizes"),
    rulesets.BALANCE_FROM_LARGEST: _("The table with the most players"),
    rulesets.BALANCE_FROM_NEXT_FULL: _("The next numbered table at full capacity"),
    rulesets.BALANCE_FROM_BREAK_ORDER: _("The next table in the breaking order"),
    rulesets.HALT_BLINDS_IMPACTED: _("Once the blinds are impacted"),
    rulesets.HALT_AT_ONCE: _("At once"),
    rulesets.CAP_AT_START: _("When only two players start the betting round"),
    rulesets.CAP_UNTIL_CAPPED: _("Whenever the pot turns heads-up before the cap is reached"),
    rulesets.CAP_KEPT: _("Never: the cap holds heads-up until two players are left in the event"),
    rulesets.SILENT_FIFTY: _("The 50% standard: a full raise from half a raise, else a call"),
    rulesets.SILENT_FULL: _("A raise of all the chips put out"),
    rulesets.CLOSE_AT_MONEY: _("Once the players left are all in the money"),
    rulesets.CLOSE_AT_FINAL_TABLE: _("Once the field is down to its final table"),
    rulesets.CLOSE_BY_LEVEL: _("Only at the end of the late-registration level"),
    sc.STARTS_OFF: _("Never: only the floor's clock when called (25 + 5 seconds)"),
    sc.STARTS_AT_START: _("From the first hand"),
    sc.STARTS_AT_LEVEL: _("From level N"),
    sc.STARTS_OFF_MONEY: _("From N tables off the money (0: in the money)"),
    sc.STARTS_AT_PLAYERS: _("From N players left"),
    sc.DAY_KEEP: _("Kept: what is left carries over"),
    sc.DAY_RESET: _("Topped up to the count"),
    sc.DAY_ADD: _("The count added to what is left"),
    sc.AT_ZERO_TDA: _("Dead hand if facing a bet, else checked"),
    sc.AT_ZERO_DEAD: _("Dead hand"),
}

# The concept each setting is cited under, for the "rule" column of the pages.
CONCEPT_OF = {
    "other_tables": "simultaneous",
    "stack_after_ante": "simultaneous",
    "bubble_share": "hand_for_hand",
    "hfh_minutes_per_hand": "hand_for_hand",
    "redraws": "redraw",
    "final_table_size": "final_table",
    "balance_from_large": "balance_source",
    "balance_from_small": "balance_source",
    "large_field_tables": "balance_source",
    "balance_within_one_at": "balancing",
    "dead_button_skips_empty": "dead_button",
    "halting": "halting",
    "halt_short_by": "halting",
    "limit_cap_heads_up": "raise_cap",
    "silent_chips": "multiple_chips",
    "entries_close": "late_seat",
    **{name: "shot_clock" for name in rulesets.SETTING_NAMES if name.startswith("shot_clock_")},
}

# The rules the console's event page lists with their numbers in the event's set.
KEY_CONCEPTS = {
    "draw": _("Seat draw"),
    "late_seat": _("Late entries"),
    "breaking": _("Breaking tables"),
    "balancing": _("Balancing"),
    "halting": _("Halting a short table"),
    "dead_button": _("Dead button"),
    "heads_up": _("Heads-up button"),
    "simultaneous": _("Players out on one hand"),
    "hand_for_hand": _("Hand-for-hand"),
    "final_table": _("Final table"),
    "chip_race": _("Chip race"),
    "pot_limit_blinds": _("Pot limit with a short blind"),
    "raise_cap": _("Raise cap in limit, heads-up"),
    "shot_clock": _("Calling the clock"),
}


def label(name: str) -> str:
    return str(LABELS.get(name, name.replace("_", " ")))


def refusal(exc: rulesets.RuleSetError) -> str:
    """What the engine refused, in the reader's language; a setting is named by its label
    ("Minutes each hand-for-hand hand takes off the clock: from 1 to 10"), not as the
    overrides' JSON spells it."""
    if not exc.params:
        return gettext(exc.msgid)
    params = dict(exc.params)
    if params.get("name") in rulesets.SETTING_NAMES:
        params["name"] = label(str(params["name"]))
    return gettext(exc.msgid) % params


def kind(name: str) -> str:
    """How a setting is entered: "redraws", "numbers", "bool", "int" or "choice"."""
    if name == "redraws":
        return "redraws"
    if name in rulesets.LISTS:
        return "numbers"
    default = getattr(rulesets.Settings(), name)
    if isinstance(default, bool):
        return "bool"
    if isinstance(default, int):
        return "int"
    return "choice"


def redraws_text(redraws: tuple[rulesets.Redraw, ...]) -> str:
    """'100: 3 2 1; 50: 2 1', the form's way of writing the redraws; '' for none."""
    return "; ".join(f"{r.min_entries}: {' '.join(map(str, r.tables))}" for r in redraws)


def _digits(word: str) -> bool:
    """A whole number as a page sends it: ASCII digits, at most six of them."""
    return word.isascii() and word.isdigit() and len(word) <= 6


def redraws_parse(text: str) -> list[dict[str, Any]]:
    """The redraws typed as '100: 3 2 1; 50: 2 1' as the engine's overrides read them.
    A ValueError names the part that does not read."""
    rules = []
    for part in text.replace("\n", ";").split(";"):
        if not part.strip():
            continue
        entries, colon, tables = part.partition(":")
        numbers = tables.replace(",", " ").split()
        words = [entries.strip(), *numbers]
        if not colon or not numbers or not all(_digits(w) for w in words):
            raise ValueError(part.strip())
        rules.append({"min_entries": int(entries), "tables": [int(n) for n in numbers]})
    return rules


def numbers_parse(text: str) -> list[int]:
    """'15 20 30 30' (or with commas) as a list of numbers; a ValueError names the word
    that is not one."""
    words = text.replace(",", " ").split()
    for word in words:
        if not _digits(word):
            raise ValueError(word)
    return [int(word) for word in words]


def value_text(name: str, value: Any) -> str:
    """A setting's value in words, as the pages show it."""
    match kind(name):
        case "redraws":
            return redraws_text(value) or str(_("none"))
        case "numbers":
            return " ".join(map(str, value)) or str(_("none"))
        case "bool":
            return str(_("yes") if value else _("no"))
        case "choice":
            return str(CHOICE_LABELS.get(value, value))
    return str(value)


@dataclass(frozen=True)
class Difference:
    name: str
    label: str
    base: str  # the set's value, in words
    value: str  # the event's


def differences(settings: rulesets.Settings, base: rulesets.Settings) -> list[Difference]:
    """The settings where `settings` differs from `base`, in words."""
    return [
        Difference(
            name, label(name), value_text(name, getattr(base, name)), value_text(name, value)
        )
        for name in rulesets.SETTING_NAMES
        if (value := getattr(settings, name)) != getattr(base, name)
    ]


def set_label(code: str, house=None) -> str:
    """'TDA 2024', or 'Casino Lyon house rules, based on TDA 2024'."""
    name = rulesets.rule_set(code).name
    if house is None:
        return name
    return str(_("%(house)s, based on %(set)s") % {"house": house.name, "set": name})


def event_summary(event) -> dict[str, Any]:
    """What the console's event page says of the rules: the set, where the event differs
    from it (the house set's changes and the event's own), and the key rules' numbers."""
    builtin = event.rule_set_info
    house = event.house_rules
    house_keys = set(house.overrides) if house else set()
    changed = differences(event.rules, builtin.settings)
    return {
        "set": builtin,
        "house": house,
        "label": set_label(builtin.code, house),
        "differences": [
            {
                "row": row,
                "by_event": row.name in event.rule_overrides or row.name not in house_keys,
            }
            for row in changed
        ],
        # Only what the text numbers: "Seat draw: WSOP 2026" tells the floor nothing.
        "cited": [
            (str(text), event.cite(concept))
            for concept, text in KEY_CONCEPTS.items()
            if builtin.citations.get(concept)
        ],
        "reported": bool(builtin.reported),
    }
