"""What the venue clock screen shows beside the clock: move slips, payouts, the chip leader.

Registered in events' `hooks` (VenueConfig.ready), so the clock JSON every screen polls
carries it; assembled for the short screen cache in `events.selectors.event_clock_payload`,
never per poll.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from django.db.models import Q
from django.utils import timezone

from tdsystem.engine import entry_rules
from tdsystem.engine import payouts as payout_rules
from tdsystem.events.models import Event
from tdsystem.results.errors import ResultsError
from tdsystem.results.models import ChipCount, Finish
from tdsystem.results.selectors import money
from tdsystem.results.services import standings
from tdsystem.results.services.deals import deal_amounts
from tdsystem.results.templatetags.results_tags import ordinal
from tdsystem.seating.balancing import final_table_size
from tdsystem.seating.entry_rules import refusal_text
from tdsystem.seating.models import Entry, Move
from tdsystem.seating.selectors import SLIP_MINUTES, slip_row
from tdsystem.seating.selectors_dayend import last_hands_screen

LAYOUTS = ("clock", "payouts", "draw")
RECENT_SLIPS = 20
# The slips the clock JSON carries: its first page, with the count of them all. After a
# table break or a redraw hundreds are open at once (289 after 330 registrations: 89 KB
# a poll, every screen every second); the ticker asks for the other pages when it comes
# to them (`screen_slips_page`, GET /api/events/<id>/slips?page=N).
SLIPS_PAGE = 20


def layout_of(value: str | None) -> str:
    """The screen layout named in the URL; anything unknown is the plain clock."""
    return value if value in LAYOUTS else LAYOUTS[0]


def _screen_move_ids(event_id: int) -> list[int]:
    """The ids of the screen's slips, newest first: every slip not yet acknowledged, and
    the acknowledged ones of the last minutes (`seating.selectors.recent_moves` keeps the
    newest 20 of the last minutes only: after a table break the room must still see every
    player who has to walk). Read as two columns, so hundreds are counted and cut without
    making (and wording) every slip."""
    since = timezone.now() - timedelta(minutes=SLIP_MINUTES)
    rows = (
        Move.objects.filter(event_id=event_id)
        .filter(Q(acknowledged_at__isnull=True) | Q(created_at__gte=since))
        .order_by("-created_at", "-id")
        .values_list("id", "acknowledged_at")
    )
    ids: list[int] = []
    recent_done = 0
    for pk, acknowledged_at in rows:
        if acknowledged_at is not None:
            recent_done += 1
            if recent_done > RECENT_SLIPS:
                continue
        ids.append(pk)
    return ids


def _slip_rows(ids: list[int]) -> list[dict]:
    """The slips of `ids`, in that order: each `slip_row`'s, as the moves API gives it."""
    moves = Move.objects.filter(pk__in=ids).select_related("entry__player").in_bulk()
    return [slip_row(moves[pk]) for pk in ids if pk in moves]


def _page_rows(ids: list[int], page: int) -> list[dict]:
    """Page `page` (from 1) of the slips of `ids`; a page past the last is empty."""
    start = (page - 1) * SLIPS_PAGE
    return _slip_rows(ids[start : start + SLIPS_PAGE])


def slips_of_the_clock(event_id: int) -> dict:
    """The clock JSON's slips: the first page and how many there are in all."""
    ids = _screen_move_ids(event_id)
    return {"moves": _page_rows(ids, 1), "moves_count": len(ids)}


def screen_slips_page(event_id: int, page: int) -> dict:
    """One page of the screen's slips (`_screen_move_ids`, newest first), numbered from 1;
    a page past the last is empty."""
    ids = _screen_move_ids(event_id)
    return {
        "count": len(ids),
        "page": page,
        "pages": max(1, -(-len(ids) // SLIPS_PAGE)),
        "page_size": SLIPS_PAGE,
        "moves": _page_rows(ids, page),
    }


def payouts(event: Event, figures: dict) -> list[dict]:
    """Each paid place's prize for the field as it is now (`figures` from field_figures)."""
    plan = standings.plan_or_default(event)
    try:
        # A flight's screen shows its event's payouts: the whole event's field, pool, plan.
        entries = figures.get("whole_event", figures)["entries"]
        if event.parent_id is not None:
            plan = standings.plan_or_default(event.parent)
        prizes = standings.prizes_by_place(plan, entries, Decimal(figures["prize_pool"]))
    except ResultsError:
        return []  # the console says why; the room sees no table rather than a wrong one
    return [{"place": i, "amount": money(p)} for i, p in enumerate(prizes, start=1)]


def chip_leader(event: Event) -> dict | None:
    """The biggest stack among the players still in, from the floor's latest chip counts."""
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


def final_standings(event: Event) -> dict | None:
    """The last screen of a finished event: its final table's places with the players and
    what each won (a standing deal's amounts where one was made), the winner first. None
    while the event plays, and for a flight (its players go on to Day 2)."""
    if event.status != Event.Status.FINISHED or event.parent_id is not None:
        return None
    size = final_table_size(event) or event.seats_per_table
    rows = list(
        Finish.objects.filter(event=event, undone_at__isnull=True, place__lte=size)
        .order_by("place", "slot", "entry_id")
        .values_list("place", "place_to", "entry__player__name", "entry__number", "prize")
    )
    if not rows:
        return None
    dealt = deal_amounts(event)
    places = [
        {
            "place": place,
            "label": ordinal(place) if place == to else payout_rules.place_label(place, to),
            "player": name,
            "entry": number,
            "prize": money(dealt.get(number, prize)),
        }
        for place, to, name, number, prize in rows
    ]
    winners = [p for p, (place, to, *_) in zip(places, rows, strict=True) if place == to == 1]
    return {"winner": winners[0] if winners else None, "places": places, "deal": bool(dealt)}


def closed_entries(event: Event, figures: dict, paid: int, last_hands: bool) -> dict | None:
    """Why the field takes no entry nor re-entry now whatever its level ({"code", "text"}:
    the day's last hands, heads-up, the money or the final table by the rule set), or None:
    registration's own rule (`seating.entry_rules.entries_closed`) on the figures the panel
    has read already. The screens then show neither late registration nor re-entries."""
    if event.status == Event.Status.FINISHED:
        return None  # the clock's own answer says it all
    left = figures["players_left"]
    now = entry_rules.FieldNow(
        left=left,
        out=figures["entries"] - left,
        paid=0 if event.parent_id is not None else paid,  # a flight pays no prizes
        final_table=final_table_size(event) or event.seats_per_table,
        last_hands=last_hands,
    )
    refusal = entry_rules.field_refusal(event.rules.entries_close, now)
    if refusal is None:
        return None
    return {"code": refusal.code, "text": refusal_text(refusal)}


def in_the_money(event: Event, figures: dict, paid: int) -> bool:
    """The bubble has burst: every player still in is paid (a flight's players are not
    paid before the event's Day 2, so a flight never says so)."""
    left = figures["players_left"]
    return event.parent_id is None and paid > 0 and 1 < left <= paid


def screen_panel(event: Event, figures: dict) -> dict:
    """The side panel's part of the clock JSON (`figures` from events' field_figures)."""
    prizes = payouts(event, figures)
    last_hands, ending = last_hands_screen(event)
    paid = sum(1 for p in prizes if Decimal(p["amount"]) > 0)
    return {
        **slips_of_the_clock(event.pk),
        "payouts": prizes,
        "in_the_money": in_the_money(event, figures, paid),
        "chip_leader": chip_leader(event),
        "last_hands": last_hands,
        "entries_closed": closed_entries(event, figures, paid, ending),
        "final": final_standings(event),
    }
