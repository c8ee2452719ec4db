"""Celery interface to the webhooks: a delivery tried (and retried), beat's sweep of the
deliveries never sent (no broker when they were made)."""

from __future__ import annotations

from celery import shared_task

from . import webhooks


@shared_task(
    name="tdsystem.players.tasks_webhooks.webhook_deliver",
    bind=True,
    acks_late=True,
    max_retries=None,  # the attempt count is the delivery's (webhooks.ATTEMPTS)
    ignore_result=True,
)
def webhook_deliver(self, delivery_id: int, attempts: int = 0) -> bool:
    """One try of the delivery after `attempts` tries; on failure the next one after the
    backoff, until webhooks.ATTEMPTS. A duplicate or stale task finds its attempt taken
    and stops."""
    outcome = webhooks.delivery_attempt(delivery_id=delivery_id, expected=attempts)
    if outcome.retry:
        raise self.retry(
            args=[delivery_id, outcome.attempts], countdown=webhooks.retry_delay(outcome.attempts)
        )
    return outcome.delivered


@shared_task(name="tdsystem.players.tasks_webhooks.webhooks_sweep", ignore_result=True)
def webhooks_sweep() -> int:
    lost = webhooks.deliveries_lost()
    webhooks.deliveries_send(lost)
    return len(lost)
