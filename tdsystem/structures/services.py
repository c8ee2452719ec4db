"""Structure validation, import/export (CSV and JSON) and copying templates to events."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import cast

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from tdsystem.core import csv as export_csv
from tdsystem.core.actors import Actor
from tdsystem.core.log import Text, log_record
from tdsystem.core.numbers import grouped
from tdsystem.core.text import TextRefused, text_normal

from .models import AnteType, Level, Structure

CSV_COLUMNS = [
    "kind",
    "small_blind",
    "big_blind",
    "ante",
    "small_bet",
    "big_bet",
    "duration_minutes",
    "note",
]


class StructureError(ValueError):
    """A structure that cannot be used: the message lists every problem."""

    def __init__(self, errors: list[str]):
        super().__init__("; ".join(errors))
        self.errors = errors


class WarningMessage(str):
    """A warning not confirmed yet, in the reader's language: a page offers to save anyway
    when every message it got is one (whatever the language's words)."""


def warning_message(warning: str) -> WarningMessage:
    return WarningMessage(
        gettext("warning: %(warning)s (confirm to save anyway)") % {"warning": warning}
    )


def only_warnings(messages: list[str]) -> bool:
    return bool(messages) and all(isinstance(m, WarningMessage) for m in messages)


@dataclass
class Checked:
    levels: list[dict]
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


# Each field's type and range, said once: whole chip amounts up to a trillion, a level of
# one second to a day, at most 1,000 rows, the model's text lengths.
CHIPS_MAX = 10**12
DURATION_MAX = 24 * 3600
LEVELS_MAX = 1000
# Both are CharFields: their max_length is set (the stubs type it int | None).
NAME_MAX = cast(int, Structure._meta.get_field("name").max_length)
NOTE_MAX = cast(int, Level._meta.get_field("note").max_length)
NOTES_MAX = 5000
DEFAULT_STACK = 10_000  # a file that does not say its starting stack
DECIMAL_TEXT = re.compile(r"-?[0-9]+(\.[0-9]+)?")  # as typed in a CSV: no 1e9, no NaN


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _not_whole(what: str, value) -> str:
    return gettext("%(what)s: %(value)s is not a whole number") % {"what": what, "value": value}


def _bad_kind(row: int, kind) -> str:
    return gettext("row %(row)s: kind %(kind)s must be 'level' or 'break'") % {
        "row": row,
        "kind": _show(kind),
    }


# A row's field in a message: "level 3: small blind".
_FIELD_NAMES = {
    "note": gettext_noop("%(where)s: note"),
    "small_blind": gettext_noop("%(where)s: small blind"),
    "big_blind": gettext_noop("%(where)s: big blind"),
    "ante": gettext_noop("%(where)s: ante"),
    "small_bet": gettext_noop("%(where)s: small bet"),
    "big_bet": gettext_noop("%(where)s: big bet"),
}
# A blind lower than the level before's: one sentence for each blind.
_DECREASES = (
    (
        "small_blind",
        gettext_noop(
            "%(where)s: the small blind %(value)s is lower than the level before (%(before)s): "
            "blinds never decrease"
        ),
    ),
    (
        "big_blind",
        gettext_noop(
            "%(where)s: the big blind %(value)s is lower than the level before (%(before)s): "
            "blinds never decrease"
        ),
    ),
)


def _field(where: str, name: str) -> str:
    return gettext(_FIELD_NAMES[name]) % {"where": where}


def _number(value, what: str, errors: list[str], *, required: bool = True) -> Decimal | None:
    """A finite number from JSON (int, float) or text ("12,500"), or None with an error."""
    if value in (None, ""):
        if required:
            errors.append(gettext("%(what)s: missing") % {"what": what})
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        errors.append(_not_whole(what, _show(value)))
        return None
    if isinstance(value, str):
        value = value.strip().replace(",", "").replace("_", "")
        if not DECIMAL_TEXT.fullmatch(value):
            errors.append(_not_whole(what, _show(value)))
            return None
        if len(value) > 20:
            errors.append(
                gettext("%(what)s: %(value)s... is too large") % {"what": what, "value": value[:20]}
            )
            return None
    try:
        number = Decimal(str(value))
    except ArithmeticError:
        errors.append(_not_whole(what, _show(value)))
        return None
    if not number.is_finite():
        errors.append(
            gettext("%(what)s: %(value)s is not a finite number")
            % {"what": what, "value": _show(value)}
        )
        return None
    if number < 0:
        errors.append(gettext("%(what)s: %(value)s is negative") % {"what": what, "value": value})
        return None
    return number


def _int(
    value, what: str, errors: list[str], *, required: bool = True, most: int = CHIPS_MAX
) -> int | None:
    number = _number(value, what, errors, required=required)
    if number is None:
        return None
    if number != number.to_integral_value():
        errors.append(_not_whole(what, value))
        return None
    if number > most:
        errors.append(
            gettext("%(what)s: %(value)s is more than %(most)s")
            % {"what": what, "value": grouped(int(number)), "most": grouped(most)}
        )
        return None
    return int(number)


def _seconds(row: dict, where: str, errors: list[str]) -> int | None:
    """duration_seconds, or duration_minutes (7.5 is 7 min 30 s, as export writes it)."""
    what = gettext("%(where)s: duration") % {"where": where}
    seconds = row.get("duration_seconds")
    minutes = row.get("duration_minutes")
    if seconds in (None, "") and minutes not in (None, ""):
        number = _number(minutes, what, errors)
        if number is None:
            return None
        if number * 60 != (number * 60).to_integral_value():
            errors.append(
                gettext("%(what)s: %(minutes)s minutes is not a whole number of seconds")
                % {"what": what, "minutes": minutes}
            )
            return None
        seconds = number * 60
    seconds = _int(seconds, what, errors, most=DURATION_MAX)
    if seconds is not None and seconds <= 0:
        errors.append(gettext("%(where)s: the duration must be more than 0") % {"where": where})
        return None
    return seconds


def _text(value, what: str, errors: list[str], *, most: int, multiline: bool = False) -> str:
    """Text people read, as core.text stores it (a NUL or half a surrogate pair escaped in
    JSON is refused here, naming the row and field, before any database sees it)."""
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)  # a CSV-minded note such as 25
    if not isinstance(value, str):
        errors.append(
            gettext("%(what)s: expected text, not %(value)s")
            % {"what": what, "value": _show(value)}
        )
        return ""
    try:
        text = text_normal(value, multiline=multiline)
    except TextRefused as exc:
        errors.append(gettext("%(what)s: %(problem)s") % {"what": what, "problem": exc})
        return ""
    if len(text) > most:
        errors.append(
            gettext("%(what)s: longer than %(most)s characters") % {"what": what, "most": most}
        )
    return text


