"""The rule sets a tournament can follow: what each decides, and the rule numbers it cites.

A rule set is a versioned text (the Poker TDA rules of 2024 and 2026, the WSOP tournament
rules of 2026). Where the sets differ in what the floor does, the difference is a setting
of `Settings`; an event follows its set and may override any setting where the room
differs (`effective`). Citations name the rule that says so in that text (`cite`).

What is known of each text, and what is only *reported* in public copies, is stated in
docs/rule-sets.md; a reported behaviour is a setting, so a room can follow its own copy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from tdsystem.engine import shotclock
from tdsystem.engine.explain import gettext_noop

TDA_2024 = "tda-2024"
TDA_2026 = "tda-2026"
WSOP_2026 = "wsop-2026"

# Players out on one hand at different tables during hand-for-hand.
OTHER_TABLES_BY_STACK = "stack"  # ranked together by starting stack (TDA)
OTHER_TABLES_TIE = "tie"  # they tie and share the places' prizes (WSOP R126)

# Which table gives up a player when a table is short.
BALANCE_FROM_LARGEST = "largest"  # the table with the most players (TDA 11-C's procedure)
BALANCE_FROM_NEXT_FULL = "next-full"  # the next numbered table at full capacity (WSOP R67)
BALANCE_FROM_BREAK_ORDER = "break-order"  # the next table in the breaking order (WSOP R67)
BALANCE_FROM = (BALANCE_FROM_LARGEST, BALANCE_FROM_NEXT_FULL, BALANCE_FROM_BREAK_ORDER)

# When a short table stops dealing.
HALT_BLINDS_IMPACTED = "blinds-impacted"  # short by N, once the blinds are impacted (TDA 11-D)
HALT_AT_ONCE = "at-once"  # short by N by elimination, at once (WSOP R67)
HALTING = (HALT_BLINDS_IMPACTED, HALT_AT_ONCE)

# When the raise cap of a limit game is lifted heads-up (the engine's ``raise_cap_heads_up``).
CAP_AT_START = "at-start"  # only two players in the pot at the start of the round (Wikipedia)
CAP_UNTIL_CAPPED = "until-capped"  # heads-up before the cap is reached (Robert's Rules)
CAP_KEPT = "kept"  # the cap holds heads-up until the event is down to two (TDA 2024 rule 48)
CAP_HEADS_UP = (CAP_AT_START, CAP_UNTIL_CAPPED, CAP_KEPT)

# Several chips put out silently beyond a call (the engine's ``silent_chips``).
SILENT_FIFTY = "fifty-percent"  # the 50% standard: a full raise or a call (TDA 43, 45)
SILENT_FULL = "full-amount"  # a raise of everything put out (the reference article, big bet)
SILENT_CHIPS = (SILENT_FIFTY, SILENT_FULL)

# When late registration and re-entries close, whatever level the event's rules name.
CLOSE_AT_MONEY = "money"  # once every player left is in the money (the bubble has burst)
CLOSE_AT_FINAL_TABLE = "final-table"  # once the field is down to the final table
CLOSE_BY_LEVEL = "level"  # only at the end of the event's late-registration level
ENTRIES_CLOSE = (CLOSE_AT_MONEY, CLOSE_AT_FINAL_TABLE, CLOSE_BY_LEVEL)


@dataclass(frozen=True)
class Redraw:
    """Redraw the seats automatically when the field is down to these table counts, in
    events of at least `min_entries` entries."""

    min_entries: int
    tables: tuple[int, ...]


@dataclass(frozen=True)
class Settings:
    """What a rule set decides. Every field may be overridden per event."""

    # Players out on one hand at one table: the bigger starting stack places higher, equal
    # stacks tie (every set). At different tables during hand-for-hand:
    other_tables: str = OTHER_TABLES_BY_STACK
    # Big-blind-ante events: rank by the stack at the start of the hand after the ante the
    # player actually paid (TDA 2026, reported), not before it.
    stack_after_ante: bool = False
    # Players out on the hand-for-hand hand that bursts the bubble (their places cross the
    # money line) all share the paid places' prizes, whatever their stacks or tables (TDA
    # 2024 RP-8-A: "50 paid, 52 left, 3 out: all 3 share in the 50th place payout"); else
    # they are placed as above (WSOP R126).
    bubble_share: bool = True
    # Each hand-for-hand hand takes at most this many minutes off the level clock.
    hfh_minutes_per_hand: int = 2
    # Automatic redraws, the first rule whose min_entries the field reaches (largest first).
    redraws: tuple[Redraw, ...] = ()
    # The final table's size; 0: the usual size for the event's tables (the seats per table;
    # 9 at 8-handed, 7 at 6-handed events). Used where it is at most one seat more than the
    # event's tables (a 6-handed WSOP event keeps a final table of 7).
    final_table_size: int = 0
    # Which table gives the player, at and above `large_field_tables` tables, and below.
    balance_from_large: str = BALANCE_FROM_LARGEST
    balance_from_small: str = BALANCE_FROM_LARGEST
    large_field_tables: int = 20
    # At this many tables in play or fewer, tables balance within one player (WSOP R67: "at
    # 12 tables balance within one player"); 0: never. Elsewhere the event's threshold.
    balance_within_one_at: int = 0
    # The dead button moves over several empty seats before the small blind, so newcomers
    # get the most seats (TDA 2026 36-B, reported); else it advances one seat at a time.
    dead_button_skips_empty: bool = False
    # Halting: a table `halt_short_by` or more players short of the largest table.
    halting: str = HALT_BLINDS_IMPACTED
    halt_short_by: int = 3
    # Limit games: when the raise cap is lifted heads-up. The source documents' reading
    # (Robert's Rules, the Vietnamese page: "any time the action becomes heads-up before the
    # raising has been capped") unless the set says otherwise (TDA 48: the cap holds).
    limit_cap_heads_up: str = CAP_UNTIL_CAPPED
    # Several chips put out without a word, beyond a call (the engine's ``silent_chips``): the
    # 50% standard (TDA 43 and 45; the Vietnamese page: more than half a bet binds to a full
    # one) or a raise of all of it (the reference article, for no limit and pot limit).
    silent_chips: str = SILENT_FIFTY
    # Late registration and re-entries close at the end of the event's late-registration
    # level, or earlier once the field reaches the money (or the final table): a late entry
    # then would change the places and prizes of players already out, prizes paid among
    # them. The texts as known here leave the moment to the event; most rooms close at the
    # money.
    entries_close: str = CLOSE_AT_MONEY
    # The shot clock (engine/shotclock.py's Policy, docs/shot-clock.md): when the action
    # clock runs at every table, its times, its extensions and the outcome at zero. No
    # published text runs one (TDA 29 is the floor's clock, always there): off unless the
    # room or the event says. `shot_clock` reads these as the engine's Policy.
    shot_clock_starts: str = shotclock.STARTS_OFF
    shot_clock_starts_at: int = 0
    shot_clock_seconds: tuple[int, ...] = (30,)
    shot_clock_facing_raise: int = 0
    shot_clock_warnings: tuple[int, ...] = (10, 3)
    shot_clock_extension_seconds: int = 30
    shot_clock_extensions: int = 0
    shot_clock_reset_day: str = shotclock.DAY_KEEP
    shot_clock_reset_players: int = 0
    shot_clock_reset_final_table: bool = False
    shot_clock_at_zero: str = shotclock.AT_ZERO_TDA


@dataclass(frozen=True)
class RuleSet:
    code: str
    name: str  # "TDA 2024"
    body: str  # how a citation starts: "TDA", "WSOP R"
    version: str
    source: str  # the text's title in English, marked for the catalogues
    settings: Settings
    # concept -> rule number in this text (see CONCEPTS); a concept the text does not number
    # is cited without a number.
    citations: Mapping[str, str] = field(default_factory=dict)
    # the citations only reported, not read in the official text
    reported: frozenset[str] = frozenset()

    def cite(self, concept: str) -> str:
        """'TDA 11-D', 'WSOP R67'; the set's name alone when the text gives no number."""
        if concept not in CONCEPTS:
            raise KeyError(f"unknown concept {concept!r}")
        number = self.citations.get(concept)
        if not number:
            return self.name
        separator = "" if self.body.endswith("R") else " "
        return f"{self.body}{separator}{number}"


