from __future__ import annotations

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from tdsystem.structures.models import Structure

from .models import Event

# Chip amounts end at a trillion, as the structures' blinds do.
STACK_MAX = 10**12


class EventForm(forms.ModelForm):
    template = forms.ModelChoiceField(
        queryset=Structure.objects.filter(is_template=True),
        help_text="The event gets its own copy of the template's levels.",
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "game",
            "betting",
            "ante_type",
            "starting_stack",
            "buy_in",
            "fee",
            "seats_per_table",
            "button_rule",
            "incomplete_raise",
            "pot_limit_preflop",
            "bb_must_cover_sb",
            "late_registration_end_level",
            "reentry_allowed",
            "scheduled_start",
        ]
        widgets = {"scheduled_start": forms.DateTimeInput(attrs={"type": "datetime-local"})}
        labels = {
            "buy_in": "Buy-in (to the prize pool)",
            "fee": "Fee (kept by the house)",
            "bb_must_cover_sb": "House rule: a big blind who cannot cover the small blind is out",
            "late_registration_end_level": "Late registration closes after level",
            "reentry_allowed": "Re-entries allowed",
            "pot_limit_preflop": "Pot-limit preflop",
            "incomplete_raise": "Incomplete all-in raises",
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.order_fields(["name", "template"])
        ante = self.fields["ante_type"]
        ante.required = False
        ante.choices = [
            ("", "The template's ante type"),
            *Event._meta.get_field("ante_type").choices,
        ]
        ante.initial = ""
        self.fields["starting_stack"].required = False
        self.fields["starting_stack"].initial = None
        self.fields["starting_stack"].help_text = "Empty: the template's starting stack."
        # In place of the column's 0..2**63 bounds: a stack of 0 chips is no stack.
        message = _("The starting stack is 1 to %(most)s chips.") % {"most": f"{STACK_MAX:,}"}
        self.fields["starting_stack"].validators = [
            MinValueValidator(1, message=message),
            MaxValueValidator(STACK_MAX, message=message),
        ]
        self.fields["bb_must_cover_sb"].help_text = ""
        self.fields["late_registration_end_level"].help_text = "0: no late registration."

    def clean_seats_per_table(self) -> int:
        seats = self.cleaned_data["seats_per_table"]
        if not 6 <= seats <= 10:
            raise forms.ValidationError("Tables have 6 to 10 seats.")
        return seats

    def clean(self):
        data = super().clean()
        buy_in, fee = data.get("buy_in"), data.get("fee")
        if buy_in is not None and buy_in < 0:
            self.add_error("buy_in", "The buy-in cannot be negative.")
        if fee is not None and fee < 0:
            self.add_error("fee", "The fee cannot be negative.")
        return data

    def event_settings(self) -> dict:
        data = dict(self.cleaned_data)
        data.pop("template")
        data.pop("name")
        return {k: v for k, v in data.items() if v not in (None, "")}


class EventCopyForm(forms.Form):
    """Next week's event from this one: a name, a start, and the tables to use."""

    name = forms.CharField(label=_("Name"), max_length=120)
    scheduled_start = forms.DateTimeField(
        label=_("Scheduled start"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    numbers = forms.CharField(
        label=_("Table numbers"),
        required=False,
        help_text=_("Separated by commas or spaces, ranges allowed: 1-3. Empty: no tables yet."),
    )
    seats = forms.IntegerField(label=_("Seats per table"), min_value=6, max_value=10)

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("The copy needs a name."))
        return name

    def clean_numbers(self) -> list[int]:
        numbers: set[int] = set()
        for part in self.cleaned_data["numbers"].replace(",", " ").split():
            low, sep, high = part.partition("-")
            try:
                first, last = int(low), int(high) if sep else int(low)
            except ValueError:
                raise forms.ValidationError(
                    _("%(part)r is not a table number or a range like 1-3.") % {"part": part}
                ) from None
            if first < 1 or last < first or last - first > 200:
                raise forms.ValidationError(
                    _("%(part)r: give table numbers from 1 up, low to high.") % {"part": part}
                )
            numbers.update(range(first, last + 1))
        return sorted(numbers)
