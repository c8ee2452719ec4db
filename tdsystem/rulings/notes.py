"""The engine's notes in the reader's language.

The engine words each note in English for the command line and hands the ruling page the
message it made the words from: a message id (marked for the catalogues in the engine with
``gettext_noop``) and its parameters, which may be messages of their own (a clause, a list
item) or lists of names. Here each message id goes through ``gettext``, the lists are joined
in the reader's language, the names are shown as entered in ``<bdi>``, and the rule numbers
are those of the event's rule set. A translation that does not fit its parameters (a
placeholder it lacks or misspells) gives the English note instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext, pgettext_lazy

from tdsystem.core.numbers import grouped

from .citations import cite_for

# The stud streets a note names ("fourth street: the best hand showing acts first").
STREETS = {
    "third": pgettext_lazy("stud street", "third"),
    "fourth": pgettext_lazy("stud street", "fourth"),
    "fifth": pgettext_lazy("stud street", "fifth"),
    "sixth": pgettext_lazy("stud street", "sixth"),
    "seventh": pgettext_lazy("stud street", "seventh"),
}


def note_html(note: Mapping[str, Any], event=None) -> SafeString:
    """The note (``{"rule", "text", "msgid", "params"}``, the engine's page dict) as HTML in
    the active language, its rule numbers those of ``event`` (an event or a rule set); the
    English ``text`` when the note has no message or a translation does not fit."""
    msgid = note.get("msgid")
    if msgid:
        try:
            return mark_safe(_said(msgid, note.get("params") or {}, event))
        except (KeyError, TypeError, ValueError):
            pass
    return conditional_escape(note["text"])


def _said(msgid: str, params: Mapping[str, Any], event) -> str:
    words = gettext(msgid)
    if event is not None:
        words = cite_for(words, event)
    values = {key: _value(key, value, event) for key, value in params.items()}
    return conditional_escape(words) % values


def _value(key: str, value: Any, event) -> Any:
    if isinstance(value, Mapping):
        if "msgid" in value:
            return mark_safe(_said(value["msgid"], value.get("params") or {}, event))
        if "commas" in value:
            return _separated([_value(key, v, event) for v in value["commas"]])
        return and_list([_value(key, v, event) for v in value["and"]])
    if isinstance(value, int) and not isinstance(value, bool):
        return grouped(value)  # a chip amount, marked as the page's own figures are
    if isinstance(value, str):
        if key == "street" and value in STREETS:
            return conditional_escape(STREETS[value])
        return format_html("<bdi>{}</bdi>", value)  # a name, as it was entered
    return value


def _separated(items: list[Any]) -> SafeString:
    # Translators: what separates the names of a list ("Ann, Bo, Cy").
    separator = conditional_escape(pgettext("list separator", ", "))
    return mark_safe(separator.join(str(item) for item in items))


def and_list(items: list[Any]) -> SafeString:
    """ "A", "A and B", "A, B and C" in the active language (items already HTML)."""
    if len(items) < 2:
        return mark_safe("".join(str(item) for item in items))
    words = conditional_escape(gettext("%(names)s and %(last)s"))
    return mark_safe(words % {"names": _separated(items[:-1]), "last": items[-1]})
