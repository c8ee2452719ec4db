"""``{{ note|explained:table }}``: an engine note in the reader's language."""

from __future__ import annotations

from django import template

from tdsystem.rulings.notes import note_html

register = template.Library()


@register.filter
def explained(note, table=None):
    """The note in the active language, citing the rule set of the table's event."""
    return note_html(note, getattr(table, "event", None))