def _given(value) -> bool:
    """A field the file or the form sets: 0 and false are values (refused or kept by
    their own checks), only a missing field or an empty cell takes the default."""
    return value is not None and value != ""


def _chosen(typed: str, given: object, default: object) -> object:
    """The form's value when typed, else the file's when it has one, else the default."""
    return typed if _given(typed) else given if _given(given) else default


def check_levels(rows: list[dict], *, fixed_limit: bool = False) -> Checked:
    """Normalise and validate rows. Errors block saving; warnings need a confirmation."""
    checked = Checked(levels=[])
    errors, warnings = checked.errors, checked.warnings
    if not rows:
        errors.append(gettext("the structure has no levels"))
        return checked
    if len(rows) > LEVELS_MAX:
        errors.append(
            gettext("the structure has %(rows)s rows: at most %(most)s")
            % {"rows": grouped(len(rows)), "most": grouped(LEVELS_MAX)}
        )
        return checked
    previous: dict | None = None
    number = 0
    for i, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            errors.append(
                gettext("row %(row)s: expected an object with the level's fields") % {"row": i}
            )
            continue
        kind = row.get("kind") if _given(row.get("kind")) else "level"
        if not isinstance(kind, str):
            errors.append(_bad_kind(i, kind))
            continue
        kind = kind.strip().lower()
        if kind not in ("level", "break"):
            errors.append(_bad_kind(i, kind))
            continue
        if kind == "break":
            where = gettext("row %(row)s (break)") % {"row": i}
        else:
            where = gettext("level %(number)s") % {"number": number + 1}
        seconds = _seconds(row, where, errors)
        note = _text(row.get("note"), _field(where, "note"), errors, most=NOTE_MAX)
        if kind == "break":
            checked.levels.append(
                {
                    "kind": "break",
                    "duration_seconds": seconds,
                    "note": note,
                    "small_blind": 0,
                    "big_blind": 0,
                    "ante": 0,
                    "small_bet": None,
                    "big_bet": None,
                }
            )
            continue
        number += 1
        sb = _int(row.get("small_blind"), _field(where, "small_blind"), errors)
        bb = _int(row.get("big_blind"), _field(where, "big_blind"), errors)
        ante = _int(
            row.get("ante") if _given(row.get("ante")) else 0, _field(where, "ante"), errors
        )
        small_bet = _int(
            row.get("small_bet"), _field(where, "small_bet"), errors, required=fixed_limit
        )
        big_bet = _int(row.get("big_bet"), _field(where, "big_bet"), errors, required=fixed_limit)
        level = {
            "kind": "level",
            "small_blind": sb,
            "big_blind": bb,
            "ante": ante,
            "small_bet": small_bet,
            "big_bet": big_bet,
            "duration_seconds": seconds,
            "note": note,
        }
        checked.levels.append(level)
        if sb is None or bb is None:
            continue
        if bb == 0:
            errors.append(
                gettext("%(where)s: the big blind must be more than 0") % {"where": where}
            )
        elif sb >= bb:
            errors.append(
                gettext("%(where)s: the small blind %(sb)s must be less than the big blind %(bb)s")
                % {"where": where, "sb": grouped(sb), "bb": grouped(bb)}
            )
        if small_bet is not None and big_bet is not None and big_bet < small_bet:
            errors.append(
                gettext("%(where)s: the big bet %(bet)s is less than the small bet")
                % {"where": where, "bet": grouped(big_bet)}
            )
        if previous is not None:
            for key, message in _DECREASES:
                if (
                    level[key] is not None
                    and previous[key] is not None
                    and level[key] < previous[key]
                ):
                    errors.append(
                        gettext(message)
                        % {
                            "where": where,
                            "value": grouped(level[key]),
                            "before": grouped(previous[key]),
                        }
                    )
            if previous["big_blind"] and bb > previous["big_blind"] * 2.5:
                warnings.append(
                    gettext("%(where)s: the big blind jumps from %(before)s to %(bb)s")
                    % {"where": where, "before": grouped(previous["big_blind"]), "bb": grouped(bb)}
                )
        if ante is not None and ante > bb:
            warnings.append(
                gettext("%(where)s: the ante %(ante)s is larger than the big blind %(bb)s")
                % {"where": where, "ante": grouped(ante), "bb": grouped(bb)}
            )
        previous = level
    _check_ratio_pattern(checked)
    return checked


