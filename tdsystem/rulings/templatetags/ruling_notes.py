"""``{{ note|explained:table }}``: an engine note in the reader's language."""

from __future__ import annotations

from django import template
from django.utils.translation import pgettext_lazy

from tdsystem.rulings.notes import STREETS, note_html

register = template.Library()


@register.filter
def explained(note, rules=None):
    """The note in the active language, citing the numbers of ``rules`` (a rule set)."""
    return note_html(note, rules)


# The engine's words for a player's state and the street, as the page shows them.
WORDS = {
    "active": pgettext_lazy("player state", "active"),
    "folded": pgettext_lazy("player state", "folded"),
    "all-in": pgettext_lazy("player state", "all-in"),
    "eliminated": pgettext_lazy("player state", "eliminated"),
    "preflop": pgettext_lazy("street", "preflop"),
    "flop": pgettext_lazy("street", "flop"),
    "turn": pgettext_lazy("street", "turn"),
    "river": pgettext_lazy("street", "river"),
    "showdown": pgettext_lazy("street", "showdown"),
    "complete": pgettext_lazy("street", "complete"),
}


@register.filter
def engine_word(value):
    """A player's state or a street in the reader's language ("folded", "flop", "third"),
    the value itself when it is not one of them."""
    return WORDS.get(value) or STREETS.get(value) or value
