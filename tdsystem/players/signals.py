"""What the players' app tells the apps above it (printing, the webhooks' senders).

`seat_ready` is sent on commit when an alternate is called (a seat is held for them):
`sender` is the Alternate class, `alternate` the row, `due_at` the time the hold ends.
"""

from __future__ import annotations

from django.dispatch import Signal

seat_ready = Signal()
