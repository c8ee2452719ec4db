"""One-time login codes: the way in when a name is locked out or its password is lost.

Someone with a shell on the server runs `manage.py login_code USERNAME`; the code it
prints logs that user in once, at /login/code/, within CODE_LIFETIME, even while
django-axes refuses the name, and lifts that lockout. Only the code's hash is stored.
Issuing and using a code go to the audit log (the log's entries without an event).
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import TYPE_CHECKING

from axes.models import AccessAttempt
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from .actors import Actor
from .devices import device_keys_prefix
from .log import Text, log_record
from .models import LoginCode, hash_token

if TYPE_CHECKING:
    from django.contrib.auth.models import User

CODE_LIFETIME = timedelta(minutes=15)
# Read off a terminal and typed on a phone: no 0/O or 1/I to confuse. 16 of 32 letters
# are 80 random bits, beyond guessing in a code's 15 minutes without any throttle.
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
GROUPS, GROUP_SIZE = 4, 4


def _normal(code: str) -> str:
    """The code as stored, whatever the reader typed: capitals, no dashes or spaces."""
    return "".join(ch for ch in code.upper() if ch.isascii() and ch.isalnum())


def login_code_create(*, user: User, actor: Actor) -> str:
    """A new code for `user`, returned once (only its hash is kept); an older code of
    theirs not used yet stops working."""
    raw = "-".join(
        "".join(secrets.choice(ALPHABET) for _ in range(GROUP_SIZE)) for _ in range(GROUPS)
    )
    now = timezone.now()
    with transaction.atomic():
        LoginCode.objects.filter(user=user, used_at__isnull=True, expires_at__gt=now).update(
            expires_at=now
        )
        code = LoginCode.objects.create(
            user=user, code_hash=hash_token(_normal(raw)), expires_at=now + CODE_LIFETIME
        )
        log_record(
            event=None,
            actor=actor,
            action="login.code",
            summary=Text(
                gettext_noop("One-time login code made for %(user)s"),
                user=user.get_username(),
            ),
            data={"user": user.get_username(), "expires_at": code.expires_at.isoformat()},
        )
    return raw


def login_code_use(*, username: str, code: str) -> User | None:
    """The user the code is for, if it is theirs, unused and not expired; it is then used
    up, the name's failed logins are forgotten (every device's), and the log says so.
    None otherwise, and nothing changes."""
    now = timezone.now()
    normal = _normal(code)
    if not username or len(normal) != GROUPS * GROUP_SIZE:
        return None
    with transaction.atomic():
        found = (
            LoginCode.objects.select_related("user")
            .filter(
                code_hash=hash_token(normal),
                user__username=username,
                user__is_active=True,
                used_at__isnull=True,
                expires_at__gt=now,
            )
            .first()
        )
        # Compare-and-set: of two requests with the same code, one wins.
        if found is None or not LoginCode.objects.filter(pk=found.pk, used_at__isnull=True).update(
            used_at=now
        ):
            return None
        lifted, _ = AccessAttempt.objects.filter(
            Q(username=username) | Q(username__startswith=device_keys_prefix(username))
        ).delete()
        log_record(
            event=None,
            actor=Actor.of(found.user),
            action="login.code_used",
            summary=Text(
                gettext_noop("%(user)s logged in with a one-time code (lockout lifted)"),
                user=username,
            ),
            data={"user": username, "code_id": found.pk, "attempts_cleared": lifted},
        )
    return found.user
