"""`{% screen_follow event "screen_clock" %}`: the follow script's tag for a venue screen."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html

register = template.Library()

# Once a minute: a TV picks up next week's event within a minute of its start, and a room
# of screens costs the server one small cached read per screen a minute.
FOLLOW_SECONDS = 60


@register.simple_tag
def screen_follow(event, stable: str) -> str:
    """The script that, on a screen opened through a stable address (`?follow=1`), asks
    which event is current every SCREEN_FOLLOW_SECONDS and goes back to `stable` (a URL
    name) when it is another one. Without `follow=1` the script does nothing."""
    return format_html(
        '<script src="{}" data-event="{}" data-current-event-url="{}" data-home="{}" '
        'data-seconds="{}" defer></script>',
        static("js/screen-follow.js"),
        event.pk,
        reverse("api:current_event"),
        reverse(stable),
        getattr(settings, "SCREEN_FOLLOW_SECONDS", FOLLOW_SECONDS),
    )
