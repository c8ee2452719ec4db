"""The players a ticket given by hand may go to: found by member id or by name."""

from __future__ import annotations

from .models import Player, search_key

FOUND_MAX = 8


def ticket_players(query: str, limit: int = FOUND_MAX) -> list[Player]:
    """The player whose member id is the query, then the players whose name holds it
    (case, width and accents do not count, as in the seat search), by name. Two queries."""
    query = " ".join(query.split())
    if not query:
        return []
    member = list(Player.objects.filter(member_id=query)[:1])
    names = Player.objects.filter(search_key__contains=search_key(query))
    if member:
        names = names.exclude(pk=member[0].pk)
    return member + list(names.order_by("search_key", "pk")[: limit - len(member)])
