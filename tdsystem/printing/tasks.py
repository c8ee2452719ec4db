"""Celery interface to printing: a printer's queue sent, and beat's sweep of the waiting."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(
    name="tdsystem.printing.tasks.printer_drain",
    bind=True,
    acks_late=True,
    max_retries=None,
    ignore_result=True,
)
def printer_drain(self, printer_id: int) -> int:
    """Print the printer's queue in order. While the printer cannot take a document, one
    retry a printer waits (PRINT_RETRY_SECONDS); a duplicate finds the printer held or its
    queue empty and does nothing."""
    if self.request.retries:
        services.retry_done(printer_id)  # this is the printer's retry: the next may be claimed
    drained = services.printer_drain(printer_id=printer_id)
    if drained.waiting is not None:
        delay = services.retry_delay(drained.waiting.attempts)
        if services.retry_claim(printer_id, delay):
            raise self.retry(countdown=delay)
    return drained.printed


@shared_task(name="tdsystem.printing.tasks.printers_sweep", ignore_result=True)
def printers_sweep() -> int:
    """Start the queue of every printer with documents waiting and no retry due later (a
    worker that held its retry may have gone)."""
    waiting = services.printers_waiting()
    for printer_id in waiting:
        printer_drain.delay(printer_id)
    return len(waiting)