# What the pages, the log and the rulings cite, and what each concept is.
CONCEPTS: Mapping[str, str] = {
    "draw": "the random seat draw",
    "late_seat": "seating late entries and re-entries",
    "reserved_seat": "a reserved seat for a player with special needs",
    "breaking": "breaking tables",
    "balancing": "balancing tables",
    "balance_position": "the seat a moved player gets",
    "balance_source": "which table gives up the player",
    "halting": "halting a short table",
    "dead_button": "the dead button",
    "heads_up": "the button heads-up",
    "simultaneous": "players out on the same hand",
    "hand_for_hand": "hand-for-hand play",
    "final_table": "forming the final table",
    "redraw": "redraws",
    "chip_race": "the chip race",
    "big_blind_ante": "the big blind ante",
    "pot_limit_blinds": "pot limit with a short or dead blind",
    "end_of_day": "the end of a day",
    "raise_cap": "the number of raises in limit, heads-up included",
    # The betting rules a ruling applies (the engine's notes and refusals cite them).
    "methods_of_betting": "bets made by words and chips",
    "calling": "the ways to call",
    "raising": "the ways to raise (one motion or a declared amount)",
    "raise_amounts": "the minimum raise, and the 50% standard",
    "oversized_chip": "a single oversized chip",
    "multiple_chips": "several chips put out at once",
    "prior_bet_chips": "chips of an earlier bet not yet pulled in",
    "reopening": "an all-in short of a full raise, and the betting reopened",
    "acting_in_turn": "acting in turn",
    "binding_declarations": "binding declarations and undercalls",
    "underbets": "bets and raises below the minimum",
    "out_of_turn": "action out of turn",
    "pot_limit": "the pot-limit maximum",
    "invalid_declarations": "declaring call or raise with no bet, check facing one",
    "string_bets": "string bets and raises",
    "unclear_betting": "non-standard and unclear bets",
    "all_in_face_up": "cards face up once the betting is over with a player all-in",
    "shot_clock": "calling the clock on a player, and the action clock",
}