def _check_ratio_pattern(checked: Checked) -> None:
    """Flag a level whose big blind breaks the structure's usual BB:SB ratio (a typo?)."""
    levels = [lv for lv in checked.levels if lv["kind"] == "level" and lv["small_blind"]]
    ratios = Counter(lv["big_blind"] / lv["small_blind"] for lv in levels if lv["big_blind"])
    if len(levels) < 4 or not ratios:
        return
    usual, count = ratios.most_common(1)[0]
    if count < len(levels) * 0.6:
        return
    number = 0
    for lv in checked.levels:
        if lv["kind"] != "level":
            continue
        number += 1
        if lv["small_blind"] and lv["big_blind"] and lv["big_blind"] / lv["small_blind"] != usual:
            expected = int(lv["small_blind"] * usual)
            checked.warnings.append(
                gettext(
                    "level %(number)s: the big blind %(bb)s breaks the pattern of the other "
                    "levels (big blind = %(ratio)s x small blind would be %(expected)s)"
                )
                % {
                    "number": number,
                    "bb": grouped(lv["big_blind"]),
                    "ratio": f"{usual:g}",
                    "expected": grouped(expected),
                }
            )


def _refuse_constant(name: str):
    raise StructureError([gettext("%(name)s is not a number: give whole numbers") % {"name": name}])


