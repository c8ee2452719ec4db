"""What the values of an event's file must be: the rules every other way in applies.

An import takes the file's rows as the pages and the API take what people type
(`tdsystem/venue/transfer.py` names the row and field of a refusal):

- **Text people type and read** (TEXT: names, a flight's name, notes and reasons, a member
  id, a bag's number) is stored as `core.text.text_normal` gives it (Unicode NFC, spaces
  trimmed and runs of them made one), within its field's length; one it refuses (a bidi
  override, a zero-width space, a control character) refuses the file.
- **Every other string** (codes, who did what, the log's sentences and details) is kept
  as the file has it, the log saying what happened where it was written, but is refused
  for what text_normal refuses, line breaks and tabs aside (`strings_check`), and a NUL
  or half a surrogate pair, which no database stores, first of all.
- **Every date and time** lies in `core.moments`' one range (`moment_within`), a year
  past Python's (10000) included, which the deserializer could not even read; one
  without an offset is the installation's time, as the API reads it.
- A text within its field's length and a value among its field's choices (SQLite would
  store either).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import date, datetime, time

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _

from tdsystem.core.moments import moment_range_text, moment_within
from tdsystem.core.text import TextRefused, text_normal

# The text people type, by model: each field and whether it keeps its line breaks.
TEXT: dict[str, dict[str, bool]] = {
    "structures.structure": {"name": False, "notes": True},
    "structures.level": {"note": False},
    "events.houseruleset": {"name": False},
    "seating.player": {"name": False, "member_id": False, "note": False},
    "events.event": {"name": False, "flight": False},
    "seating.entry": {"reserve_reason": False, "do_not_move_reason": False},
    "seating.bag": {"number": False},
    "seating.ticket": {"note": False},
    "shotclock.call": {"player_name": False},
}
# The other text fields without choices, kept as the file has them, and why (a test keeps
# TEXT and KEPT up to date with the models).
KEPT = {
    "actor_label": "who did it, as the installation it was written in named them",
    "undone_by": "who undid it, likewise",
    "made_by": "who made the deal, likewise",
    "cancelled_by": "who cancelled it, likewise",
    "paid_by": "who paid the prize, likewise",
    "core.logentry.action": "a code",
    "core.logentry.summary": "the log's sentence as it was written",
    "results.payoutplan.table": "a payout table's key, checked by the payout rules",
}
# A year as an ISO 8601 date begins: one of more than four digits, a sign or the year 0 is
# past what Python's datetime holds.
_YEAR = re.compile(r"\s*([+-]?)(\d+)-")


class ValueRefused(ValueError):
    """A value of a row that cannot be imported: its field and what is wrong."""

    def __init__(self, field: str, problem: str):
        super().__init__(field, problem)
        self.field, self.problem = field, problem


def strings_check(fields: dict) -> None:
    """Every string of a row's fields (inside JSON too, keys included) as text may be."""
    for name, value in fields.items():
        for text in _strings(value):
            if text.isascii() and text.isprintable():
                continue  # nothing text_normal refuses: most of a file, checked at once
            if "\x00" in text or any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
                raise ValueRefused(
                    name, _("a NUL character or a lone surrogate, which no text may hold")
                )
            try:
                text_normal(text, multiline=True)
            except TextRefused as exc:
                raise ValueRefused(name, str(exc)) from None


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def moments_readable(model: type[models.Model], fields: dict) -> None:
    """Before the row is read: a date and time in a year Python cannot hold is out of the
    range, not a format the deserializer does not know."""
    for field in _moment_fields(model):
        value = fields.get(field.name)
        found = _YEAR.match(value) if isinstance(value, str) else None
        if found and (found[1] or len(found[2]) > 4 or int(found[2]) == 0):
            raise ValueRefused(field.name, _out_of_range())


def values_check(label: str, obj: models.Model) -> None:
    """The row as read: its people's text made as stored, every value checked."""
    typed = TEXT.get(label, {})
    for field in obj._meta.concrete_fields:
        value = getattr(obj, field.attname)
        if field.name in typed and isinstance(value, str):
            try:
                value = text_normal(value, max_length=field.max_length, multiline=typed[field.name])
            except TextRefused as exc:
                raise ValueRefused(field.name, str(exc)) from None
            setattr(obj, field.attname, value)
        elif isinstance(value, str) and field.max_length and len(value) > field.max_length:
            raise ValueRefused(
                field.name, _("longer than %(max)s characters") % {"max": field.max_length}
            )
        elif field.choices and value not in (None, "") and not _among(value, field.flatchoices):
            raise ValueRefused(
                field.name, _("%(value)s is not one of its choices") % {"value": repr(value)}
            )
        if isinstance(value, datetime) and timezone.is_naive(value):
            # Without an offset, the installation's time, as the API reads one.
            value = value.replace(tzinfo=timezone.get_current_timezone())
            setattr(obj, field.attname, value)
        if isinstance(field, models.DateField) and not _within(value):
            raise ValueRefused(field.name, _out_of_range())


def _moment_fields(model: type[models.Model]) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields if isinstance(f, models.DateField)]


def _within(value: object) -> bool:
    if isinstance(value, datetime):
        return moment_within(value)
    if isinstance(value, date):  # a day: its first moment, in the installation's time zone
        return moment_within(datetime.combine(value, time.min))
    return True  # None


def _out_of_range() -> str:
    return _("choose a date and time %(range)s") % {"range": moment_range_text()}


def _among(value: object, choices: Iterable[tuple[object, object]]) -> bool:
    return any(value == key for key, _label in choices)