_TDA_2024_CITES = {
    "draw": "7",
    "late_seat": "8-A",
    "reserved_seat": "9",
    "breaking": "10",
    "balancing": "11",
    "balance_position": "11-A",
    "balance_source": "11-C",
    "halting": "11-D",
    "chip_race": "24",
    "dead_button": "32",
    "heads_up": "34-B",
    "pot_limit_blinds": "54-B",
    "hand_for_hand": "RP-8",
    "big_blind_ante": "RP-11",
    "raise_cap": "48",
    "all_in_face_up": "16",
    "methods_of_betting": "40",
    "calling": "41",
    "raising": "42",
    "raise_amounts": "43",
    "oversized_chip": "44",
    "multiple_chips": "45",
    "prior_bet_chips": "46",
    "reopening": "47",
    "acting_in_turn": "50",
    "binding_declarations": "51",
    "underbets": "52",
    "out_of_turn": "53",
    "pot_limit": "54",
    "invalid_declarations": "55",
    "string_bets": "56",
    "unclear_betting": "57",
    "shot_clock": "29",
}
# The 2026 text renumbers (reported): balancing 11 -> 12, dead button 32 -> 34, heads-up
# 34 -> 36, and 16 -> 17, 43 -> 45, 44 -> 46, 45 -> 47, 47 -> 49, 48 -> 50; players out on the
# same hand are rule 22. Numbers not in that list are kept, except the betting rules around
# the renumbered ones, which the report leaves without a 2026 number: the pages cite the set's
# name for them rather than a number that may now be another rule's.
_TDA_2026_CITES = _TDA_2024_CITES | {
    "balancing": "12",
    "balance_position": "12-A",
    "balance_source": "12-C",
    "halting": "12-D",
    "simultaneous": "22",
    "dead_button": "34",
    "heads_up": "36-B",
    "all_in_face_up": "17",
    "raise_amounts": "45",
    "oversized_chip": "46",
    "multiple_chips": "47",
    "reopening": "49",
    "raise_cap": "50",
    "methods_of_betting": "",
    "calling": "",
    "raising": "",
    "prior_bet_chips": "",
    "acting_in_turn": "",
    "binding_declarations": "",
    "underbets": "",
    "out_of_turn": "",
    "pot_limit": "",
    "invalid_declarations": "",
    "string_bets": "",
    "unclear_betting": "",
}
_WSOP_2026_CITES = {
    "balancing": "67",
    "balance_source": "67",
    "halting": "67",
    "final_table": "68",
    "chip_race": "77",
    "dead_button": "85",
    "heads_up": "87",
    "end_of_day": "125",
    "simultaneous": "126",
    "hand_for_hand": "126",
}

