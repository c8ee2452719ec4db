"""The JSON API described as an OpenAPI 3.1 document, built here by hand.

The API's views are plain Django functions, so no framework can read the document out of
them: it is written next to them instead, and `tests/api/test_openapi.py` fails when a
route under /api/ is missing from it. `tdsystem.core.api_docs` serves it as JSON and as
the HTML reference at /api/docs. Each operation carries `x-area` (the group it is listed
under on that page) and, for writes, `x-right` (the staff right its token needs).
"""

from __future__ import annotations

from copy import deepcopy
from functools import cache

OPENAPI_VERSION = "3.1.0"
API_VERSION = "1"
DAY_SECONDS = 24 * 3600

AREAS = (
    ("Events and clock", "The events and their level clock."),
    ("Seating", "Registration, the seat draw, hands, eliminations and move slips."),
    ("Bust-outs and results", "Bust-out reports, undo, and the standings with prizes."),
    ("Reference", "This document."),
)

CLOCK_ACTIONS = ["start", "pause", "resume", "next", "previous", "add_time", "set_time"]


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(schema: dict) -> dict:
    kind = schema.get("type")
    if kind:
        return {**schema, "type": [kind, "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


def _obj(properties: dict, required: list[str] | None = None, **extra) -> dict:
    schema = {"type": "object", "properties": properties, **extra}
    if required is not None:
        schema["required"] = required
    return schema


INT = {"type": "integer"}
STR = {"type": "string"}
BOOL = {"type": "boolean"}
MONEY = {"type": "string", "pattern": r"^-?\d+\.\d{2}$", "description": "Two decimals."}
ENTRY_NUMBER = {"type": "integer", "minimum": 1, "description": "Entry number in the event."}
EVENT_STATUS = {"type": "string", "enum": ["planned", "running", "paused", "finished"]}
MOVE_REASON = {"type": "string", "enum": ["balance", "break", "redraw", "manual"]}


def _schemas() -> dict:
    level = _obj(
        {
            "level": INT,
            "small_blind": _nullable(INT),
            "big_blind": _nullable(INT),
            "ante": _nullable(INT),
            "small_bet": _nullable(INT),
            "big_bet": _nullable(INT),
            "min_raise_to": _nullable(INT),
            "max_raise_to": _nullable(INT),
            "duration_seconds": INT,
        }
    )
    move_fields = {
        "id": INT,
        "entry": ENTRY_NUMBER,
        "player": STR,
        "from_table": _nullable(INT),
        "from_seat": _nullable(INT),
        "to_table": INT,
        "to_seat": INT,
        "reason": MOVE_REASON,
        "dealt_in": {
            "type": "boolean",
            "description": "The player is dealt into the next hand at the new seat.",
        },
    }
    finish = _obj(
        {
            "entry": ENTRY_NUMBER,
            "player": STR,
            "place": INT,
            "place_to": {"type": "integer", "description": "Last place of a tie; else = place."},
            "place_label": {"type": "string", "examples": ["17", "26-27"]},
            "prize": MONEY,
            "starting_stack": _nullable(INT),
        },
        required=["entry", "player", "place", "place_to", "place_label", "prize"],
    )
    entry = {
        "entry": ENTRY_NUMBER,
        "player": STR,
        "note": {"type": "string", "description": "Tells same-named players apart."},
        "status": {"type": "string", "enum": ["active", "busted"]},
        "table": _nullable(INT),
        "seat": _nullable(INT),
        "chips": INT,
        "place": _nullable(INT),
    }
    return {
        "Error": _obj(
            {
                "error": {"type": "string", "description": "What went wrong, for people."},
                "field": {"type": "string", "description": "The body field at fault (400)."},
            },
            required=["error"],
        ),
        "EventSummary": _obj(
            {
                "id": INT,
                "name": STR,
                "status": EVENT_STATUS,
                "archived": {
                    "type": "boolean",
                    "description": "Filed away by the director (GET /api/events only).",
                },
            },
            required=["id", "name", "status"],
        ),
        "Level": level,
        "RecentMove": _obj(
            {
                **move_fields,
                "text": {"type": "string", "description": "The slip as one line."},
                "created_at": {"type": "string", "format": "date-time"},
                "acknowledged": BOOL,
            }
        ),
        "Clock": _obj(
            {
                "event": _obj(
                    {"id": INT, "name": STR, "status": EVENT_STATUS, "betting": STR, "game": STR}
                ),
                "status": {
                    "type": "string",
                    "enum": ["not-started", "running", "paused", "finished"],
                },
                "version": {
                    "type": "integer",
                    "description": "Grows with every change; screens follow it.",
                },
                "level_index": INT,
                "level": _nullable(INT),
                "on_break": BOOL,
                "break_note": _nullable(STR),
                "small_blind": _nullable(INT),
                "big_blind": _nullable(INT),
                "ante": _nullable(INT),
                "ante_type": STR,
                "small_bet": _nullable(INT),
                "big_bet": _nullable(INT),
                "min_raise_to": _nullable(INT),
                "max_raise_to": {**_nullable(INT), "description": "Null unless pot-limit."},
                "schedule_assumption": STR,
                "duration_ms": INT,
                "remaining_ms": INT,
                "level_ends_at": {**_nullable(STR), "format": "date-time"},
                "server_time": {"type": "string", "format": "date-time"},
                "next": _nullable(_ref("Level")),
                "next_break": _nullable(_obj({"duration_seconds": INT, "note": STR})),
                "ms_to_break": _nullable(INT),
                "ms_to_next_break": {
                    **_nullable(INT),
                    "description": "To the start of the next break; during a break, the one "
                    "after it (null: none left). `ms_to_break` is 0 during a break.",
                },
                "late_registration_level": {
                    "type": "integer",
                    "description": "Late registration closes at the end of this level "
                    "(0: no late registration, entries until the clock starts).",
                },
                "late_registration_open": BOOL,
                "ms_to_late_registration_end": {
                    **_nullable(INT),
                    "description": "Until late registration closes (0 once closed; null "
                    "when there is no such level).",
                },
                "moves": {
                    "type": "array",
                    "items": _ref("RecentMove"),
                    "description": "Every slip not yet acknowledged, and acknowledged ones "
                    "of the last minutes; newest first.",
                },
                "payouts": {
                    "type": "array",
                    "items": _obj({"place": INT, "amount": STR}, required=["place", "amount"]),
                    "description": "The prize of each paid place for the field as it is now.",
                },
                "chip_leader": _nullable(
                    _obj(
                        {
                            "player": STR,
                            "entry": INT,
                            "table": _nullable(INT),
                            "seat": _nullable(INT),
                            "chips": INT,
                            "counted_at": {"type": "string", "format": "date-time"},
                        }
                    )
                ),
                "entries": INT,
                "players_left": INT,
                "chips_in_play": INT,
                "average_stack": _nullable(INT),
                "prize_pool": STR,
            },
            required=["status", "version", "level", "remaining_ms", "server_time"],
        ),
        "Seat": _obj(
            {
                "player": STR,
                "entry": ENTRY_NUMBER,
                "table": _nullable(INT),
                "seat": _nullable(INT),
                "note": {"type": "string", "description": "Only when set: tells namesakes apart."},
            },
            required=["player", "entry", "table", "seat"],
        ),
        "Move": _obj({**move_fields, "acknowledged": BOOL}, required=list(move_fields)),
        "Entry": _obj(entry, required=list(entry)),
        "Registered": _obj(
            {**entry, "dealt_in": BOOL, "moves": {"type": "array", "items": _ref("Move")}},
            required=[*entry, "dealt_in", "moves"],
        ),
        "Drawn": _obj({"seated": INT}, required=["seated"]),
        "HandFinished": _obj(
            {
                "table": INT,
                "hand": {"type": "integer", "description": "The table's hand count now."},
                "button": _nullable(INT),
                "small_blind": _nullable(INT),
                "big_blind": _nullable(INT),
            },
            required=["table", "hand", "button", "small_blind", "big_blind"],
        ),
        "Eliminated": _obj(
            {
                **entry,
                "rebalance": _nullable({"type": "string", "examples": ["balance", "break"]}),
                "broken": {"type": "array", "items": INT, "description": "Tables broken."},
                "moves": {"type": "array", "items": _ref("Move")},
            },
            required=[*entry, "rebalance", "broken", "moves"],
        ),
        "Finish": finish,
        "BustOutRecorded": _obj(
            {
                "bustout": {"type": "integer", "description": "Its id, for undo."},
                "table": INT,
                "hand": _nullable(INT),
                "hand_for_hand": BOOL,
                "finishes": {"type": "array", "items": _ref("Finish")},
                "group": {
                    "type": "array",
                    "items": _ref("Finish"),
                    "description": "The whole simultaneous group (hand-for-hand).",
                },
                "players_left": INT,
                "rebalance": _nullable(STR),
                "broken": {"type": "array", "items": INT},
                "moves": {"type": "array", "items": _ref("Move")},
                "winner": _nullable(_ref("Finish")),
            },
            required=["bustout", "finishes", "players_left", "moves", "winner"],
        ),
        "BustOutUndone": _obj(
            {
                "bustout": INT,
                "undone": {"const": True},
                "entries": {
                    "type": "array",
                    "items": _obj(
                        {"entry": ENTRY_NUMBER, "player": STR, "table": INT, "seat": INT}
                    ),
                },
                "moves_withdrawn": INT,
                "tables_back_in_play": {"type": "array", "items": INT},
            },
            required=["bustout", "undone", "entries"],
        ),
        "Results": _obj(
            {
                "event": _ref("EventSummary"),
                "entries": INT,
                "players_left": INT,
                "prize_pool": MONEY,
                "paid_places": INT,
                "payouts": {"type": "array", "items": MONEY, "description": "By place."},
                "results": {
                    "type": "array",
                    "items": _obj(
                        {
                            "place": INT,
                            "place_to": INT,
                            "place_label": STR,
                            "player": STR,
                            "entry": ENTRY_NUMBER,
                            "prize": MONEY,
                        }
                    ),
                },
            },
            required=["event", "entries", "players_left", "prize_pool", "results"],
        ),
    }


# Request bodies (schemas too). Unknown fields are ignored by the views, so left open.
BODIES = {
    "ClockAction": _obj(
        {
            "action": {"type": "string", "enum": CLOCK_ACTIONS},
            "seconds": {
                "type": "integer",
                "minimum": -DAY_SECONDS,
                "maximum": DAY_SECONDS,
                "description": "add_time and set_time only, and required there; "
                "negative removes time.",
            },
        },
        required=["action"],
    ),
    "Register": _obj(
        {
            "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 120,
                "description": "Not blank; runs of spaces count as one.",
            },
            "member_id": {
                "type": "string",
                "maxLength": 40,
                "description": "Finds the player again; one entry per member per event.",
            },
            "note": {
                "type": "string",
                "maxLength": 60,
                "description": "Tells two players of the same name apart, e.g. from Lyon.",
            },
            "confirm_duplicate": {
                "type": "boolean",
                "description": "Register although the name (and note) is in the field already.",
            },
        },
        required=["name"],
    ),
    "Draw": _obj(
        {"seed": {"type": "integer", "description": "Repeats a logged draw; random if absent."}},
        required=[],
    ),
    "HandReport": _obj(
        {
            "hand": {
                "type": "integer",
                "minimum": 0,
                "description": "The table's hand count the floor saw (the `hand` of the last "
                "answer, 0 before the first hand): a second tap on the same hand answers 409 "
                "instead of counting twice. Required: without it the answer is 400.",
            }
        },
        required=["hand"],
    ),
    "Empty": _obj({}, required=[], description="No fields; send {} or nothing."),
    "BustOut": _obj(
        {
            "entries": {
                "type": "array",
                "items": ENTRY_NUMBER,
                "minItems": 1,
                "maxItems": 10,
                "description": "Entry numbers of the players out on this hand.",
            },
            "table": {
                "type": "integer",
                "description": "Checked against where they sit; without it they must all "
                "sit at one table.",
            },
            "hand": {
                "type": "integer",
                "description": "During hand-for-hand: the hand-for-hand hand (current one "
                "by default).",
            },
            "stacks": {
                "type": "object",
                "propertyNames": {"pattern": r"^[0-9]+$"},
                "additionalProperties": {"type": "integer", "minimum": 0},
                "description": "Entry number to chips at the start of the hand; required "
                "for two or more players, and always during hand-for-hand.",
            },
        },
        required=["entries"],
    ),
}

EVENT_ID = {
    "name": "event_id",
    "in": "path",
    "required": True,
    "description": "The event's id (GET /api/events).",
    "schema": {"type": "integer", "minimum": 1},
}


def _path_param(name: str, description: str) -> dict:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": description,
        "schema": {"type": "integer", "minimum": 1},
    }


