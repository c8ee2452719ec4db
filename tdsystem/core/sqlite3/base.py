"""Django's SQLite backend, every date and time it reads kept within the range the system
takes (tdsystem.core.moments).

SQLite stores a date and time as text, and Django's own backend writes any year Python has:
a start in the year 1 came back as the year 1, and a page showing it west of UTC answered
500 (the conversion to local time overflows). Django reads each such column through its
operations' `convert_datetimefield_value`; this one gives the value through `moment_stored`,
so one outside the range reads as the nearest end of it, as the PostgreSQL backend does
(tests/core/test_moments.py).

Text put in by hand is read by the driver first, with the converter Django registers for
the column type (or by Django's converter, for an aggregate): a year of five digits read
as None there (as "no end" on a running clock), and an impossible date (month 13, the
year 0) failed the query. Here the first reads as the end of the range, and the second
as None, the way text that is no date at all reads.
"""

from __future__ import annotations

from datetime import datetime

from django.db.backends.sqlite3 import base, operations
from django.utils.dateparse import parse_datetime

from tdsystem.core.moments import moment_stored


def _moment_text(text: str) -> datetime | None:
    try:
        value = parse_datetime(text)
    except ValueError:
        return None
    if value is None and text[:5].isdigit():
        return datetime.max  # past Python's years: the end of the range, once converted
    return value


def _moment_bytes(raw: bytes) -> datetime | None:
    return _moment_text(raw.decode())


# The driver's converters are the module's, for every connection: in place of Django's.
base.Database.register_converter("datetime", _moment_bytes)
base.Database.register_converter("timestamp", _moment_bytes)


class DatabaseOperations(operations.DatabaseOperations):
    def convert_datetimefield_value(self, value, expression, connection):
        # Text when no column type told the driver (an aggregate, an expression).
        if isinstance(value, str):
            value = _moment_text(value)
        return moment_stored(super().convert_datetimefield_value(value, expression, connection))


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
