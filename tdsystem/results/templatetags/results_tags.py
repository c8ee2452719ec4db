"""Display filters for places and prizes."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import template

from ..services import standings

register = template.Library()


@register.filter
def ordinal(value) -> str:
    """1 -> "1st", 12 -> "12th", 23 -> "23rd"."""
    try:
        n = int(value)
    except (TypeError, ValueError):
        return str(value)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@register.filter
def money(value) -> str:
    """Decimal("1234.50") -> "1,234.50"; Decimal("1200.00") -> "1,200"; None -> "–"."""
    if value is None or value == "":
        return "–"
    try:
        amount = Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        return str(value)
    if amount == amount.to_integral_value():
        return f"{amount:,.0f}"
    return f"{amount:,.2f}"


@register.filter
def get(mapping, key):
    """{{ typed|get:entry.pk }}: a dict's value by a variable key ("" if none)."""
    try:
        return mapping.get(key, "") or ""
    except AttributeError:
        return ""


@register.simple_tag
def unpaid_warning(plan, prizes) -> str | None:
    """Why the stored plan's rounding unit now leaves a paid place with nothing (the field
    grew since it was set), for the payout page; None when every paid place is paid."""
    return standings.unpaid_message(plan, prizes.entries, prizes.pool)
