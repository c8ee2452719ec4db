"""The webhooks: each change a player sees, sent signed to the room's own systems.

What happened is told by the apps below (seating's `moves_applied`, results'
`players_out`, the players' `seat_ready`), inside their transactions. On commit,
`deliveries_create` writes one WebhookDelivery per active webhook that takes the kind
(no kinds: every kind) and a Celery task is sent for each (tasks_webhooks.py). The change
never waits for a webhook: building the payloads and sending the tasks happen after its
commit, and any fault there is logged, never raised (docs/webhooks.md).

A delivery is tried by `delivery_attempt`: a compare-and-set on its attempt count claims
the attempt (a task run twice, or a resend beside a pending retry, sends once), then one
POST with a timeout; a 2xx answer delivers it, anything else is retried by the task after
`retry_delay`, up to ATTEMPTS tries (about an hour).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.log import Text, log_record
from tdsystem.core.sql import fetch_one, sql_names
from tdsystem.results.models import Finish
from tdsystem.seating.models import Move

from .errors import PlayersRefused
from .links import player_url
from .models import Alternate, PlayerLink, Webhook, WebhookDelivery

logger = logging.getLogger(__name__)

PING = "ping"
KINDS = [kind.value for kind in Webhook.Kind]
ATTEMPTS = 8  # 1 + 7 retries after 30 s, 1, 2, 4, 8, 16 and 32 min: about an hour
TIMEOUT_SECONDS = 5.0
USER_AGENT = "tdsystem-webhooks/1"
ERROR_MAX = 300  # WebhookDelivery.last_error's max_length


# Signing ---------------------------------------------------------------------------------


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """The X-Tdsystem-Signature header: HMAC-SHA256 of "<timestamp>.<body>" with the secret."""
    message = timestamp.encode() + b"." + body
    return "sha256=" + hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def body_of(delivery: WebhookDelivery) -> bytes:
    """The JSON sent: the same bytes on every attempt of a delivery."""
    envelope = {
        "id": delivery.pk,
        "kind": delivery.kind,
        "created_at": delivery.created_at.isoformat(),
        "data": delivery.payload,
    }
    return json.dumps(envelope, ensure_ascii=False, separators=(",", ":")).encode()


# Payloads --------------------------------------------------------------------------------


def _iso(at: datetime | None) -> str | None:
    return at.isoformat() if at is not None else None


def _urls(**live: Iterable[int]) -> dict[int, str]:
    """The player_url of the entries (or alternates) that have a live link: no link is made
    for a webhook (the player's page is theirs to be given)."""
    ((field, ids),) = live.items()
    links = PlayerLink.objects.filter(**{f"{field}__in": list(ids)}, revoked_at__isnull=True)
    return {getattr(link, f"{field}_id"): player_url(link) for link in links}


def moved_payloads(move_ids: list[int]) -> list[dict]:
    """One `player.moved` per moved entry (its latest slip of these)."""
    moves = (
        Move.objects.filter(pk__in=move_ids)
        .select_related("event", "entry__player")
        .order_by("entry_id", "-created_at", "-id")
    )
    latest: dict[int, Move] = {}
    for move in moves:
        latest.setdefault(move.entry_id, move)
    urls = _urls(entry=latest)
    return [
        {
            "event_id": move.event_id,
            "event": move.event.name,
            "entry": move.entry.number,
            "player": move.entry.player.name,
            "from_table": move.from_table,
            "from_seat": move.from_seat,
            "to_table": move.to_table,
            "to_seat": move.to_seat,
            "reason": move.reason,
            "at": _iso(move.created_at),
            "player_url": urls.get(move.entry_id),
        }
        for move in sorted(latest.values(), key=lambda m: m.pk)
    ]


def _prize(amount: Decimal) -> str | None:
    """A prize as a string (exact), None when nothing is known to be won."""
    return str(amount) if amount > 0 else None


def out_payloads(finish_ids: list[int]) -> list[dict]:
    """One `player.out` per standing finish (the winner's too when the event ended)."""
    finishes = (
        Finish.objects.filter(pk__in=finish_ids, undone_at__isnull=True)
        .select_related("event", "entry__player", "bustout")
        .order_by("place", "id")
    )
    rows = list(finishes)
    urls = _urls(entry=[f.entry_id for f in rows])
    return [
        {
            "event_id": finish.event_id,
            "event": finish.event.name,
            "entry": finish.entry.number,
            "player": finish.entry.player.name,
            "place": finish.place,
            "place_to": finish.place_to,
            "winner": finish.is_winner,
            "prize": _prize(finish.prize),
            "at": _iso(finish.bustout.recorded_at if finish.bustout else None),
            "player_url": urls.get(finish.entry_id),
        }
        for finish in rows
    ]


def seat_ready_payload(alternate: Alternate, due_at: datetime) -> dict:
    urls = _urls(alternate=[alternate.pk])
    return {
        "event_id": alternate.event_id,
        "event": alternate.event.name,
        "alternate": alternate.pk,
        "player": alternate.name,
        "due_at": _iso(due_at),
        "player_url": urls.get(alternate.pk),
    }


# Deliveries made and sent ----------------------------------------------------------------


def takes(webhook: Webhook, kind: str) -> bool:
    """Whether the webhook takes this kind: its kinds, or every kind when it names none (a
    ping goes to the webhook it was asked for only)."""
    return not webhook.kinds or kind in webhook.kinds


def deliveries_create(*, kind: str, payloads: list[dict]) -> list[int]:
    """One delivery per active webhook that takes the kind, per payload."""
    hooks = [h for h in Webhook.objects.filter(is_active=True) if takes(h, kind)]
    if not hooks or not payloads:
        return []
    rows = WebhookDelivery.objects.bulk_create(
        WebhookDelivery(webhook=hook, kind=kind, payload=payload)
        for payload in payloads
        for hook in hooks
    )
    return [row.pk for row in rows]


def deliveries_send(delivery_ids: list[int], attempts: int = 0) -> None:
    """A task per delivery. Without a broker the delivery waits: beat's sweep sends it
    later, and the change that made it is not failed."""
    from . import tasks_webhooks

    for delivery_id in delivery_ids:
        try:
            tasks_webhooks.webhook_deliver.apply_async(args=[delivery_id, attempts], retry=False)
        except Exception:
            logger.exception("webhook delivery %s: the task could not be sent", delivery_id)


def events_send(
    kind: str, build: Callable[[], list[dict]], *, active: bool | None = None
) -> list[int]:
    """The deliveries of one change, made and sent: after its commit, never raising.
    `active`: whether any webhook is active, when the caller has asked already."""
    try:
        if not (_any_active() if active is None else active):
            return []  # the common case: one small query, no payload built
        with transaction.atomic():
            ids = deliveries_create(kind=kind, payloads=build())
        deliveries_send(ids)
        return ids
    except Exception:  # the change is made; a webhook fault is logged, not raised
        logger.exception("webhooks: %s not sent", kind)
        return []


def any_active_sql() -> str:
    """Whether any webhook is active, as an expression a statement can select (asked after
    every move and bust-out's commit, without the ORM's compiling)."""
    table, c = sql_names(Webhook)
    return f"EXISTS (SELECT 1 FROM {table} WHERE {c['is_active']})"


def _any_active() -> bool:
    row = fetch_one(f"SELECT {any_active_sql()}", [])
    return bool(row and row[0])


def on_commit(kind: str, build: Callable[[], list[dict]]) -> None:
    transaction.on_commit(lambda: events_send(kind, build))


# The receivers (connected in PlayersConfig.ready) -----------------------------------------


def moves_made(sender, event_id: int, move_ids: list[int], **kwargs) -> None:
    ids = list(move_ids)
    on_commit(Webhook.Kind.MOVED, lambda: moved_payloads(ids))


def seat_made_ready(sender, alternate: Alternate, due_at: datetime, **kwargs) -> None:
    # Sent on commit already (players.signals): the row is read again, fresh.
    def build() -> list[dict]:
        row = Alternate.objects.select_related("event").filter(pk=alternate.pk).first()
        return [seat_ready_payload(row, due_at)] if row is not None else []

    on_commit(Webhook.Kind.SEAT_READY, build)


# One attempt -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Attempt:
    """What one try of a delivery came to. `sent` is False when the try was not this
    task's to make (delivered already, or another task claimed it)."""

    sent: bool
    delivered: bool = False
    attempts: int = 0

    @property
    def retry(self) -> bool:
        return self.sent and not self.delivered and self.attempts < ATTEMPTS


def retry_delay(attempts: int) -> float:
    """Seconds before the next try after `attempts` failed ones: WEBHOOK_RETRY_SECONDS (30),
    doubling."""
    return float(settings.WEBHOOK_RETRY_SECONDS * 2 ** max(attempts - 1, 0))


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer, not followed: the address is the director's to fix (and a
    POST redirected would arrive as a GET, elsewhere)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_opener = urllib.request.build_opener(_NoRedirect)


