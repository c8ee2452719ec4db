"""The printing pages' forms: each input's type and range said once, here."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from tdsystem.seating.forms import ENTRY_MAX

from .models import NAME_MAX, URL_MAX, Document, EventPrinting, Printer

TABLE_MAX = 10_000
DAY_MAX = 30


class PrinterForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)
    url = forms.CharField(
        label=_("Address"),
        max_length=URL_MAX,
        help_text=_("tcp://192.168.1.50:9100, or a device: file:///dev/usb/lp0"),
    )
    paper = forms.TypedChoiceField(
        label=_("Paper"), choices=Printer.Paper.choices, coerce=int, initial=80
    )
    documents = forms.MultipleChoiceField(
        label=_("Prints"),
        choices=[c for c in Document.choices if c[0] != Document.TEST_PAGE],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("None ticked: every document."),
    )
    desk = forms.CharField(label=_("Desk"), max_length=NAME_MAX, required=False)
    tables_from = forms.IntegerField(
        label=_("Tables from"), min_value=1, max_value=TABLE_MAX, required=False
    )
    tables_to = forms.IntegerField(label=_("to"), min_value=1, max_value=TABLE_MAX, required=False)
    language = forms.ChoiceField(
        label=_("Language"),
        choices=[("", _("The event's")), *list(settings.LANGUAGES)],
        required=False,
    )

    def clean(self):
        data = super().clean()
        low, high = data.get("tables_from"), data.get("tables_to")
        if (low is None) != (high is None):
            raise forms.ValidationError(_("A section of tables needs its first and last table."))
        if low is not None and high is not None and high < low:
            raise forms.ValidationError(_("The last table of the section comes after the first."))
        return data


class EventPrintingForm(forms.ModelForm):
    receipt_copies = forms.TypedChoiceField(
        label=_("Copies of an entry receipt"), choices=[(1, "1"), (2, "2")], coerce=int
    )

    class Meta:
        model = EventPrinting
        fields = [
            "seat_cards",
            "entry_receipts",
            "receipt_copies",
            "move_slips",
            "break_slips",
            "payout_slips",
        ]


class PrintForm(forms.Form):
    """A document printed on demand: an entry's, a table's, a day's or the whole field's."""

    WHAT = [
        (Document.SEAT_CARD, _("Seat card of entry")),
        ("seat-cards", _("Every seat card (one table, or all)")),
        (Document.ENTRY_RECEIPT, _("Entry receipt of entry")),
        (Document.PAYOUT_SLIP, _("Payout slip of entry")),
        (Document.CHIP_VOUCHER, _("Chip vouchers of a day")),
        (Document.REDRAW_RECEIPT, _("Every seat now (redraw receipt)")),
    ]
    document = forms.ChoiceField(label=_("Document"), choices=WHAT)
    entry = forms.IntegerField(label=_("Entry"), min_value=1, max_value=ENTRY_MAX, required=False)
    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=TABLE_MAX, required=False)
    day = forms.IntegerField(label=_("Day"), min_value=1, max_value=DAY_MAX, required=False)
    printer = forms.ModelChoiceField(
        label=_("Printer"),
        queryset=Printer.objects.all(),
        required=False,
        empty_label=_("The one that prints it"),
    )
    copies = forms.TypedChoiceField(
        label=_("Copies"), choices=[(1, "1"), (2, "2")], coerce=int, initial=1
    )
