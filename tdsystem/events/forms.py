from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tdsystem.core.forms import AmountField, TextField, WholeNumberField, parse_numbers
from tdsystem.core.moments import MomentField
from tdsystem.core.numbers import CHIP_AMOUNT, RULE_COUNT, SEATS_PER_TABLE, money
from tdsystem.engine import rulesets
from tdsystem.structures.models import Structure

from . import rules as wording
from .models import Event, HouseRuleSet
from .services import (
    BALANCE_THRESHOLD_MAX,
    ENTRY_RULE_COLUMNS,
    REENTRY_NOT_ALLOWED,
    reentry_rules_unused,
)

# Chip amounts end at a trillion, as the structures' blinds do (the API states them too).
STACK_MAX = CHIP_AMOUNT.high


HOUSE_PREFIX = "house:"

# The event's entry rules (engine/entry_rules.py), shown together as "Entry rules"; the one
# list of them is the service's, which changes them on an existing event.
ENTRY_RULE_FIELDS = ENTRY_RULE_COLUMNS
MONEY_FIELDS = ("rebuy_price", "rebuy_fee", "addon_price", "addon_fee")
CHIP_FIELDS = ("rebuy_threshold", "rebuy_chips", "addon_chips")  # 0 chips: only for the threshold
# Levels, breaks and counts per player (the API states them too).
RULE_COUNT_MAX = RULE_COUNT.high
ENTRY_RULE_LABELS = {
    "late_registration_end_level": _("Late registration until the end of level"),
    "reentry_allowed": _("Re-entries allowed"),
    "reentry_max": _("Re-entries per player"),
    "reentry_until_level": _("Re-entries until the end of level"),
    "rebuy_until_level": _("Rebuys until the end of level"),
    "rebuy_threshold": _("A rebuy needs a stack of at most (chips)"),
    "rebuy_price": _("Rebuy price (to the prize pool)"),
    "rebuy_fee": _("Rebuy fee (kept by the house)"),
    "rebuy_chips": _("Chips per rebuy"),
    "rebuy_max": _("Rebuys per player"),
    "addon_break": _("Add-on at break number"),
    "addon_price": _("Add-on price (to the prize pool)"),
    "addon_fee": _("Add-on fee (kept by the house)"),
    "addon_chips": _("Add-on chips"),
}


def rule_set_choices() -> list[tuple[str, str]]:
    """The built-in sets with their one line each, then the room's house sets."""
    choices = [
        (code, f"{rs.name} · {wording.DESCRIPTIONS.get(code, rs.source)}")
        for code, rs in rulesets.RULE_SETS.items()
    ]
    for house in HouseRuleSet.objects.all():
        changed = len(house.overrides)
        line = ngettext("%(count)s setting changed", "%(count)s settings changed", changed) % {
            "count": changed
        }
        choices.append(
            (f"{HOUSE_PREFIX}{house.pk}", f"{wording.set_label(house.base, house)} · {line}")
        )
    return choices


def rule_set_of(value: str) -> tuple[str, HouseRuleSet | None]:
    """The chosen menu value as (built-in code, house set or None); ValidationError when the
    house set is gone."""
    if not value.startswith(HOUSE_PREFIX):
        return value, None
    house = HouseRuleSet.objects.filter(pk=value.removeprefix(HOUSE_PREFIX)).first()
    if house is None:
        raise forms.ValidationError(_("That house set was deleted meanwhile: choose again."))
    return house.base, house


def rule_set_value(event: Event) -> str:
    return f"{HOUSE_PREFIX}{event.house_rules_id}" if event.house_rules_id else event.rule_set


class RuleSetChoiceField(forms.ChoiceField):
    def __init__(self, **kwargs):
        kwargs.setdefault("label", _("Rule set"))
        super().__init__(choices=rule_set_choices, widget=forms.RadioSelect, **kwargs)


class EntryRuleFieldsMixin:
    """Each entry rule's label (ENTRY_RULE_LABELS), help and range, said once for the new
    event form and the entry rules page of an existing event: levels and counts are
    RULE_COUNT, chips CHIP_AMOUNT (0 allowed for the rebuy limit), money AmountField."""

    fields: dict[str, forms.Field]

    def entry_rules_setup(self) -> None:
        self.fields["late_registration_end_level"].help_text = _(
            "0: no late registration (entries until the clock starts)."
        )
        for name in ENTRY_RULE_FIELDS:
            field = self.fields[name]
            common = {
                "label": field.label,
                "help_text": field.help_text,
                "required": field.required,
                "initial": field.initial,
            }
            if name in MONEY_FIELDS:
                self.fields[name] = AmountField(**common)
            elif name in CHIP_FIELDS:
                low = 0 if name == "rebuy_threshold" else CHIP_AMOUNT.low
                self.fields[name] = WholeNumberField(
                    min_value=low, max_value=CHIP_AMOUNT.high, **common
                )
            elif name != "reentry_allowed":
                self.fields[name] = WholeNumberField(span=RULE_COUNT, **common)

    def entry_rule_fields(self) -> list:
        return [self[name] for name in ENTRY_RULE_FIELDS]  # type: ignore[index]

    def entry_rules_clean(self, data: dict) -> None:
        """A re-entry rule set while re-entries are not allowed: said under the rule, so
        the director ticks "Re-entries allowed" or leaves it at 0."""
        for name in reentry_rules_unused(data):
            self.add_error(name, REENTRY_NOT_ALLOWED)  # type: ignore[attr-defined]


