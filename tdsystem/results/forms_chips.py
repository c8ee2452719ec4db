"""The table page's count form: one input per player seated there, blank ones skipped."""

from __future__ import annotations

import re
from collections.abc import Sequence

from django import forms
from django.utils.translation import gettext as _

from .forms import ChipsField
from .selectors_chips import CountRow

NAME = re.compile(r"^count-([0-9]{1,19})$")


def count_field(number: int) -> str:
    return f"count-{number}"


def typed_counts(data) -> dict[int, str]:
    """What was typed, by entry number, to show it again beside a refusal."""
    return {int(m[1]): str(v) for k, v in data.items() if (m := NAME.match(k))}


class TableCountsForm(forms.Form):
    """`count-<entry number>` per player seated at the table (the rows given). A bad value
    refuses the whole form, naming the seat and the player; so does a typed count for a
    player who has left the table since the page was read."""

    def __init__(self, data, rows: Sequence[CountRow]) -> None:
        super().__init__(data)
        for row in rows:
            entry = row.entry
            label = _("Seat %(seat)s, %(name)s") % {"seat": entry.seat, "name": entry.player.name}
            self.fields[count_field(entry.number)] = ChipsField(required=False, label=label)

    def clean(self) -> dict:
        data = super().clean() or {}
        for key, value in self.data.items():
            match = NAME.match(key)
            if match and key not in self.fields and str(value).strip():
                raise forms.ValidationError(
                    _("#%(number)s is no longer at this table: read the page again")
                    % {"number": match[1]}
                )
        counts = {}
        for name in self.fields:
            chips = data.get(name)
            if chips is None:
                continue
            if chips == 0:
                self.add_error(name, _("give a chip count above 0"))
                continue
            counts[int(name.removeprefix("count-"))] = chips
        if not counts and not self.errors:
            raise forms.ValidationError(_("Type at least one count."))
        data["counts"] = counts
        return data
