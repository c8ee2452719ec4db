"""`{% table_buys event entry table %}`: a seat's Rebuy and Add-on buttons on the table
page, shown to seating staff while the event's rules offer them (the service decides
again when the buy is made)."""

from __future__ import annotations

from django import template

from tdsystem.core.access import has_right

from ..entry_rules import buys_offered

register = template.Library()


@register.inclusion_tag("seating/_table_buys.html", takes_context=True)
def table_buys(context, event, entry, table: int) -> dict:
    user = context.get("user")
    offers = []
    if entry is not None and user is not None:
        # Periods only: the player's limits would cost a query a seat; the service checks.
        offers = buys_offered(event, entry, counts=False)
        if offers and not has_right(user, "seating", event=event.pk):
            offers = []
    # The partial's few style rules go out once per page, with the first seat that has buys.
    style = bool(offers) and not context.render_context.get("table_buys_style")
    if style:
        context.render_context["table_buys_style"] = True
    return {
        "style": style,
        "event": event,
        "entry": entry,
        "table": table,
        "offers": offers,
        "csrf_token": context.get("csrf_token"),
    }