def post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int | None, str]:
    """POST the body; (HTTP status or None, error text or "")."""
    try:
        url_check(url)  # an address saved before is checked again: http(s) only
        request = urllib.request.Request(url, data=body, headers=headers, method="POST")
        with _opener.open(request, timeout=TIMEOUT_SECONDS) as response:
            return response.status, ""
    except urllib.error.HTTPError as exc:
        return exc.code, f"HTTP {exc.code} {exc.reason}"
    except PlayersRefused as exc:
        return None, str(exc)
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        return None, str(reason) or type(exc).__name__


def delivery_attempt(*, delivery_id: int, expected: int) -> Attempt:
    """Try the delivery once, if it is undelivered and `expected` tries were made."""
    claimed = WebhookDelivery.objects.filter(
        pk=delivery_id, attempts=expected, delivered_at__isnull=True
    ).update(attempts=F("attempts") + 1)
    if not claimed:
        return Attempt(sent=False)
    delivery = WebhookDelivery.objects.select_related("webhook").filter(pk=delivery_id).first()
    if delivery is None:  # its webhook removed meanwhile
        return Attempt(sent=False)
    body = body_of(delivery)
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Tdsystem-Event": delivery.kind,
        "X-Tdsystem-Delivery": str(delivery.pk),
        "X-Tdsystem-Timestamp": timestamp,
        "X-Tdsystem-Signature": signature(delivery.webhook.secret, timestamp, body),
    }
    status, error = post(delivery.webhook.url, body, headers)
    delivered = status is not None and 200 <= status < 300
    if status is not None and not delivered and not error:
        error = f"HTTP {status}"
    WebhookDelivery.objects.filter(pk=delivery_id).update(
        last_status=status,
        last_error=error[:ERROR_MAX],
        delivered_at=timezone.now() if delivered else None,
    )
    return Attempt(sent=True, delivered=delivered, attempts=expected + 1)


