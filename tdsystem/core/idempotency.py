"""A write sent twice is answered once: the same key answers the first answer again.

An API client sends `Idempotency-Key: <its own unique string>` with a write; a page's form
carries a fresh hidden key (`{% idempotency_key %}`, templatetags/idempotency.py). The key
is kept per user with the method, the path and a hash of the body, and the answer the
write got (status, content type, body, the headers that belong to it), in the write's own
transaction (`core.writes.WriteMiddleware`): a change that committed always has its answer
kept, one rolled back (an error) never does, so its key may be sent again.

- The same key, method, path and body again: the kept answer, nothing changed.
- The same key with another method, path or body: refused (`Claim.OTHER`).
- The same key while its first request is still running: PostgreSQL's unique index makes
  the second wait for the first (the insert waits on the first one's row) at most
  LOCK_TIMEOUT_SECONDS, then it answers as the first did or is told to retry
  (`Claim.RUNNING`); SQLite's write lock, taken at BEGIN, already makes it wait.
- A key older than KEY_LIFETIME counts as new; `keys_expire` (a beat task) deletes them.

After Stripe's idempotent requests and the IETF draft "The Idempotency-Key HTTP Header
Field".
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from .locking import lock_timed_out
from .models import IdempotencyKey

HEADER = "Idempotency-Key"
FORM_FIELD = "idempotency_key"
KEY_MAX = 255
KEY_LIFETIME = timedelta(hours=24)
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
# Not part of what a form asks for: the CSRF token and the key itself.
_NOT_HASHED = frozenset({FORM_FIELD, "csrfmiddlewaretoken"})


class BadKey(ValueError):
    """A key that is not 1 to KEY_MAX visible ASCII characters (a 400)."""


def key_of(request: HttpRequest) -> str | None:
    """The request's key (the header, else a form's hidden field), None without one."""
    key = request.headers.get(HEADER)
    if key is None and request.content_type in FORM_TYPES:
        key = request.POST.get(FORM_FIELD) or None
    if key is None:
        return None
    if not 0 < len(key) <= KEY_MAX or not all("!" <= c <= "~" for c in key):
        raise BadKey(
            _("%(header)s: from 1 to %(max)s visible ASCII characters")
            % {"header": HEADER, "max": KEY_MAX}
        )
    return key


def body_hash(request: HttpRequest) -> str:
    """SHA-256 of what the request asks for: its body, or a form's fields and files (the
    CSRF token and the key left out)."""
    digest = hashlib.sha256()
    if request.content_type not in FORM_TYPES:
        digest.update(request.body)
        return digest.hexdigest()
    for name, values in sorted(request.POST.lists()):
        if name not in _NOT_HASHED:
            digest.update(json.dumps([name, values]).encode())
    for name, files in sorted(request.FILES.lists()):
        for upload in files:
            digest.update(json.dumps([name, upload.name, upload.size]).encode())
            for chunk in upload.chunks():
                digest.update(chunk)
            upload.seek(0)
    return digest.hexdigest()


class Claim(enum.Enum):
    NEW = "new"  # the write goes ahead; its answer is kept in the claimed row
    DONE = "done"  # answered before: the kept answer
    OTHER = "other"  # the key was sent with another request
    RUNNING = "running"  # its first request is still running past LOCK_TIMEOUT_SECONDS


@dataclass(frozen=True)
class Claimed:
    claim: Claim
    row: IdempotencyKey | None


def key_claim(
    *, user, key: str, method: str, path: str, body_hash: str, now: datetime | None = None
) -> Claimed:
    """Claim `key` for this write, in the request's transaction (its first statement)."""
    now = now or timezone.now()
    asked = {"method": method, "path": path, "body_hash": body_hash}
    try:
        # A savepoint: a key taken already leaves the request's transaction usable.
        with transaction.atomic(), _waiting_at_most(settings.LOCK_TIMEOUT_SECONDS):
            row = IdempotencyKey.objects.create(user=user, key=key, created_at=now, **asked)
        return Claimed(Claim.NEW, row)
    except IntegrityError:
        pass  # sent before (and committed)
    except DatabaseError as exc:
        if lock_timed_out(exc):
            return Claimed(Claim.RUNNING, None)
        raise
    row = IdempotencyKey.objects.get(user=user, key=key)
    expired = now - KEY_LIFETIME
    if row.created_at < expired:
        # An old key counts as new; of two sent again at once, one renews it.
        renewed = IdempotencyKey.objects.filter(pk=row.pk, created_at__lt=expired).update(
            status=None, content_type="", headers={}, body=b"", created_at=now, **asked
        )
        row = IdempotencyKey.objects.get(pk=row.pk)
        if renewed:
            return Claimed(Claim.NEW, row)
    if (row.method, row.path, row.body_hash) != (method, path, body_hash):
        return Claimed(Claim.OTHER, row)
    if row.status is None:  # not committed so: only a write of this transaction
        return Claimed(Claim.RUNNING, row)
    return Claimed(Claim.DONE, row)


@contextmanager
def _waiting_at_most(seconds: float) -> Iterator[None]:
    """On PostgreSQL, the statements inside wait on locks at most `seconds`, then fail
    with lock_not_available; the transaction's own lock timeout is put back after."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_setting('lock_timeout'), set_config('lock_timeout', %s, true)",
            [f"{max(1, int(seconds * 1000))}ms"],
        )
        (before, _set) = cursor.fetchone()
    yield
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [before])


# The headers that are part of an answer and are given again with it: where a redirect
# goes, htmx's instructions (HX-Trigger, HX-Retarget...), a download's name. Never a
# cookie: a session or CSRF cookie is the browser's, not the answer's.
KEPT_HEADERS = ("location", "content-disposition", "content-language")


def key_answer_keep(
    row: IdempotencyKey, *, status: int, content_type: str, headers: dict, body: bytes
) -> None:
    """Keep the answer of the write that claimed `row`, in its transaction."""
    kept = {
        name: value
        for name, value in headers.items()
        if name.lower() in KEPT_HEADERS or name.lower().startswith("hx-")
    }
    IdempotencyKey.objects.filter(pk=row.pk).update(
        status=status, content_type=content_type, headers=kept, body=body
    )


def key_release(row: IdempotencyKey) -> None:
    """The write's answer cannot be kept (a streamed one): the key is not kept either."""
    IdempotencyKey.objects.filter(pk=row.pk).delete()


def keys_expire(*, now: datetime | None = None) -> int:
    """Delete the keys older than KEY_LIFETIME; how many."""
    now = now or timezone.now()
    deleted, _by_model = IdempotencyKey.objects.filter(created_at__lt=now - KEY_LIFETIME).delete()
    return deleted
