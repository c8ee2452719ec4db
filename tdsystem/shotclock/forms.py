"""What the table's buttons send: a seat, and for a start the street and what the player
faces. The ranges are said here once; the services keep the rules."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tdsystem.core.forms import WholeNumberField
from tdsystem.core.numbers import SEATS_PER_TABLE

from .models import Facing, Street


class SeatForm(forms.Form):
    seat = WholeNumberField(min_value=1, max_value=SEATS_PER_TABLE.high, label=_("Seat"))


class StartForm(SeatForm):
    street = forms.ChoiceField(label=_("Street"), choices=Street.choices)
    facing = forms.ChoiceField(label=_("The player faces"), choices=Facing.choices)
    # The floor's call (TDA 29, 25 + 5 seconds) rather than the policy's clock.
    floor = forms.BooleanField(label=_("Floor's call"), required=False)