class EventForm(EntryRuleFieldsMixin, forms.ModelForm):
    name = TextField(label=_("Name"), max_length=120)
    rules = RuleSetChoiceField(
        initial=rulesets.DEFAULT,
        required=False,  # not chosen: the default set
        help_text=_("What the floor follows; the rules page of the event changes any setting."),
    )
    template = forms.ModelChoiceField(
        queryset=Structure.objects.filter(is_template=True),
        label=_("Template"),
        help_text=_("The event gets its own copy of the template's levels."),
    )
    scheduled_start = MomentField(label=_("Scheduled start"), required=False)
    # Blank: each screen follows its browser's language; a screen's ?lang= still wins.
    screen_language = forms.ChoiceField(
        label=_("Screen language"),
        required=False,
        choices=[("", _("Follow each screen's browser")), *settings.LANGUAGES],
        help_text=_("The language of the event's public screens unless a screen asks for another."),
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "game",
            "betting",
            "ante_type",
            "starting_stack",
            "buy_in",
            "fee",
            "bounty_type",
            "bounty_amount",
            "seats_per_table",
            "button_rule",
            "incomplete_raise",
            "pot_limit_preflop",
            "bb_must_cover_sb",
            "scheduled_start",
            "screen_language",
            "satellite_target",
            *ENTRY_RULE_FIELDS,
        ]
        labels = {
            "name": _("Name"),
            "game": _("Game"),
            "betting": _("Betting"),
            "ante_type": _("Ante type"),
            "starting_stack": _("Starting stack"),
            "buy_in": _("Buy-in (to the prize pool)"),
            "fee": _("Fee (kept by the house)"),
            "bounty_type": _("Bounties"),
            "bounty_amount": _("Bounty per entry (part of the buy-in)"),
            "seats_per_table": _("Seats per table"),
            "button_rule": _("Button rule"),
            "bb_must_cover_sb": _(
                "House rule: a big blind who cannot cover the small blind is out"
            ),
            "satellite_target": _("Satellite for"),
            **ENTRY_RULE_LABELS,
            "pot_limit_preflop": _("Pot-limit preflop"),
            "incomplete_raise": _("Incomplete all-in raises"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.order_fields(["name", "template", "rules"])
        ante = self.fields["ante_type"]
        ante.required = False
        ante.choices = [
            ("", _("The template's ante type")),
            *Event._meta.get_field("ante_type").choices,
        ]
        ante.initial = ""
        # In place of the columns' bounds (0..2**63, 32,767): the ranges people are told.
        self.fields["starting_stack"] = WholeNumberField(
            span=CHIP_AMOUNT,
            required=False,
            label=self.fields["starting_stack"].label,
            help_text=_("Empty: the template's starting stack."),
        )
        self.fields["seats_per_table"] = WholeNumberField(
            span=SEATS_PER_TABLE,
            label=self.fields["seats_per_table"].label,
            initial=self.fields["seats_per_table"].initial,
        )
        for name in ("buy_in", "fee", "bounty_amount"):
            old = self.fields[name]
            self.fields[name] = AmountField(
                label=old.label, help_text=old.help_text, required=old.required, initial=old.initial
            )
        self.fields["bb_must_cover_sb"].help_text = ""
        target = self.fields["satellite_target"]
        target.queryset = Event.objects.filter(archived_at__isnull=True).exclude(
            status=Event.Status.FINISHED
        )
        target.empty_label = _("Not a satellite")
        target.help_text = _("Its prizes are seats in this event, each worth its buy-in and fee.")
        self.fields["bounty_amount"].help_text = _(
            "Of each entry's buy-in, its bounty; the rest goes to the prize pool of the places."
        )
        # Left out (a script's post, an older page): no bounties.
        self.fields["bounty_type"].required = False
        self.fields["bounty_amount"].required = False
        self.entry_rules_setup()
        # Left out (a script's post, an older page): the column's default, no rebuys.
        for name in ENTRY_RULE_FIELDS:
            self.fields[name].required = False

    def main_fields(self) -> list:
        return [field for field in self if field.name not in ENTRY_RULE_FIELDS]

    def clean(self):
        super().clean()
        data = self.cleaned_data
        self.entry_rules_clean(data)
        self._clean_bounty(data)
        target = data.get("satellite_target")
        if target is not None and target.buy_in + target.fee <= 0:
            self.add_error(
                "satellite_target", _("A seat in %(name)s costs nothing.") % {"name": target}
            )
        return data

    def _clean_bounty(self, data: dict) -> None:
        """A bounty event needs a bounty within the buy-in (it is taken out of it); an
        event without bounties (also when the fields are left out) keeps none."""
        if "bounty_type" in self.errors or "bounty_amount" in self.errors:
            return
        kind = data["bounty_type"] = data.get("bounty_type") or Event.BountyType.NONE
        amount, buy_in = data.get("bounty_amount"), data.get("buy_in")
        if kind == Event.BountyType.NONE:
            data["bounty_amount"] = 0
        elif amount is None or amount <= 0:
            self.add_error("bounty_amount", _("A bounty event needs a bounty above 0."))
        elif buy_in is not None and amount > buy_in:
            self.add_error(
                "bounty_amount",
                _("The bounty is part of the buy-in: at most %(buy_in)s.")
                % {"buy_in": money(buy_in)},
            )

    def clean_rules(self) -> tuple[str, HouseRuleSet | None]:
        return rule_set_of(self.cleaned_data["rules"] or rulesets.DEFAULT)

    def event_settings(self) -> dict:
        data = dict(self.cleaned_data)
        data.pop("template")
        data.pop("name")
        data["rule_set"], data["house_rules"] = data.pop("rules")
        return {k: v for k, v in data.items() if v not in (None, "")}


class EntryRulesForm(EntryRuleFieldsMixin, forms.ModelForm):
    """An existing event's entry rules alone (the page of a planned or running event).
    The fields keep the column's need: a level or a count is required (0 has its meaning),
    empty chips are the starting stack."""

    class Meta:
        model = Event
        fields = list(ENTRY_RULE_FIELDS)
        labels = ENTRY_RULE_LABELS

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.entry_rules_setup()

    def clean(self):
        data = super().clean()
        self.entry_rules_clean(data)
        return data

    def changes(self) -> dict:
        """Every entry rule as posted; the service keeps those that differ."""
        return {name: self.cleaned_data[name] for name in ENTRY_RULE_FIELDS}

    def groups(self) -> list[tuple[str, list]]:
        """The rules under their headings: entries and re-entries, rebuys, the add-on."""
        heads = {
            "late": _("Late registration and re-entries"),
            "reentry": _("Late registration and re-entries"),
            "rebuy": _("Rebuys"),
            "addon": _("Add-on"),
        }
        groups: dict[str, list] = {}
        for name in ENTRY_RULE_FIELDS:
            groups.setdefault(str(heads[name.split("_")[0]]), []).append(self[name])
        return list(groups.items())


class EventCopyForm(forms.Form):
    """Next week's event from this one: a name, a start, and the tables to use."""

    name = TextField(label=_("Name"), max_length=120)
    scheduled_start = MomentField(label=_("Scheduled start"), required=False)
    numbers = forms.CharField(
        label=_("Table numbers"),
        required=False,
        help_text=_("Separated by commas or spaces, ranges allowed: 1-3. Empty: no tables yet."),
    )
    seats = WholeNumberField(span=SEATS_PER_TABLE, label=_("Seats per table"))

    def clean_numbers(self) -> list[int]:
        return sorted(parse_numbers(self.cleaned_data["numbers"]))


class SettingsForm(forms.Form):
    """Every setting of a rule set (rulesets.SETTING_NAMES, entered by its type), each with
    the set's value beside it. What the director leaves as shown is not an override; the
    engine checks the rest and its message (RuleSetError) goes under the field it names."""

    def add_settings(
        self, current: rulesets.Settings, base: rulesets.Settings, cited: rulesets.RuleSet
    ) -> None:
        self.current, self.base, self.cited = current, base, cited
        for name in rulesets.SETTING_NAMES:
            self.fields[name] = self._field(name, getattr(current, name))
        self.set_values = {
            name: wording.value_text(name, getattr(base, name)) for name in rulesets.SETTING_NAMES
        }

    @staticmethod
    def _field(name: str, value) -> forms.Field:
        label = wording.label(name)
        match wording.kind(name):
            case "bool":
                return forms.BooleanField(label=label, required=False, initial=value)
            case "int":
                low, high = rulesets.RANGES.get(name, (0, 10_000))
                return WholeNumberField(
                    min_value=low,
                    max_value=high,
                    label=label,
                    initial=value,
                    widget=forms.NumberInput(attrs={"min": low, "max": high}),
                )
            case "redraws":
                return forms.CharField(
                    label=label,
                    required=False,
                    initial=wording.redraws_text(value),
                    max_length=200,
                    help_text=_("Entries: table counts, e.g. 100: 3 2 1; 50: 2 1. Empty: none."),
                )
            case "numbers":
                return forms.CharField(
                    label=label,
                    required=False,
                    initial=" ".join(map(str, value)),
                    max_length=60,
                    help_text=_("Whole numbers separated by spaces, e.g. 15 20 30 30."),
                )
        options = rulesets.CHOICES.get(name, (value,))
        return forms.ChoiceField(
            label=label,
            initial=value,
            choices=[(v, wording.CHOICE_LABELS.get(v, v)) for v in options],
        )

    def setting_fields(self) -> list[dict]:
        """Each setting's field with the set's value and the rule it follows, in the
        engine's order."""
        return [
            {
                "field": self[name],
                "set_value": self.set_values[name],
                "rule": self.cited.cite(wording.CONCEPT_OF[name])
                if name in wording.CONCEPT_OF
                else "",
            }
            for name in rulesets.SETTING_NAMES
        ]

    def _posted(self, name: str):
        """A setting's posted value as the engine's overrides read it; ValueError when the
        redraws do not read (a number's range is its field's)."""
        raw = self.cleaned_data.get(name)
        if wording.kind(name) == "redraws":
            return wording.redraws_parse(raw or "")
        if wording.kind(name) == "numbers":
            return wording.numbers_parse(raw or "")
        return raw

    def _shown(self, name: str):
        value = getattr(self.current, name)
        if name == "redraws":
            return wording.redraws_parse(wording.redraws_text(value))
        if name in rulesets.LISTS:
            return list(value)
        return value

    def wanted(self, kept: dict, code: str, *layers: dict | None) -> dict | None:
        """`kept` (the overrides so far) with every setting the director changed; None, with
        the errors on the form, when a value does not read or the engine refuses it."""
        wanted = dict(kept)
        for name in rulesets.SETTING_NAMES:
            if name not in self.cleaned_data:
                continue
            try:
                value = self._posted(name)
            except ValueError as exc:
                if wording.kind(name) == "numbers":
                    message = _("“%(part)s” is not a whole number") % {"part": str(exc)[:40]}
                else:
                    message = _("“%(part)s” is not a list of redraws like 100: 3 2 1; 50: 2 1") % {
                        "part": str(exc)[:40]
                    }
                self.add_error(name, message)
                continue
            if value != self._shown(name):
                wanted[name] = value
        if self.errors:
            return None
        try:
            rulesets.effective(code, *layers, wanted)
        except rulesets.RuleSetError as exc:
            name = str(exc).partition(":")[0]
            self.add_error(name if name in self.fields else None, wording.refusal(exc))
            return None
        return wanted


class EventRulesForm(SettingsForm):
    """The rules of one event: its set (built-in or house), its settings, and the balance
    tolerance."""

    rules = RuleSetChoiceField(
        help_text=_("Changing the set: the settings you leave as they are take the new set's."),
    )
    balance_threshold = WholeNumberField(
        label=_("A table is short when it has more than this many players fewer than the largest"),
        min_value=1,
        max_value=BALANCE_THRESHOLD_MAX,
    )

    def __init__(self, data=None, *, event: Event):
        super().__init__(data)
        self.event = event
        self.fields["rules"].initial = rule_set_value(event)
        self.fields["balance_threshold"].initial = event.balance_threshold
        self.add_settings(event.rules, event.base_rules, event.rule_set_info)

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if data.get("rules") is None:
            return data
        try:
            code, house = rule_set_of(data["rules"])
        except forms.ValidationError as exc:
            self.add_error("rules", exc)
            return data
        # Left as shown, a setting keeps the event's own override or takes the new set's.
        wanted = self.wanted(self.event.rule_overrides, code, house.overrides if house else None)
        if wanted is not None:
            data["rule_set"], data["house"], data["settings"] = code, house, wanted
        return data


class HouseRuleSetNewForm(forms.Form):
    name = TextField(label=_("Name"), max_length=120)
    source = forms.ChoiceField(label=_("Copy of"), choices=rule_set_choices)

    def clean_source(self) -> tuple[str, HouseRuleSet | None]:
        return rule_set_of(self.cleaned_data["source"])


class HouseRuleSetForm(SettingsForm):
    """A house set's name and settings, beside its base set's values."""

    name = TextField(label=_("Name"), max_length=120)

    def __init__(self, data=None, *, house: HouseRuleSet):
        super().__init__(data)
        self.house = house
        self.fields["name"].initial = house.name
        self.add_settings(house.rules, house.base_set.settings, house.base_set)

    def clean(self):
        super().clean()
        data = self.cleaned_data
        wanted = self.wanted(self.house.overrides, self.house.base)
        if wanted is not None:
            data["settings"] = wanted
        return data
