"""`{% alternates_join event %}`: the seat lookup's offer to join the alternates list.

Seating's template loads it (a template's dependency, not an import: seating's Python
knows nothing of players). Whether to offer it is cached with the screens (every phone of
the room asks the lookup for the same event).
"""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string

from tdsystem.events.selectors import screen_cached

from ..alternates import alternate_state, join_offered, mmss, wait_text

register = template.Library()


@register.simple_tag(takes_context=True)
def alternates_join(context, event) -> str:
    """The offer, or nothing: most lookups are made while it is not offered, and then no
    template is rendered (fifty phones a second ask after a table break)."""
    if not screen_cached(("alternates-offer",), lambda: join_offered(event), event=event.pk):
        return ""
    return render_to_string(
        "players/_alternates_join.html",
        {"event": event, "csrf_token": context.get("csrf_token")},
    )


@register.simple_tag
def alternate_of(link) -> dict:
    """The player's page of a place on the list: `alternate_state`, said in words."""
    state = alternate_state(link)
    return state | {
        "wait_text": wait_text(state["wait_minutes"]),
        "left_text": mmss(state["seconds_left"]),
    }
