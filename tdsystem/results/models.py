"""Bust-outs, finishing places, prizes, the payout plan, hand-for-hand and chip counts.

A `BustOut` is one report from the floor: the players one table lost on one hand. The
players in it get a `Finish` each. Reports that count as simultaneous (several players
on one hand, or several tables on the same hand-for-hand hand) share a `BustOutGroup`,
whose members split the places they cover. Undoing a report keeps its rows, marked
undone, for the record.

The database backs the rules: one standing finish per entry, and one `slot` per place:
players who tie for places 5-6 hold slots 5 and 6, so places are unique per event except
for ties, and no two players can be given the same place by two reports racing.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tdsystem.engine import payouts as payout_rules
from tdsystem.events.models import Event
from tdsystem.seating.models import Entry, EventTable, Move

DEFAULT_TABLE = "top-15-percent"
CUSTOM = "custom"


class PayoutPlan(models.Model):
    """How the event's prize pool is paid: a named table or custom percentages, a unit.

    `figured_entries` and `figured_pool` are the field size and pool the stored prizes
    were worked out for; when the field changes, the prizes are worked out again.
    """

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, primary_key=True, related_name="payout_plan"
    )
    table = models.CharField(max_length=24, default=DEFAULT_TABLE)
    percentages = models.JSONField(
        default=list, blank=True, help_text=_("Custom percentages by place, as strings.")
    )
    # The unit prizes are rounded to; empty: automatic, a tenth of the buy-in in a usual
    # unit (`rounding`). Events made before automatic rounding keep the 1 they had.
    unit = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True, default=None)
    figured_entries = models.PositiveIntegerField(default=0)
    figured_pool = models.DecimalField(max_digits=14, decimal_places=2, default=Decimal(0))
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(unit__isnull=True) | Q(unit__gt=0), name="payout_unit_positive"
            )
        ]

    def __str__(self) -> str:
        return f"Payouts of event {self.event_id}: {self.table}"

    @property
    def rounding(self) -> Decimal:
        """The unit the prizes are rounded to: the director's, or automatic (the event's
        buy-in's tenth in a usual unit, engine/payouts.auto_unit)."""
        if self.unit is not None:
            return Decimal(self.unit)
        return payout_rules.auto_unit(Decimal(self.event.buy_in))

    def table_percentages(self, entries: int) -> tuple[Decimal, ...]:
        if self.table == CUSTOM:
            values = payout_rules.check_custom(self.percentages)
        else:
            values = payout_rules.table_for(self.table, max(entries, 1))
        return payout_rules.fit_table(values, max(entries, 1))


class HandForHand(models.Model):
    """Hand-for-hand play (TDA RP 8): on or off, the hand being played, the clock's part.

    While it is on, the level clock is paused and every completed hand-for-hand hand takes
    at most `minutes_per_hand` off the level (`clock_paused`: this pause is ours to lift).
    """

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, primary_key=True, related_name="hand_for_hand"
    )
    active = models.BooleanField(default=False)
    hand = models.PositiveIntegerField(default=0, help_text=_("The hand being played (1, 2...)."))
    minutes_per_hand = models.PositiveSmallIntegerField(default=2)
    clock_paused = models.BooleanField(default=False)
    started_at = models.DateTimeField(null=True, blank=True)
    stopped_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(minutes_per_hand__gte=1) & Q(minutes_per_hand__lte=10),
                name="hfh_minutes_range",
            )
        ]

    def __str__(self) -> str:
        return f"Hand-for-hand of event {self.event_id}: {'on' if self.active else 'off'}"


class HandForHandHand(models.Model):
    """One hand-for-hand hand: dealt everywhere at once, over when every table reported."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="hfh_hands")
    number = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    completed_at = models.DateTimeField(null=True, blank=True)
    charged_seconds = models.PositiveIntegerField(
        default=0, help_text=_("Time taken off the level clock for this hand.")
    )

    class Meta:
        ordering = ["event_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="hfh_hand_number_unique")
        ]

    def __str__(self) -> str:
        return f"Hand-for-hand hand {self.number}"


class HandForHandReport(models.Model):
    """A table finished a hand-for-hand hand."""

    hand = models.ForeignKey(HandForHandHand, on_delete=models.CASCADE, related_name="reports")
    table_number = models.PositiveIntegerField()
    reported_at = models.DateTimeField()
    actor_label = models.CharField(max_length=150)

    class Meta:
        ordering = ["hand_id", "table_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["hand", "table_number"], name="hfh_one_report_per_table"
            )
        ]

    def __str__(self) -> str:
        return f"Table {self.table_number} finished hand-for-hand hand {self.hand_id}"


class BustOutGroup(models.Model):
    """Bust-outs that count as simultaneous; `seq` orders the groups of an event.

    A hand-for-hand hand has one group (`hfh_hand`), which every table's report joins.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="bustout_groups")
    seq = models.PositiveIntegerField()
    hfh_hand = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["event", "seq"], name="bustout_group_seq_unique"),
            models.UniqueConstraint(
                fields=["event", "hfh_hand"],
                condition=Q(hfh_hand__isnull=False),
                name="bustout_group_one_per_hfh_hand",
            ),
        ]

    def __str__(self) -> str:
        return f"Bust-out group {self.seq} of event {self.event_id}"


