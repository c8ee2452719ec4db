"""The director's form for a new webhook."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Webhook

URL_MAX = 500  # Webhook.url's max_length


class WebhookForm(forms.Form):
    url = forms.CharField(
        label=_("Address"),
        max_length=URL_MAX,
        help_text=_("Where the events are sent (POST): http:// or https://"),
        widget=forms.URLInput(attrs={"placeholder": "https://sms-gateway.local/tdsystem"}),
    )
    kinds = forms.MultipleChoiceField(
        label=_("Events"),
        choices=Webhook.Kind.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("None ticked: every event."),
    )
