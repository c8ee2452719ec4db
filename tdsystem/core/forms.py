"""Input helpers every app's forms and pages share: strict whole numbers (in the ranges of
core.numbers), text people read, and every error of a form said at once."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .numbers import AMOUNT_MAX, TABLE_NUMBER, Span, amount_rule, grouped
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


def quoted(raw: str) -> str:
    """What a person typed, quoted and cut short for a message: “12x”, “99999999999…”."""
    text = " ".join(str(raw).split())
    return f"“{text[:12]}…”" if len(text) > 12 else f"“{text}”"


_NUMBERS = re.compile(r"^([0-9]+)(?:-([0-9]+))?$")


def parse_numbers(text: str, *, limit: int = 500) -> list[int]:
    """Table numbers typed as "1-12, 15 17": [1, ..., 12, 15, 17] in the order given, each
    once; every part that is not a number or a range from low to high within TABLE_NUMBER
    is named in the one ValidationError."""
    numbers: list[int] = []
    bad: list[str] = []
    for part in re.split(r"[,;\s]+", re.sub(r"\s*-\s*", "-", text.strip())):
        if not part:
            continue
        match = _NUMBERS.match(part)
        low, high = (match.group(1), match.group(2) or match.group(1)) if match else ("", "")
        digits = TABLE_NUMBER.digits
        if not match or len(low.lstrip("0")) > digits or len(high.lstrip("0")) > digits:
            bad.append(part)
            continue
        first, last = int(low), int(high)
        if first not in TABLE_NUMBER or last not in TABLE_NUMBER or last < first:
            bad.append(part)
            continue
        numbers.extend(range(first, last + 1))
        if len(numbers) > limit:
            raise forms.ValidationError(
                gettext("at most %(limit)s tables at once") % {"limit": limit}
            )
    if bad:
        raise forms.ValidationError(
            gettext(
                "%(parts)s: give table numbers from %(low)s to %(high)s, or a range from low "
                "to high like 1-12"
            )
            % {
                "parts": ", ".join(quoted(part) for part in bad),
                "low": grouped(TABLE_NUMBER.low),
                "high": grouped(TABLE_NUMBER.high),
            }
        )
    return list(dict.fromkeys(numbers))


class WholeNumberField(forms.IntegerField):
    """An IntegerField that takes digits 0-9 only and says its range when it refuses: a
    range of core.numbers (`span=TABLE_NUMBER`), or `min_value` and `max_value` of the
    form's own (a setting's range)."""

    def __init__(
        self,
        *,
        span: Span | None = None,
        min_value: int | None = None,
        max_value: int | None = None,
        **kwargs,
    ):
        if span is None:
            if min_value is None or max_value is None:
                raise TypeError("WholeNumberField needs a span, or min_value and max_value")
            span = Span(min_value, max_value)
        self.span = span
        # Lazy: the message is said in the language of the request that sees it.
        rule = span.rule()
        messages = {"invalid": rule, "min_value": rule, "max_value": rule}
        kwargs["error_messages"] = messages | kwargs.get("error_messages", {})
        super().__init__(min_value=span.low, max_value=span.high, **kwargs)

    def to_python(self, value):
        text = str(value if value is not None else "").strip()
        if text and not (text.isascii() and text.isdigit()):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        if len(text.lstrip("0")) > self.span.digits:
            # Past the range however it reads: said before int() reads a 4,300-digit number.
            raise forms.ValidationError(self.error_messages["max_value"], code="max_value")
        return super().to_python(text)


class AmountField(forms.DecimalField):
    """An amount of money, 0 to AMOUNT_MAX in cents, said in one message whatever is wrong
    ("1e400", "-5", "12.345"). Separators typed as the reader writes them are not taken:
    "1,500" is refused, not read as 1.5 or 1500."""

    def __init__(self, **kwargs):
        rule = amount_rule()
        names = ("invalid", "min_value", "max_value", "max_digits", "max_decimal_places")
        messages = dict.fromkeys(names, rule) | {"max_whole_digits": rule}
        kwargs["error_messages"] = messages | kwargs.get("error_messages", {})
        kwargs.setdefault("min_value", 0)
        super().__init__(max_value=AMOUNT_MAX, max_digits=12, decimal_places=2, **kwargs)


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


def form_errors(form: forms.Form) -> list[str]:
    """Every error of a form, each once, the field's label first ("Seat: a whole number
    from 1 to 10"), in the order of the fields; the form's own errors last."""
    said: list[str] = []
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        label = field.label if field is not None else None
        for error in errors:
            text = (
                gettext("%(field)s: %(error)s") % {"field": label, "error": error}
                if label
                else str(error)
            )
            if text not in said:
                said.append(text)
    return said


def form_errors_text(form: forms.Form) -> str:
    """form_errors as one message for a page's flash: "Seat: ...; Reason: ..."."""
    return "; ".join(form_errors(form)) or gettext("check the form")
