"""Forms of the seating console: quick to fill on a tablet, strict about numbers."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django_countries import countries

from tdsystem.core.forms import TextField, WholeNumberField, parse_numbers
from tdsystem.core.numbers import ENTRY_NUMBER, SEATS_PER_TABLE, TABLE_NUMBER
from tdsystem.core.text import TextRefused, text_normal
from tdsystem.engine.seating import MAX_SEATS

from .models import HOLD_REASON_MAX

TABLE_NUMBER_MAX = TABLE_NUMBER.high  # a table's number, as the consoles and the API take it
ENTRY_MAX = ENTRY_NUMBER.high  # an entry's number in its event
NAME_MAX = 120  # a player's name (Player.name)


class NumbersField(forms.CharField):
    def clean(self, value):
        value = super().clean(value)
        return parse_numbers(value) if value else []


class RegisterForm(forms.Form):
    name = TextField(
        max_length=NAME_MAX,
        label=_("Name"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "words"}),
    )
    member_id = TextField(max_length=40, required=False, label=_("Member id"))
    note = TextField(
        max_length=60,
        required=False,
        label=_("Note"),
        help_text=_("Tells two players of the same name apart, e.g. “from Lyon”."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": _("e.g. from Lyon")}),
    )
    # The names in the reader's language, sorted in it; the service checks the code.
    country = forms.ChoiceField(
        choices=lambda: [("", "–"), *countries], required=False, label=_("Country")
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
    seats = WholeNumberField(span=SEATS_PER_TABLE, label=_("Seats"))


class BreakOrderForm(forms.Form):
    numbers = NumbersField(
        label=_("Break first"), required=False, help_text=_("Tables in the order they break")
    )


class RedrawForm(forms.Form):
    tables = forms.TypedChoiceField(choices=[(3, "3"), (2, "2"), (1, "1")], coerce=int)


class ReserveForm(forms.Form):
    """A seat kept for a player with special needs: a seat number, a table if it matters."""

    seat = WholeNumberField(min_value=1, max_value=MAX_SEATS, label=_("Seat"))
    table = WholeNumberField(span=TABLE_NUMBER, required=False, label=_("Table (optional)"))
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