RULE_SETS: Mapping[str, RuleSet] = {
    TDA_2024: RuleSet(
        code=TDA_2024,
        name="TDA 2024",
        body="TDA",
        version="2024",
        source=gettext_noop("Poker TDA Rules, 2024 version"),
        settings=Settings(limit_cap_heads_up=CAP_KEPT),
        citations=_TDA_2024_CITES,
    ),
    TDA_2026: RuleSet(
        code=TDA_2026,
        name="TDA 2026",
        body="TDA",
        version=gettext_noop("2026 (1.1, 21 Sept 2026)"),
        source=gettext_noop("Poker TDA Rules, Summit XII, 2026 version 1.1"),
        settings=Settings(
            stack_after_ante=True, dead_button_skips_empty=True, limit_cap_heads_up=CAP_KEPT
        ),
        citations=_TDA_2026_CITES,
        # The renumbering itself is reported, not read in the official text.
        reported=frozenset(_TDA_2026_CITES),
    ),
    WSOP_2026: RuleSet(
        code=WSOP_2026,
        name="WSOP 2026",
        body="WSOP R",
        version="2026",
        source=gettext_noop("World Series of Poker, 2026 tournament rules"),
        settings=Settings(
            other_tables=OTHER_TABLES_TIE,
            bubble_share=False,
            hfh_minutes_per_hand=2,
            redraws=(Redraw(100, (3, 2, 1)), Redraw(50, (2, 1))),
            final_table_size=10,
            balance_from_large=BALANCE_FROM_NEXT_FULL,
            balance_from_small=BALANCE_FROM_BREAK_ORDER,
            balance_within_one_at=12,
            halting=HALT_AT_ONCE,
        ),
        citations=_WSOP_2026_CITES,
    ),
}
DEFAULT = TDA_2024


class RuleSetError(ValueError):
    """A rule set or an override refused. `msgid` (marked for the catalogues) and `params`
    say it again for the pages, in the reader's language; str() is the English."""

    def __init__(
        self, msgid: str, field: str = "rule_overrides", params: Mapping[str, Any] | None = None
    ):
        self.msgid = msgid
        self.params = dict(params or {})
        super().__init__(msgid % self.params if self.params else msgid)
        self.field = field


SETTING_NAMES = tuple(f.name for f in fields(Settings))
# The bounds of each whole-number setting and the values of each setting that is a choice:
# the engine checks overrides against them, the console's forms offer them.
RANGES: Mapping[str, tuple[int, int]] = {
    "hfh_minutes_per_hand": (1, 10),
    "final_table_size": (0, 10),
    "large_field_tables": (1, 10_000),
    "balance_within_one_at": (0, 10_000),
    "halt_short_by": (2, 9),
    "shot_clock_starts_at": (0, shotclock.PLAYERS[1]),
    "shot_clock_facing_raise": (0, shotclock.SECONDS[1]),
    "shot_clock_extension_seconds": shotclock.SECONDS,
    "shot_clock_extensions": shotclock.EXTENSIONS,
    "shot_clock_reset_players": shotclock.RESET_PLAYERS,
}
# The settings that are a list of whole numbers: each number's bounds, and how many.
LISTS: Mapping[str, tuple[tuple[int, int], tuple[int, int]]] = {
    "shot_clock_seconds": (shotclock.SECONDS, (1, len(shotclock.STREETS))),
    "shot_clock_warnings": (shotclock.WARNING, (0, shotclock.WARNINGS_MAX)),
}
SHOT_CLOCK_PREFIX = "shot_clock_"
CHOICES: Mapping[str, tuple[str, ...]] = {
    "other_tables": (OTHER_TABLES_BY_STACK, OTHER_TABLES_TIE),
    "balance_from_large": BALANCE_FROM,
    "balance_from_small": BALANCE_FROM,
    "halting": HALTING,
    "limit_cap_heads_up": CAP_HEADS_UP,
    "silent_chips": SILENT_CHIPS,
    "entries_close": ENTRIES_CLOSE,
    "shot_clock_starts": shotclock.STARTS,
    "shot_clock_reset_day": shotclock.DAY_RULES,
    "shot_clock_at_zero": shotclock.AT_ZERO,
}


def citation(code: str, concept: str) -> str | None:
    """The number set ``code`` gives ``concept`` ("TDA 47"), None when it gives none (or the
    concept is "")."""
    if not concept:
        return None
    found = rule_set(code)
    return found.cite(concept) if found.citations.get(concept) else None


def rule_set(code: str) -> RuleSet:
    try:
        return RULE_SETS[code]
    except KeyError:
        raise RuleSetError(
            gettext_noop("unknown rule set %(code)s: one of %(sets)s"),
            "rule_set",
            {"code": repr(code), "sets": ", ".join(RULE_SETS)},
        ) from None