def _json(schema: dict, description: str, example=None) -> dict:
    media: dict = {"schema": schema}
    if example is not None:
        media["example"] = example
    return {"description": description, "content": {"application/json": media}}


ERRORS = {
    "400": "Bad input: not a JSON object, or a field of the wrong type or value "
    "(`field` names it). Nothing changed.",
    "401": "No valid bearer token.",
    "403": "The token's user lacks the right.",
    "404": "No such event (or entry, table, move, bust-out).",
    "409": "The rules or the current state refuse it. Nothing changed.",
}


def _errors(*codes: str) -> dict:
    return {code: {"$ref": f"#/components/responses/{code}"} for code in codes}


def _read(area: str, summary: str, description: str, schema: dict, *, params=(), example=None):
    return {
        "x-area": area,
        "tags": [area],
        "summary": summary,
        "description": description,
        "security": [],
        "parameters": list(params),
        "responses": {
            "200": _json(schema, "OK", example),
            **({} if not params else _errors("404")),
        },
    }


def _write(
    area: str,
    summary: str,
    description: str,
    *,
    right: str,
    body: str,
    schema: dict,
    params=(),
    status: str = "200",
    example=None,
    body_example=None,
):
    request = {"required": False, "content": {"application/json": {"schema": _ref(body)}}}
    if body_example is not None:
        request["content"]["application/json"]["example"] = body_example
    return {
        "x-area": area,
        "tags": [area],
        "x-right": right,
        "summary": summary,
        "description": description,
        "security": [{"bearerAuth": []}],
        "parameters": list(params),
        "requestBody": request,
        "responses": {
            status: _json(schema, "Done" if status == "200" else "Created", example),
            **_errors("400", "401", "403", "404", "409"),
        },
    }


