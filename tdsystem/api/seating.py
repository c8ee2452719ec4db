"""Seating: the public seats and move slips; registration, the draw, hands, move slips."""

from __future__ import annotations

import json
from decimal import Decimal

from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from ninja import Router, Status
from ninja.responses import NinjaJSONEncoder

from tdsystem.core.actors import Actor
from tdsystem.events.selectors import screen_cached
from tdsystem.players.links import link_of_entry, player_url
from tdsystem.results.selectors import places_of
from tdsystem.results.services import handforhand_hand_finish
from tdsystem.seating import selectors, services
from tdsystem.seating.entry_rules import EntryRefused
from tdsystem.seating.models import Entry as EntryRow
from tdsystem.seating.models import Move as MoveRow

from .auth import AuthedRequest, StaffToken
from .common import READ_ERRORS, WRITE_ERRORS, event_exists, event_found
from .errors import NotFound
from .schemas import (
    Bought,
    BuyIn,
    DrawIn,
    Drawn,
    DuplicateName,
    HandFinished,
    HandIn,
    Move,
    RebuyIn,
    RecentMove,
    Refused,
    Registered,
    RegisterIn,
    Seat,
)

router = Router(tags=["Seating"], exclude_unset=True)
EVENT = "/events/{int:event_id}"
seating = StaffToken("seating")


def moves_json(moves: list[MoveRow]) -> list[dict]:
    named = MoveRow.objects.filter(pk__in=[m.pk for m in moves]).select_related("entry__player")
    return [selectors.move_json(m) for m in named.order_by("pk")]


def entry_json(entry: EntryRow) -> dict:
    return {
        "entry": entry.number,
        "player": entry.player.name,
        "note": entry.player.note,
        "status": entry.status,
        "table": entry.table.number if entry.table else None,
        "seat": entry.seat,
        "chips": entry.chips,
        # Where a player out finished is results' (their standing finish).
        "place": places_of(entry.event, [entry.pk]).get(entry.pk)
        if entry.status == EntryRow.Status.BUSTED
        else None,
    }


def registered_json(enrolment: services.Enrolment) -> dict:
    """A registration's answer (a re-entry's, a ticket's): the entry, the moves its seat set
    off, and the player's own page to hand to the player (its link made now)."""
    moves = enrolment.applied.moves if enrolment.applied else []
    return entry_json(enrolment.entry) | {
        "dealt_in": enrolment.dealt_in,
        "moves": moves_json(moves),
        "player_url": player_url(link_of_entry(enrolment.entry)),
    }


@router.get(
    EVENT + "/seats",
    response={200: list[Seat], **READ_ERRORS},
    url_name="seats",
    summary="List the seats",
    description="Every active entry with its table and seat, by player name. The list is "
    "made at most once a `SCREEN_CACHE_SECONDS` (1 s): an answer may trail a change to the "
    "event by that long, and never goes back to a list older than one already answered.",
)
def seats(request: HttpRequest, event_id: int):
    # Every phone in the room loads this list after a table break: some fifty a second in a
    # field of thousands. Checking every row against the schema and encoding them cost
    # more than the rest of the answer (docs/load-and-faults.md), so the encoded answer is
    # what is kept, in the screens' cache in each language (the sort is the reader's),
    # made again at most once a second however many bust-outs come meanwhile (a trailing
    # entry). The rows are seat_list's, the documented shape (tests/api compares the two).
    key = ("seats-json", event_id, get_language())
    response = HttpResponse(
        screen_cached(key, lambda: seats_body(event_id), event=event_id, trailing=True),
        content_type="application/json; charset=utf-8",
    )
    add_never_cache_headers(response)
    return response


def seats_body(event_id: int) -> bytes:
    """The seats answer, encoded; read fresh (an unknown event is not kept: 404)."""
    event_exists(event_id)
    return json.dumps(selectors.seat_list(event_id), cls=NinjaJSONEncoder).encode()


@router.get(
    EVENT + "/moves",
    response={200: list[RecentMove], **READ_ERRORS},
    url_name="moves",
    summary="List recent move slips",
    description="Move slips of the last minutes, newest first (their ids acknowledge them).",
)
def moves(request: HttpRequest, event_id: int):
    event_exists(event_id)
    return selectors.recent_moves(event_id)


