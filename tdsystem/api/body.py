"""A write's body, as the API documents it: a JSON object, sent as `application/json`.

- Another Content-Type (text/plain, a form, none at all) answers 415: a script that sends
  JSON as text has a bug to fix, and a form a browser posts from another site must not act.
  A `charset` parameter may only say UTF-8.
- JSON that is not an object (`[]`, `null`, `5`, `"x"`) answers 400, as does a key given
  twice at any depth (json.loads would keep the last one, the one the sender may not mean).
- A number written with a decimal point but no fraction (`5.0`, `1e3`) is the whole number
  it is, as JSON Schema's `integer` counts it; `5.5` stays a fraction the schemas refuse.
- An empty body is no body: a route that takes none, or an optional one, works without it,
  and a required one says which field is missing.

The parser (main.JsonBody) reads the body of the routes that take one; `body_checked` the
body sent anyway to those that take none. Both read it once (`json_object`).
"""

from __future__ import annotations

import json
from decimal import Decimal
from functools import wraps

from django.http import HttpRequest
from django.utils.translation import gettext as _

from .errors import BodyNotJson, BodyNotJsonType

JSON_TYPE = "application/json"
UTF_8 = ("utf-8", "utf8")
WRITES = ("POST", "PUT", "PATCH", "DELETE")
_READ = "_api_json_object"  # the request's body, once read
_INTEGER_DIGITS = 19  # 5.0 up to 64 bits is an int; past that the schemas refuse it anyway


class _Twice(dict):
    """An object in which a key was given twice: `twice` is the first such key."""

    def __init__(self, pairs: list[tuple[str, object]]) -> None:
        super().__init__(pairs)
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                self.twice = key
                break
            seen.add(key)


def _number(literal: str) -> int | float:
    number = Decimal(literal)
    if number == number.to_integral_value() and number.adjusted() < _INTEGER_DIGITS:
        return int(number)
    return float(literal)


def _shown(key: str) -> str:
    shown = json.dumps(key)  # escaped as JSON: no control character reaches the answer
    return shown if len(shown) <= 40 else shown[:37] + '..."'


def _key_twice(data: dict) -> BodyNotJson | None:
    """The refusal of the first key given twice, at the top or inside a field."""
    if isinstance(data, _Twice):
        return BodyNotJson(
            _("%(key)s is given twice in the body") % {"key": _shown(data.twice)}, data.twice
        )
    for field, value in data.items():
        stack = [value]  # not recursive: a body nested as deep as the parser allows is fine
        while stack:
            item = stack.pop()
            if isinstance(item, _Twice):
                message = _("%(field)s: the key %(key)s is given twice") % {
                    "field": field,
                    "key": _shown(item.twice),
                }
                return BodyNotJson(message, field)
            if isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
    return None


def json_object(request: HttpRequest) -> dict:
    """The request's body as a dict, or BodyNotJson saying why not (the module's rules)."""
    data = getattr(request, _READ, None)
    if data is not None:
        return data
    charset = (request.content_params or {}).get("charset", "utf-8").lower()
    if request.content_type != JSON_TYPE or charset not in UTF_8:
        raise BodyNotJsonType(
            _("send the body as a JSON object with Content-Type: application/json")
        )
    try:
        text = request.body.decode("utf-8")
    except UnicodeDecodeError:
        raise BodyNotJson(_("the body is not UTF-8 text")) from None
    doubled = False

    def pairs(found: list[tuple[str, object]]) -> dict:
        nonlocal doubled
        made = dict(found)
        if len(made) == len(found):
            return made
        doubled = True
        return _Twice(found)

    try:
        data = json.loads(text, object_pairs_hook=pairs, parse_float=_number)
    except RecursionError:
        raise BodyNotJson(_("the body is nested too deeply")) from None
    except ValueError:
        raise BodyNotJson(_("the body is not valid JSON")) from None
    if not isinstance(data, dict):
        raise BodyNotJson(_("the body must be a JSON object"))
    if doubled and (refusal := _key_twice(data)):
        raise refusal
    setattr(request, _READ, data)
    return data


def body_checked(view):
    """An operation's view, after its body (if any) met the module's rules: the routes
    whose parameters take no body read none, and would act on any."""

    @wraps(view)
    def checked(request: HttpRequest, *args, **kwargs):
        if request.method in WRITES and request.body:
            json_object(request)
        return view(request, *args, **kwargs)

    return checked
