"""Blind structures: ordered levels and breaks. Templates are reusable; an event owns a copy."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _


class Betting(models.TextChoices):
    NO_LIMIT = "no-limit", _("No-limit")
    POT_LIMIT = "pot-limit", _("Pot-limit")
    FIXED_LIMIT = "fixed-limit", _("Fixed-limit")


class AnteType(models.TextChoices):
    EACH = "each", _("Every player")
    BIG_BLIND = "big-blind", _("Big blind ante (blind first)")
    BIG_BLIND_ANTE_FIRST = "big-blind-ante-first", _("Big blind ante (ante first)")
    BUTTON = "button", _("Button ante")


class Structure(models.Model):
    name = models.CharField(max_length=120)
    is_template = models.BooleanField(default=True)
    ante_type = models.CharField(max_length=24, choices=AnteType.choices, default=AnteType.EACH)
    starting_stack = models.PositiveBigIntegerField(default=10_000)
    notes = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def counts(self) -> str:
        """ "28 levels, 5 breaks" (uses prefetched levels when there are)."""
        kinds = [lv.kind for lv in self.levels.all()]
        breaks = kinds.count("break")
        levels = len(kinds) - breaks
        text = ngettext("%(count)s level", "%(count)s levels", levels) % {"count": levels}
        if not breaks:
            return text
        return gettext("%(levels)s, %(breaks)s") % {
            "levels": text,
            "breaks": ngettext("%(count)s break", "%(count)s breaks", breaks) % {"count": breaks},
        }


class Level(models.Model):
    class Kind(models.TextChoices):
        LEVEL = "level", _("Level")
        BREAK = "break", _("Break")

    structure = models.ForeignKey(Structure, on_delete=models.CASCADE, related_name="levels")
    position = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.LEVEL)
    small_blind = models.PositiveBigIntegerField(default=0)
    big_blind = models.PositiveBigIntegerField(default=0)
    ante = models.PositiveBigIntegerField(default=0)
    small_bet = models.PositiveBigIntegerField(null=True, blank=True)
    big_bet = models.PositiveBigIntegerField(null=True, blank=True)
    duration_seconds = models.PositiveIntegerField()
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["structure", "position"]
        constraints = [
            models.UniqueConstraint(fields=["structure", "position"], name="level_position_unique"),
            models.CheckConstraint(condition=Q(duration_seconds__gt=0), name="level_duration_gt_0"),
            models.CheckConstraint(
                condition=Q(kind="break") | Q(big_blind__gt=0), name="level_big_blind_gt_0"
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.BREAK:
            return f"Break ({self.duration_seconds // 60} min)"
        return f"{self.small_blind}/{self.big_blind} ante {self.ante}"

    @property
    def is_break(self) -> bool:
        return self.kind == self.Kind.BREAK


# What a stored level is: what the schedule reads, and what an edit compares and logs.
LEVEL_FIELDS = (
    "kind",
    "small_blind",
    "big_blind",
    "ante",
    "small_bet",
    "big_bet",
    "duration_seconds",
    "note",
)
