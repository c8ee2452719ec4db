"""What a player sees of the tournament on their own phone, and the room's integrations.

- `PlayerLink`: the secret link to a player's own page (`/me/<token>/`), one live link per
  entry or place on the alternates list; the floor revokes it (a lost phone) and prints a
  new card.
- `AlternateList` and `Alternate`: the queue instead of a line, for an event that is full
  or not yet open; the next player is called when a seat opens and holds it for the list's
  hold time.
- `Webhook` and `WebhookDelivery`: each change a player sees, sent signed to the room's
  own systems (an SMS gateway, its app), by Celery with retries.
"""

from __future__ import annotations

import secrets

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tdsystem.events.models import Event
from tdsystem.seating.models import Entry, Player

TOKEN_BYTES = 16  # 128 bits: a link nobody guesses


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


class AlternateList(models.Model):
    """An event's alternates list: open or closed, how long it may grow, how long a called
    player's seat is held."""

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, primary_key=True, related_name="alternate_list"
    )
    is_open = models.BooleanField(default=True)
    size = models.PositiveSmallIntegerField(
        default=100, help_text=_("How many players the list holds at most.")
    )
    hold_minutes = models.PositiveSmallIntegerField(
        default=10, help_text=_("How long a called player has to come to the desk.")
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(size__gte=1), name="alternate_list_size"),
            models.CheckConstraint(
                condition=Q(hold_minutes__gte=1, hold_minutes__lte=120),
                name="alternate_list_hold_range",
            ),
        ]

    def __str__(self) -> str:
        return str(self.event)


class Alternate(models.Model):
    """One player waiting for a seat in an event. The list is read by `rank` (lowest
    first): joining takes the next rank, a player who does not come in time drops one
    place (swaps rank with the next waiting)."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        CALLED = "called", _("Called")
        SEATED = "seated", _("Seated")
        REMOVED = "removed", _("Removed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="alternates")
    name = models.CharField(max_length=120)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="alternates"
    )
    rank = models.PositiveIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    joined_at = models.DateTimeField(auto_now_add=True)
    called_at = models.DateTimeField(null=True, blank=True)
    due_at = models.DateTimeField(null=True, blank=True)
    missed = models.PositiveSmallIntegerField(
        default=0, help_text=_("Times called without coming in time.")
    )
    entry = models.OneToOneField(
        Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="alternate"
    )
    actor_label = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["event_id", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["event", "rank"], name="alternate_rank_unique"),
            models.CheckConstraint(
                condition=~Q(status="called") | Q(called_at__isnull=False, due_at__isnull=False),
                name="alternate_called_has_times",
            ),
        ]
        indexes = [models.Index(fields=["event", "status", "rank"], name="alternate_queue")]

    def __str__(self) -> str:
        return self.name


class PlayerLink(models.Model):
    """The secret link to a player's own page. It follows one entry, or one place on the
    alternates list (and the entry that place becomes once seated)."""

    token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="player_links")
    entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="links"
    )
    alternate = models.ForeignKey(
        Alternate, null=True, blank=True, on_delete=models.CASCADE, related_name="links"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # The last time the page asked (the floor sees whether a player follows their page).
    seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(entry__isnull=False) | Q(alternate__isnull=False),
                name="player_link_follows_someone",
            ),
            models.UniqueConstraint(
                fields=["entry"],
                condition=Q(revoked_at__isnull=True, entry__isnull=False),
                name="one_live_link_per_entry",
            ),
            models.UniqueConstraint(
                fields=["alternate"],
                condition=Q(revoked_at__isnull=True, alternate__isnull=False),
                name="one_live_link_per_alternate",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event_id}: {self.entry_id or self.alternate_id}"


class Webhook(models.Model):
    """A room's own system told of each change a player sees, signed with its secret."""

    class Kind(models.TextChoices):
        MOVED = "player.moved", _("A player moved")
        SEAT_READY = "player.seat_ready", _("A seat is ready for an alternate")
        OUT = "player.out", _("A player is out")

    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=64, default=new_token)
    kinds = models.JSONField(default=list, blank=True, help_text=_("Empty: every kind."))
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.url


class WebhookDelivery(models.Model):
    """One event sent (or being sent) to one webhook: what, how often tried, the answer."""

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    kind = models.CharField(max_length=24, choices=Webhook.Kind.choices)
    payload = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    delivered_at = models.DateTimeField(null=True, blank=True)
    last_status = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(
                fields=["created_at"],
                condition=Q(delivered_at__isnull=True),
                name="webhook_delivery_pending",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.created_at:%H:%M:%S}"
