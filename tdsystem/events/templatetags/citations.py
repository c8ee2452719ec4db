"""`{% cite event "halting" %}`: the rule an event's set cites for a concept ("TDA 11-D",
"TDA 12-D", "WSOP R67"), so no page writes a rule number of its own."""

from __future__ import annotations

from django import template

register = template.Library()


@register.simple_tag
def cite(event, concept: str) -> str:
    return event.cite(concept)
