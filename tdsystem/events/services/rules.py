"""The rules an event follows and the room's house sets: every change checked by the
engine (a RuleSetError changes nothing) and logged with what it was before."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.functions import Lower
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Text, log_record
from tdsystem.engine import rulesets

from ..models import Event, HouseRuleSet

BALANCE_THRESHOLD_MAX = 5
# The event's status in a log sentence ("... (while running)").
_STATUS_WORDS: dict[str, str] = {
    Event.Status.RUNNING: gettext_noop("running"),
    Event.Status.PAUSED: gettext_noop("paused"),
    Event.Status.FINISHED: gettext_noop("finished"),
}


def _set_text(code: str, house: HouseRuleSet | None) -> Text | str:
    """rules.set_label for the log: read in each reader's language."""
    name = rulesets.rule_set(code).name
    if house is None:
        return name
    return Text(gettext_noop("%(house)s, based on %(set)s"), house=house.name, set=name)


class RulesError(Exception):
    """A change the rules or the room's state do not allow; nothing was changed."""


def _clean_name(name: str, *, house_id: int | None = None) -> str:
    name = name.strip()[:120]
    if not name:
        raise RulesError(_("A house set needs a name."))
    taken = HouseRuleSet.objects.annotate(lower=Lower("name")).filter(lower=name.lower())
    if house_id is not None:
        taken = taken.exclude(pk=house_id)
    if taken.exists():
        raise RulesError(_("There is a house set named %(name)s already.") % {"name": name})
    return name


def _overrides_of(settings: rulesets.Settings, base: rulesets.Settings) -> dict[str, Any]:
    return rulesets.as_overrides(settings, base)


def house_rule_set_create(
    *, name: str, base: str, actor: Actor, copy_of: HouseRuleSet | None = None
) -> HouseRuleSet:
    """A house set copied from the built-in set `base`, or from another house set (its base
    and its overrides)."""
    if copy_of is not None:
        base, overrides = copy_of.base, dict(copy_of.overrides)
    else:
        rulesets.rule_set(base)  # RuleSetError for an unknown code
        overrides = {}
    with transaction.atomic():
        house = HouseRuleSet.objects.create(name=_clean_name(name), base=base, overrides=overrides)
        source = copy_of.name if copy_of else rulesets.rule_set(base).name
        log_record(
            event=None,
            actor=actor,
            action="rules.house.create",
            summary=Text(
                gettext_noop("House set %(name)s created from %(source)s"),
                name=house.name,
                source=source,
            ),
            data={"house": house.pk, "base": base, "overrides": overrides},
        )
    return house


def house_rule_set_update(
    *, house_id: int, name: str, overrides: dict[str, Any], actor: Actor
) -> HouseRuleSet:
    """Rename a house set and set its overrides (only those that differ from its base are
    kept). The events using it follow the change; the log keeps the before and after."""
    with transaction.atomic():
        house = HouseRuleSet.objects.select_for_update(no_key=True).filter(pk=house_id).first()
        if house is None:
            raise RulesError(_("There is no house set %(id)s.") % {"id": house_id})
        base = rulesets.rule_set(house.base).settings
        after = _overrides_of(rulesets.effective(house.base, overrides), base)
        before_name, before = house.name, house.overrides
        house.name = _clean_name(name, house_id=house.pk)
        house.overrides = after
        house.save(update_fields=["name", "overrides", "updated_at"])
        log_record(
            event=None,
            actor=actor,
            action="rules.house.update",
            summary=Text(
                gettext_noop(
                    "House set %(name)s changed (%(count)s settings differ from %(base)s)"
                ),
                name=house.name,
                count=len(after),
                base=house.base_set.name,
            ),
            data={
                "house": house.pk,
                "before": {"name": before_name, "overrides": before},
                "after": {"name": house.name, "overrides": after},
            },
        )
    return house


def house_rule_set_delete_refusal(house: HouseRuleSet) -> str | None:
    count = house.events.count()
    if count:
        return _("%(name)s is the rule set of %(count)s events: it cannot be deleted.") % {
            "name": house.name,
            "count": count,
        }
    return None


def house_rule_set_delete(*, house_id: int, actor: Actor) -> str:
    """Delete a house set no event uses; its name, for the message."""
    with transaction.atomic():
        house = HouseRuleSet.objects.select_for_update(no_key=True).filter(pk=house_id).first()
        if house is None:
            raise RulesError(_("There is no house set %(id)s.") % {"id": house_id})
        refusal = house_rule_set_delete_refusal(house)
        if refusal:
            raise RulesError(refusal)
        name = house.name
        data = {"house": house.pk, "base": house.base, "overrides": house.overrides}
        house.delete()
        log_record(
            event=None,
            actor=actor,
            action="rules.house.delete",
            summary=Text(gettext_noop("House set %(name)s deleted"), name=name),
            data=data,
        )
    return name


def _state(event: Event) -> dict[str, Any]:
    return {
        "rule_set": event.rule_set,
        "house_rules": event.house_rules_id,
        "overrides": event.rule_overrides,
        "balance_threshold": event.balance_threshold,
    }


def event_rules_set(
    *,
    event_id: int,
    rule_set: str,
    house: HouseRuleSet | None,
    settings: dict[str, Any],
    balance_threshold: int,
    actor: Actor,
) -> Event:
    """Set the rules an event follows: a built-in set or a house set (`rule_set` is then
    ignored: the house set's base counts), and every setting's value as the event wants it.

    Only the settings that differ from the set are stored. Changing the rules of a running
    event is allowed; the log says so and keeps the before and after.
    """
    if not 1 <= balance_threshold <= BALANCE_THRESHOLD_MAX:
        raise RulesError(
            _("A table is short by 1 to %(most)s players.") % {"most": BALANCE_THRESHOLD_MAX}
        )
    code = house.base if house is not None else rule_set
    base = rulesets.effective(code, house.overrides if house is not None else None)
    layer = house.overrides if house is not None else None
    overrides = _overrides_of(rulesets.effective(code, layer, settings), base)
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=RulesError)
        before = _state(event)
        event.rule_set, event.house_rules = code, house
        event.rule_overrides, event.balance_threshold = overrides, balance_threshold
        after = _state(event)
        if after == before:
            return event
        event.save(update_fields=["rule_set", "house_rules", "rule_overrides", "balance_threshold"])
        changed = sorted(
            set(before["overrides"]) ^ set(overrides)
            | {k for k in overrides if before["overrides"].get(k) != overrides[k]}
        )
        if before["balance_threshold"] != balance_threshold:
            changed.append("balance_threshold")
        what = ", ".join(changed) if changed else Text(gettext_noop("the rule set"))
        summary = Text(
            gettext_noop("Rules of this event: %(set)s; changed %(what)s"),
            set=_set_text(code, house),
            what=what,
        )
        if event.status in _STATUS_WORDS:
            summary = Text(
                gettext_noop("Rules of this event: %(set)s; changed %(what)s (while %(status)s)"),
                set=_set_text(code, house),
                what=what,
                status=Text(_STATUS_WORDS[event.status]),
            )
        log_record(
            event=event,
            actor=actor,
            action="rules.event",
            summary=summary,
            data={"before": before, "after": after, "status": event.status},
        )
    return event
