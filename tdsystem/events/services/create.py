"""An event's creation: its own copy of a structure, a clock ready to start, its director."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.log import Text, log_record

from ..models import Clock, Event
from .staff import event_staff_creator


def _rules_name(event: Event) -> str:
    house = event.house_rules
    return house.name if house else event.get_rule_set_display()


def event_create(
    *,
    name: str,
    template,
    actor: Actor,
    **settings_: object,
) -> Event:
    """Create an event with its own copy of a structure template and a clock ready to start;
    the person creating it directs it."""
    from tdsystem.structures.services import structure_copy

    if not name.strip():
        raise ValueError(_("the event needs a name"))
    with transaction.atomic():
        structure = structure_copy(template=template, name=f"{name} structure")
        settings_.setdefault("ante_type", template.ante_type)
        settings_.setdefault("starting_stack", template.starting_stack)
        event = Event.objects.create(name=name.strip()[:120], structure=structure, **settings_)
        first = structure.levels.order_by("position").first()
        Clock.objects.create(
            event=event, remaining_ms=first.duration_seconds * 1000 if first else 0
        )
        event_staff_creator(event=event, actor=actor)
        log_record(
            event=event,
            actor=actor,
            action="event.create",
            summary=Text(
                gettext_noop("Event created from the structure %(structure)s, under %(rules)s"),
                structure=template.name,
                rules=_rules_name(event),
            ),
            data={"rule_set": event.rule_set, "house_rules": event.house_rules_id},
        )
    return event
