"""What the clock screen tells players about entries: when late registration closes, until
when rebuys run, the add-on's break, the re-entries allowed. Part of the clock JSON
(`entry_notices`): each notice has a code, its figures and its text; the screen's script
counts "closes in" down from `ms` the way it counts the level's time."""

from __future__ import annotations

import math
from collections.abc import Sequence

from django.utils.translation import gettext, gettext_noop, ngettext

from tdsystem.core.log import Text
from tdsystem.engine import entry_rules as rules

from .models import Event


def hms(ms: int) -> str:
    """0:42:10, 9:05: as the screen's script writes times."""
    seconds = max(0, math.ceil(ms / 1000))
    h, m, s = seconds // 3600, (seconds % 3600) // 60, seconds % 60
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


_BREAK_WORDS = {
    1: gettext_noop("the first break"),
    2: gettext_noop("the second break"),
    3: gettext_noop("the third break"),
    4: gettext_noop("the fourth break"),
    5: gettext_noop("the fifth break"),
    6: gettext_noop("the sixth break"),
}


def break_text(number: int) -> Text:
    """The break's name as a log Text, read in each reader's language."""
    if number in _BREAK_WORDS:
        return Text(_BREAK_WORDS[number])
    return Text(gettext_noop("break %(n)s"), n=number)


def break_name(number: int) -> str:
    """ "the first break", "the second break"... (for notices and refusals)."""
    return str(break_text(number))


def entry_notices(
    event: Event, is_level: Sequence[bool], index: int, status: str, late_ms: int | None
) -> list[dict]:
    """The notices for segment `index` of the schedule with the clock in `status`;
    `late_ms` is the time left to late registration's end, as the clock JSON has it."""
    if status == rules.FINISHED:
        return []
    entry_rules = event.entry_rules
    at = rules.moment(is_level, index, status)
    notices: list[dict] = []

    def add(code: str, text: str, **params) -> None:
        notices.append({"code": code, "params": params, "text": text})

    if rules.entry_refusal(entry_rules, at) is None and entry_rules.late_registration_end_level:
        level = entry_rules.late_registration_end_level
        if late_ms is not None and status != rules.NOT_STARTED:
            text = gettext("Late registration closes in %(time)s") % {"time": hms(late_ms)}
            add("late-registration", text, level=level, ms=late_ms)
        else:
            text = gettext("Late registration until the end of level %(level)s") % {"level": level}
            add("late-registration", text, level=level, ms=None)
    if rules.reentry_refusal(entry_rules, at, who="", reentries=0) is None:
        limit = entry_rules.reentry_max
        if limit:
            text = ngettext(
                "Re-entries: %(limit)s per player",
                "Re-entries: %(limit)s per player",
                limit,
            ) % {"limit": limit}
        else:
            text = gettext("Re-entries allowed")
        add("reentries", text, limit=limit)
    if rules.rebuys_open(entry_rules, at):
        level = entry_rules.rebuy_until_level
        add("rebuys", gettext("Rebuys until level %(level)s") % {"level": level}, level=level)
    number = entry_rules.addon_break
    if number:
        if rules.addon_open(entry_rules, at):
            add("addon", gettext("Add-on at this break"), now=True, **{"break": number})
        elif _breaks_to(is_level, index) < number <= _breaks_to(is_level, len(is_level) - 1):
            text = gettext("Add-on at %(when)s") % {"when": break_name(number)}
            add("addon", text, now=False, **{"break": number})
    return notices


def _breaks_to(is_level: Sequence[bool], index: int) -> int:
    """How many breaks the schedule has up to segment `index`, that one included."""
    return sum(1 for kind in is_level[: index + 1] if not kind)
