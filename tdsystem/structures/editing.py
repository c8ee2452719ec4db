"""Editing a structure's levels: the rows the editor shows and posts, and saving them.

A template is edited here (`structure_levels_edit`); an event's own structure goes through
`tdsystem.events.services.levels.event_levels_edit`, which keeps the levels already played
and the clock in step. Both validate with the import's `check_levels`: errors refuse and
change nothing, warnings are saved only once the director confirms them.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.log import Text, log_record

from .models import LEVEL_FIELDS, Level, Structure
from .services import CSV_COLUMNS, Checked, StructureError, check_levels, warning_message

# The editor's columns, as the page posts them (one value per row for each): the CSV's.
ROW_FIELDS = tuple(CSV_COLUMNS)


class LevelsError(StructureError):
    """A refused edit; `field` names what is at fault for the API's 400."""

    def __init__(self, errors: list[str], field: str = "levels"):
        super().__init__(errors)
        self.field = field

    @property
    def is_warning(self) -> bool:
        return self.field == "confirm_warnings"


def stored_rows(structure: Structure) -> list[dict]:
    """The structure's levels as plain rows (the log's "old" and "new")."""
    return list(structure.levels.order_by("position").values(*LEVEL_FIELDS))


def _minutes(seconds: int) -> str:
    return str(seconds // 60) if seconds % 60 == 0 else str(Decimal(seconds) / 60)


def editor_rows(levels: list[dict]) -> list[dict]:
    """Stored rows as the editor's inputs show them (duration in minutes, blanks for none)."""
    rows = []
    for lv in levels:
        row = {key: "" if lv.get(key) is None else str(lv[key]) for key in ROW_FIELDS[:-2]}
        row["duration_minutes"] = _minutes(lv["duration_seconds"])
        row["note"] = lv.get("note") or ""
        if lv["kind"] == "break":
            row.update(small_blind="", big_blind="", ante="", small_bet="", big_bet="")
        rows.append(row)
    return rows


def rows_from_post(data: Mapping) -> list[dict]:
    """The posted table, one dict a row, exactly as typed (the service checks it)."""
    columns = {key: data.getlist(key) for key in ROW_FIELDS}  # type: ignore[attr-defined]
    count = len(columns["kind"])
    return [
        {key: (values[i] if i < len(values) else "") for key, values in columns.items()}
        for i in range(count)
    ]


def row_operation(rows: list[dict], operation: str, *, first_free: int = 0) -> list[dict]:
    """Add, remove or move a row of the posted table ("up:3", "down:0", "remove:2",
    "add-level:4", "add-break:4": after row 4). Rows before `first_free` stay put."""
    name, _sep, where = operation.partition(":")
    try:
        i = int(where)
    except ValueError:
        return rows
    rows = [dict(r) for r in rows]
    if name in ("add-level", "add-break"):
        i = max(i, first_free - 1)
        template = rows[i] if 0 <= i < len(rows) else {}
        if name == "add-break":
            new = dict.fromkeys(ROW_FIELDS, "")
            new.update(kind="break", duration_minutes="15", note=_("Colour up"))
        else:
            new = {**dict.fromkeys(ROW_FIELDS, ""), "kind": "level"}
            new["duration_minutes"] = template.get("duration_minutes") or "20"
        rows.insert(i + 1, new)
    elif not first_free <= i < len(rows):
        return rows
    elif name == "remove":
        rows.pop(i)
    elif name == "up" and i - 1 >= first_free:
        rows[i - 1], rows[i] = rows[i], rows[i - 1]
    elif name == "down" and i + 1 < len(rows):
        rows[i], rows[i + 1] = rows[i + 1], rows[i]
    return rows


def checked_or_refuse(rows: list[dict], *, fixed_limit: bool, confirm_warnings: bool) -> Checked:
    """The import's checks: errors refuse; warnings refuse until confirmed."""
    if not isinstance(rows, list):
        raise LevelsError([_("the levels must be a list of rows")])
    checked = check_levels(rows, fixed_limit=fixed_limit)
    if checked.errors:
        raise LevelsError(checked.errors)
    if checked.warnings and not confirm_warnings:
        raise LevelsError(
            [warning_message(w) for w in checked.warnings],
            field="confirm_warnings",
        )
    return checked


def levels_replace(structure: Structure, levels: list[dict]) -> None:
    """Replace every level (inside the caller's transaction)."""
    structure.levels.all().delete()
    Level.objects.bulk_create(
        Level(structure=structure, position=i, **{k: row[k] for k in LEVEL_FIELDS})
        for i, row in enumerate(levels)
    )


def structure_levels_edit(
    *,
    structure_id: int,
    rows: list[dict],
    actor: Actor,
    confirm_warnings: bool = False,
    fixed_limit: bool = False,
) -> tuple[Structure, list[str]]:
    """Replace a template's levels in one transaction, logged with the old and new rows.

    An event's own structure is refused here: it changes through the event
    (`events.services.levels.event_levels_edit`), which keeps its clock in step.
    """
    with transaction.atomic():
        structure = Structure.objects.select_for_update(no_key=True).get(pk=structure_id)
        if not structure.is_template:
            raise LevelsError(
                [_("this structure belongs to an event: edit it from the event's console")],
                field="structure",
            )
        checked = checked_or_refuse(
            rows, fixed_limit=fixed_limit, confirm_warnings=confirm_warnings
        )
        old = stored_rows(structure)
        levels_replace(structure, checked.levels)
        log_record(
            event=None,
            actor=actor,
            action="structure.edit",
            summary=Text(
                gettext_noop("Structure %(name)s edited (%(levels)s rows)"),
                name=structure.name,
                levels=len(checked.levels),
            ),
            data={
                "structure_id": structure.pk,
                "old": old,
                "new": stored_rows(structure),
                "warnings_confirmed": len(checked.warnings),
            },
        )
    return structure, checked.warnings


def editor_table(rows: list[dict], *, current: int | None = None, focus: str = "") -> list[dict]:
    """The editor's rows with what the page shows beside the inputs: the level's number,
    and whether it is played (read-only), current (only its duration) or free."""
    table, number = [], 0
    for i, row in enumerate(rows):
        is_break = row.get("kind") == "break"
        if not is_break:
            number += 1
        state = "free"
        if current is not None and i < current:
            state = "played"
        elif current is not None and i == current:
            state = "current"
        prefix, _sep, at = focus.rpartition("-")
        table.append(
            {
                **row,
                "index": i,
                "is_break": is_break,
                "number": number,
                "state": state,
                "focus": prefix if at == str(i) else "",
            }
        )
    return table


def editor_context(
    request_data: Mapping | None,
    stored: list[dict],
    *,
    current: int | None = None,
    show_bets: bool = False,
) -> tuple[list[dict], str, bool]:
    """The rows to show (posted, or the stored ones), the row operation asked for (an
    empty string: save) and whether the director confirmed the warnings."""
    if request_data is None:
        return editor_rows(stored), "", False
    rows = rows_from_post(request_data)
    operation = str(request_data.get("op", ""))
    if operation:
        first_free = 0 if current is None else current + 1
        rows = row_operation(rows, operation, first_free=first_free)
    return rows, operation, request_data.get("confirm") == "1"


def has_bets(rows: list[dict]) -> bool:
    return any(str(r.get("small_bet") or "").strip() for r in rows)


def focus_after(operation: str, count: int) -> str:
    """The id of the input or button the keyboard should be on after a row operation."""
    name, _sep, where = operation.partition(":")
    if not where.isdigit():
        return ""
    i = int(where)
    targets = {
        "up": f"up-{i - 1}",
        "down": f"down-{i + 1}",
        "remove": f"minutes-{min(i, count - 1)}",
        "add-level": f"sb-{i + 1}",
        "add-break": f"minutes-{i + 1}",
    }
    return targets.get(name, "")
