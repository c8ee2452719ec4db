"""CSV files the system writes (results, structure exports).

A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return before
one) as a formula, and some read the full-width forms ＝ ＋ － ＠ (what a Japanese or
Chinese keyboard types) the same way: a player registered as =HYPERLINK("http://...")
would become a link in the director's sheet. Such text cells get a leading ' so they read
as text. Text also loses the control and invisible characters core.text refuses (rows
stored before that rule may hold them): a right-to-left override would turn the rest of
the line around in the sheet, a control character can cut its import short.

Numbers are written as they are: an int or a Decimal cell is a number, never a formula,
negative or not; so is a text cell that is a plain negative number ("-5", "-1.50").
"""

from __future__ import annotations

import csv as _csv
import re
from collections.abc import Iterable, Mapping
from typing import Any

from .text import text_printable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
NEGATIVE_NUMBER = re.compile(r"-[0-9]+(?:\.[0-9]+)?")


def cell(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    text = text_printable(value)
    if text.startswith(FORMULA_STARTS) and not NEGATIVE_NUMBER.fullmatch(text):
        return "'" + text
    return text


def uncell(value: Any) -> Any:
    """The text a cell held before `cell` escaped it, for files the system reads back
    (a structure exported, then imported)."""
    if isinstance(value, str) and value.startswith("'") and value[1:].startswith(FORMULA_STARTS):
        return value[1:]
    return value


class Writer:
    """csv.writer whose text cells are escaped."""

    def __init__(self, out, **kwargs: Any) -> None:
        self._writer = _csv.writer(out, **kwargs)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


class DictWriter(_csv.DictWriter):
    """csv.DictWriter whose text cells are escaped."""

    def writerow(self, rowdict: Mapping[str, Any]) -> Any:
        return super().writerow({key: cell(value) for key, value in rowdict.items()})

    def writerows(self, rowdicts: Iterable[Mapping[str, Any]]) -> None:
        for row in rowdicts:
            self.writerow(row)


def writer(out, **kwargs: Any) -> Writer:
    return Writer(out, **kwargs)
