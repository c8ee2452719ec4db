"""Events and their level clock. Their log is core's LogEntry."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from tdsystem.engine import rulesets
from tdsystem.engine.entry_rules import EntryRules
from tdsystem.structures.models import AnteType, Betting, Structure

RULE_SET_CHOICES = [(code, rs.name) for code, rs in rulesets.RULE_SETS.items()]


class HouseRuleSet(models.Model):
    """A room's own rules: a built-in set with some settings changed ("Casino Lyon house
    rules, based on TDA 2024"). The base never changes, so the citations an event reads
    stay its base set's; an event using the set cannot delete it."""

    name = models.CharField(max_length=120)
    base = models.CharField(max_length=16, choices=RULE_SET_CHOICES)
    overrides = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(Lower("name"), name="house_rule_set_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def base_set(self) -> rulesets.RuleSet:
        return rulesets.rule_set(self.base)

    @property
    def rules(self) -> rulesets.Settings:
        return rulesets.effective(self.base, self.overrides)


class Event(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        RUNNING = "running", _("Running")
        PAUSED = "paused", _("Paused")
        FINISHED = "finished", _("Finished")

    class Game(models.TextChoices):
        HOLDEM = "holdem", _("Texas Hold'em")
        OMAHA = "omaha", _("Omaha")
        OMAHA_HILO = "omaha-hilo", _("Omaha Hi-Lo")
        SHORT_DECK = "short-deck", _("Short Deck")
        STUD = "stud", _("Seven-card stud")
        # Rotating games: the ruling page lets the floor pick the blind games or stud.
        MIXED = "mixed", _("Mixed games")

    class IncompleteRaise(models.TextChoices):
        FULL_BET = "full-bet", _("Full-bet rule")
        HALF_BET = "half-bet", _("Half-bet rule (limit)")

    class PotLimitPreflop(models.TextChoices):
        TRUE_POT = "true-pot", _("True pot")
        ASSUMED_CALL = "assumed-call", _("Assumed call")

    class ButtonRule(models.TextChoices):
        DEAD = "dead", _("Dead button")
        MOVING = "moving", _("Moving button")

    class BountyType(models.TextChoices):
        NONE = "none", _("No bounties")
        KNOCKOUT = "knockout", _("Knockout (a fixed bounty)")
        PROGRESSIVE = "progressive", _("Progressive knockout (half paid, half on the head)")

    class BagRule(models.TextChoices):
        LARGER = "larger", _("The larger stack")
        FIRST = "first", _("The stack of the first flight bagged")

    name = models.CharField(max_length=120)
    # Festivals (docs/festivals.md). A flight (Day 1A, 1B, ...) is an event of its own, with
    # its own clock, tables and late registration, that feeds the event it is a flight of;
    # that event plays Day 2 and on with the flights' survivors. `day` counts the event's
    # days of play (a flight is day 1; each end of day moves it on).
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="flights"
    )
    flight = models.CharField(max_length=8, blank=True, help_text=_("The flight's name, e.g. 1A."))
    day = models.PositiveSmallIntegerField(default=1)
    bag_rule = models.CharField(
        max_length=8,
        choices=BagRule.choices,
        default=BagRule.LARGER,
        help_text=_("The stack kept by a player who bags in two flights."),
    )
    # A satellite awards seats (tickets) in its target instead of most of its prize money.
    satellite_target = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="satellites"
    )
    game = models.CharField(max_length=16, choices=Game.choices, default=Game.HOLDEM)
    betting = models.CharField(max_length=16, choices=Betting.choices, default=Betting.NO_LIMIT)
    ante_type = models.CharField(max_length=24, choices=AnteType.choices, default=AnteType.EACH)
    structure = models.OneToOneField(Structure, on_delete=models.PROTECT, related_name="event")
    starting_stack = models.PositiveBigIntegerField(default=10_000)
    buy_in = models.DecimalField(max_digits=12, decimal_places=2, default=0)
    fee = models.DecimalField(max_digits=12, decimal_places=2, default=0)
    # The bounty is part of the buy-in: of each entry's buy-in, `bounty_amount` is its head
    # and the rest goes to the prize pool of the places.
    bounty_type = models.CharField(
        max_length=12, choices=BountyType.choices, default=BountyType.NONE
    )
    bounty_amount = models.DecimalField(max_digits=12, decimal_places=2, default=0)
    seats_per_table = models.PositiveSmallIntegerField(default=9)
    incomplete_raise = models.CharField(
        max_length=12, choices=IncompleteRaise.choices, default=IncompleteRaise.FULL_BET
    )
    pot_limit_preflop = models.CharField(
        max_length=16, choices=PotLimitPreflop.choices, default=PotLimitPreflop.TRUE_POT
    )
    bb_must_cover_sb = models.BooleanField(
        default=False,
        help_text=_("House rule: a big blind who cannot cover the small blind is out."),
    )
    button_rule = models.CharField(
        max_length=8, choices=ButtonRule.choices, default=ButtonRule.DEAD
    )
    balance_threshold = models.PositiveSmallIntegerField(
        default=1, help_text=_("A table is short when it has more than this many players fewer.")
    )
    # The rule set the event follows (engine/rulesets.py), chosen at creation, and the
    # settings where the room differs from it ({setting: value}, checked by the engine).
    rule_set = models.CharField(max_length=16, choices=RULE_SET_CHOICES, default=rulesets.DEFAULT)
    # A house set, when the room follows its own (rule_set is then the house set's base).
    house_rules = models.ForeignKey(
        HouseRuleSet, null=True, blank=True, on_delete=models.PROTECT, related_name="events"
    )
    rule_overrides = models.JSONField(default=dict, blank=True)
    late_registration_end_level = models.PositiveSmallIntegerField(default=0)
    reentry_allowed = models.BooleanField(default=False)
    # Entry rules (engine/entry_rules.py). "Until level N": until level N ends; 0 has the
    # meaning given in each help text; a limit of 0 is no limit.
    reentry_max = models.PositiveSmallIntegerField(
        default=0, help_text=_("Re-entries per player; 0: no limit.")
    )
    reentry_until_level = models.PositiveSmallIntegerField(
        default=0,
        help_text=_("Re-entries until this level ends; 0: while late registration is open."),
    )
    rebuy_until_level = models.PositiveSmallIntegerField(
        default=0, help_text=_("Rebuys until this level ends; 0: no rebuys.")
    )
    rebuy_threshold = models.PositiveBigIntegerField(
        null=True,
        blank=True,
        help_text=_("A rebuy needs this many chips or fewer; empty: the starting stack."),
    )
    rebuy_price = models.DecimalField(max_digits=12, decimal_places=2, default=0)
    rebuy_fee = models.DecimalField(max_digits=12, decimal_places=2, default=0)
    rebuy_chips = models.PositiveBigIntegerField(
        null=True, blank=True, help_text=_("Chips a rebuy brings; empty: the starting stack.")
    )
    rebuy_max = models.PositiveSmallIntegerField(
        default=0, help_text=_("Rebuys per player; 0: no limit.")
    )
    addon_break = models.PositiveSmallIntegerField(
        default=0, help_text=_("The add-on is taken at this break (1: the first); 0: no add-on.")
    )
    addon_price = models.DecimalField(max_digits=12, decimal_places=2, default=0)
    addon_fee = models.DecimalField(max_digits=12, decimal_places=2, default=0)
    addon_chips = models.PositiveBigIntegerField(
        null=True, blank=True, help_text=_("Chips the add-on brings; empty: the starting stack.")
    )
    # The language of the event's public screens (clock, schedule, seats, poster, draw,
    # chips) when the reader has not chosen one (?lang=, the switcher): blank follows the
    # browser's own language.
    screen_language = models.CharField(
        max_length=8,
        blank=True,
        choices=settings.LANGUAGES,
        help_text=_("The screens' language unless a screen asks for another (?lang=)."),
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNED)
    scheduled_start = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Archiving only files a finished event away from the console list: `status` stays
    # the clock's, and the public pages keep working.
    archived_at = models.DateTimeField(null=True, blank=True)
    # A rehearsal played by `manage.py simulate_event`: never the room's current event, so
    # a simulation on the production database leaves the screens on the real one.
    simulated = models.BooleanField(
        default=False, help_text=_("Played by simulate_event: never shown on the room's screens.")
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seats_per_table__gte=2) & Q(seats_per_table__lte=10),
                name="event_seats_per_table_range",
            ),
            models.CheckConstraint(
                condition=Q(starting_stack__gt=0), name="event_starting_stack_gt_0"
            ),
            models.CheckConstraint(
                condition=Q(bounty_amount__gte=0) & Q(bounty_amount__lte=F("buy_in")),
                name="event_bounty_within_buy_in",
            ),
            models.CheckConstraint(
                condition=Q(rebuy_price__gte=0) & Q(rebuy_fee__gte=0),
                name="event_rebuy_money_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(addon_price__gte=0) & Q(addon_fee__gte=0),
                name="event_addon_money_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(rebuy_chips__isnull=True) | Q(rebuy_chips__gt=0),
                name="event_rebuy_chips_gt_0",
            ),
            models.CheckConstraint(
                condition=Q(addon_chips__isnull=True) | Q(addon_chips__gt=0),
                name="event_addon_chips_gt_0",
            ),
            models.CheckConstraint(
                condition=Q(parent__isnull=True, flight="")
                | Q(parent__isnull=False) & ~Q(flight=""),
                name="event_flight_named",
            ),
            models.UniqueConstraint(
                fields=["parent", "flight"],
                condition=Q(parent__isnull=False),
                name="event_flight_unique",
            ),
            models.CheckConstraint(condition=Q(day__gte=1), name="event_day_gte_1"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_archived(self) -> bool:
        return self.archived_at is not None

    @property
    def is_flight(self) -> bool:
        return self.parent_id is not None

    @property
    def plays_over_days(self) -> bool:
        """Whether the event may end a day and play on another: a festival's flight or
        the event its flights feed, a day after the first, or a rule set with an
        end-of-day rule (WSOP R125). A one-night event under TDA rules is none of these:
        its console offers no end of day up front."""
        return (
            self.is_flight
            or self.day > 1
            or "end_of_day" in rulesets.rule_set(self.rule_set).citations
            or self.flights.exists()
        )

    @property
    def is_satellite(self) -> bool:
        return self.satellite_target_id is not None

    @property
    def has_bounties(self) -> bool:
        return self.bounty_type != self.BountyType.NONE

    @property
    def entry_rules(self) -> EntryRules:
        """The event's entry rules as the engine reads them."""
        threshold = self.rebuy_threshold
        return EntryRules(
            late_registration_end_level=self.late_registration_end_level,
            reentry_allowed=self.reentry_allowed,
            reentry_max=self.reentry_max,
            reentry_until_level=self.reentry_until_level,
            rebuy_until_level=self.rebuy_until_level,
            rebuy_threshold=self.starting_stack if threshold is None else threshold,
            rebuy_max=self.rebuy_max,
            addon_break=self.addon_break,
        )

    @property
    def base_rules(self) -> rulesets.Settings:
        """What the event's set decides before the event's own overrides: the built-in
        set's settings, or the house set's."""
        house = self.house_rules
        return rulesets.effective(self.rule_set, house.overrides if house else None)

    @property
    def rules(self) -> rulesets.Settings:
        """What the event follows: its set, the house set's overrides, then its own."""
        house = self.house_rules
        return rulesets.effective(
            self.rule_set, house.overrides if house else None, self.rule_overrides
        )

    @property
    def rule_set_info(self) -> rulesets.RuleSet:
        """The built-in set the event follows, or the house set's base."""
        return rulesets.rule_set(self.rule_set)

    def cite(self, concept: str) -> str:
        """The rule the event's set cites for `concept` ("TDA 11-D", "WSOP R67"); a house
        set cites its base set's numbers."""
        return rulesets.rule_set(self.rule_set).cite(concept)


class Clock(models.Model):
    """The level clock's truth: stored timestamps, never a running counter.

    While running, `ends_at` is when the current level ends; while paused or not started,
    `remaining_ms` is what is left of it. `version` increases with every change, so every
    transition is a compare-and-set and a late or duplicate task changes nothing.
    """

    class Status(models.TextChoices):
        NOT_STARTED = "not-started", _("Not started")
        RUNNING = "running", _("Running")
        PAUSED = "paused", _("Paused")
        FINISHED = "finished", _("Finished")

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, primary_key=True, related_name="clock"
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.NOT_STARTED)
    level_index = models.PositiveIntegerField(default=0)
    ends_at = models.DateTimeField(null=True, blank=True)
    remaining_ms = models.BigIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    # The version for which an exact end-of-level task was sent, so the beat tick sends
    # at most one per level end.
    scheduled_version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~Q(status="running") | Q(ends_at__isnull=False),
                name="clock_running_has_end",
            ),
        ]

    def __str__(self) -> str:
        return f"Clock of event {self.event_id}: {self.status}, level index {self.level_index}"