def _check_text(text: str) -> None:
    if "\x00" in text:
        raise StructureError([gettext("the import contains a NUL character: is it a text file?")])


def parse_json(text: str) -> dict:
    _check_text(text)
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise StructureError(
            [
                gettext("not valid JSON: %(error)s at line %(line)s")
                % {"error": exc.msg, "line": exc.lineno}
            ]
        ) from None
    except RecursionError:
        raise StructureError([gettext("the JSON is nested too deeply")]) from None
    except StructureError:
        raise
    except ValueError:  # a whole number of more than 4,300 digits
        raise StructureError([gettext("the JSON holds a number too large to read")]) from None
    if isinstance(data, list):
        data = {"levels": data}
    if not isinstance(data, dict) or not isinstance(data.get("levels"), list):
        raise StructureError(
            [gettext('expected {"name": ..., "levels": [...]} or a list of levels')]
        )
    return data


def parse_csv(text: str) -> dict:
    _check_text(text)
    try:
        reader = csv.DictReader(io.StringIO(text.strip()))
        if not reader.fieldnames or "big_blind" not in reader.fieldnames:
            raise StructureError(
                [
                    gettext("the CSV needs a header row with the columns %(columns)s")
                    % {"columns": ", ".join(CSV_COLUMNS)}
                ]
            )
        # Columns past the header's (restkey None) are dropped.
        rows = [
            {k: export_csv.uncell(v) for k, v in row.items() if k is not None} for row in reader
        ]
    except csv.Error as exc:
        raise StructureError([gettext("not valid CSV: %(error)s") % {"error": exc}]) from None
    return {"levels": rows}


def structure_import(
    *,
    text: str,
    name: str = "",
    ante_type: str = "",
    starting_stack: str = "",
    confirm_warnings: bool = False,
    actor: Actor,
) -> tuple[Structure, list[str]]:
    """Import CSV or JSON text; the form's name, ante type and starting stack, when given,
    win over the file's. Raises StructureError naming each bad field (nothing is saved).
    An import is written to the audit log."""
    is_json = text.lstrip().startswith(("{", "["))
    data = parse_json(text) if is_json else parse_csv(text)
    errors: list[str] = []
    name = _text(name or data.get("name"), gettext("name"), errors, most=NAME_MAX)
    antes = _chosen(ante_type, data.get("ante_type"), AnteType.EACH)
    if not isinstance(antes, str) or antes not in AnteType.values:
        errors.append(
            gettext("ante type %(value)s must be one of %(choices)s")
            % {"value": _show(antes), "choices": ", ".join(AnteType.values)}
        )
    chips = _chosen(starting_stack, data.get("starting_stack"), DEFAULT_STACK)
    stack = _int(chips, gettext("starting stack"), errors)
    if stack == 0:
        errors.append(gettext("starting stack: must be more than 0"))
    notes = _text(data.get("notes"), gettext("notes"), errors, most=NOTES_MAX, multiline=True)
    if errors:
        raise StructureError(errors + check_levels(data["levels"]).errors)
    assert stack is not None  # _int named the error otherwise
    with transaction.atomic():
        structure, warnings = structure_create(
            name=name,
            levels=data["levels"],
            ante_type=str(antes),
            starting_stack=stack,
            notes=notes,
            confirm_warnings=confirm_warnings,
        )
        levels = structure.levels.count()
        log_record(
            event=None,
            actor=actor,
            action="structure.import",
            summary=Text(
                gettext_noop("Structure %(name)s imported (%(levels)s levels, %(format)s)"),
                name=structure.name,
                levels=levels,
                format="JSON" if is_json else "CSV",
            ),
            data={
                "structure_id": structure.pk,
                "levels": levels,
                "format": "json" if is_json else "csv",
                "warnings_confirmed": len(warnings),
            },
        )
    return structure, warnings


