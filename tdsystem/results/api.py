"""Bust-outs for floor apps and integrations: bearer token, JSON in and out.

Bad input answers 400 with {"error", "field"}; a request the current state refuses
("already out", an undo that clashes with later actions) answers 409 with {"error"}; in
both cases nothing has changed. Players are named by their entry number in the event.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tdsystem.core.actors import Actor
from tdsystem.events.api import staff_json_write
from tdsystem.events.models import Event
from tdsystem.seating.models import Entry
from tdsystem.seating.selectors import move_json

from . import selectors, services
from .errors import ResultsError
from .models import Finish

results_write = staff_json_write("bustout")


def _int(data: dict, name: str, *, required: bool = False) -> int | None:
    value = data.get(name)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ResultsError(f"{name} must be a whole number", field=name)
    return value


def _entry_ids(event_id: int, data: dict) -> tuple[list[int], dict[int, int]]:
    numbers = data.get("entries")
    if not isinstance(numbers, list) or not numbers:
        raise ResultsError("entries: a list of the entry numbers who are out", field="entries")
    if any(isinstance(n, bool) or not isinstance(n, int) for n in numbers):
        raise ResultsError("entries must be whole numbers (entry numbers)", field="entries")
    if len(numbers) > 10:
        raise ResultsError("at most 10 players on one hand", field="entries")
    ids = dict(
        Entry.objects.filter(event_id=event_id, number__in=numbers).values_list("number", "pk")
    )
    unknown = [n for n in numbers if n not in ids]
    if unknown:
        raise ResultsError(f"no entry #{unknown[0]} in this event", field="entries")
    raw = data.get("stacks", {})
    if not isinstance(raw, dict):
        raise ResultsError(
            'stacks: an object of entry number to chips, e.g. {"12": 4000}', field="stacks"
        )
    stacks = {}
    for key, chips in raw.items():
        number = int(key) if str(key).isdigit() else None
        if number not in ids:
            raise ResultsError(f"stacks names #{key}, who is not in entries", field="stacks")
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise ResultsError("a starting stack is a whole number of chips", field="stacks")
        stacks[ids[number]] = chips
    return [ids[n] for n in numbers], stacks


def _finish(finish: Finish) -> dict:
    return {
        "entry": finish.entry.number,
        "player": finish.entry.player.name,
        "place": finish.place,
        "place_to": finish.place_to,
        "place_label": finish.place_label,
        "prize": selectors.money(finish.prize),
        "starting_stack": finish.starting_stack,
    }


@results_write
def record(request: HttpRequest, data: dict, event_id: int) -> JsonResponse:
    entry_ids, stacks = _entry_ids(event_id, data)
    done = services.bustout_record(
        event_id=event_id,
        entry_ids=entry_ids,
        table_number=_int(data, "table"),
        hand=_int(data, "hand"),
        stacks=stacks,
        actor=Actor.of(request.api_user),
    )
    rebalance = done.rebalance
    moves = (
        done.bustout.moves.select_related("entry__player").order_by("pk")
        if rebalance and rebalance.moves
        else []
    )
    body = {
        "bustout": done.bustout.pk,
        "table": done.bustout.table_number,
        "hand": done.bustout.hand,
        "hand_for_hand": done.bustout.group.hfh_hand is not None,
        "finishes": [_finish(f) for f in done.finishes],
        "group": [_finish(f) for f in sorted(done.group, key=lambda f: (f.place, f.entry_id))],
        "players_left": done.players_left,
        "rebalance": rebalance.kind if rebalance else None,
        "broken": rebalance.broken if rebalance else [],
        "moves": [move_json(m) for m in moves],
        "winner": _finish(done.winner) if done.winner else None,
    }
    return JsonResponse(body, status=201)


@results_write
def undo(request: HttpRequest, data: dict, event_id: int, bustout_id: int) -> JsonResponse:
    undone = services.bustout_undo(
        event_id=event_id, bustout_id=bustout_id, actor=Actor.of(request.api_user)
    )
    return JsonResponse(
        {
            "bustout": undone.bustout.pk,
            "undone": True,
            "entries": [
                {
                    "entry": e.number,
                    "player": e.player.name,
                    "table": e.table.number,
                    "seat": e.seat,
                }
                for e in undone.entries
            ],
            "moves_withdrawn": undone.moves_reverted,
            "tables_back_in_play": undone.tables_restored,
        }
    )


@never_cache
@require_GET
def results(request: HttpRequest, event_id: int) -> JsonResponse:
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return JsonResponse({"error": f"no event {event_id}"}, status=404)
    return JsonResponse(selectors.results_payload(event))
