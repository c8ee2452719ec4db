"""CSV files the system writes (results, structure exports).

A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return before
one) as a formula: a player registered as =HYPERLINK("http://...") would become a link
in the director's sheet. Such text cells get a leading ' so they read as text; numbers
are written as they are (results never hold negative amounts).
"""

from __future__ import annotations

import csv as _csv
from collections.abc import Iterable, Mapping
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


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
