"""Small display filters: chip counts, money and clock times."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import template
from django.utils import numberformat
from django.utils.formats import get_format
from django.utils.functional import lazy
from django.utils.translation import gettext

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
    return grouped(whole)


def grouped(number, decimals: int | None = None) -> str:
    """A number in the reader's separators, Western digits: grouped always, in threes
    where the locale's formats leave grouping out (ar, vi): a chip count or a prize read
    from across the room needs its thousands marked."""
    return numberformat.format(
        number,
        get_format("DECIMAL_SEPARATOR"),
        decimal_pos=decimals,
        grouping=get_format("NUMBER_GROUPING") or 3,
        thousand_sep=get_format("THOUSAND_SEPARATOR"),
        force_grouping=True,
    )


@register.filter
def money(value) -> str:
    """An amount of money in the reader's separators: Decimal("1200.00") -> "1,200",
    Decimal("1234.50") -> "1,234.50" ("1.234,50" in Vietnamese); None -> "–". Every page
    that shows money (the consoles, the screens, the results, a purchase's message) says
    it so, never as the column's "15000.00"."""
    if value is None or value == "":
        return "–"
    try:
        amount = Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        return str(value)
    return grouped(amount, 0 if amount == amount.to_integral_value() else 2)


# grouped() when the text is read: a form's rule, written once, said in each request's locale.
grouped_lazy = lazy(grouped, str)


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
