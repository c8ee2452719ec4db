"""The ruling page's table settings. The seat and action rows are read by the services."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tdsystem.core.forms import whole_number
from tdsystem.engine import rulesets
from tdsystem.events.models import Event
from tdsystem.events.rules import CHOICE_LABELS
from tdsystem.structures.models import AnteType, Betting

from .services import LATER_STREETS, MAX_SEATS, Problem, TableSettings, parse_chips

NUMERIC = {"inputmode": "numeric", "autocomplete": "off", "class": "chips"}


class ChipsField(forms.CharField):
    """Chips as typed at a table: "1,500" reads as 1500."""

    def __init__(self, *, minimum: int = 0, **kwargs) -> None:
        self.minimum = minimum
        kwargs.setdefault("widget", forms.TextInput(attrs=NUMERIC))
        super().__init__(**kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        try:
            return parse_chips(value, minimum=self.minimum)
        except ValueError as err:
            raise forms.ValidationError(f"{str(err)[:1].upper()}{str(err)[1:]}.") from err


GAMES = (("flop", _("Hold'em, Omaha (blinds)")), ("stud", _("Seven-card stud")))
STREET_LABELS = {
    "fourth": _("Opens 4th street"),
    "fifth": _("Opens 5th street"),
    "sixth": _("Opens 6th street"),
    "seventh": _("Opens 7th street"),
}


def _seat_of(value: object) -> int | None:
    """A seat row's index as the seat selects post it; None when none is chosen."""
    return whole_number(value, low=0, high=MAX_SEATS - 1)


class TableForm(forms.Form):
    """The event (a prefill aid only) and the table settings the engine needs."""

    event = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=_("Event"))
    level = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label=_("Level"))
    game = forms.ChoiceField(choices=GAMES, required=False, label=_("Game"))
    rule_set = forms.ChoiceField(
        choices=[(code, found.name) for code, found in rulesets.RULE_SETS.items()],
        required=False,
        label=_("Rule set"),
    )
    structure = forms.ChoiceField(choices=Betting.choices, label=_("Structure"))
    small_blind = ChipsField(required=False, label=_("Small blind"))
    big_blind = ChipsField(minimum=1, label=_("Big blind"))
    ante = ChipsField(required=False, label=_("Ante"))
    ante_type = forms.ChoiceField(choices=AnteType.choices, label=_("Ante paid by"))
    small_bet = ChipsField(required=False, minimum=1, label=_("Small bet"))
    big_bet = ChipsField(required=False, minimum=1, label=_("Big bet"))
    raise_cap = ChipsField(required=False, label=_("Raise cap"))
    incomplete_raise = forms.ChoiceField(
        choices=Event.IncompleteRaise.choices, label=_("Short all-in raise")
    )
    raise_cap_heads_up = forms.ChoiceField(
        choices=[
            ("", _("As the rule set says")),
            *((code, CHOICE_LABELS[code]) for code in rulesets.CAP_HEADS_UP),
        ],
        required=False,
        label=_("Cap lifted heads-up"),
    )
    pot_limit_preflop = forms.ChoiceField(
        choices=Event.PotLimitPreflop.choices, label=_("Pot limit preflop")
    )
    bb_must_cover_sb = forms.BooleanField(required=False, label=_("BB must cover SB"))
    dead_small_blind = forms.BooleanField(
        required=False,
        label=_("No small blind this hand (dead small blind)"),
        help_text=_(
            "The player due the small blind has left: nobody posts it. The first row after "
            "the button posts the big blind. In pot limit the missing small blind still "
            "counts in the pot."
        ),
    )
    dead_button = forms.BooleanField(
        required=False,
        label=_("The button is on an empty seat (dead button)"),
        help_text=_(
            "Leave the empty seat out: the first row is the small blind (or the big blind "
            "when there is no small blind too). The last row acts last after the flop."
        ),
    )

    # Seven-card stud: the seats are chosen from the rows (select boxes of the template).
    bring_in = ChipsField(required=False, minimum=1, label=_("Bring-in"))
    bring_in_seat = forms.CharField(required=False, label=_("Brings in (lowest card)"))
    bring_in_completes = forms.BooleanField(
        required=False,
        label=_("The bring-in completes to the small bet"),
        help_text=_("The lowest card opens for the full small bet instead of the bring-in."),
    )
    first_fourth = forms.CharField(required=False, label=STREET_LABELS["fourth"])
    first_fifth = forms.CharField(required=False, label=STREET_LABELS["fifth"])
    first_sixth = forms.CharField(required=False, label=STREET_LABELS["sixth"])
    first_seventh = forms.CharField(required=False, label=STREET_LABELS["seventh"])

    SETTINGS = (
        "game",
        "rule_set",
        "bring_in",
        "bring_in_completes",
        "structure",
        "small_blind",
        "big_blind",
        "ante",
        "ante_type",
        "small_bet",
        "big_bet",
        "raise_cap",
        "incomplete_raise",
        "raise_cap_heads_up",
        "pot_limit_preflop",
        "bb_must_cover_sb",
        "dead_small_blind",
        "dead_button",
    )

    def __init__(
        self, *args, events=(), levels=(), rule_set: str = rulesets.DEFAULT, **kwargs
    ) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.default_rule_set = rule_set  # the event's, when the page posts none
        self.fields["event"].choices = [("", _("No event")), *events]
        self.fields["level"].choices = [("", _("Level")), *levels]
        self.fields["raise_cap"].widget.attrs["placeholder"] = _("none")
        for name in ("dead_small_blind", "dead_button"):
            help_id = f"help-{name.replace('_', '-')}"
            self.fields[name].widget.attrs["aria-describedby"] = help_id

    def table_settings(self) -> TableSettings | None:
        """The settings, or None while a setting the engine needs is wrong."""
        if any(name in self.errors for name in self.SETTINGS):
            return None
        data = self.cleaned_data
        values = {name: data.get(name) for name in self.SETTINGS}
        values["small_blind"] = values["small_blind"] or 0
        values["ante"] = values["ante"] or 0
        values["game"] = values["game"] or "flop"
        values["raise_cap_heads_up"] = values["raise_cap_heads_up"] or ""
        values["rule_set"] = values["rule_set"] or self.default_rule_set
        values["bring_in_seat"] = _seat_of(data.get("bring_in_seat"))
        values["first_to_act"] = tuple(_seat_of(data.get(f"first_{s}")) for s in LATER_STREETS)
        return TableSettings(**values)

    def street_fields(self) -> list[forms.BoundField]:
        """The four "who opens the street" selects of stud, in street order."""
        return [self[f"first_{street}"] for street in LATER_STREETS]

    def problems(self) -> tuple[Problem, ...]:
        """The form's own errors, each on its field (a bad event or level only stops the
        prefill, not the ruling)."""
        return tuple(
            Problem(
                _("%(field)s: %(errors)s")
                % {
                    "field": self.fields[name].label or name.capitalize(),
                    "errors": " ".join(errors),
                },
                (f"id_{name}",),
            )
            for name, errors in self.errors.items()
            if name in self.fields
        )

    def mark_invalid(self, ids: set[str]) -> None:
        """Outline the settings the problems name (the engine's as well as the form's)."""
        for name, field in self.fields.items():
            if f"id_{name}" in ids or name in self.errors:
                field.widget.attrs["class"] = f"{field.widget.attrs.get('class', '')} invalid"