class BustOut(models.Model):
    """One report of the floor: who busted, at which table, on which hand; what it moved."""

    class Kind(models.TextChoices):
        HAND = "hand", _("Lost a hand")
        SHORT_BIG_BLIND = "short-bb", _("Could not cover the small blind (house rule)")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="bustouts")
    group = models.ForeignKey(BustOutGroup, on_delete=models.CASCADE, related_name="bustouts")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.HAND)
    table_number = models.PositiveIntegerField()
    hand = models.PositiveIntegerField(
        help_text=_("The table's hand number, or the hand-for-hand hand during hand-for-hand.")
    )
    recorded_at = models.DateTimeField(db_index=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_label = models.CharField(max_length=150)
    moves = models.ManyToManyField(Move, through="BustOutMove", related_name="bustouts")
    rebalance = models.JSONField(
        default=dict,
        blank=True,
        help_text=_("What the balancing after it did, and the tables as they were, for undo."),
    )
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["-recorded_at", "-id"]
        indexes = [models.Index(fields=["event", "table_number"], name="bustout_event_table")]

    def __str__(self) -> str:
        return f"Bust-out at table {self.table_number} ({self.recorded_at:%H:%M})"


class BustOutMove(models.Model):
    """A move slip that a bust-out caused (the balancing right after it)."""

    bustout = models.ForeignKey(BustOut, on_delete=models.CASCADE)
    move = models.OneToOneField(Move, on_delete=models.CASCADE, related_name="caused_by")

    def __str__(self) -> str:
        return f"Move {self.move_id} caused by bust-out {self.bustout_id}"


class Finish(models.Model):
    """Where an entry finished: a bust-out's player, or the winner (`bustout` of the last).

    `place`..`place_to` is the range a tie shares; `slot` is this player's own place in
    it, unique per event among standing finishes.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="finishes")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="finishes")
    group = models.ForeignKey(
        BustOutGroup, null=True, blank=True, on_delete=models.CASCADE, related_name="finishes"
    )
    bustout = models.ForeignKey(
        BustOut, null=True, blank=True, on_delete=models.CASCADE, related_name="finishes"
    )
    is_winner = models.BooleanField(default=False)
    starting_stack = models.PositiveBigIntegerField(null=True, blank=True)
    chips_removed = models.PositiveBigIntegerField(default=0)
    place = models.PositiveIntegerField()
    place_to = models.PositiveIntegerField()
    slot = models.IntegerField(null=True, blank=True)
    prize = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal(0))
    from_table = models.ForeignKey(
        EventTable, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    from_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    # When the cashier paid the prize, and who marked it: a paid prize never changes (a
    # late entry, a payout plan or an undo that would change it is refused).
    paid_at = models.DateTimeField(null=True, blank=True)
    paid_by = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["event_id", "place", "entry_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["entry"], condition=Q(undone_at__isnull=True), name="finish_one_per_entry"
            ),
            models.UniqueConstraint(
                fields=["event", "slot"],
                condition=Q(undone_at__isnull=True),
                name="finish_one_player_per_place",
            ),
            models.CheckConstraint(
                condition=Q(place__gte=1) & Q(place_to__gte=F("place")),
                name="finish_place_range",
            ),
            models.CheckConstraint(
                condition=Q(slot__isnull=True)
                | (Q(slot__gte=F("place")) & Q(slot__lte=F("place_to"))),
                name="finish_slot_in_range",
            ),
            models.CheckConstraint(condition=Q(prize__gte=0), name="finish_prize_not_negative"),
        ]
        indexes = [models.Index(fields=["event", "undone_at", "place"], name="finish_standing")]

    def __str__(self) -> str:
        return f"Entry {self.entry_id}: {payout_rules.place_label(self.place, self.place_to)}"

    @property
    def place_label(self) -> str:
        return payout_rules.place_label(self.place, self.place_to)


class ChipCount(models.Model):
    """The latest chip count the floor entered for an entry (for the chip leader)."""

    entry = models.OneToOneField(
        Entry, on_delete=models.CASCADE, primary_key=True, related_name="chip_count"
    )
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="chip_counts")
    chips = models.PositiveBigIntegerField()
    counted_at = models.DateTimeField()
    actor_label = models.CharField(max_length=150)

    class Meta:
        indexes = [models.Index(fields=["event", "-chips"], name="chipcount_leader")]

    def __str__(self) -> str:
        return f"Entry {self.entry_id}: {self.chips} chips"


class ChipCountHistory(models.Model):
    """Every chip count entered, with who and when; `ChipCount` holds only the latest.

    Written in the same transaction as the `ChipCount` it mirrors, never changed after.
    """

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="chip_history")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="chip_history")
    chips = models.PositiveBigIntegerField()
    counted_at = models.DateTimeField()
    actor_label = models.CharField(max_length=150)

    class Meta:
        indexes = [
            models.Index(fields=["entry", "-counted_at"], name="chiphistory_entry"),
            models.Index(fields=["event", "-counted_at"], name="chiphistory_event"),
        ]

    def __str__(self) -> str:
        return f"Entry {self.entry_id}: {self.chips} chips at {self.counted_at:%H:%M}"


class Deal(models.Model):
    """The players left agreed to share the prizes still to be paid (ICM or chip-chop).

    One standing deal per event; cancelling it (before the event finishes) keeps the row,
    marked cancelled, for the record. `play_for` is the amount kept back to play on for:
    it goes to the winner, on top of the winner's share.
    """

    class Method(models.TextChoices):
        ICM = "icm", _("ICM (Malmuth-Harville)")
        CHIP_CHOP = "chip-chop", _("Chip-chop")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="deals")
    method = models.CharField(max_length=10, choices=Method.choices)
    play_for = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal(0))
    unit = models.DecimalField(max_digits=10, decimal_places=2, default=Decimal(1))
    total = models.DecimalField(
        max_digits=14, decimal_places=2, help_text=_("The prizes of the places left, all of it.")
    )
    made_at = models.DateTimeField()
    made_by = models.CharField(max_length=150)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["event_id", "-made_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event"], condition=Q(cancelled_at__isnull=True), name="deal_one_per_event"
            ),
            models.CheckConstraint(condition=Q(play_for__gte=0), name="deal_play_for_not_negative"),
            models.CheckConstraint(condition=Q(unit__gt=0), name="deal_unit_positive"),
        ]

    def __str__(self) -> str:
        return f"Deal ({self.method}) of event {self.event_id}"


class DealShare(models.Model):
    """One player's part of a deal: the chips it was made on and the amount agreed."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="shares")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="deal_shares")
    chips = models.PositiveBigIntegerField()
    amount = models.DecimalField(max_digits=12, decimal_places=2)

    class Meta:
        ordering = ["deal_id", "-chips", "entry_id"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "entry"], name="deal_share_one_per_entry"),
            models.CheckConstraint(condition=Q(amount__gte=0), name="deal_share_not_negative"),
        ]

    def __str__(self) -> str:
        return f"Entry {self.entry_id}: {self.amount} in deal {self.deal_id}"


