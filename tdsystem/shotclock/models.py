"""The shot clock at each table, the extensions each player holds, and the log of every
call, start, reset, extension and expiry (for disputes).

A clock's time is never counted here: the start and the seconds allowed are stored, and
every reader works the rest out (engine/shotclock.py `reading`), so a page that reloads,
a second device or the API all see the same clock.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tdsystem.engine import shotclock as sc
from tdsystem.events.models import Event
from tdsystem.seating.models import Entry, EventTable


class Kind(models.TextChoices):
    ACTION = sc.KIND_ACTION, _("Shot clock")
    FLOOR = sc.KIND_FLOOR, _("Floor's clock (25 + 5 s)")


class Street(models.TextChoices):
    PREFLOP = sc.PREFLOP, _("Pre-flop")
    FLOP = sc.FLOP, _("Flop")
    TURN = sc.TURN, _("Turn")
    RIVER = sc.RIVER, _("River")


class Facing(models.TextChoices):
    NONE = sc.FACING_NONE, _("No bet")
    BET = sc.FACING_BET, _("A bet")
    RAISE = sc.FACING_RAISE, _("A raise")


class Outcome(models.TextChoices):
    DEAD = sc.OUTCOME_DEAD, _("hand dead")
    CHECKED = sc.OUTCOME_CHECKED, _("checked")


class TableClock(models.Model):
    """The clock of one event table. Idle while `started_at` is null; running until it is
    reset, or expired once `expired_at` is set (it shows so until the next start)."""

    table = models.OneToOneField(
        EventTable, on_delete=models.CASCADE, primary_key=True, related_name="shot_clock"
    )
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="shot_clocks")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.ACTION)
    entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # The last street and facing chosen: the next start offers them again.
    street = models.CharField(max_length=8, choices=Street.choices, default=Street.PREFLOP)
    facing = models.CharField(max_length=8, choices=Facing.choices, default=Facing.BET)
    seconds = models.PositiveIntegerField(default=0)
    extended = models.PositiveIntegerField(default=0)
    extensions_used = models.PositiveSmallIntegerField(default=0)
    warnings = models.JSONField(default=list, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    expired_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=8, choices=Outcome.choices, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(expired_at__isnull=True) | models.Q(started_at__isnull=False),
                name="shot_clock_expired_was_started",
            ),
        ]
        indexes = [
            models.Index(
                fields=["event"],
                condition=models.Q(started_at__isnull=False),
                name="shot_clock_running",
            )
        ]

    def __str__(self) -> str:
        return f"Shot clock of table {self.table_id}"

    @property
    def run(self) -> sc.Run | None:
        if self.started_at is None:
            return None
        return sc.Run(
            self.kind,
            self.started_at,
            self.seconds,
            self.facing,
            tuple(self.warnings),
            self.extended,
        )


class Extensions(models.Model):
    """A player's extensions, held by the entry so they follow the player through moves,
    breaks, redraws and days (engine/shotclock.py `Allowance`)."""

    entry = models.OneToOneField(
        Entry, on_delete=models.CASCADE, primary_key=True, related_name="shot_clock_extensions"
    )
    left = models.PositiveSmallIntegerField()
    used = models.PositiveSmallIntegerField(default=0)
    day = models.PositiveSmallIntegerField(default=1)
    players_reset = models.BooleanField(default=False)
    final_reset = models.BooleanField(default=False)

    class Meta:
        verbose_name_plural = _("extensions")

    def __str__(self) -> str:
        return f"{self.left} extensions of entry {self.entry_id}"

    @property
    def allowance(self) -> sc.Allowance:
        return sc.Allowance(self.left, self.day, self.players_reset, self.final_reset)


class Call(models.Model):
    """One line of the shot clock's log: what happened at which table, seat and street, to
    whom, when, and by whom."""

    class Action(models.TextChoices):
        START = "start", _("started")
        CALL = "call", _("called by the floor")
        RESET = "reset", _("reset: action taken")
        EXTENSION = "extension", _("extension")
        EXPIRY = "expiry", _("expired")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="shot_clock_calls")
    action = models.CharField(max_length=10, choices=Action.choices)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    table_number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    player_name = models.CharField(max_length=120)
    street = models.CharField(max_length=8, choices=Street.choices)
    facing = models.CharField(max_length=8, choices=Facing.choices)
    # Seconds left on the clock (a reset, an extension), or allowed (a start).
    seconds = models.DecimalField(max_digits=6, decimal_places=1)
    outcome = models.CharField(max_length=8, choices=Outcome.choices, blank=True)
    extensions_left = models.PositiveSmallIntegerField(null=True, blank=True)
    at = models.DateTimeField()
    actor_label = models.CharField(max_length=150)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [
            models.Index(fields=["event", "-at"], name="shot_clock_call_at"),
            models.Index(fields=["event", "table_number", "-at"], name="shot_clock_call_table"),
        ]

    def __str__(self) -> str:
        return f"{self.action} at table {self.table_number} seat {self.seat}"
