"""Small display filters: chip counts and clock times."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def chips(value) -> str:
    """1234567 -> "1,234,567"; None -> "–"."""
    if value is None or value == "":
        return "–"
    try:
        return f"{round(float(value)):,}"
    except (TypeError, ValueError):
        return str(value)


@register.filter
def hms(ms) -> str:
    """Milliseconds -> "1:02:03" or "42:07" (rounded up, like the screens)."""
    if ms is None:
        return "–"
    seconds = max(0, -(-int(ms) // 1000))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02}:{s:02}" if h else f"{m}:{s:02}"


@register.filter
def minutes(seconds) -> str:
    return f"{int(seconds) // 60} min" if seconds else "–"