def deliveries_lost(*, older_than: timedelta = timedelta(minutes=2)) -> list[int]:
    """Deliveries never tried a while after they were made (no broker when they were):
    sent again by beat's sweep. A delivery tried once has its retries in the broker."""
    since = timezone.now() - older_than
    lost = WebhookDelivery.objects.filter(
        delivered_at__isnull=True, attempts=0, created_at__lt=since
    ).values_list("pk", flat=True)
    return list(lost[:500])


# The director's page ---------------------------------------------------------------------


def url_check(url: str) -> str:
    """An http(s) address with a host, or PlayersRefused."""
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise PlayersRefused(_("A webhook's address starts with http:// or https://."), field="url")
    return url


def _log(actor: Actor, action: str, message: str, webhook: Webhook) -> None:
    log_record(
        event=None,
        actor=actor,
        action=action,
        summary=Text(message, url=webhook.url),
        data={"webhook": webhook.pk},
    )


def webhook_add(*, url: str, kinds: list[str], actor: Actor) -> Webhook:
    """A new webhook (its secret made here, shown once). Logged."""
    unknown = set(kinds) - set(KINDS)
    if unknown:
        raise PlayersRefused(
            _("Unknown kind: %(kind)s") % {"kind": ", ".join(sorted(unknown))}, field="kinds"
        )
    with transaction.atomic():
        webhook = Webhook.objects.create(url=url_check(url), kinds=sorted(kinds))
        _log(actor, "webhook_add", gettext_noop("Webhook added: %(url)s"), webhook)
    return webhook


def webhook_activate(*, webhook: Webhook, active: bool, actor: Actor) -> bool:
    """Pause or resume; False when it was so already."""
    with transaction.atomic():
        changed = Webhook.objects.filter(pk=webhook.pk, is_active=not active).update(
            is_active=active
        )
        if changed:
            message = gettext_noop("Webhook resumed: %(url)s")
            if not active:
                message = gettext_noop("Webhook paused: %(url)s")
            _log(actor, "webhook_resume" if active else "webhook_pause", message, webhook)
    webhook.is_active = active
    return bool(changed)


def webhook_remove(*, webhook: Webhook, actor: Actor) -> None:
    """The webhook and its deliveries deleted (a task still queued finds nothing). Logged."""
    with transaction.atomic():
        _log(actor, "webhook_remove", gettext_noop("Webhook removed: %(url)s"), webhook)
        webhook.delete()


def webhook_ping(*, webhook: Webhook) -> WebhookDelivery:
    """A `ping` delivery to this webhook alone, paused or not (to try the receiver)."""
    delivery = WebhookDelivery.objects.create(
        webhook=webhook, kind=PING, payload={"message": "ping", "webhook": webhook.pk}
    )
    transaction.on_commit(lambda: deliveries_send([delivery.pk]))
    return delivery


def delivery_resend(*, delivery: WebhookDelivery) -> bool:
    """An undelivered delivery tried again from its first attempt (with its retries);
    False when it was delivered meanwhile. A retry of the old round still queued finds its
    attempt count gone and stops."""
    restarted = WebhookDelivery.objects.filter(
        pk=delivery.pk, delivered_at__isnull=True, attempts=delivery.attempts
    ).update(attempts=0)
    if restarted:
        transaction.on_commit(lambda: deliveries_send([delivery.pk]))
    return bool(restarted)