@router.post(
    EVENT + "/entries",
    auth=seating,
    response={201: Registered, **WRITE_ERRORS, 409: DuplicateName},
    url_name="register",
    summary="Register a player",
    description="A new entry. After the seat draw it is seated at once and may set off "
    "balancing moves. 409 when registration is closed (with the rule's `code`: by its "
    "level, or once the field is in the money, at its final table or heads-up, by the rule "
    "set), the member has an entry, or the name is in the field already (the answer names "
    "those entries in `existing`: send `confirm_duplicate` or a `note`). 409 with code "
    "`confirm-changes` when the entry would change the places or prizes of players in the "
    "money (listed in `changes`: send `confirm_changes`), `prize-paid` when it would change a "
    "prize already paid (never sold).",
)
def register(request: AuthedRequest, event_id: int, payload: RegisterIn):
    event = event_found(event_id)
    try:
        enrolment = services.player_register(
            event=event,
            name=payload.name,
            member_id=payload.member_id,
            note=payload.note,
            country=payload.country,
            confirm_duplicate=payload.confirm_duplicate,
            confirm_changes=payload.confirm_changes,
            actor=Actor.of(request.auth),
        )
    except services.DuplicateName as exc:
        existing = [entry_json(entry) for entry in exc.existing]
        return Status(409, {"error": str(exc), "existing": existing})
    except EntryRefused as exc:
        return _refused(exc)
    return Status(201, registered_json(enrolment))


@router.post(
    EVENT + "/draw",
    auth=seating,
    response={200: Drawn, **WRITE_ERRORS},
    url_name="draw",
    summary="Draw the seats",
    description="Seats every registered entry at random. 409 when the seats are drawn already.",
)
def draw(request: AuthedRequest, event_id: int, payload: DrawIn | None = None):
    event = event_found(event_id)
    seed = payload.seed if payload else None
    seated = services.seats_draw(event=event, seed=seed, actor=Actor.of(request.auth))
    return {"seated": seated}


@router.post(
    EVENT + "/tables/{int:number}/hand",
    auth=seating,
    response={200: HandFinished, **WRITE_ERRORS},
    url_name="hand",
    summary="Finish a hand at a table",
    description="Moves the button and the blinds on. `hand` is required (400 without it); "
    "the same hand finished twice answers 409 and counts once. At a halted table (short of "
    "players until balanced, by the event's rule set) the hand answers 409 with the reason "
    "unless `confirm_halted` is true. During hand-for-hand the table's report is collected "
    "(`hand_for_hand`).",
)
def hand(request: AuthedRequest, event_id: int, number: int, payload: HandIn):
    event_exists(event_id)
    report = handforhand_hand_finish(
        event_id=event_id,
        table_number=number,
        expected_hand=payload.hand,
        confirm_halted=payload.confirm_halted,
        actor=Actor.of(request.auth),
    )
    table = report.table
    return {
        "table": table.number,
        "hand": table.hand_number,
        "button": table.button,
        "small_blind": table.small_blind,
        "big_blind": table.big_blind,
        "hand_for_hand": None
        if report.hand is None
        else {
            "hand": report.hand,
            "waiting_for": report.waiting_for,
            "completed": report.completed,
        },
    }


@router.post(
    EVENT + "/moves/{int:move_id}/ack",
    auth=seating,
    response={200: Move, **WRITE_ERRORS},
    url_name="ack",
    summary="Acknowledge a move slip",
    description="The floor carried out the move. A second acknowledgement changes nothing.",
)
def acknowledge(request: AuthedRequest, event_id: int, move_id: int):
    event_exists(event_id)
    if not MoveRow.objects.filter(pk=move_id, event_id=event_id).exists():
        raise NotFound(_("no move slip %(id)s") % {"id": move_id})
    move = services.move_acknowledge(
        event_id=event_id, move_id=move_id, actor=Actor.of(request.auth)
    )
    return selectors.move_json(move)


