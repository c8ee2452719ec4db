"""Pieces of sentences for the log and the pages, each read in the reader's language."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.utils.translation import gettext_noop

from tdsystem.core.log import Text

# Translators: the separator of a short list, e.g. "dead button, heads-up".
COMMAS = gettext_noop("%(first)s, %(rest)s")
# Translators: the separator of a list of longer items, e.g. of moves
# "table 3 seat 2 to table 5 seat 9; table 4 seat 1 to table 5 seat 7".
SEMICOLONS = gettext_noop("%(first)s; %(rest)s")


def text_list(items: Sequence[Text | str | int], pattern: str = COMMAS) -> Text | str:
    """Items as one list ("dead button, heads-up"), each separator translated ("、" in
    Japanese): a Text of the first item and the list of the rest."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0] if isinstance(items[0], (Text, str)) else str(items[0])
    return Text(pattern, first=items[0], rest=text_list(items[1:], pattern))


def numbers_list(numbers: Iterable[int]) -> str:
    """Table numbers, each once, in order: "3, 5, 7" reads the same in every language we
    speak, and a break order of fifty tables stays one flat parameter."""
    return ", ".join(str(n) for n in sorted(set(numbers)))
