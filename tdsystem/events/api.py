"""JSON API for screens and integrations. Reads are public; writes need a staff token."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps

from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from tdsystem.core.access import api_staff_required, has_right
from tdsystem.core.actors import Actor
from tdsystem.engine.clock import ClockError

from . import selectors, selectors_life, services
from .models import Event

CLOCK_ACTIONS = ("start", "pause", "resume", "next", "previous", "add_time", "set_time")


def bad_request(message: str, field: str | None = None) -> JsonResponse:
    body = {"error": message}
    if field:
        body["field"] = field
    return JsonResponse(body, status=400)


# Whole numbers must fit the database's 64-bit integers; anything larger is bad input.
_INT_LIMIT = 2**63


class _TooLarge:
    """Stands for a whole number past 64 bits, so the 400 can name its field."""


def _parse_int(text: str) -> int | type[_TooLarge]:
    if len(text.lstrip("-")) > 19:
        return _TooLarge
    value = int(text)
    return value if -_INT_LIMIT < value < _INT_LIMIT else _TooLarge


def _holds_too_large(value) -> bool:
    stack = [value]  # not recursive: a body nested as deep as the parser allows is fine
    while stack:
        item = stack.pop()
        if item is _TooLarge:
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


class BodyError(ValueError):
    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.field = field


def read_json(request: HttpRequest) -> dict:
    """The request's JSON object, or ValueError with a message for the client (a 400).

    Refused here for every write endpoint: invalid JSON, nesting too deep to parse, numbers
    past 64 bits, and NUL characters (PostgreSQL text cannot hold them).
    """
    try:
        text = (request.body or b"{}").decode("utf-8")
        data = json.loads(text, parse_int=_parse_int)
    except UnicodeDecodeError:
        raise ValueError("the body is not UTF-8 text") from None
    except RecursionError:
        raise ValueError("the body is nested too deeply") from None
    except json.JSONDecodeError:
        raise ValueError("the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ValueError("the body must be a JSON object")
    for key, value in data.items():
        if _holds_too_large(value):
            raise BodyError(f"{key}: a number is too large", key)
    if "\\u0000" in text.lower():
        raise ValueError("text in the body may not contain NUL characters")
    return data


def staff_json_write(right: str) -> Callable:
    """Decorator for the API's staff writes: POST only, a bearer token with `right`, an
    event that exists, a JSON object body. The view gets (request, data, event_id, ...).

    Services raise ValueError subclasses with a `field` (SeatingError, ResultsError...):
    with a field the request was bad (400 naming it); without one the request was fine but
    the rules or the current state refuse it (409). Nothing is changed in either case.
    """

    def decorator(view: Callable) -> Callable:
        @never_cache
        @csrf_exempt
        @require_POST
        @api_staff_required(right)
        @wraps(view)
        def wrapped(request: HttpRequest, event_id: int, *args, **kwargs) -> JsonResponse:
            if not Event.objects.filter(pk=event_id).exists():
                return JsonResponse({"error": f"no event {event_id}"}, status=404)
            try:
                data = read_json(request)
                return view(request, data, event_id, *args, **kwargs)
            except ValueError as exc:
                field = getattr(exc, "field", None)
                if hasattr(exc, "field") and not field:
                    return JsonResponse({"error": str(exc)}, status=409)
                return bad_request(str(exc), field)

        return wrapped

    return decorator


@never_cache
@require_http_methods(["GET"])
def events(request: HttpRequest) -> JsonResponse:
    return JsonResponse(selectors.events_listing(), safe=False)


@never_cache
@require_http_methods(["GET"])
def current_event(request: HttpRequest) -> JsonResponse:
    """The event the room's stable addresses (/clock/, /seats/...) lead to now."""
    found = selectors_life.screen_current_event()
    if found is None:
        return JsonResponse({"error": "no current event"}, status=404)
    return JsonResponse(found)


@never_cache
@csrf_exempt
@require_http_methods(["GET", "POST"])
def clock(request: HttpRequest, event_id: int) -> JsonResponse:
    try:
        if request.method == "POST":
            Event.objects.only("pk").get(pk=event_id)
            return clock_post(request, event_id)
        return JsonResponse(selectors.event_clock_payload(event_id, timezone.now()))
    except Event.DoesNotExist:
        return JsonResponse({"error": f"no event {event_id}"}, status=404)


@api_staff_required("clock.pause")
def clock_post(request: HttpRequest, event_id: int) -> JsonResponse:
    try:
        data = read_json(request)
    except ValueError as exc:
        return bad_request(str(exc), getattr(exc, "field", None))
    action = data.get("action")
    if action not in CLOCK_ACTIONS:
        return bad_request(f"action must be one of {', '.join(CLOCK_ACTIONS)}", "action")
    if action not in ("pause", "resume") and not has_right(request.api_user, "clock"):
        return JsonResponse({"error": "only a director may do this"}, status=403)
    seconds = data.get("seconds")
    if action in ("add_time", "set_time"):
        if isinstance(seconds, bool) or not isinstance(seconds, int):
            return bad_request("seconds must be a whole number", "seconds")
        if abs(seconds) > 24 * 3600:
            return bad_request("seconds must be within a day", "seconds")
    try:
        services.clock_action(
            event_id=event_id,
            action=action,
            seconds=seconds,
            actor=Actor.of(request.api_user),
        )
    except ClockError as exc:
        return JsonResponse({"error": str(exc)}, status=409)
    return JsonResponse(selectors.event_clock_payload(event_id, timezone.now()))
