"""The dates and times the system takes, and the guard on those it reads back.

Every date and time a person or a script gives (a page's form, an API body; an import
that reads one takes it the same way) lies from FIRST_DAY at 00:00 to LAST_DAY at
23:59:59, read in the installation's time zone (TIME_ZONE). A value outside is refused,
naming the field: the form field `MomentField` for pages and the type `Moment` for the API
are both made from the two constants here, and `moment_within` says it for anything else.

The range is far from the ends of Python's years (1 to 9999) on purpose: a year-1 start
shown west of UTC, or a year-9999 one east of it, cannot be converted to local time, and
a year past 9999 cannot be read at all (PostgreSQL keeps it; psycopg fails the query).
So what the database gives back passes `moment_stored` too: both database backends
(tdsystem/core/postgresql, tdsystem/core/sqlite3) call it on every date and time they
load, and a value outside the range as the farthest time zones read it (STORED_FIRST,
STORED_LAST: an older release's value, a database edited by hand) comes back as the
nearest end. One bad row then shows as 31 Dec 2100 on its page instead of taking every
screen of the room down. The migration venue.0001_moments_in_range put right the rows
there were when it ran.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta, tzinfo
from datetime import timezone as dt_timezone
from functools import lru_cache
from typing import Annotated, Any, overload

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext
from pydantic import BeforeValidator, Field, ValidationInfo
from pydantic_core import PydanticCustomError

FIRST_DAY = date(2000, 1, 1)
LAST_DAY = date(2100, 12, 31)

# The range as the farthest time zones read it (UTC+14 the first day, UTC-12 the last), so
# what was taken is read back unchanged whatever TIME_ZONE was or becomes.
STORED_FIRST = datetime.combine(
    FIRST_DAY, time.min, tzinfo=dt_timezone(timedelta(hours=14))
).astimezone(UTC)
STORED_LAST = datetime.combine(
    LAST_DAY, time.max, tzinfo=dt_timezone(timedelta(hours=-12))
).astimezone(UTC)

# How the ends read in messages and in a datetime-local input's min and max.
_SHOWN = "%Y-%m-%d %H:%M"
_INPUT = "%Y-%m-%dT%H:%M"
EXAMPLE = "2026-06-01T18:00:00+02:00"


@lru_cache(maxsize=8)
def _range_in(zone: tzinfo) -> tuple[datetime, datetime]:
    first = datetime.combine(FIRST_DAY, time.min, tzinfo=zone)
    last = datetime.combine(LAST_DAY, time.max, tzinfo=zone)
    return first.astimezone(UTC), last.astimezone(UTC)


def moment_range() -> tuple[datetime, datetime]:
    """The first and the last instant taken, in the installation's time zone (as UTC)."""
    return _range_in(timezone.get_current_timezone())


def moment_range_text() -> str:
    """The range as people read it: from 2000-01-01 00:00 to 2100-12-31 23:59 (UTC)."""
    first = datetime.combine(FIRST_DAY, time.min)
    last = datetime.combine(LAST_DAY, time(23, 59))
    return gettext("from %(first)s to %(last)s (time zone %(zone)s)") % {
        "first": first.strftime(_SHOWN),
        "last": last.strftime(_SHOWN),
        "zone": timezone.get_current_timezone_name(),
    }


def moment_within(value: datetime) -> bool:
    """Whether `value` is in the range; a value without a time zone is read in the
    installation's. (Comparing never converts `value`, so a year 1 or 9999 is safe.)"""
    if timezone.is_naive(value):
        value = value.replace(tzinfo=timezone.get_current_timezone())
    first, last = moment_range()
    return first <= value <= last


@overload
def moment_stored(value: datetime) -> datetime: ...
@overload
def moment_stored(value: None) -> None: ...
def moment_stored(value: datetime | None) -> datetime | None:
    """A date and time the database gave back, within the range as any time zone reads it
    (STORED_FIRST to STORED_LAST): one outside comes back as the nearest end. The database
    backends call it on every value they load."""
    if value is None:
        return None
    if value < STORED_FIRST:
        return STORED_FIRST
    if value > STORED_LAST:
        return STORED_LAST
    return value


# Pages -------------------------------------------------------------------------------


def moment_validate(value: datetime) -> None:
    if not moment_within(value):
        raise ValidationError(
            gettext("Choose a date and time %(range)s.") % {"range": moment_range_text()},
            code="moment_range",
        )


class MomentField(forms.DateTimeField):
    """A date and time typed on a page (a datetime-local input), within the range. The
    browser is told the range too (min, max), so it refuses before sending."""

    default_validators = [moment_validate]

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault(
            "widget",
            forms.DateTimeInput(
                format=_INPUT,
                attrs={
                    "type": "datetime-local",
                    "min": datetime.combine(FIRST_DAY, time.min).strftime(_INPUT),
                    "max": datetime.combine(LAST_DAY, time(23, 59)).strftime(_INPUT),
                },
            ),
        )
        super().__init__(**kwargs)


# The API -----------------------------------------------------------------------------


def _refused(info: ValidationInfo, message: str) -> PydanticCustomError:
    # Named by its field, as tdsystem.api.errors answers a rule that names its field.
    field = info.field_name or ""
    return PydanticCustomError(
        "moment", "{text}", {"field": field, "text": f"{field}: {message}" if field else message}
    )


def _parsed(value: object) -> datetime | None:
    if isinstance(value, datetime):
        return value
    try:
        return datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _moment_in(value: object, info: ValidationInfo) -> datetime:
    """An API body's date and time: ISO 8601 text, in the range. A number is refused
    (pydantic would read it as seconds since 1970); without an offset, the time is the
    installation's."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        raise _refused(
            info,
            gettext("a number is not a date and time: send ISO 8601 text such as %(example)s")
            % {"example": EXAMPLE},
        )
    parsed = _parsed(value)
    if parsed is None:
        raise _refused(
            info,
            gettext("not a date and time in ISO 8601, such as %(example)s") % {"example": EXAMPLE},
        )
    if timezone.is_naive(parsed):
        parsed = parsed.replace(tzinfo=timezone.get_current_timezone())
    if not moment_within(parsed):
        raise _refused(
            info, gettext("choose a date and time %(range)s") % {"range": moment_range_text()}
        )
    return parsed


# A date and time in a request body (a field's own description says what it is for and
# spells the range out: tests/api check each one against the constants above).
Moment = Annotated[
    datetime,
    BeforeValidator(_moment_in),
    Field(json_schema_extra={"examples": [EXAMPLE]}),
]