def to_dict(structure: Structure) -> dict:
    levels = []
    for lv in structure.levels.order_by("position"):
        row = {"kind": lv.kind, "duration_minutes": lv.duration_seconds / 60}
        if lv.duration_seconds % 60 == 0:
            row["duration_minutes"] = lv.duration_seconds // 60
        if lv.is_break:
            row["note"] = lv.note
        else:
            row.update(small_blind=lv.small_blind, big_blind=lv.big_blind, ante=lv.ante)
            if lv.small_bet is not None:
                row.update(small_bet=lv.small_bet, big_bet=lv.big_bet)
            if lv.note:
                row["note"] = lv.note
        levels.append(row)
    return {
        "name": structure.name,
        "ante_type": structure.ante_type,
        "starting_stack": structure.starting_stack,
        "notes": structure.notes,
        "levels": levels,
    }


def to_json(structure: Structure) -> str:
    return json.dumps(to_dict(structure), indent=2)


def to_csv(structure: Structure) -> str:
    out = io.StringIO()
    writer = export_csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in to_dict(structure)["levels"]:
        writer.writerow({key: row.get(key, "") for key in CSV_COLUMNS})
    return out.getvalue()


def template_named(name: str) -> bool:
    """Whether a template of this name exists (letter case aside)."""
    return Structure.objects.filter(is_template=True, name__iexact=name.strip()).exists()


@transaction.atomic
def structure_create(
    *,
    name: str,
    levels: list[dict],
    ante_type: str = AnteType.EACH,
    starting_stack: int = 10_000,
    notes: str = "",
    is_template: bool = True,
    confirm_warnings: bool = False,
    fixed_limit: bool = False,
) -> tuple[Structure, list[str]]:
    """Validate and save. Raises StructureError on errors, or on warnings not confirmed."""
    checked = check_levels(levels, fixed_limit=fixed_limit)
    problems = list(checked.errors)
    if not name.strip():
        problems.insert(0, gettext("the structure needs a name"))
    elif len(name.strip()) > NAME_MAX:
        problems.insert(
            0, gettext("the name is longer than %(most)s characters") % {"most": NAME_MAX}
        )
    elif is_template and template_named(name):
        # Two templates of one name cannot be told apart in the new event form's list.
        problems.insert(
            0,
            gettext("a template named “%(name)s” exists already: give this one another name")
            % {"name": name.strip()},
        )
    if ante_type not in AnteType.values:
        problems.append(
            gettext("ante type %(value)r must be one of %(choices)s")
            % {"value": ante_type, "choices": ", ".join(AnteType.values)}
        )
    if problems:
        raise StructureError(problems)
    if checked.warnings and not confirm_warnings:
        raise StructureError([warning_message(w) for w in checked.warnings])
    structure = Structure.objects.create(
        name=name.strip(),
        ante_type=ante_type,
        starting_stack=starting_stack,
        notes=notes,
        is_template=is_template,
    )
    Level.objects.bulk_create(
        Level(structure=structure, position=i, **row) for i, row in enumerate(checked.levels)
    )
    return structure, checked.warnings


def structure_copy(*, template: Structure, name: str | None = None) -> Structure:
    copy = Structure.objects.create(
        name=name or template.name,
        ante_type=template.ante_type,
        starting_stack=template.starting_stack,
        notes=template.notes,
        is_template=False,
    )
    Level.objects.bulk_create(
        Level(
            structure=copy,
            position=lv.position,
            kind=lv.kind,
            small_blind=lv.small_blind,
            big_blind=lv.big_blind,
            ante=lv.ante,
            small_bet=lv.small_bet,
            big_bet=lv.big_bet,
            duration_seconds=lv.duration_seconds,
            note=lv.note,
        )
        for lv in template.levels.order_by("position")
    )
    return copy


def templates_install() -> list[Structure]:
    """Install the published templates that are not there yet (idempotent)."""
    from .published import TEMPLATES

    installed = []
    for build in TEMPLATES:
        data = build()
        existing = Structure.objects.filter(name=data["name"], is_template=True).first()
        if existing is None:
            existing, _ = structure_create(
                name=data["name"],
                levels=data["levels"],
                ante_type=data["ante_type"],
                starting_stack=data["starting_stack"],
                notes=data["notes"],
                confirm_warnings=True,
            )
        installed.append(existing)
    return installed