class Bounty(models.Model):
    """What one elimination moved in a bounty event: the eliminated entry's bounty paid to
    one eliminator (`paid`) and, in progressive knockout, added to the eliminator's own
    head (`to_head`). A split pot has one row per eliminator. The winner, or a player out
    with no eliminator, collects their own head: a row with eliminator = eliminated.

    In an event without bounties the rows only say who eliminated whom (amounts 0).
    Undoing the bust-out marks its rows undone, which reverses the payments.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="bounties")
    bustout = models.ForeignKey(BustOut, on_delete=models.CASCADE, related_name="bounties")
    eliminated = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    eliminator = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="bounties_won")
    paid = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal(0))
    to_head = models.DecimalField(max_digits=12, decimal_places=2, default=Decimal(0))
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event_id", "bustout_id", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["bustout", "eliminated", "eliminator"], name="bounty_one_row_per_pair"
            ),
            models.CheckConstraint(
                condition=Q(paid__gte=0) & Q(to_head__gte=0), name="bounty_not_negative"
            ),
        ]
        indexes = [models.Index(fields=["event", "undone_at"], name="bounty_standing")]

    def __str__(self) -> str:
        return f"Entry {self.eliminator_id} won {self.paid} for entry {self.eliminated_id}"


class FieldCount(models.Model):
    """An event's entries counted as they change: kept by the database's own triggers on
    the entries table (migration 0005), in the transaction that changes an entry, so every
    path that makes, busts, carries, moves or deletes an entry keeps it, the ORM's or not.

    `field_read` (services/standings) reads these rows, the event's and its flights', in
    place of counting the entries: a count over the field on every bust-out grew with the
    field (the figures: docs/load-and-faults.md). So do the clock's field figures
    (`snapshot.screen_counts`), made again on every change the screens show. No foreign
    key: the row of a deleted event is left behind (empty once its entries are gone)
    rather than put back by a trigger while the event is being deleted. `manage.py
    check_counters` compares every row with the entries (`results.counters`).
    """

    event_id = models.BigIntegerField(primary_key=True)
    # Every figure below is kept by the triggers on seating_entry (migration 0005):
    # results_fieldcount_insert, _delete, and _update (a change of event, status, carry
    # or payment).
    entries = models.BigIntegerField(default=0)  # every entry, re-entries included
    carried = models.BigIntegerField(default=0)  # of them, carried from a flight (Day 2)
    active = models.BigIntegerField(default=0)  # of them, still in
    paid_cents = models.BigIntegerField(default=0)  # the sum of their `paid`, in cents

    def __str__(self) -> str:
        return f"Event {self.event_id}: {self.entries} entries, {self.active} in"
