"""Input helpers every app's forms and pages share: strict whole numbers, text people read."""

from __future__ import annotations

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from .templatetags.humanize_td import grouped_lazy
from .text import TextRefused, text_normal


def whole_number(raw: object, *, low: int = 1, high: int) -> int | None:
    """A whole number from `low` to `high` put in a URL's query, or None for anything else.

    Digits 0-9 only: "+3", "3.0", "²" or another script's digits are not what a page
    sends, and a query that is not a number just shows the page without it.
    """
    text = str(raw if raw is not None else "").strip()
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(high)):
        return None
    value = int(text)
    return value if low <= value <= high else None


class WholeNumberField(forms.IntegerField):
    """An IntegerField that takes digits 0-9 only and says its range when it refuses."""

    def __init__(self, *, min_value: int, max_value: int, **kwargs):
        # Lazy: the message is said in the language of the request that sees it.
        rule = format_lazy(
            _("a whole number from {low} to {high}"),
            low=grouped_lazy(min_value),
            high=grouped_lazy(max_value),
        )
        messages = {"invalid": rule, "min_value": rule, "max_value": rule}
        kwargs["error_messages"] = messages | kwargs.get("error_messages", {})
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def to_python(self, value):
        text = str(value if value is not None else "").strip()
        if text and not (text.isascii() and text.isdigit()):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(text)


class TextField(forms.CharField):
    """A CharField for text people read (a name, a label, a note): core.text's rule, the
    API's and the imports' too. `max_length` is checked on the text as it is stored."""

    def __init__(self, *, multiline: bool = False, **kwargs):
        super().__init__(**kwargs)
        self.multiline = multiline

    def to_python(self, value):
        text = super().to_python(value)
        if not text:
            return text
        try:
            return text_normal(text, multiline=self.multiline)
        except TextRefused as exc:
            raise forms.ValidationError(str(exc), code="text") from None


class LoginCodeForm(forms.Form):
    """The name and the one-time code `manage.py login_code` printed for it."""

    username = forms.CharField(label=_("User name"), max_length=150)
    code = forms.CharField(
        label=_("One-time code"),
        max_length=40,
        help_text=_("Printed on the server by: python manage.py login_code YOUR-NAME"),
    )
