"""Display filters for places and prizes."""

from __future__ import annotations

from django import template
from django.utils.translation import pgettext_lazy

from tdsystem.core.numbers import money

from ..services import standings

register = template.Library()


@register.filter
def ordinal(value) -> str:
    """1 -> "1st", 12 -> "12th", 23 -> "23rd" in English; in another language the pattern
    its translators give each English ending ("%(n)s位" for all four in Japanese)."""
    try:
        n = int(value)
    except (TypeError, ValueError):
        return str(value)
    pattern = ORDINALS[0] if 10 <= n % 100 <= 20 else ORDINALS.get(n % 10, ORDINALS[0])
    return str(pattern) % {"n": n}


# Translators: a place in a tournament, "1st", "21st": the number is %(n)s. In a language
# without English endings, give the same pattern to all four (e.g. "%(n)s位", "thứ %(n)s").
ORDINALS = {
    1: pgettext_lazy("ordinal", "%(n)sst"),
    2: pgettext_lazy("ordinal", "%(n)snd"),
    3: pgettext_lazy("ordinal", "%(n)srd"),
    0: pgettext_lazy("ordinal", "%(n)sth"),
}


# The money filter is core's (humanize_td), registered here too for the templates that
# load it with the places' filters.
register.filter("money", money)


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
