"""The event import's one input: the file an export wrote."""

from __future__ import annotations

from django import forms
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _

# A festival of thousands of players with its whole log is tens of megabytes.
MAX_FILE_BYTES = 200 * 1024 * 1024


class EventImportForm(forms.Form):
    file = forms.FileField(
        label=_("Event file (JSON)"),
        help_text=_("A file written by Export on an event's page, or by manage.py event_export."),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
        error_messages={"required": _("choose the event's file"), "empty": _("the file is empty")},
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(
                _("the file is larger than %(max)s: it is not an event's file")
                % {"max": filesizeformat(MAX_FILE_BYTES)}
            )
        return upload
