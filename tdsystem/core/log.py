"""The log of changes: every service that changes something writes one entry here.

An entry's summary is written as a `Text`: a message id marked with `gettext_noop` and its
parameters. The entry keeps both (`data["message"]`), so each reader sees it in their own
language (`LogEntry.text`), and `summary` keeps the English sentence for the API, the CSV
and any reader of the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from .actors import Actor
from .models import LogEntry
from .numbers import grouped

MESSAGE_KEY = "message"


def ngettext_noop(singular: str, plural: str) -> tuple[str, str]:
    """Marks a plural message for `Text`: `Text(ngettext_noop("%(count)s slip", "%(count)s
    slips"), count=n)` reads with the plural form of the reader's language for `count`
    (makemessages collects it: tdsystem/core/management/commands/makemessages.py)."""
    return (singular, plural)


@dataclass(frozen=True)
class Text:
    """A sentence to be read in the reader's language: `Text(gettext_noop("Entry #%(n)s"),
    n=12)`. A parameter may itself be a Text ("at the first break")."""

    msgid: str | tuple[str, str]  # (singular, plural) from ngettext_noop: by `count`
    params: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, msgid: str | tuple[str, str], /, **params: Any) -> None:
        if isinstance(msgid, tuple) and "count" not in params:
            raise TypeError("a plural Text needs its count= parameter")
        object.__setattr__(self, "msgid", msgid)
        object.__setattr__(self, "params", params)

    def as_data(self) -> dict:
        return {
            "msgid": self.msgid,
            "params": {
                k: v.as_data() if isinstance(v, Text | Grouped) else v
                for k, v in self.params.items()
            },
        }

    def english(self) -> str:
        return _render(self.as_data(), translate=False)

    def __str__(self) -> str:
        return _render(self.as_data(), translate=True)


@dataclass(frozen=True)
class Grouped:
    """A parameter that is a number read in the reader's separators: a chip count
    (`Text(..., chips=Grouped(12000))`: "12,000" in English, "12.000" in Vietnamese) or an
    amount (`Grouped(Decimal("1200.00"))`: "1200.00" in the English summary, as the
    database keeps it, "1.200" for a Vietnamese reader, as the results pages show money).
    Stored as the number (an amount as its string), so each reader's language groups it."""

    number: int | Decimal

    def as_data(self) -> dict:
        number = self.number
        return {GROUPED_KEY: str(number) if isinstance(number, Decimal) else number}


GROUPED_KEY = "grouped"


def _param(value: Any, *, translate: bool) -> Any:
    if isinstance(value, Mapping) and "msgid" in value:
        return _render(value, translate=translate)
    if isinstance(value, Mapping) and GROUPED_KEY in value:
        number = value[GROUPED_KEY]
        if isinstance(number, str):  # an amount
            if not translate:
                return number
            amount = Decimal(number)
            return grouped(amount, 0 if amount == amount.to_integral_value() else 2)
        return grouped(number) if translate else f"{number:,}"
    return value


def _sentence(stored: Mapping, params: Mapping[str, Any], *, translate: bool) -> str:
    msgid = stored["msgid"]
    if isinstance(msgid, list | tuple):
        singular, plural = (str(m) for m in msgid)
        count = int(params["count"])
        if translate:
            return ngettext(singular, plural, count)
        return singular if count == 1 else plural
    return gettext(str(msgid)) if translate else str(msgid)


def _render(stored: Mapping, *, translate: bool) -> str:
    params = {k: _param(v, translate=translate) for k, v in (stored.get("params") or {}).items()}
    text = _sentence(stored, params, translate=translate)
    return text % params if params else text


def _param_html(value: Any) -> SafeString:
    """A parameter for a page: a name, a number or a seat is isolated from the sentence
    around it (`<bdi>`), so "#10 Jonas Berg" keeps its order in an Arabic line; a phrase
    (a Text) is part of the reader's sentence and is not."""
    if isinstance(value, Mapping) and "msgid" in value:
        return render_html(value)
    return format_html("<bdi>{}</bdi>", _param(value, translate=True))


def render_html(stored: Mapping) -> SafeString:
    """A stored Text in the reader's language as HTML for a page: the sentence escaped, each
    parameter in `<bdi>` (`_param_html`). The words are `render_stored`'s."""
    raw = stored.get("params") or {}
    text = _sentence(stored, {k: _param(v, translate=True) for k, v in raw.items()}, translate=True)
    if not raw:
        return conditional_escape(text)
    params = {k: _param_html(v) for k, v in raw.items()}
    return mark_safe(str(conditional_escape(text)) % params)


def text_of(entry: LogEntry) -> Text | str:
    """An entry's summary as a Text again (to quote it: "Undone: %(action)s"), or the
    plain summary of an entry written before summaries were Texts."""
    stored = entry.data.get(MESSAGE_KEY) if isinstance(entry.data, dict) else None
    if isinstance(stored, Mapping) and "msgid" in stored:
        return _text_from(stored)
    return entry.summary


def _text_from(stored: Mapping) -> Text:
    params = {k: _value_from(v) for k, v in (stored.get("params") or {}).items()}
    msgid = stored["msgid"]
    if isinstance(msgid, list | tuple):
        return Text((str(msgid[0]), str(msgid[1])), **params)
    return Text(str(msgid), **params)


def _value_from(value: Any) -> Any:
    if isinstance(value, Mapping) and "msgid" in value:
        return _text_from(value)
    if isinstance(value, Mapping) and GROUPED_KEY in value:
        number = value[GROUPED_KEY]
        return Grouped(Decimal(number) if isinstance(number, str) else number)
    return value


def render_stored(stored: Mapping) -> str:
    """A stored Text in the reader's language (the active one)."""
    return _render(stored, translate=True)


def log_record(
    *,
    event,
    actor: Actor,
    action: str,
    summary: Text | str,
    at: datetime | None = None,
    data: dict | None = None,
) -> LogEntry:
    """One entry: `event` is the event it belongs to, or None for a change of the room's.

    `summary` is a Text (read in each reader's language); a plain string is kept as it is.
    """
    data = dict(data or {})
    if isinstance(summary, Text):
        data[MESSAGE_KEY] = summary.as_data()
        summary = summary.english()
    return LogEntry.objects.create(
        event=event,
        at=at or timezone.now(),
        actor=actor.user,
        actor_label=actor.label,
        action=action,
        summary=summary[:300],
        data=data,
    )
