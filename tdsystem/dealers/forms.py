"""The dealers' forms: each states its inputs' types and ranges once."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tdsystem.core.forms import WholeNumberField

from .services import NAME_MAX


class DealerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)
    games = forms.CharField(
        label=_("Games"), max_length=NAME_MAX, required=False, help_text=_("e.g. NLH, PLO")
    )


class RotationForm(forms.Form):
    down_minutes = WholeNumberField(label=_("Down (minutes)"), min_value=5, max_value=120)
    break_every = WholeNumberField(label=_("A break every (downs)"), min_value=1, max_value=20)
    break_minutes = WholeNumberField(label=_("Break (minutes)"), min_value=5, max_value=120)
    automatic = forms.BooleanField(label=_("Push on schedule"), required=False)
    keep_final_table = forms.BooleanField(
        label=_("The final table keeps its dealer"), required=False
    )


class ClockInForm(forms.Form):
    """The dealer's phone: the event to clock in to."""

    event = forms.IntegerField(min_value=1)
