"""Small display filters: chip counts, money and clock times. The numbers are said by
`core.numbers` (`grouped`, `money`), which Python code calls directly."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext

from tdsystem.core import numbers

register = template.Library()


@register.filter
def chips(value) -> str:
    """1234567 -> "1,234,567" (the reader's grouping: "1.234.567" in Vietnamese), in
    Western digits in every language; None -> "–"."""
    if value is None or value == "":
        return "–"
    try:
        whole = round(float(value))
    except (TypeError, ValueError):
        return str(value)
    return numbers.grouped(whole)


@register.filter
def money(value) -> str:
    """An amount of money in the reader's separators (`core.numbers.money`)."""
    return numbers.money(value)


@register.filter
def shipped(text) -> str:
    """A text the project ships in English and marks for the catalogues (a published
    structure's notes and break notes, stored as shipped), in the reader's language; a
    text people typed is not in the catalogues and reads as typed."""
    return gettext(text) if text else ""


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
    if not seconds:
        return "–"
    return gettext("%(minutes)s min") % {"minutes": int(seconds) // 60}
