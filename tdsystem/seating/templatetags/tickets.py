"""`{% event_tickets event as tickets %}`: the unused tickets good in the event, for the
registration panel's "Register" buttons (the service checks each again)."""

from __future__ import annotations

from django import template

from ..services.tickets import tickets_of

register = template.Library()


@register.simple_tag
def event_tickets(event) -> list:
    return [t for t in tickets_of(event) if t.used_by_id is None]
