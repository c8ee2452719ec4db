"""What the venue clock screen shows beside the clock: move slips, payouts, the chip leader.

Assembled for the short screen cache in `selectors.event_clock_payload`, never per poll.
The results and seating apps import `events`, so their modules are imported inside the
functions here: this module must stay importable from `events.selectors`.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from django.db.models import Q
from django.utils import timezone

from .models import Event

LAYOUTS = ("clock", "payouts", "draw")
RECENT_SLIPS = 20


def layout_of(value: str | None) -> str:
    """The screen layout named in the URL; anything unknown is the plain clock."""
    return value if value in LAYOUTS else LAYOUTS[0]


def screen_moves(event_id: int) -> list[dict]:
    """Every slip not yet acknowledged, and the acknowledged ones of the last minutes.

    `seating.selectors.recent_moves` keeps the newest 20 of the last minutes only: after a
    table break the room must still see every player who has to walk. Each slip is
    `slip_row`'s, as there.
    """
    from tdsystem.seating.models import Move
    from tdsystem.seating.selectors import SLIP_MINUTES, slip_row

    since = timezone.now() - timedelta(minutes=SLIP_MINUTES)
    moves = (
        Move.objects.filter(event_id=event_id)
        .filter(Q(acknowledged_at__isnull=True) | Q(created_at__gte=since))
        .select_related("entry__player")
        .order_by("-created_at", "-id")
    )
    rows: list[dict] = []
    recent_done = 0
    for m in moves:
        if m.acknowledged_at is not None:
            recent_done += 1
            if recent_done > RECENT_SLIPS:
                continue
        rows.append(slip_row(m))
    return rows


def payouts(event: Event, figures: dict) -> list[dict]:
    """Each paid place's prize for the field as it is now (`figures` from field_figures)."""
    from tdsystem.results.errors import ResultsError
    from tdsystem.results.selectors import money
    from tdsystem.results.services import standings

    plan = standings.plan_or_default(event)
    try:
        prizes = standings.prizes_by_place(plan, figures["entries"], Decimal(figures["prize_pool"]))
    except ResultsError:
        return []  # the console says why; the room sees no table rather than a wrong one
    return [{"place": i, "amount": money(p)} for i, p in enumerate(prizes, start=1)]


def chip_leader(event: Event) -> dict | None:
    """The biggest stack among the players still in, from the floor's latest chip counts."""
    from tdsystem.results.models import ChipCount
    from tdsystem.seating.models import Entry

    top = (
        ChipCount.objects.filter(event=event, entry__status=Entry.Status.ACTIVE)
        .select_related("entry__player", "entry__table")
        .order_by("-chips", "counted_at")
        .first()
    )
    if top is None:
        return None
    return {
        "player": top.entry.player.name,
        "entry": top.entry.number,
        "table": top.entry.table.number if top.entry.table_id else None,
        "seat": top.entry.seat,
        "chips": top.chips,
        "counted_at": top.counted_at.isoformat(),
    }


def screen_extras(event: Event) -> dict:
    """The cached part of the clock JSON: field figures, slips, payouts, chip leader."""
    from .selectors import field_figures

    figures = field_figures(event)
    return {
        "moves": screen_moves(event.pk),
        **figures,
        "payouts": payouts(event, figures),
        "chip_leader": chip_leader(event),
    }
