"""Events and their clock: the list, the room's current event, the clock and its actions."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from django.http import HttpRequest, HttpResponse
from django.utils.http import http_date
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from ninja import Query, Router
from ninja.responses import NinjaJSONEncoder

from tdsystem.core.actors import Actor
from tdsystem.core.servertime import server_now
from tdsystem.events import selectors, services
from tdsystem.events.models import Clock as ClockRow
from tdsystem.events.models import Event
from tdsystem.events.selectors_life import screen_current_event
from tdsystem.events.services import ENTRY_RULE_COLUMNS, event_entry_rules_update, event_levels_edit
from tdsystem.structures.editing import stored_rows
from tdsystem.venue.screen import screen_slips_page

from .auth import AuthedRequest, StaffToken, require_right
from .common import READ_ERRORS, WRITE_ERRORS, event_exists
from .errors import NotFound
from .schemas import (
    Clock,
    ClockActionIn,
    EntryRulesIn,
    EntryRulesOut,
    Error,
    EventSummary,
    LevelsIn,
    LevelsOut,
    SlipsPage,
)

router = Router(tags=["Events and clock"], exclude_unset=True)
FLOOR_CLOCK_ACTIONS = ("pause", "resume")


@router.get(
    "/events",
    response=list[EventSummary],
    url_name="events",
    summary="List the events",
    description="Running events first, then paused, planned, finished; newest first within; "
    "archived events last.",
)
def events(request: HttpRequest):
    return selectors.events_listing()


@router.get(
    "/current-event",
    response={200: EventSummary, **READ_ERRORS},
    url_name="current_event",
    summary="Read the current event",
    description="The event the room's stable addresses (`/clock/`, `/seats/`, `/seats/draw/`, "
    "`/schedule/`) lead to: the running or paused one (the newest), else the planned one "
    "with the nearest scheduled start, else the last finished one; never an archived one. "
    "404 when there is none. The answer may be a few seconds old.",
)
def current_event(request: HttpRequest):
    found = screen_current_event()
    if found is None:
        raise NotFound(_("no current event"))
    return found


@router.get(
    "/events/{int:event_id}/clock",
    response={200: Clock, **READ_ERRORS},
    url_name="clock",
    summary="Read the clock",
    description="The level, blinds, time left (computed from stored times at `server_time`), "
    "the next level and break, the field's figures and recent move slips.",
)
def clock(request: HttpRequest, event_id: int):
    response = clock_answer(event_id, request)
    if response is None:
        raise NotFound(_("no event %(id)s") % {"id": event_id})
    return response


@router.get(
    "/events/{int:event_id}/slips",
    response={200: SlipsPage, 400: Error, **READ_ERRORS},  # 400: a page below 1
    url_name="slips",
    summary="Page through the clock screen's move slips",
    description="The slips the clock screen's ticker shows (not yet acknowledged, and those "
    "of the last minutes), newest first, 20 a page: the clock JSON carries the first page "
    "and `moves_count`; the ticker asks for the others as it comes to them. A page past "
    "the last is empty. The answer may be up to `SCREEN_CACHE_SECONDS` (1 s) old.",
)
def slips(request: HttpRequest, event_id: int, page: int = Query(1, ge=1, le=100_000)):
    event_exists(event_id)
    key = ("slips", event_id, page, get_language())
    return selectors.screen_cached(key, lambda: screen_slips_page(event_id, page), event=event_id)


class ClockBody(NamedTuple):
    body: bytes
    tag: str  # the ETag's value, quoted
    server_time: str  # the body's server_time, for an answer without a body (304)


def clock_body(event_id: int) -> ClockBody | None:
    """The clock JSON's body and its tag, None for an unknown event."""
    try:
        # Every screen of the room asks each second: the selector's dict is the documented
        # shape already (tests/api compares the two), so it is sent as it is, without the
        # schema checking it again on the way out (a third of this answer's time, measured).
        text, tag, now = selectors.event_clock_json_tagged(event_id, None, _ENCODER.encode)
    except Event.DoesNotExist:
        return None
    return ClockBody(text.encode(), f'"{tag}"', now.isoformat())


def unchanged(request: HttpRequest, tag: str) -> bool:
    """The reader holds this answer already: its If-None-Match names the tag (weak or
    strong: GZipMiddleware weakens the tag of what it compresses)."""
    asked = request.headers.get("If-None-Match", "")
    return bool(asked) and any(t.strip().removeprefix("W/") == tag for t in asked.split(","))


def clock_answer(event_id: int, request: HttpRequest | None = None) -> HttpResponse | None:
    """The clock JSON's answer, None for an unknown event: 304 without a body when the
    reader's If-None-Match names it (a screen sends the ETag of its last answer; the
    server's time, which the body would have said, is in X-Server-Time). (A poll without
    a session is answered ahead of the middleware the same way: api/clock_poll.py.)"""
    found = clock_body(event_id)
    if found is None:
        return None
    if request is not None and unchanged(request, found.tag):
        response = HttpResponse(status=304)
        del response.headers["Content-Type"]
    else:
        response = HttpResponse(found.body, content_type=JSON)
    response.headers["ETag"] = found.tag
    response.headers[SERVER_TIME] = found.server_time
    # add_never_cache_headers' own values (tests/views/test_clock_api.py compares them),
    # without parsing and rebuilding the Cache-Control header on every answer.
    response.headers["Expires"] = http_date()
    response.headers["Cache-Control"] = NEVER_CACHE
    return response


