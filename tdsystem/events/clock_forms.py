"""The console's clock controls as one form: which action, and the time it needs.

The set-time rule is stated here once for the console. "Time left" is read as:

- `45` or `7.5`: minutes (decimals allowed, rounded to the second);
- `10:30`: minutes and seconds (10 min 30 s; the seconds 00-59);
- `1:05:00`: hours, minutes and seconds.

Anything else is refused with a message: empty, negative, not a number, inf or nan, 0,
and more than 24 hours (the engine's `MAX_LEFT_SECONDS`, which the API meets too).
"""

from __future__ import annotations

import re
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from tdsystem.engine.clock import MAX_LEFT_SECONDS

ACTIONS = ("start", "pause", "resume", "next", "previous", "add_time", "set_time")

_MINUTES = re.compile(r"^(\d{1,6})(?:[.,](\d{1,6}))?$")
_CLOCK = re.compile(r"^(?:(\d{1,3}):)?(\d{1,5}):(\d{1,2})$")


def parse_time_left(text: str) -> int:
    """Seconds for what a director types as the time left, or ValidationError."""
    raw = (text or "").strip()
    if not raw:
        raise forms.ValidationError(_("Type the time left, for example 10:30 or 45."))
    if raw.startswith("-"):
        raise forms.ValidationError(_("The time left cannot be negative."))
    clock = _CLOCK.match(raw)
    minutes = _MINUTES.match(raw)
    if clock:
        hours = int(clock.group(1) or 0)
        mins, secs = int(clock.group(2)), int(clock.group(3))
        if secs > 59 or (clock.group(1) is not None and mins > 59):
            raise forms.ValidationError(
                _("“%(raw)s” is not a time: minutes and seconds go up to 59.") % {"raw": raw}
            )
        seconds = hours * 3600 + mins * 60 + secs
    elif minutes:
        seconds = int((Decimal(raw.replace(",", ".")) * 60).to_integral_value())
    else:
        raise forms.ValidationError(
            _("“%(raw)s” is not a time: type minutes (45), m:ss (10:30) or h:mm:ss (1:05:00).")
            % {"raw": raw[:20]}
        )
    if seconds < 1:
        raise forms.ValidationError(_("The time left must be at least one second."))
    if seconds > MAX_LEFT_SECONDS:
        raise forms.ValidationError(_("The time left may be at most 24 hours."))
    return seconds


class ClockActionForm(forms.Form):
    """A press of a clock button on the console (the console's only way to the clock)."""

    action = forms.ChoiceField(choices=[(a, a) for a in ACTIONS])
    # The +1 / -1 min buttons send seconds; the set-time field sends what was typed.
    seconds = forms.IntegerField(
        required=False, min_value=-MAX_LEFT_SECONDS, max_value=MAX_LEFT_SECONDS
    )
    time_left = forms.CharField(required=False, max_length=40, strip=True)
    # Sent by the confirm dialog's button: start although nobody is seated yet.
    confirm_empty = forms.BooleanField(required=False)

    def clean(self) -> dict:
        data = super().clean()
        action = data.get("action")
        if action == "set_time":
            try:
                data["seconds"] = parse_time_left(data.get("time_left", ""))
            except forms.ValidationError as exc:
                self.add_error("time_left", exc)
        elif action == "add_time":
            if not data.get("seconds") and "seconds" not in self.errors:
                self.add_error("seconds", _("Add or remove at least one second."))
        else:
            data["seconds"] = None
        return data

    def first_error(self) -> str:
        errors = next(iter(self.errors.values()))
        return str(errors[0])
