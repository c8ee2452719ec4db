"""The staff panel's one input: an account and the role it gets on the event."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tdsystem.core.models import EventStaff

from .services import staff_candidates


class AccountChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj) -> str:
        return obj.get_username()


class StaffAddForm(forms.Form):
    """Adding someone already on the staff changes their role."""

    user = AccountChoice(
        queryset=staff_candidates(),
        label=_("Account"),
        empty_label=_("the account…"),
        error_messages={
            "required": _("Pick the account to add."),
            "invalid_choice": _("Pick a director or floor account."),
        },
    )
    role = forms.ChoiceField(
        label=_("Role"),
        choices=EventStaff.Role.choices,
        error_messages={"required": _("Pick director or floor.")},
    )

    def first_error(self) -> str:
        return str(next(iter(self.errors.values()))[0])
