"""Forms of the structures console: the structure generator's inputs, each range said once."""

from __future__ import annotations

import datetime
import itertools
import re
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from tdsystem.core.forms import TextField, WholeNumberField
from tdsystem.core.numbers import CHIP_AMOUNT, grouped

from .services import NAME_MAX

CHIPS_MAX = 12  # denominations in one chip set
CHIP_MAX = 10**9
ENTRIES_MAX = 100_000

ANTE_CHOICES = [
    ("none", _("No ante")),
    ("each", _("Every player")),
    ("big-blind", _("Big blind ante (the big blind's worth)")),
    ("button", _("Button ante (the big blind's worth)")),
]


def parse_chips(text: str) -> list[int]:
    """Read "25 100 500 1000" (spaces, commas or semicolons between) as whole numbers,
    smallest first, each a multiple of the one below so a colour-up never strands a value."""
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    if not parts:
        raise forms.ValidationError(_("give the chip values, e.g. 25 100 500 1000 5000"))
    if len(parts) > CHIPS_MAX:
        raise forms.ValidationError(_("at most %(n)s chip values") % {"n": CHIPS_MAX})
    chips: set[int] = set()
    for part in parts:
        if not (part.isascii() and part.isdigit()) or not 1 <= int(part) <= CHIP_MAX:
            raise forms.ValidationError(
                _("“%(part)s” is not a chip value (a whole number from 1 to %(max)s)")
                % {"part": part[:20], "max": grouped(CHIP_MAX)}
            )
        chips.add(int(part))
    chain = sorted(chips)
    for small, big in itertools.pairwise(chain):
        if big % small:
            raise forms.ValidationError(
                _("the %(big)s chip is not a multiple of the %(small)s chip: colour-ups need it")
                % {"big": grouped(big), "small": grouped(small)}
            )
    return chain


class ChipsField(forms.CharField):
    def clean(self, value):
        return parse_chips(super().clean(value) or "")


class GeneratorForm(forms.Form):
    """The generator's inputs. A target length in hours, or a start and a finishing time."""

    starting_stack = WholeNumberField(span=CHIP_AMOUNT, label=_("Starting stack"))
    entries = WholeNumberField(min_value=2, max_value=ENTRIES_MAX, label=_("Expected entries"))
    target_hours = forms.DecimalField(
        required=False,
        min_value=Decimal("0.5"),
        max_value=48,
        decimal_places=2,
        label=_("Target length (hours)"),
    )
    start_time = forms.TimeField(required=False, label=_("Start time"))
    finish_time = forms.TimeField(required=False, label=_("Finishing time"))
    level_minutes = WholeNumberField(min_value=1, max_value=240, label=_("Level length (minutes)"))
    ante_type = forms.ChoiceField(choices=ANTE_CHOICES, label=_("Ante"))
    # The chip values on the tables (25, 100, 500...), not the chips in play (a total).
    chips = ChipsField(max_length=200, label=_("Chip values"))
    break_every = WholeNumberField(
        min_value=0, max_value=50, initial=4, label=_("A break every (levels, 0 for none)")
    )
    break_minutes = WholeNumberField(
        min_value=1, max_value=120, initial=15, label=_("Break length (minutes)")
    )
    start_big_blinds = WholeNumberField(
        min_value=10, max_value=1000, initial=100, label=_("Starting stack in big blinds")
    )
    name = TextField(max_length=NAME_MAX, required=False, label=_("Name"))

    def clean(self):
        super().clean()
        data = self.cleaned_data
        hours, start, finish = (data.get(k) for k in ("target_hours", "start_time", "finish_time"))
        if hours is not None:
            data["target_minutes"] = int(hours * 60)
        elif start is not None and finish is not None:
            day = datetime.date(2000, 1, 1)
            length = datetime.datetime.combine(day, finish) - datetime.datetime.combine(day, start)
            if length <= datetime.timedelta(0):
                length += datetime.timedelta(days=1)  # finishes after midnight
            data["target_minutes"] = int(length.total_seconds() // 60)
        elif not self.has_error("target_hours"):
            raise forms.ValidationError(
                _("give a target length in hours, or a start time and a finishing time")
            )
        stack, chips = data.get("starting_stack"), data.get("chips")
        if stack and chips and stack % chips[0]:
            self.add_error(
                "starting_stack",
                _("%(stack)s is not a multiple of the smallest chip, %(chip)s")
                % {"stack": grouped(stack), "chip": grouped(chips[0])},
            )
        if data.get("target_minutes", 1) < (data.get("level_minutes") or 1):
            self.add_error("level_minutes", _("a level is longer than the whole tournament"))
        return data
