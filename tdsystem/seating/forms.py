"""Forms of the seating console: quick to fill on a tablet, strict about numbers."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tdsystem.core.forms import TextField, WholeNumberField
from tdsystem.core.templatetags.humanize_td import grouped
from tdsystem.core.text import TextRefused, text_normal
from tdsystem.engine.seating import MAX_SEATS

from .models import HOLD_REASON_MAX, Purchase

RANGE = re.compile(r"^([0-9]+)\s*(?:-\s*([0-9]+))?$")
TABLE_NUMBER_MAX = 99_999  # a table's number, as the consoles and the API take it
ENTRY_MAX = 2**63 - 1  # an entry's id or number: what a 64-bit column holds
NAME_MAX = 120  # a player's name (Player.name)


def parse_numbers(text: str, *, limit: int = 500) -> list[int]:
    """Read "1-12, 15 17" as [1, ..., 12, 15, 17], keeping the order given."""
    numbers: list[int] = []
    for part in re.split(r"[,;\s]+", re.sub(r"\s*-\s*", "-", text.strip())):
        if not part:
            continue
        match = RANGE.match(part)
        if not match:
            raise forms.ValidationError(
                _("“%(part)s” is not a table number or a range like 1-12") % {"part": part}
            )
        low = int(match.group(1))
        high = int(match.group(2) or low)
        if low < 1 or high < low or high > TABLE_NUMBER_MAX:
            raise forms.ValidationError(
                _("“%(part)s” is not a range from low to high, from 1 to %(max)s")
                % {"part": part, "max": grouped(TABLE_NUMBER_MAX)}
            )
        numbers.extend(range(low, high + 1))
        if len(numbers) > limit:
            raise forms.ValidationError(_("at most %(limit)s tables at once") % {"limit": limit})
    return list(dict.fromkeys(numbers))


class NumbersField(forms.CharField):
    def clean(self, value):
        value = super().clean(value)
        return parse_numbers(value) if value else []


class RegisterForm(forms.Form):
    name = TextField(
        max_length=NAME_MAX,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "words"}),
    )
    member_id = TextField(max_length=40, required=False, label=_("Member id (optional)"))
    note = TextField(
        max_length=60,
        required=False,
        label=_("Note (optional)"),
        help_text=_("Tells two players of the same name apart, e.g. “from Lyon”."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": _("e.g. from Lyon")}),
    )
    # Sent by the "Register anyway" button once the console has warned of the same name.
    confirm_duplicate = forms.BooleanField(required=False, widget=forms.HiddenInput)
    # Sent once the console has shown what a late entry changes among the players in the money.
    confirm_changes = forms.BooleanField(required=False, widget=forms.HiddenInput)


class ImportForm(forms.Form):
    names = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6}), help_text=_("One player per line.")
    )
    confirm_duplicates = forms.BooleanField(
        required=False, label=_("Import duplicate names anyway")
    )

    def clean_names(self) -> list[str]:
        names = []
        for line, typed in enumerate(self.cleaned_data["names"].splitlines(), start=1):
            try:
                name = text_normal(typed, max_length=NAME_MAX)
            except TextRefused as exc:
                raise forms.ValidationError(
                    _("line %(line)s: %(problem)s") % {"line": line, "problem": exc}
                ) from None
            if name:
                names.append(name)
        return names


class TablesForm(forms.Form):
    numbers = NumbersField(label=_("Table numbers"), help_text=_("For example 1-12, 15"))
    seats = forms.IntegerField(min_value=6, max_value=10)


class BreakOrderForm(forms.Form):
    numbers = NumbersField(
        label=_("Break first"), required=False, help_text=_("Tables in the order they break")
    )


class PurchaseForm(forms.Form):
    kind = forms.ChoiceField(
        choices=[(Purchase.Kind.REBUY, _("Rebuy")), (Purchase.Kind.ADDON, _("Add-on"))]
    )
    chips = forms.IntegerField(min_value=1, required=False)
    amount = forms.DecimalField(min_value=0, max_digits=12, decimal_places=2, required=False)


class RedrawForm(forms.Form):
    tables = forms.TypedChoiceField(choices=[(3, "3"), (2, "2"), (1, "1")], coerce=int)


class ReserveForm(forms.Form):
    """A seat kept for a player with special needs: a seat number, a table if it matters."""

    seat = WholeNumberField(min_value=1, max_value=MAX_SEATS, label=_("Seat"))
    table = WholeNumberField(
        min_value=1, max_value=TABLE_NUMBER_MAX, required=False, label=_("Table (optional)")
    )
    reason = TextField(
        max_length=HOLD_REASON_MAX,
        label=_("Reason"),
        widget=forms.TextInput(attrs={"placeholder": _("e.g. wheelchair")}),
    )


class DoNotMoveForm(forms.Form):
    reason = TextField(
        max_length=HOLD_REASON_MAX,
        label=_("Reason"),
        widget=forms.TextInput(attrs={"placeholder": _("e.g. medical")}),
    )


def first_error(form: forms.Form) -> tuple[str, str]:
    """The first problem of a bound form as (field, message), for the API and flashes."""
    name, errors = next(iter(form.errors.items()))
    if name == "__all__":
        return name, errors[0]
    # The field's name as the API and the scripts know it ("member id"), not its label.
    return name, gettext("%(field)s: %(error)s") % {
        "field": name.replace("_", " "),
        "error": errors[0],
    }
