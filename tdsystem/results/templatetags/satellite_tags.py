"""`{% satellite_of event as satellite %}`: a satellite's seats, winners and cash place for
the results pages (None for an event that is no satellite, without a query)."""

from __future__ import annotations

from django import template

from ..services.satellites import Satellite, satellite_read

register = template.Library()


@register.simple_tag
def satellite_of(event) -> Satellite | None:
    if event.satellite_target_id is None:
        return None
    return satellite_read(event)