def _checked(name: str, value: Any) -> Any:
    """One override's value, as the setting's type wants it; RuleSetError otherwise."""
    default = getattr(Settings(), name)
    if name == "redraws":
        try:
            rules = tuple(
                Redraw(int(r["min_entries"]), tuple(int(t) for t in r["tables"])) for r in value
            )
        except (TypeError, KeyError, ValueError):
            raise RuleSetError(
                gettext_noop(
                    "redraws: a list of {min_entries, tables}, e.g. "
                    '[{"min_entries": 100, "tables": [3, 2, 1]}]'
                )
            ) from None
        if any(r.min_entries < 0 or any(not 1 <= t <= 10 for t in r.tables) for r in rules):
            raise RuleSetError(
                gettext_noop("%(name)s: entries 0 or more, table counts 1 to 10"),
                params={"name": "redraws"},
            )
        return tuple(sorted(rules, key=lambda r: -r.min_entries))
    if name in LISTS:
        return _numbers_checked(name, value)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise RuleSetError(gettext_noop("%(name)s: true or false"), params={"name": name})
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleSetError(gettext_noop("%(name)s: a whole number"), params={"name": name})
        low, high = RANGES[name]
        if not low <= value <= high:
            raise RuleSetError(
                gettext_noop("%(name)s: from %(low)s to %(high)s"),
                params={"name": name, "low": low, "high": high},
            )
        return value
    choices = CHOICES[name]
    if value not in choices:
        raise RuleSetError(
            gettext_noop("%(name)s: one of %(choices)s"),
            params={"name": name, "choices": ", ".join(choices)},
        )
    return value


def _numbers_checked(name: str, value: Any) -> tuple[int, ...]:
    (low, high), (fewest, most) = LISTS[name]
    if not isinstance(value, list | tuple) or not all(
        isinstance(v, int) and not isinstance(v, bool) and low <= v <= high for v in value
    ):
        raise RuleSetError(
            gettext_noop("%(name)s: whole numbers from %(low)s to %(high)s"),
            params={"name": name, "low": low, "high": high},
        )
    if not fewest <= len(value) <= most:
        raise RuleSetError(
            gettext_noop("%(name)s: %(fewest)s to %(most)s numbers"),
            params={"name": name, "fewest": fewest, "most": most},
        )
    return tuple(value)


def shot_clock(settings: Settings) -> shotclock.Policy:
    """The shot clock policy the settings give (the `shot_clock_*` fields)."""
    return shotclock.Policy(
        **{
            name.removeprefix(SHOT_CLOCK_PREFIX): getattr(settings, name)
            for name in SETTING_NAMES
            if name.startswith(SHOT_CLOCK_PREFIX)
        }
    )


def effective(code: str, *overrides: Mapping[str, Any] | None) -> Settings:
    """The settings of set `code` with each mapping of overrides applied in turn (a house
    set's, then the event's). An unknown setting or a bad value is a RuleSetError."""
    settings = rule_set(code).settings
    for layer in overrides:
        if not layer:
            continue
        unknown = sorted(set(layer) - set(SETTING_NAMES))
        if unknown:
            raise RuleSetError(
                gettext_noop("unknown setting %(name)s"), params={"name": repr(unknown[0])}
            )
        settings = replace(settings, **{k: _checked(k, v) for k, v in layer.items()})
    try:  # the shot clock's settings taken together (a warning before the shortest time)
        shot_clock(settings)
    except shotclock.ShotClockError as exc:
        params = exc.params | {"name": SHOT_CLOCK_PREFIX + (exc.field or "starts")}
        raise RuleSetError(exc.msgid, params=params) from None
    return settings


def redraw_tables(settings: Settings, entries: int) -> tuple[int, ...]:
    """The table counts at which an event of `entries` entries redraws automatically."""
    for rule in settings.redraws:  # largest min_entries first
        if entries >= rule.min_entries:
            return rule.tables
    return ()


def as_overrides(settings: Settings, base: Settings) -> dict[str, Any]:
    """The settings that differ from `base`, as JSON-ready overrides."""
    out: dict[str, Any] = {}
    for name in SETTING_NAMES:
        value = getattr(settings, name)
        if value != getattr(base, name):
            if name == "redraws":
                value = [{"min_entries": r.min_entries, "tables": list(r.tables)} for r in value]
            elif name in LISTS:
                value = list(value)
            out[name] = value
    return out
