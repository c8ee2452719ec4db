"""Seating writes for integrations and floor apps: bearer token, JSON in and out.

Bad input answers 400 with {"error", "field"}; a request the rules refuse answers 409
with {"error"}; in both cases nothing has changed. Entries are named by their entry
number within the event, as players and the public seats JSON know them.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from tdsystem.core.actors import Actor
from tdsystem.events.api import staff_json_write
from tdsystem.events.models import Event
from tdsystem.results.services import bustout_record, handforhand_hand_finish

from . import services
from .errors import SeatingError
from .models import Entry, Move
from .selectors import move_json


def _moves(moves: list[Move]) -> list[dict]:
    named = Move.objects.filter(pk__in=[m.pk for m in moves]).select_related("entry__player")
    return [move_json(m) for m in named.order_by("pk")]


def _entry(entry: Entry) -> dict:
    return {
        "entry": entry.number,
        "player": entry.player.name,
        "note": entry.player.note,
        "status": entry.status,
        "table": entry.table.number if entry.table else None,
        "seat": entry.seat,
        "chips": entry.chips,
        "place": entry.place,
    }


seating_write = staff_json_write("seating")


def _int_field(data: dict, name: str) -> int | None:
    value = data.get(name)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise SeatingError(f"{name} must be a whole number", field=name)
    return value


def _text_field(data: dict, name: str, *, required: bool = False) -> str:
    value = data.get(name, "")
    if not isinstance(value, str) or (required and not value.strip()):
        kind = "a non-empty string" if required else "a string"
        raise SeatingError(f"{name} must be {kind}", field=name)
    return value


def _bool_field(data: dict, name: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise SeatingError(f"{name} must be true or false", field=name)
    return value


@seating_write
def register(request: HttpRequest, data: dict, event_id: int) -> JsonResponse:
    """A new entry. A name already in the field answers 409 naming the entries, with
    `existing`; send `confirm_duplicate: true`, or a `note` that tells them apart."""
    try:
        enrolment = services.player_register(
            event=Event.objects.get(pk=event_id),
            name=_text_field(data, "name", required=True),
            member_id=_text_field(data, "member_id"),
            note=_text_field(data, "note"),
            confirm_duplicate=_bool_field(data, "confirm_duplicate"),
            actor=Actor.of(request.api_user),
        )
    except services.DuplicateName as exc:
        existing = [_entry(entry) for entry in exc.existing]
        return JsonResponse({"error": str(exc), "existing": existing}, status=409)
    moves = enrolment.applied.moves if enrolment.applied else []
    body = _entry(enrolment.entry) | {"dealt_in": enrolment.dealt_in, "moves": _moves(moves)}
    return JsonResponse(body, status=201)


@seating_write
def draw(request: HttpRequest, data: dict, event_id: int) -> JsonResponse:
    seated = services.seats_draw(
        event=Event.objects.get(pk=event_id),
        seed=_int_field(data, "seed"),
        actor=Actor.of(request.api_user),
    )
    return JsonResponse({"seated": seated})


@seating_write
def hand(request: HttpRequest, data: dict, event_id: int, number: int) -> JsonResponse:
    # Through results: during hand-for-hand the table's report is collected there.
    report = handforhand_hand_finish(
        event_id=event_id,
        table_number=number,
        # Required: a retried POST must not finish the next hand (400 without it).
        expected_hand=services.hand_count_checked(data.get("hand")),
        actor=Actor.of(request.api_user),
    )
    table = report.table
    return JsonResponse(
        {
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
    )


@seating_write
def eliminate(request: HttpRequest, data: dict, event_id: int, number: int) -> JsonResponse:
    entry_id = (
        Entry.objects.filter(event_id=event_id, number=number).values_list("pk", flat=True).first()
    )
    if entry_id is None:
        return JsonResponse({"error": f"no entry #{number}", "field": "entry"}, status=404)
    # A bust-out of one player on its own hand: places, prizes and undo live in results.
    recorded = bustout_record(
        event_id=event_id, entry_ids=[entry_id], actor=Actor.of(request.api_user)
    )
    result = recorded.rebalance
    entry = Entry.objects.select_related("player", "table").get(pk=entry_id)
    return JsonResponse(
        _entry(entry)
        | {
            "bustout": recorded.bustout.pk,
            "rebalance": result.kind if result else None,
            "broken": result.broken if result else [],
            "moves": _moves(result.moves) if result else [],
        }
    )


@seating_write
def acknowledge(request: HttpRequest, data: dict, event_id: int, move_id: int) -> JsonResponse:
    if not Move.objects.filter(pk=move_id, event_id=event_id).exists():
        return JsonResponse({"error": f"no move slip {move_id}", "field": "move"}, status=404)
    move = services.move_acknowledge(
        event_id=event_id, move_id=move_id, actor=Actor.of(request.api_user)
    )
    return JsonResponse(move_json(move))
