"""The alternates list's forms: a name to join, the director's settings."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tdsystem.core.forms import WholeNumberField

from .alternates import HOLD_MAX, NAME_MAX, SIZE_MAX


class JoinForm(forms.Form):
    name = forms.CharField(label=_("Your name"), max_length=NAME_MAX)


class SettingsForm(forms.Form):
    is_open = forms.BooleanField(label=_("Open"), required=False)
    size = WholeNumberField(label=_("Players at most"), min_value=1, max_value=SIZE_MAX)
    hold_minutes = WholeNumberField(
        label=_("Minutes to come to the desk"), min_value=1, max_value=HOLD_MAX
    )
