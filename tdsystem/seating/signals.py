"""What seating tells the apps above it (they connect from their AppConfig.ready)."""

from __future__ import annotations

from django.dispatch import Signal

# Sent inside the transaction that wrote a plan's moves (a balancing move, a table break,
# a redraw, a reserved seat): `event_id`, `move_ids` (the Move rows, the slips) and
# `broken` (the numbers of the tables that broke). A receiver that acts on them does so on
# commit: the plan may still be rolled back.
moves_applied = Signal()

# Sent inside the transaction that put tables into play or released them (the console's
# table set-up): `event_id`, `opened` and `released` (table numbers). Tables broken by a
# plan are told by `moves_applied`'s `broken`. A receiver acts on commit.
tables_changed = Signal()
