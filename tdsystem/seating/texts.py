"""Pieces of sentences for the log and the pages, each read in the reader's language."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.utils.translation import gettext_noop

from tdsystem.core.log import Text


def text_list(items: Sequence[Text | str | int]) -> Text | str:
    """Items as one list ("3, 5, 7"), each separator translated ("3、5、7" in Japanese):
    a Text of the first item and the list of the rest."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0] if isinstance(items[0], (Text, str)) else str(items[0])
    # Translators: the separator of a list, e.g. of table numbers "3, 5, 7".
    return Text(gettext_noop("%(first)s, %(rest)s"), first=items[0], rest=text_list(items[1:]))


def numbers_list(numbers: Iterable[int]) -> str:
    """Table numbers, each once, in order: "3, 5, 7" reads the same in every language we
    speak, and a break order of fifty tables stays one flat parameter."""
    return ", ".join(str(n) for n in sorted(set(numbers)))
