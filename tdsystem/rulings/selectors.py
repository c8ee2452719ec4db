"""What the ruling page reads from an event: its levels and the table settings they give."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from tdsystem.core.forms import whole_number
from tdsystem.core.numbers import grouped
from tdsystem.engine import rulesets
from tdsystem.events.models import Event
from tdsystem.structures.models import Level

DEFAULT_STACK = 10_000
ID_MAX = 10**11 - 1  # an event id typed in a URL or posted: 11 digits at most
LEVEL_INDEX_MAX = 99_999
NO_EVENT = {
    "game": "flop",
    "rule_set": rulesets.DEFAULT,
    "structure": "no-limit",
    "small_blind": "50",
    "big_blind": "100",
    "ante": "0",
    "ante_type": "each",
    "incomplete_raise": "full-bet",
    "pot_limit_preflop": "true-pot",
}


@dataclass(frozen=True)
class EventTable:
    """An event as the ruling page uses it: its levels and the settings of one of them."""

    event: Event
    levels: list[tuple[int, str]]  # (level index, label), breaks left out
    level_index: int | None
    settings: dict[str, str]  # form data for the table settings


def event_choices() -> list[tuple[int, str]]:
    return list(Event.objects.order_by("-created_at").values_list("pk", "name"))


def event_table_of(raw_id: object, level_index: object = None) -> EventTable | None:
    """The event named by an id typed in a URL or posted (None for anything else), with the
    settings of ``level_index`` or of its current level."""
    pk = whole_number(raw_id, high=ID_MAX)
    if pk is None:
        return None
    event = Event.objects.select_related("clock", "structure").filter(pk=pk).first()
    return event_table(event, level_index) if event is not None else None


def event_table(event: Event, level_index: object = None) -> EventTable:
    """The event's levels and the settings of ``level_index`` (by default the level the
    clock is on; on a break, the level after it)."""
    rows = list(event.structure.levels.order_by("position"))
    numbers = _numbers(rows)
    levels = [(i, _label(lv, numbers[i])) for i, lv in enumerate(rows) if not lv.is_break]
    wanted = _index(level_index)
    if wanted is None or not any(i == wanted for i, _ in levels):
        wanted = _current(event, rows)
    level = rows[wanted] if wanted is not None else None
    return EventTable(event, levels, wanted, _settings(event, level))


def _numbers(rows: list[Level]) -> dict[int, int]:
    """Level numbers as printed: breaks are not counted."""
    numbers, number = {}, 0
    for i, lv in enumerate(rows):
        if not lv.is_break:
            number += 1
            numbers[i] = number
    return numbers


def _index(raw: object) -> int | None:
    return whole_number(raw, low=0, high=LEVEL_INDEX_MAX)


def _current(event: Event, rows: list[Level]) -> int | None:
    clock = getattr(event, "clock", None)
    at = max(min(clock.level_index if clock else 0, len(rows) - 1), 0)
    after = [i for i in range(at, len(rows)) if not rows[i].is_break]
    before = [i for i in range(at) if not rows[i].is_break]
    return after[0] if after else (before[-1] if before else None)


def _label(lv: Level, number: int) -> str:
    parts = [
        gettext("Level %(number)s: %(small)s/%(big)s")
        % {"number": number, "small": grouped(lv.small_blind), "big": grouped(lv.big_blind)}
    ]
    if lv.ante:
        parts.append(gettext("ante %(ante)s") % {"ante": grouped(lv.ante)})
    if lv.small_bet and lv.big_bet:
        parts.append(
            gettext("bets %(small)s/%(big)s")
            % {"small": grouped(lv.small_bet), "big": grouped(lv.big_bet)}
        )
    return " · ".join(parts)


def _settings(event: Event, seg: Level | None) -> dict[str, str]:
    data = {
        **NO_EVENT,
        "structure": event.betting,
        "rule_set": event.rule_set,
        "ante_type": event.ante_type,
        "incomplete_raise": event.incomplete_raise,
        # The event's reading of its rule set (overrides included), shown and editable.
        "raise_cap_heads_up": event.rules.limit_cap_heads_up,
        "pot_limit_preflop": event.pot_limit_preflop,
        "bb_must_cover_sb": "on" if event.bb_must_cover_sb else "",
        "small_bet": "",
        "big_bet": "",
    }
    # A stud event opens the page for stud (once the events app offers the game); a mixed
    # games event keeps the game the floor chose.
    if event.game == "stud":
        data["game"] = "stud"
    elif event.game == "mixed":
        del data["game"]
    if seg is not None:
        data.update(
            small_blind=str(seg.small_blind),
            big_blind=str(seg.big_blind),
            ante=str(seg.ante),
            small_bet=str(seg.small_bet or ""),
            big_bet=str(seg.big_bet or ""),
        )
    return data
