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
from django.utils.translation import gettext_lazy, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Grouped, Text, log_record

from ..entry_notices import break_text
from ..models import Event

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


# The rules' names, as messages: the log keeps them as Texts (each reader's language).
_NAMES = {
    "late_registration_end_level": gettext_noop("Late registration"),
    "reentry_allowed": gettext_noop("Re-entries"),
    "reentry_max": gettext_noop("Re-entries per player"),
    "reentry_until_level": gettext_noop("Re-entries until"),
    "rebuy_until_level": gettext_noop("Rebuys"),
    "rebuy_threshold": gettext_noop("Rebuy stack limit"),
    "rebuy_chips": gettext_noop("Chips per rebuy"),
    "rebuy_price": gettext_noop("Rebuy price"),
    "rebuy_fee": gettext_noop("Rebuy fee"),
    "rebuy_max": gettext_noop("Rebuys per player"),
    "addon_break": gettext_noop("Add-on"),
    "addon_chips": gettext_noop("Add-on chips"),
    "addon_price": gettext_noop("Add-on price"),
    "addon_fee": gettext_noop("Add-on fee"),
}


def _name(field: str) -> str:
    return _(_NAMES[field])


def _until(level: int, zero: str) -> Text:
    return Text(zero) if level == 0 else Text(gettext_noop("until level %(level)s"), level=level)


def _per_player(count: int) -> Text:
    if count == 0:
        return Text(gettext_noop("no limit"))
    # A Text has no plural forms: the count stands as a figure ("3 per player").
    return Text(gettext_noop("%(count)s per player"), count=count)


def _chips(value: int | None) -> Text | Grouped:
    return Text(gettext_noop("the starting stack")) if value is None else Grouped(value)


def value_text(field: str, value: Any) -> Text | Grouped | str:
    """A rule's value as the log says it ("until level 6", "no rebuys", "44.00"): a Text,
    read in each reader's language (`str()` gives the active one's)."""
    match field:
        case "late_registration_end_level":
            return _until(value, gettext_noop("none (until the clock starts)"))
        case "reentry_allowed":
            return Text(gettext_noop("allowed") if value else gettext_noop("not allowed"))
        case "reentry_until_level":
            return _until(value, gettext_noop("while late registration is open"))
        case "rebuy_until_level":
            return _until(value, gettext_noop("no rebuys"))
        case "reentry_max" | "rebuy_max":
            return _per_player(value)
        case "addon_break":
            if value == 0:
                return Text(gettext_noop("no add-on"))
            return Text(gettext_noop("at %(when)s"), when=break_text(value))
        case "rebuy_threshold" | "rebuy_chips" | "addon_chips":
            return _chips(value)
    return f"{Decimal(value):.2f}"


def _changes_text(event: Event, before: dict[str, Any], changed: list[str]) -> Text:
    """ "Rebuys: no rebuys → until level 6; Add-on: ..." as one Text (the rules joined two
    by two), with the event's status when it is not planned."""
    parts = [
        Text(
            gettext_noop("%(rule)s: %(before)s → %(after)s"),
            rule=Text(_NAMES[f]),
            before=value_text(f, before[f]),
            after=value_text(f, getattr(event, f)),
        )
        for f in changed
    ]
    summary = parts[-1]
    for part in reversed(parts[:-1]):
        summary = Text(gettext_noop("%(first)s; %(rest)s"), first=part, rest=summary)
    status = _STATUS_WORDS.get(event.status)
    if status:
        summary = Text(
            gettext_noop("%(changes)s (while %(status)s)"), changes=summary, status=Text(status)
        )
    return summary


# The event's status in a log sentence ("... (while running)").
_STATUS_WORDS: dict[str, str] = {
    Event.Status.RUNNING: gettext_noop("running"),
    Event.Status.PAUSED: gettext_noop("paused"),
    Event.Status.FINISHED: gettext_noop("finished"),
}


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
    if {"reentry_allowed", *REENTRY_RULES} & set(changes):
        for field in reentry_rules_unused({f: getattr(event, f) for f in ENTRY_RULE_COLUMNS}):
            raise EntryRulesError(f"{_name(field)}: {REENTRY_NOT_ALLOWED}", field=field)


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


# A re-entry rule set while re-entries are not allowed would do nothing: the rule, stated
# once for the forms (event, entry rules page) and this service (the API).
REENTRY_RULES = ("reentry_max", "reentry_until_level")
REENTRY_NOT_ALLOWED = gettext_lazy(
    "Re-entries are not allowed: tick “Re-entries allowed” for this to count, or leave it at 0."
)


def reentry_rules_unused(values: dict[str, Any]) -> list[str]:
    """The re-entry rules `values` sets to something while re-entries are not allowed."""
    if values.get("reentry_allowed"):
        return []
    return [name for name in REENTRY_RULES if values.get(name)]


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
        event = event_lock(Event.objects, event_id, error=EntryRulesError)
        if event.status == Event.Status.FINISHED:
            raise EntryRulesError(_("The event has finished: its entry rules no longer change."))
        before = {field: getattr(event, field) for field in ENTRY_RULE_COLUMNS}
        _checked(event, changes)
        changed = [f for f in ENTRY_RULE_COLUMNS if getattr(event, f) != before[f]]
        if not changed:
            return event, []
        event.save(update_fields=changed)
        log_record(
            event=event,
            actor=actor,
            action="event.entry_rules",
            summary=_changes_text(event, before, changed),
            data={
                "before": {f: _stored(before[f]) for f in changed},
                "after": {f: _stored(getattr(event, f)) for f in changed},
                "status": event.status,
            },
        )
    return event, changed
