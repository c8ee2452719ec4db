"""Changing an existing event's entry rules: late registration, re-entries, rebuys and the
add-on, before the clock starts or while it runs.

One way in (the console's entry rules page and the API): `event_entry_rules_update`.

The rules apply to what comes next. A purchase already made stays as it was bought (its
row keeps its own chips, amount and fee): lowering a limit below what a player has
already bought, ending rebuys or cancelling the add-on only refuses the next buy, it never
takes one back. Reopening a period that has ended (late registration extended by two
levels) opens it again at once. A finished event's rules no longer change.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tdsystem.core.actors import Actor
from tdsystem.core.locking import locks_take
from tdsystem.core.log import log_record

from .entry_notices import break_name
from .models import Event

# The event's entry rule columns (engine/entry_rules.py), in the order the pages show them.
ENTRY_RULE_COLUMNS = (
    "late_registration_end_level",
    "reentry_allowed",
    "reentry_max",
    "reentry_until_level",
    "rebuy_until_level",
    "rebuy_threshold",
    "rebuy_chips",
    "rebuy_price",
    "rebuy_fee",
    "rebuy_max",
    "addon_break",
    "addon_chips",
    "addon_price",
    "addon_fee",
)


class EntryRulesError(ValueError):
    """A change the rules or the event's state refuse; nothing was changed. `field` names
    the rule at fault (the API's 400), None for the event's state (a 409)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def _name(field: str) -> str:
    names = {
        "late_registration_end_level": _("Late registration"),
        "reentry_allowed": _("Re-entries"),
        "reentry_max": _("Re-entries per player"),
        "reentry_until_level": _("Re-entries until"),
        "rebuy_until_level": _("Rebuys"),
        "rebuy_threshold": _("Rebuy stack limit"),
        "rebuy_chips": _("Chips per rebuy"),
        "rebuy_price": _("Rebuy price"),
        "rebuy_fee": _("Rebuy fee"),
        "rebuy_max": _("Rebuys per player"),
        "addon_break": _("Add-on"),
        "addon_chips": _("Add-on chips"),
        "addon_price": _("Add-on price"),
        "addon_fee": _("Add-on fee"),
    }
    return names[field]


def _until(level: int, zero: str) -> str:
    return zero if level == 0 else _("until level %(level)s") % {"level": level}


def _per_player(count: int) -> str:
    if count == 0:
        return _("no limit")
    return ngettext("%(count)s per player", "%(count)s per player", count) % {"count": count}


def _chips(value: int | None) -> str:
    return _("the starting stack") if value is None else f"{value:,}"


def value_text(field: str, value: Any) -> str:
    """A rule's value as the log says it ("until level 6", "no rebuys", "44.00")."""
    match field:
        case "late_registration_end_level":
            return _until(value, _("none (until the clock starts)"))
        case "reentry_allowed":
            return _("allowed") if value else _("not allowed")
        case "reentry_until_level":
            return _until(value, _("while late registration is open"))
        case "rebuy_until_level":
            return _until(value, _("no rebuys"))
        case "reentry_max" | "rebuy_max":
            return _per_player(value)
        case "addon_break":
            return _("no add-on") if value == 0 else _("at %(when)s") % {"when": break_name(value)}
        case "rebuy_threshold" | "rebuy_chips" | "addon_chips":
            return _chips(value)
    return f"{Decimal(value):.2f}"


def _stored(value: Any) -> Any:
    """A value as the log's JSON keeps it (amounts as decimal strings)."""
    return f"{value:.2f}" if isinstance(value, Decimal) else value


def _checked(event: Event, changes: dict[str, Any]) -> None:
    """The new values on `event` (not saved), checked by the columns and the database's
    constraints and read as the columns hold them ("40" and 40 are 40.00); EntryRulesError
    naming the first field at fault."""
    unknown = sorted(set(changes) - set(ENTRY_RULE_COLUMNS))
    if unknown:
        raise EntryRulesError(
            _("%(field)s is not an entry rule") % {"field": unknown[0]}, field=unknown[0]
        )
    for field, value in changes.items():
        setattr(event, field, value)
    others = [f.name for f in Event._meta.concrete_fields if f.name not in changes]
    not_rules = {f.name for f in Event._meta.concrete_fields if f.name not in ENTRY_RULE_COLUMNS}
    try:
        event.clean_fields(exclude=others)
    except ValidationError as exc:
        errors = exc.message_dict
        field = next(f for f in ENTRY_RULE_COLUMNS if f in errors)
        raise EntryRulesError(f"{_name(field)}: {' '.join(errors[field])}", field=field) from None
    for constraint in Event._meta.constraints:
        try:
            constraint.validate(Event, event, exclude=not_rules)
        except ValidationError:
            field = _constrained(constraint, changes)
            raise EntryRulesError(_refused(field), field=field) from None


def _constrained(constraint: Any, changes: dict[str, Any]) -> str:
    """The first changed field a CheckConstraint's condition names."""
    named: set[str] = set()
    stack = [constraint.condition]
    while stack:
        node = stack.pop()
        for child in node.children:
            if isinstance(child, tuple):
                named.add(str(child[0]).split("__")[0])
            elif hasattr(child, "children"):
                stack.append(child)
    return next(f for f in ENTRY_RULE_COLUMNS if f in named and f in changes)


def _refused(field: str) -> str:
    """What the database's constraint on an entry rule says, in the form's words."""
    if field.endswith("_chips"):
        return _("%(rule)s: at least 1 chip (empty: the starting stack).") % {"rule": _name(field)}
    return _("%(rule)s: an amount cannot be negative.") % {"rule": _name(field)}


def event_entry_rules_update(
    *, event_id: int, changes: dict[str, Any], actor: Actor
) -> tuple[Event, list[str]]:
    """Set some of an event's entry rules (`changes`: column name to value; the others
    stay). Returns the event and the rules that changed: a change of nothing writes
    nothing and logs nothing. Raises EntryRulesError:
    a value its column or constraint refuses (the field named), or a finished event."""
    with transaction.atomic():
        locks_take(event=event_id)
        event = Event.objects.select_for_update(of=("self",)).filter(pk=event_id).first()
        if event is None:
            raise EntryRulesError(_("There is no event %(id)s.") % {"id": event_id})
        if event.status == Event.Status.FINISHED:
            raise EntryRulesError(_("The event has finished: its entry rules no longer change."))
        before = {field: getattr(event, field) for field in ENTRY_RULE_COLUMNS}
        _checked(event, changes)
        changed = [f for f in ENTRY_RULE_COLUMNS if getattr(event, f) != before[f]]
        if not changed:
            return event, []
        event.save(update_fields=changed)
        summary = "; ".join(
            _("%(rule)s: %(before)s → %(after)s")
            % {
                "rule": _name(f),
                "before": value_text(f, before[f]),
                "after": value_text(f, getattr(event, f)),
            }
            for f in changed
        )
        if event.status != Event.Status.PLANNED:
            summary = _("%(summary)s (while %(status)s)") % {
                "summary": summary,
                "status": event.get_status_display().lower(),
            }
        log_record(
            event=event,
            actor=actor,
            action="event.entry_rules",
            summary=summary,
            data={
                "before": {f: _stored(before[f]) for f in changed},
                "after": {f: _stored(getattr(event, f)) for f in changed},
                "status": event.status,
            },
        )
    return event, changed
