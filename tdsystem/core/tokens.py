"""API tokens: create and revoke, each written to the audit log (never the token itself).

The audit log is the event log's `LogEntry` with no event, like an event's deletion.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.log import Text, log_record

from .models import ApiToken, hash_token


def _name(token: ApiToken) -> str:
    # The prefix is what the tokens page shows to tell tokens apart; the rest stays secret.
    label = f" ({token.label})" if token.label else ""
    return f"{token.prefix}…{label}"


def api_token_create(*, user, label: str, actor: Actor) -> tuple[ApiToken, str]:
    """A new token for `user`; returns the token and its raw key (shown once, not stored)."""
    raw = ApiToken.new_key()
    with transaction.atomic():
        token = ApiToken.objects.create(
            user=user, label=label[:80], prefix=raw[:8], key_hash=hash_token(raw)
        )
        log_record(
            event=None,
            actor=actor,
            action="token.create",
            summary=Text(
                gettext_noop("API token %(token)s created for %(user)s"),
                token=_name(token),
                user=user.get_username(),
            ),
            data={"token_id": token.pk, "user": user.get_username(), "label": token.label},
        )
    return token, raw


def api_token_revoke(*, token: ApiToken, actor: Actor) -> bool:
    """Revoke the token; False (and nothing logged) when it was revoked already."""
    with transaction.atomic():
        revoked = ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        if revoked:
            log_record(
                event=None,
                actor=actor,
                action="token.revoke",
                summary=Text(
                    gettext_noop("API token %(token)s of %(user)s revoked"),
                    token=_name(token),
                    user=token.user.get_username(),
                ),
                data={"token_id": token.pk, "user": token.user.get_username()},
            )
    return bool(revoked)
