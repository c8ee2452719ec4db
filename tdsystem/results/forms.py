"""Forms of the bust-out console and the payout plan; chip amounts accept "12,500"."""

from __future__ import annotations

import re
from decimal import Decimal

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tdsystem.core.forms import WholeNumberField, quoted, whole_number
from tdsystem.core.numbers import (
    ENTRY_NUMBER,
    MINUTES_PER_HAND,
    ROW_ID,
    TABLE_NUMBER,
    grouped_lazy,
    money,
)
from tdsystem.engine.payouts import PayoutError, check_custom
from tdsystem.seating.services import HAND_MAX

from .models import CUSTOM, PayoutPlan
from .services import MAX_CHIPS, TABLE_NAMES

TABLE_LABELS = {
    "top-10-percent": _("Standard: top 10% paid"),
    "top-15-percent": _("Standard: top 15% paid"),
    "top-20-percent": _("Standard: top 20% paid"),
    "winner-takes-all": _("Winner takes all"),
    "top-2": _("Top 2 (65 / 35)"),
    "top-3": _("Top 3 (50 / 30 / 20)"),
    "top-4": _("Top 4 (40 / 30 / 20 / 10)"),
    "top-5": _("Top 5 (38 / 25 / 17 / 12 / 8)"),
    CUSTOM: _("Custom percentages"),
}


CHIPS_RULE = format_lazy(_("a whole number of chips, 0 to {max}"), max=grouped_lazy(MAX_CHIPS))


def chips_value(raw: str | None) -> int | None:
    """ "12,500", "12 500" or "12500" -> 12500; "" -> None; anything else -> ValueError.

    0 to MAX_CHIPS, the rule the API's schema states too."""
    text = re.sub(r"[\s,_']", "", raw or "")
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(MAX_CHIPS)):
        raise ValueError(
            _("%(raw)s is not a number of chips: %(rule)s")
            % {"raw": quoted(raw or ""), "rule": CHIPS_RULE}
        )
    return int(text)


class ChipsField(forms.CharField):
    def to_python(self, value):
        try:
            return chips_value(super().to_python(value))
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None


class BustOutForm(forms.Form):
    """The table, the players out (checkboxes "entry"), their stacks ("stack-<id>") and
    who eliminated them (checkboxes "eliminated_by", entry ids; a bounty event needs them).

    Every page that busts a player posts it; `answer` names the page it was sent from (a
    refusal answers with that page's form, and without HTMX the answer goes back there):
    the bust-out console (the default), the seating console's entry panel, or the table
    page.
    Without a table, the service takes the players' own.

    A refused post says every problem at once, each bad stack under its player
    (`stack_errors`), and the page shows the boxes as they were ticked and typed
    (`ticked`, `typed`, `eliminators`, read from the post whatever its errors).
    """

    ANSWERS = ("console", "entry", "table")

    table = WholeNumberField(span=TABLE_NUMBER, required=False, label=_("Table"))
    hand = WholeNumberField(min_value=1, max_value=HAND_MAX, required=False, label=_("Hand"))
    answer = forms.ChoiceField(choices=[(a, a) for a in ANSWERS], required=False)

    def __init__(self, data=None, **kwargs):
        super().__init__(data, **kwargs)
        self.stack_errors: dict[int, str] = {}

    def _ids(self, name: str) -> list[int | None]:
        return [whole_number(v, high=ROW_ID.high) for v in self.data.getlist(name)]

    @property
    def ticked(self) -> list[int]:
        """The players ticked out, as posted (the boxes the page offered)."""
        return [pk for pk in self._ids("entry") if pk is not None]

    @property
    def typed(self) -> dict[int, str]:
        """Each ticked player's stack as typed."""
        return {pk: self.data.get(f"stack-{pk}", "") for pk in self.ticked}

    @property
    def eliminators(self) -> list[int]:
        return [pk for pk in self._ids("eliminated_by") if pk is not None]

    def clean(self):
        data = super().clean()
        entries = self._ids("entry")
        if not entries:
            self.add_error(None, _("Tick the players who are out."))
        elif None in entries:
            self.add_error(None, _("Tick the players who are out (from the list)."))
        stacks = {}
        for entry in self.ticked:
            try:
                value = chips_value(self.data.get(f"stack-{entry}"))
            except ValueError as exc:
                self.stack_errors[entry] = str(exc)
                self.add_error(None, str(exc))
                continue
            if value is not None:
                stacks[entry] = value
        data["entries"], data["stacks"] = self.ticked, stacks
        if None in self._ids("eliminated_by"):
            self.add_error(None, _("Tick who eliminated them (from the list)."))
        data["eliminated_by"] = self.eliminators
        return data


