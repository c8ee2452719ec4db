"""The room's dealers, their shifts at an event, where they were, and each event's rotation.

A shift's state (dealing at a table, on a break, waiting; downs since the last break,
breaks taken) is what the rotation engine (`tdsystem.engine.dealers`) reads and writes
back; the assignments keep where every dealer was and when, for the board and the log.
"""

from __future__ import annotations

import secrets

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tdsystem.events.models import Event


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Dealer(models.Model):
    name = models.CharField(max_length=120)
    games = models.CharField(
        max_length=120, blank=True, help_text=_("The games the dealer deals, e.g. NLH, PLO.")
    )
    # The dealer's own page is reached by this secret link (no login on a phone).
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class Status(models.TextChoices):
    DEALING = "table", _("Dealing")
    RESTING = "break", _("On a break")
    FREE = "free", _("In the dealers' room")


class Rotation(models.Model):
    """An event's rotation: its rules, the tables it keeps, and when it pushes next.

    `version` increases with every push, so the scheduled push is a compare-and-set and a
    late or duplicate task pushes nothing."""

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, primary_key=True, related_name="dealer_rotation"
    )
    down_minutes = models.PositiveSmallIntegerField(default=30)
    break_every = models.PositiveSmallIntegerField(default=3)
    break_minutes = models.PositiveSmallIntegerField(default=30)
    keep_final_table = models.BooleanField(default=False)
    automatic = models.BooleanField(default=True)
    tables = models.JSONField(default=list)  # the tables in play the rotation has seen
    kept = models.JSONField(default=list)  # tables whose dealer stays at the pushes
    pushed_at = models.DateTimeField()
    next_push_at = models.DateTimeField()
    pushes = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"Rotation of event {self.event_id}"


class Shift(models.Model):
    """A dealer clocked in to an event, from `clock_in` to `clock_out` (open while None)."""

    dealer = models.ForeignKey(Dealer, on_delete=models.PROTECT, related_name="shifts")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="dealer_shifts")
    clock_in = models.DateTimeField()
    clock_out = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.FREE)
    table = models.PositiveIntegerField(null=True, blank=True)
    since = models.DateTimeField()
    downs = models.PositiveIntegerField(default=0)
    breaks = models.PositiveIntegerField(default=0)
    downs_dealt = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["clock_in", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["dealer"], condition=Q(clock_out__isnull=True), name="dealer_one_shift"
            ),
            models.UniqueConstraint(
                fields=["event", "table"],
                condition=Q(clock_out__isnull=True, table__isnull=False),
                name="dealer_one_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"Shift of dealer {self.dealer_id} at event {self.event_id}"


class Assignment(models.Model):
    """Where a dealer was from `started_at` to `ended_at`: a table, a break, or the room."""

    shift = models.ForeignKey(Shift, on_delete=models.CASCADE, related_name="assignments")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="dealer_assignments")
    dealer = models.ForeignKey(Dealer, on_delete=models.CASCADE, related_name="assignments")
    status = models.CharField(max_length=8, choices=Status.choices)
    table = models.PositiveIntegerField(null=True, blank=True)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["started_at", "pk"]
        indexes = [models.Index(fields=["event", "started_at"])]

    def __str__(self) -> str:
        return f"Dealer {self.dealer_id}: {self.status} {self.table or ''} from {self.started_at}"
