"""A ruling given at the table and shared: the hand as the engine read it and its answer,
kept as they were, under a link that cannot be guessed."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class SharedRuling(models.Model):
    """The page's answer on one hand, as shown when it was shared. ``hand`` is the command
    line's input (``python -m tdsystem.engine explain`` gives ``ruling`` again from it);
    ``ruling`` is the explained answer with its message ids, so the shared page reads it in
    each visitor's language and shows it unchanged whatever the engine says later."""

    token = models.CharField(max_length=32, unique=True, editable=False)
    hand = models.JSONField()
    ruling = models.JSONField()
    rule_set = models.CharField(max_length=16)
    event = models.ForeignKey(
        "events.Event", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"ruling {self.token}"
