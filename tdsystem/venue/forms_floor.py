"""The floor plan's one input: free tables picked on the plan, and the event they go to."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tdsystem.events.models import Event

from .selectors_floor import OPEN

MAX_TABLE_NUMBER = 99_999


class TableNumbers(forms.Field):
    """The tiles ticked: each a table number from 1 up (checkboxes named `numbers`)."""

    widget = forms.MultipleHiddenInput
    default_error_messages = {
        "required": _("pick the free tables to give"),
        "invalid": _("a table number is a whole number from 1 up"),
    }

    def to_python(self, value) -> list[int]:
        raw = [str(v).strip() for v in (value or [])]
        if any(
            not (v.isascii() and v.isdigit()) or not 0 < int(v) <= MAX_TABLE_NUMBER for v in raw
        ):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return sorted({int(v) for v in raw})


class FloorGiveForm(forms.Form):
    numbers = TableNumbers()
    event = forms.ModelChoiceField(
        queryset=Event.objects.filter(OPEN),
        error_messages={"required": _("pick the event"), "invalid_choice": _("pick the event")},
    )