HAND_RULE = format_lazy(
    _("the hand count is a whole number from 0 to {max}"), max=grouped_lazy(HAND_MAX)
)


class HandFinishedForm(forms.Form):
    """ "Hand finished" at a table: the table's hand count the page showed.

    Required, so a retried post or a second tap cannot finish the next hand: the service
    refuses a count that is no longer the table's. At a halted table the service also
    wants `confirm_halted`.
    """

    hand = WholeNumberField(
        min_value=0,
        max_value=HAND_MAX,
        label=_("Hand count"),
        error_messages={
            "required": _("give the hand count the page showed (reload the page)"),
            "invalid": HAND_RULE,
            "min_value": HAND_RULE,
            "max_value": HAND_RULE,
        },
    )
    # Ticked in the confirm step a halted table shows: the floor deals on on purpose.
    confirm_halted = forms.BooleanField(required=False, label=_("Deal on at a halted table"))


class ShortBigBlindForm(forms.Form):
    entry = WholeNumberField(span=ENTRY_NUMBER, label=_("Entry number"))
    chips = ChipsField(label=_("Chips the big blind has"))

    def clean_chips(self):
        if self.cleaned_data["chips"] is None:
            raise forms.ValidationError(_("Give the chips the big blind has (0 if none)."))
        return self.cleaned_data["chips"]


class ChipCountForm(forms.Form):
    entry = WholeNumberField(span=ENTRY_NUMBER, label=_("Entry number"))
    chips = ChipsField(label=_("Chips"))

    def clean_chips(self):
        if not self.cleaned_data["chips"]:
            raise forms.ValidationError(_("Give a chip count above 0."))
        return self.cleaned_data["chips"]


class HandForHandForm(forms.Form):
    minutes = WholeNumberField(
        span=MINUTES_PER_HAND,
        initial=2,
        label=_("Minutes off the clock per hand (at most)"),
    )


class PayoutPlanForm(forms.Form):
    table = forms.ChoiceField(
        choices=[(name, TABLE_LABELS.get(name, name)) for name in TABLE_NAMES],
        label=_("Payout table"),
    )
    percentages = forms.CharField(
        required=False,
        label=_("Custom percentages, best place first"),
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "50, 30, 20"}),
    )
    unit = forms.DecimalField(
        min_value=Decimal("0.01"),
        max_digits=10,
        decimal_places=2,
        required=False,
        label=_("Round prizes to"),
        help_text=_(
            "e.g. 1, 5 or 0.01; the odd amount goes to the best places. Empty: automatic, a "
            "tenth of the buy-in in a round unit."
        ),
    )

    @classmethod
    def for_plan(cls, plan: PayoutPlan) -> PayoutPlanForm:
        return cls(
            initial={
                "table": plan.table,
                "percentages": ", ".join(plan.percentages),
                "unit": None if plan.unit is None else Decimal(plan.unit).normalize(),
            }
        )

    def automatic_shown(self, unit: Decimal) -> None:
        """The automatic unit in the empty box, so the director sees what empty means."""
        self.fields["unit"].widget.attrs["placeholder"] = gettext("automatic: %(unit)s") % {
            "unit": money(unit)
        }

    def clean(self):
        data = super().clean()
        text = data.get("percentages", "")
        parts = [p for p in re.split(r"[\s,;%]+", text) if p]
        data["percentages"] = parts
        if data.get("table") == CUSTOM:
            if not parts:
                self.add_error("percentages", _("Give the percentages of the paid places."))
            else:
                try:
                    check_custom(parts)
                except PayoutError as exc:
                    self.add_error("percentages", f"{str(exc)[:1].upper()}{str(exc)[1:]}.")
        return data