JSON = "application/json; charset=utf-8"
SERVER_TIME = "X-Server-Time"
NEVER_CACHE = "max-age=0, no-cache, no-store, must-revalidate, private"
_ENCODER = NinjaJSONEncoder()  # json.dumps(cls=...) would make one for every answer


def clock_read_first(api_urls) -> Callable[..., HttpResponse]:
    """A Django view for the clock's path, put first in the project's URLs: a GET of a
    known event is answered at once (clock_answer), the rest (the POST, an unknown event,
    other methods) goes on to the API's own route, answering as it always has.

    Every screen and phone polls the clock each second. The API's route costs per request
    the resolution through the project's and the API's URL lists and django-ninja's
    operation (its path parameters validated by a pydantic model, a response made and
    dropped): together as much as the answer itself (measured, benchmarks/bench_clock.py).
    The operation stays the documented one (/api/docs) and answers what it always did.
    """
    patterns, _app, _namespace = api_urls
    api_view = next(p.callback for p in patterns if getattr(p, "name", None) == "clock")

    @csrf_exempt  # as every django-ninja route: the POST's token is its own check
    def view(request: HttpRequest, event_id: int) -> HttpResponse:
        if request.method == "GET":
            response = clock_answer(event_id, request)
            if response is not None:
                return response
        return api_view(request, event_id=event_id)

    return view


@router.post(
    "/events/{int:event_id}/clock",
    auth=StaffToken("clock.pause"),
    response={200: Clock, **WRITE_ERRORS},
    url_name="clock",  # one route with the read: GET is public, POST needs the token
    summary="Change the clock",
    description="A floor person may pause and resume (right `clock.pause`); the other "
    "actions need a director (right `clock`). 409 when the clock cannot do it now (e.g. "
    "`previous` on the first level).",
)
def clock_action(request: AuthedRequest, event_id: int, payload: ClockActionIn):
    event_exists(event_id)
    if payload.action not in FLOOR_CLOCK_ACTIONS:
        require_right(request, "clock", event_id)
    written = services.clock_action(
        event_id=event_id,
        action=payload.action,
        seconds=payload.seconds,
        actor=Actor.of(request.auth),
    )
    return selectors.written_clock_payload(written, server_now())


@router.put(
    "/events/{int:event_id}/levels",
    auth=StaffToken("events"),
    response={200: LevelsOut, **WRITE_ERRORS},
    url_name="event_levels",
    summary="Change the event's levels",
    description="Replaces every level and break (a director). A planned event's change "
    "freely; once the clock has started, the levels already played must be sent unchanged "
    "and the current one may change only its duration (the time played stays played). "
    "400 with `field` when refused: `levels` (a rule of the structure or of the clock), "
    "`duration` (the current level would have no time left), `confirm_warnings` (send "
    "again with `confirm_warnings: true` to accept the warnings listed), `version` (the "
    "clock moved since `expected_version`). Nothing changes on a refusal.",
)
def event_levels(request: AuthedRequest, event_id: int, payload: LevelsIn):
    event_exists(event_id)
    event, warnings = event_levels_edit(
        event_id=event_id,
        rows=[row.model_dump() for row in payload.levels],
        actor=Actor.of(request.auth),
        confirm_warnings=payload.confirm_warnings,
        expected_version=payload.expected_version,
    )
    clock = ClockRow.objects.get(pk=event_id)
    return {
        "version": clock.version,
        "level_index": clock.level_index,
        "warnings": warnings,
        "levels": stored_rows(event.structure),
    }


@router.patch(
    "/events/{int:event_id}/entry-rules",
    auth=StaffToken("events"),
    response={200: EntryRulesOut, **WRITE_ERRORS},
    url_name="event_entry_rules",
    summary="Change the event's entry rules",
    description="Late registration, re-entries, rebuys and the add-on of an existing event "
    "(a director), before the clock starts or while it runs; the fields left out stay as "
    "they are. The rules apply to what comes next: a purchase already made stays. 400 with "
    "`field` for a value out of its range, 409 for a finished event. A change is logged "
    "with the rules before and after; a change of nothing changes nothing.",
)
def event_entry_rules(request: AuthedRequest, event_id: int, payload: EntryRulesIn):
    event_exists(event_id)
    event, changed = event_entry_rules_update(
        event_id=event_id,
        changes=payload.model_dump(exclude_unset=True),
        actor=Actor.of(request.auth),
    )
    rules = {name: getattr(event, name) for name in ENTRY_RULE_COLUMNS}
    money = {k: f"{v:.2f}" for k, v in rules.items() if k.endswith(("_price", "_fee"))}
    return {"changed": changed, **rules, **money}