def _paths() -> dict:
    ev, seat, res = (a for a, _ in AREAS[:3])
    table = _path_param("number", "The table's number.")
    current = _read(
        ev,
        "Read the current event",
        "The event the room's stable addresses (`/clock/`, `/seats/`, `/seats/draw/`, "
        "`/schedule/`) lead to: the running or paused one (the newest), else the planned one "
        "with the nearest scheduled start, else the last finished one; never an archived "
        "one. 404 when there is none. Screens opened at a stable address ask once a minute "
        "and move on when it changes; the answer may be a few seconds old.",
        _ref("EventSummary"),
        example={"id": 12, "name": "Thursday Turbo", "status": "running"},
    )
    current["responses"] |= _errors("404")
    return {
        "/api/events": {
            "get": _read(
                ev,
                "List the events",
                "Running events first, then paused, planned, finished; newest first within;"
                " archived events last.",
                {"type": "array", "items": _ref("EventSummary")},
                example=[{"id": 1, "name": "Sunday Deepstack", "status": "running"}],
            )
        },
        "/api/current-event": {"get": current},
        "/api/events/{event_id}/clock": {
            "get": _read(
                ev,
                "Read the clock",
                "The level, blinds, time left (computed from stored times at `server_time`), "
                "the next level and break, the field's figures and recent move slips.",
                _ref("Clock"),
                params=[EVENT_ID],
            ),
            "post": _write(
                ev,
                "Change the clock",
                "A floor person may pause and resume; the other actions need a director. "
                "409 when the clock cannot do it now (e.g. `previous` on the first level).",
                right="clock.pause (pause, resume); clock (the others)",
                body="ClockAction",
                schema=_ref("Clock"),
                params=[EVENT_ID],
                body_example={"action": "add_time", "seconds": -60},
            ),
        },
        "/api/events/{event_id}/seats": {
            "get": _read(
                seat,
                "List the seats",
                "Every active entry with its table and seat, by player name.",
                {"type": "array", "items": _ref("Seat")},
                params=[EVENT_ID],
                example=[{"player": "Sam Lee", "entry": 42, "table": 5, "seat": 3}],
            )
        },
        "/api/events/{event_id}/moves": {
            "get": _read(
                seat,
                "List recent move slips",
                "Move slips of the last minutes, newest first (their ids acknowledge them).",
                {"type": "array", "items": _ref("RecentMove")},
                params=[EVENT_ID],
            )
        },
        "/api/events/{event_id}/entries": {
            "post": _write(
                seat,
                "Register a player",
                "A new entry. After the seat draw it is seated at once and may set off "
                "balancing moves. 409 when registration is closed, the member has an entry, or "
                "the name is in the field already (the answer names the entries in `existing`: "
                "send `confirm_duplicate` or a `note`).",
                right="seating",
                body="Register",
                schema=_ref("Registered"),
                params=[EVENT_ID],
                status="201",
                body_example={"name": "Sam Lee", "member_id": "M-17"},
            )
        },
        "/api/events/{event_id}/draw": {
            "post": _write(
                seat,
                "Draw the seats",
                "Seats every registered entry at random. 409 when the seats are drawn already.",
                right="seating",
                body="Draw",
                schema=_ref("Drawn"),
                params=[EVENT_ID],
                example={"seated": 240},
                body_example={},
            )
        },
        "/api/events/{event_id}/tables/{number}/hand": {
            "post": _write(
                seat,
                "Finish a hand at a table",
                "Moves the button and the blinds on. `hand` is required (400 without it); "
                "the same hand finished twice answers 409 and counts once.",
                right="seating",
                body="HandReport",
                schema=_ref("HandFinished"),
                params=[EVENT_ID, table],
                body_example={"hand": 12},
            )
        },
        "/api/events/{event_id}/entries/{number}/eliminate": {
            "post": _write(
                seat,
                "Eliminate an entry",
                "The player is out: the place, then balancing or a table break, whose move "
                "slips are in the answer. 409 when the player is out already.",
                right="seating",
                body="Empty",
                schema=_ref("Eliminated"),
                params=[EVENT_ID, _path_param("number", "The entry number.")],
                body_example={},
            )
        },
        "/api/events/{event_id}/moves/{move_id}/ack": {
            "post": _write(
                seat,
                "Acknowledge a move slip",
                "The floor carried out the move.",
                right="seating",
                body="Empty",
                schema=_ref("Move"),
                params=[EVENT_ID, _path_param("move_id", "The move slip's id.")],
                body_example={},
            )
        },
        "/api/events/{event_id}/bustouts": {
            "post": _write(
                res,
                "Report a bust-out",
                "One hand's players out, with places, prizes, balancing moves and the "
                "winner when one player is left. 409 when a player is out already.",
                right="bustout",
                body="BustOut",
                schema=_ref("BustOutRecorded"),
                params=[EVENT_ID],
                status="201",
                body_example={"entries": [17, 23], "table": 3, "stacks": {"17": 4000, "23": 4000}},
            )
        },
        "/api/events/{event_id}/bustouts/{bustout_id}/undo": {
            "post": _write(
                res,
                "Undo a bust-out",
                "Puts the players back in their seats and withdraws the moves it caused. 409 "
                "when later actions clash (undo those first).",
                right="bustout",
                body="Empty",
                schema=_ref("BustOutUndone"),
                params=[EVENT_ID, _path_param("bustout_id", "The bust-out's id.")],
                body_example={},
            )
        },
        "/api/events/{event_id}/results": {
            "get": _read(
                res,
                "Read the results",
                "Standings and prizes as they stand now: the pool, the payouts by place and "
                "every finished player.",
                _ref("Results"),
                params=[EVENT_ID],
            )
        },
        "/api/openapi.json": {
            "get": _read(
                "Reference",
                "This document",
                "The API as OpenAPI 3.1 JSON.",
                {"type": "object"},
            )
        },
        "/api/docs": {
            "get": {
                **_read("Reference", "The API reference", "This document as a web page.", {}),
                "responses": {
                    "200": {"description": "HTML", "content": {"text/html": {"schema": STR}}}
                },
            }
        },
    }


@cache
def _document() -> dict:
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": "tdsystem API",
            "version": API_VERSION,
            "description": "Reads are public. Writes need a staff API token sent as "
            "`Authorization: Bearer <token>` (create one at /console/tokens/ or with "
            "`python manage.py create_api_token USERNAME`) and take a JSON object body. "
            "Every error is a JSON object with `error`; a 400 names the `field`. A write "
            "that answers an error has changed nothing.",
        },
        "tags": [{"name": name, "description": text} for name, text in AREAS],
        "paths": _paths(),
        "components": {
            "securitySchemes": {
                "bearerAuth": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A staff API token; a session cookie does not authorise "
                    "API writes.",
                }
            },
            "schemas": _schemas() | BODIES,
            "responses": {
                code: _json(_ref("Error"), text, {"error": "...", "field": "name"})
                if code == "400"
                else _json(_ref("Error"), text)
                for code, text in ERRORS.items()
            },
        },
    }


def document() -> dict:
    """The document; a copy, so callers may change it freely."""
    return deepcopy(_document())


def resolve(doc: dict, node):
    """Follow a local `$ref` (JSON pointer) to what it names."""
    while isinstance(node, dict) and "$ref" in node:
        target = doc
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node
