"""Read models for seat pages and the API."""

from __future__ import annotations

from django.db.models import Q

from .models import Entry


def seat_list(event_id: int) -> list[dict]:
    rows = (
        Entry.objects.filter(event_id=event_id, status=Entry.Status.ACTIVE)
        .select_related("player", "table")
        .order_by("player__name", "number")
    )
    return [
        {
            "player": e.player.name,
            "entry": e.number,
            "table": e.table.number if e.table else None,
            "seat": e.seat,
        }
        for e in rows
    ]


def seat_search(event_id: int, query: str, limit: int = 20) -> list[Entry]:
    query = query.strip().lstrip("#")
    if not query:
        return []
    match = Q(player__name__icontains=query)
    if query.isdigit():
        match |= Q(number=int(query))
    return list(
        Entry.objects.filter(match, event_id=event_id)
        .select_related("player", "table")
        .order_by("status", "player__name")[:limit]
    )


def recent_moves(event_id: int, minutes: int = 5) -> list[dict]:
    """Move slips of the last minutes, newest first, for the clock screen and the lookup."""
    from datetime import timedelta

    from django.utils import timezone

    from .models import Move

    since = timezone.now() - timedelta(minutes=minutes)
    moves = (
        Move.objects.filter(event_id=event_id, created_at__gte=since)
        .select_related("entry__player")
        .order_by("-created_at", "-id")[:20]
    )
    return [
        {
            "text": str(m),
            "entry": m.entry.number,
            "to_table": m.to_table,
            "to_seat": m.to_seat,
            "acknowledged": m.acknowledged_at is not None,
        }
        for m in moves
    ]
