"""Every stored date and time within the range the system takes (tdsystem/core/moments.py,
as the farthest time zones read it): a value before it is set to its first instant, one
after it to its last, and each change is logged (model, field, how many rows, their ids).

A start in the year 10000 (PostgreSQL keeps it) failed every page that read its row, and a
year-1 start failed the pages showing it west of UTC; the forms and the API refuse both
now, and this puts right what came in before. SQLite keeps text: a year of five digits
sorts before "2000" there, so those rows are found by their text first.
"""

import logging
from datetime import UTC, date, datetime, time, timedelta, timezone

from django.db import migrations, models
from django.db.models.functions import Cast

log = logging.getLogger(__name__)

# The range as it was when this migration was written (a migration keeps its own copy).
FIRST_DAY = date(2000, 1, 1)
LAST_DAY = date(2100, 12, 31)
APPS = ("core", "structures", "events", "seating", "results")
IDS_LOGGED = 20


def _moments(apps):
    for label in APPS:
        for model in apps.get_app_config(label).get_models():
            for field in model._meta.concrete_fields:
                if isinstance(field, models.DateTimeField):
                    yield model, field.name


def _set(model, name: str, rows, value: datetime, why: str) -> None:
    ids = list(rows.values_list("pk", flat=True))
    if not ids:
        return
    model._base_manager.filter(pk__in=ids).update(**{name: value})
    shown = ", ".join(map(str, ids[:IDS_LOGGED])) + (", ..." if len(ids) > IDS_LOGGED else "")
    log.warning(
        "%s.%s.%s: %s row(s) %s set to %s (ids %s)",
        model._meta.app_label,
        model.__name__,
        name,
        len(ids),
        why,
        value.isoformat(),
        shown,
    )


def repair(apps, schema_editor):
    # As the farthest time zones read the range (UTC+14 its first day, UTC-12 its last):
    # what any installation took stays as it was.
    first = datetime.combine(FIRST_DAY, time.min, tzinfo=timezone(timedelta(hours=14)))
    last = datetime.combine(LAST_DAY, time.max, tzinfo=timezone(timedelta(hours=-12)))
    first, last = first.astimezone(UTC), last.astimezone(UTC)
    for model, name in _moments(apps):
        rows = model._base_manager.all()
        five_digits = rows.annotate(moment_text=Cast(name, models.TextField())).filter(
            moment_text__regex=r"^[0-9]{5}"
        )
        _set(model, name, five_digits, last, "past the year 9999")
        _set(model, name, rows.filter(**{f"{name}__gt": last}), last, "after the range")
        _set(model, name, rows.filter(**{f"{name}__lt": first}), first, "before the range")


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0005_staff_language"),
        ("structures", "0001_initial"),
        ("events", "0011_festivals"),
        ("seating", "0016_spread_count"),
        ("results", "0005_field_count"),
    ]

    operations = [migrations.RunPython(repair, migrations.RunPython.noop)]