def _entry_numbered(event_id: int, number: int) -> EntryRow:
    entry = EntryRow.objects.filter(event_id=event_id, number=number).first()
    if entry is None:
        raise NotFound(_("no entry #%(number)s in this event") % {"number": number})
    return entry


def _refused(exc: EntryRefused) -> Status:
    params = {k: v if isinstance(v, int) else str(v) for k, v in exc.refusal.params.items()}
    body: dict[str, object] = {"error": str(exc), "code": exc.refusal.code, "params": params}
    if exc.changes:
        body["changes"] = [
            {
                "entry": c.number,
                "player": c.name,
                "place_before": c.place_before,
                "place_after": c.place_after,
                "prize_before": str(c.prize_before.quantize(CENT)),
                "prize_after": str(c.prize_after.quantize(CENT)),
                "paid": c.paid,
            }
            for c in exc.changes
        ]
    return Status(409, body)


CENT = Decimal("0.01")


def _bought(purchase) -> dict:
    entry = EntryRow.objects.select_related("player").get(pk=purchase.entry_id)
    return {
        "entry": entry.number,
        "player": entry.player.name,
        "kind": purchase.kind,
        "chips": purchase.chips,
        "amount": str(purchase.amount),
        "fee": str(purchase.fee),
        "entry_chips": entry.chips,
    }


BUY_ERRORS = {**WRITE_ERRORS, 409: Refused}


@router.post(
    EVENT + "/entries/{int:number}/rebuy",
    auth=seating,
    response={200: Bought, **BUY_ERRORS},
    url_name="rebuy",
    summary="Rebuy for an entry",
    description="The event's rebuy: its chips, its price to the prize pool and its fee. "
    "`stack` is what the player has now (a rebuy needs the event's limit or fewer). 409 with "
    "the rule's `code` when the rules refuse it (the period is over, the limit is reached, "
    "the stack is over the limit, the event has no rebuys).",
)
def rebuy(request: AuthedRequest, event_id: int, number: int, payload: RebuyIn | None = None):
    event_exists(event_id)
    entry = _entry_numbered(event_id, number)
    try:
        purchase = services.entry_purchase(
            event_id=event_id,
            entry_id=entry.pk,
            kind="rebuy",
            stack=payload.stack if payload else None,
            confirm_changes=payload.confirm_changes if payload else False,
            actor=Actor.of(request.auth),
        )
    except EntryRefused as exc:
        return _refused(exc)
    return _bought(purchase)


@router.post(
    EVENT + "/entries/{int:number}/addon",
    auth=seating,
    response={200: Bought, **BUY_ERRORS},
    url_name="addon",
    summary="The add-on for an entry",
    description="The event's add-on, once per player, at the event's add-on break. 409 with "
    "the rule's `code` when the rules refuse it.",
)
def addon(request: AuthedRequest, event_id: int, number: int, payload: BuyIn | None = None):
    event_exists(event_id)
    entry = _entry_numbered(event_id, number)
    try:
        purchase = services.entry_purchase(
            event_id=event_id,
            entry_id=entry.pk,
            kind="addon",
            confirm_changes=payload.confirm_changes if payload else False,
            actor=Actor.of(request.auth),
        )
    except EntryRefused as exc:
        return _refused(exc)
    return _bought(purchase)


@router.post(
    EVENT + "/entries/{int:number}/reentry",
    auth=seating,
    response={201: Registered, **BUY_ERRORS},
    url_name="reentry",
    summary="Re-enter a busted entry",
    description="A new entry for the busted player, seated by a new draw. 409 with the rule's "
    "`code` when the rules refuse it (no re-entries, the limit, the period, the field closed "
    "as for a registration); `confirm-changes` and `prize-paid` as for a registration.",
)
def reentry(request: AuthedRequest, event_id: int, number: int, payload: BuyIn | None = None):
    event_exists(event_id)
    entry = _entry_numbered(event_id, number)
    try:
        enrolment = services.entry_reenter(
            event_id=event_id,
            entry_id=entry.pk,
            confirm_changes=payload.confirm_changes if payload else False,
            actor=Actor.of(request.auth),
        )
    except EntryRefused as exc:
        return _refused(exc)
    return Status(201, registered_json(enrolment))
