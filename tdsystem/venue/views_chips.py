"""The public chip-count page: the leader board by the floor's latest counts, for the
room's TVs (`/chips/`, the stable address, leads to the current event's) and phones. Its
board reloads itself every BOARD_SECONDS; `?top=20` shows only the first 20 (a TV that
cannot scroll)."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from tdsystem.core.forms import whole_number
from tdsystem.core.languages import screen_language
from tdsystem.events import selectors
from tdsystem.events.models import Event
from tdsystem.results.selectors_chips import chip_total, count_rows

PAGE = "venue/chips_screen.html"
BOARD_SECONDS = 15
TOP_MAX = 1000


@dataclass(frozen=True)
class BoardRow:
    rank: int
    name: str
    chips: int
    table: int | None
    big_blinds: float | None  # at the current level's big blind


def board(event: Event, top: int | None = None) -> dict:
    """The counted players by chips (the first `top`), how many are counted, and the
    current level's big blind (none during a break or before the start)."""
    rows = count_rows(event)
    clock = selectors.event_clock_payload(event.pk)
    big_blind = None if clock.get("on_break") else clock.get("big_blind")
    board_rows = []
    for row in rows:
        if row.rank is None or row.count is None:
            continue  # never counted: not on the board, in the "counted" line
        chips = row.count.chips
        board_rows.append(
            BoardRow(
                rank=row.rank,
                name=row.entry.player.name,
                chips=chips,
                table=row.entry.table.number if row.entry.table else None,
                big_blinds=round(chips / big_blind, 1) if big_blind else None,
            )
        )
    latest = max((r.count.counted_at for r in rows if r.count), default=None)
    shown = board_rows[:top] if top else board_rows
    return {
        "rows": shown,
        "half": (len(shown) + 1) // 2,  # the rows of each of the TV's two columns
        "total": chip_total(event, rows),
        "big_blind": big_blind,
        "level": clock.get("level"),
        "latest": latest,
    }


@require_safe
def chips_screen(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    screen_language(request, event.screen_language)
    top = whole_number(request.GET.get("top", ""), high=TOP_MAX)  # a TV: ?top=20
    context = {"event": event, "seconds": BOARD_SECONDS, "top": top, **board(event, top)}
    return render(request, f"{PAGE}#board" if request.htmx else PAGE, context)
