"""The end of a day's forms: a table's bags (all at once) and the console's bag correction.

A count is typed as the chip counts are ("12,500", "12 500" or "12500"); a bag number is
1 to BAG_NUMBER_MAX characters. The service keeps the rules of the day (every player at
the table, numbers unique in the event and day)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tdsystem.core.forms import TextField, WholeNumberField

from .models import Entry
from .services.dayend import BAG_CHIPS_MAX, BAG_NUMBER_MAX

SEPARATORS = re.compile(r"[\s,._']")


class BagChipsField(forms.CharField):
    def to_python(self, value):
        text = SEPARATORS.sub("", super().to_python(value) or "")
        if not text:
            return None
        if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= BAG_CHIPS_MAX:
            raise forms.ValidationError(_("give a count from 1 to 999,999,999,999,999"))
        return int(text)


def chips_field(seat: int) -> str:
    return f"chips-{seat}"


def bag_field(seat: int) -> str:
    return f"bag-{seat}"


class TableBagsForm(forms.Form):
    """`chips-<seat>` and `bag-<seat>` for every player at the table (`entries`), all
    required: the table is bagged at once."""

    def __init__(self, data, entries: Sequence[Entry]) -> None:
        super().__init__(data)
        self.entries = [e for e in entries if e.seat is not None]
        for entry in self.entries:
            who = _("Seat %(seat)s, %(name)s") % {"seat": entry.seat, "name": entry.player.name}
            self.fields[chips_field(entry.seat)] = BagChipsField(label=who)
            self.fields[bag_field(entry.seat)] = TextField(label=who, max_length=BAG_NUMBER_MAX)

    def clean(self) -> dict:
        data = super().clean() or {}
        if not self.errors:
            data["bags"] = [
                (e.seat, data[chips_field(e.seat)], data[bag_field(e.seat)]) for e in self.entries
            ]
        return data


class CloseForm(forms.Form):
    """ "Close the day": the difference of the bags from the chips in play the director
    confirms (the panel's hidden field, as it showed it), when there is one."""

    confirm_difference = forms.IntegerField(
        required=False, min_value=-BAG_CHIPS_MAX * 10_000, max_value=BAG_CHIPS_MAX * 10_000
    )

    def difference(self) -> int | None:
        return self.cleaned_data.get("confirm_difference") if self.is_valid() else None


class BagCorrectForm(forms.Form):
    entry = WholeNumberField(min_value=1, max_value=10**9, label=gettext_lazy("Entry"))
    chips = BagChipsField(label=gettext_lazy("Chips"))
    number = TextField(max_length=BAG_NUMBER_MAX, label=gettext_lazy("Bag number"))


def form_error(form: forms.Form) -> str:
    """The first problem of a bound form, after the seat and player it is about."""
    name, errors = next(iter(form.errors.items()))
    label = form.fields[name].label if name in form.fields else None
    if not label:
        return errors[0]
    return _("%(field)s: %(error)s") % {"field": label, "error": errors[0]}
