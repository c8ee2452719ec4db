"""`{{ slips|by_table }}`: the move slips still waiting, grouped by the table the players
walk to (the moves page and the seating console's card)."""

from __future__ import annotations

from django import template

from ..selectors import slip_groups

register = template.Library()


@register.filter
def by_table(slips) -> list:
    return slip_groups(slips or [])
