"""Cross-cutting records: API tokens, the worker heartbeat and the log of changes."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def hash_token(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


class ApiToken(models.Model):
    """A per-user bearer token for the JSON API. Only its hash is stored."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    label = models.CharField(max_length=80, blank=True)
    prefix = models.CharField(max_length=8, help_text=_("First characters, to recognise it."))
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix}... ({self.user})"

    @classmethod
    def new_key(cls) -> str:
        return "td_" + secrets.token_urlsafe(30)


class Heartbeat(models.Model):
    """Last time a process (the Celery worker) proved it is alive."""

    name = models.CharField(max_length=40, primary_key=True)
    seen_at = models.DateTimeField()
    detail = models.CharField(max_length=200, blank=True)

    def __str__(self) -> str:
        return f"{self.name} at {self.seen_at}"


class LogEntry(models.Model):
    """One change, by a person or a task: who, what, when.

    Most entries belong to an event. An entry without one records a change that outlived
    its event (a deletion) or was never an event's (an API token, a refused action). The
    event is named by its model label, so core imports no domain app.
    """

    event = models.ForeignKey(
        "events.Event", null=True, blank=True, on_delete=models.CASCADE, related_name="log"
    )
    at = models.DateTimeField(db_index=True, help_text=_("When the change took effect."))
    recorded_at = models.DateTimeField(auto_now_add=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="event_log_entries",
    )
    actor_label = models.CharField(max_length=150)
    action = models.CharField(max_length=40)
    summary = models.CharField(max_length=300)
    data = models.JSONField(default=dict, blank=True)
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "events_logentry"  # the table the events app made; kept
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["event", "-at"], name="log_event_at")]

    def __str__(self) -> str:
        return f"{self.at:%H:%M:%S} {self.actor_label}: {self.summary}"

    @property
    def text(self) -> str:
        """The summary in the reader's language, when it was written as a `log.Text`."""
        from .log import render_stored

        return self._rendered(render_stored)

    @property
    def html(self):
        """`text` for a page: its names and numbers isolated (`log.render_html`)."""
        from .log import render_html

        return self._rendered(render_html)

    def _rendered(self, render):
        stored = self.data.get("message") if isinstance(self.data, dict) else None
        if isinstance(stored, dict) and "msgid" in stored:
            try:
                return render(stored)
            except (KeyError, TypeError, ValueError):
                pass  # a translation that does not fit its parameters: the English
        return self.summary


class StaffLanguage(models.Model):
    """The language a staff user chose with the switcher, kept across logins (the session
    holds it while signed in: no query a page)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="language_choice"
    )
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user}: {self.language}"


class Backup(models.Model):
    """One copy of the whole database taken, or tried (`tdsystem.core.backup`): what the
    console's last-backup line and the periodic backup read. Never part of the copy it
    describes: it is written once the copy is complete."""

    started_at = models.DateTimeField(
        db_index=True, help_text=_("The copy holds every change committed before this.")
    )
    path = models.CharField(max_length=500, blank=True)
    size = models.PositiveBigIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True)
    # What the night's tables held when the copy began (`backup.fingerprint`): the periodic
    # backup takes no new copy while it is the same.
    fingerprint = models.CharField(max_length=64, blank=True)
    checked_at = models.DateTimeField(
        null=True, blank=True, help_text=_("Last found still holding everything.")
    )

    class Meta:
        ordering = ["-started_at", "-id"]

    def __str__(self) -> str:
        return f"Backup at {self.started_at:%Y-%m-%d %H:%M:%S}: {self.error or self.path}"

    @property
    def ok(self) -> bool:
        return not self.error


class IdempotencyKey(models.Model):
    """A write sent with a key (the API's Idempotency-Key header, a page form's hidden
    key) and the answer it got: the same key again is given that answer again instead of
    changing anything a second time (`core.idempotency`).

    Written in the write's own transaction: a change that committed always has its answer
    here, one rolled back never does. Kept for `idempotency.KEY_LIFETIME`.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    method = models.CharField(max_length=10)
    path = models.TextField(help_text=_("The path and query the key was first sent to."))
    body_hash = models.CharField(max_length=64, help_text=_("SHA-256 of the request's body."))
    # None only inside the write's transaction, before its answer is known.
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    content_type = models.CharField(max_length=200, blank=True)
    headers = models.JSONField(default=dict, blank=True)
    body = models.BinaryField(default=b"", blank=True)
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_once_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.key} of {self.user_id}: {self.method} {self.path} {self.status}"


class LoginCode(models.Model):
    """A one-time code to log in with when the password is refused or the name is locked
    out, printed on the server by `manage.py login_code USERNAME`. Only its hash is kept;
    it lasts a few minutes and works once."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="login_codes"
    )
    code_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"login code of {self.user} until {self.expires_at:%H:%M}"


class EventStaff(models.Model):
    """A director or floor account on an event's staff. Outside its events such an account
    acts on nothing (a superuser acts on every event). A festival's flights have the
    staff of the event they are flights of: the rows are the event's.

    The event is named by its model label, so core imports no domain app."""

    class Role(models.TextChoices):
        DIRECTOR = "director", _("Director")
        FLOOR = "floor", _("Floor")

    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_staff"
    )
    role = models.CharField(max_length=8, choices=Role.choices)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "event"], name="event_staff_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) on event {self.event_id}"


class ScreenVersion(models.Model):
    """How many changes an event has had, counted in each change's own transaction: every
    change takes the event's lock (`core.locking.locks_take`), which adds one here. A
    screen's poll reads it with the clock, in the same statement, and asks the screens'
    cache for the entries of that count (`core.screencache`): an entry made from the
    database after a change committed is never kept under a count from before it, so once
    a poll has answered a change's figures, no poll after it answers older ones.

    Keyed by the event's id, without a foreign key: the row is written under the event's
    lock only, also by a change that deletes the event; a deleted event's row is left."""

    event_id = models.BigIntegerField(primary_key=True)
    changes = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"event {self.event_id}: {self.changes} changes"
