"""What a write request writes besides its change, and keeps whatever becomes of it.

Every write request runs in one transaction (`core.writes.WriteMiddleware`), rolled back
when its answer is an error. A few writes record the request itself rather than its
change, and must stay when the change is refused: the audit log's "refused" entry, the
API token's last use. They are handed to `outside_write`, which runs them once the
request's transaction has ended, committed or rolled back, each on its own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest

logger = logging.getLogger(__name__)

_PENDING = "_tdsystem_outside_writes"


def outside_write(request: HttpRequest, write: Callable[[], object]) -> None:
    """Run `write` so that it stays whatever becomes of the request's change: after the
    request's transaction when it has one, else now."""
    pending = getattr(request, _PENDING, None)
    if pending is None:
        write()
    else:
        pending.append(write)


def outside_writes_held(request: HttpRequest) -> None:
    """From now on `outside_write` holds the request's writes until `outside_writes_run`."""
    setattr(request, _PENDING, [])


def outside_writes_run(request: HttpRequest) -> None:
    """The writes held for the request, each on its own; one that fails is
    logged and does not fail the answer (its change is settled by now)."""
    pending = getattr(request, _PENDING, None) or []
    if hasattr(request, _PENDING):
        delattr(request, _PENDING)
    for write in pending:
        try:
            write()
        except Exception:
            logger.exception("a record of %s %s could not be written", request.method, request.path)
