"""The rebuy and add-on form of the console and the table page: which buy, and for a
rebuy the stack the player has now. The price and the chips are the event's."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tdsystem.core.forms import WholeNumberField
from tdsystem.core.numbers import CHIP_AMOUNT, TABLE_NUMBER

from .models import Purchase

STACK_MAX = CHIP_AMOUNT.high  # as the event form's chip amounts


class BuyForm(forms.Form):
    kind = forms.ChoiceField(
        choices=[(Purchase.Kind.REBUY, _("Rebuy")), (Purchase.Kind.ADDON, _("Add-on"))]
    )
    stack = WholeNumberField(
        min_value=0,
        max_value=STACK_MAX,
        required=False,
        label=_("Chips now"),
        help_text=_(
            "What the player has in front of them (a rebuy needs the event's limit or fewer)."
        ),
    )
    # The table page's number, to go back to it after the buy.
    table = WholeNumberField(span=TABLE_NUMBER, required=False)
    # Sent once the console has shown what the buy changes among the players in the money.
    confirm_changes = forms.BooleanField(required=False)
