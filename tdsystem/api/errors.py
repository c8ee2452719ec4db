"""The API's error contract, kept in one place.

- 400 `{"error", "field"}`: bad input. The body is not a JSON object (tdsystem.api.body:
  `field` names a key given twice), or a field breaks its schema (the first bad field is
  named by its body name), or a service raised one of its ValueError subclasses
  (SeatingError, ResultsError...) with a `field`.
- 401 / 403 `{"error"}`: no valid token / a token whose user lacks the right.
- 404 `{"error"}`: no such event (or move slip).
- 409 `{"error"}`: a service's ValueError without a field (ClockError, "already out"):
  the request was fine, the rules or the current state refuse it.
- 415 `{"error"}`: a write's body sent with a Content-Type other than application/json.
- 503 `{"error"}` with Retry-After: another change of the same event held its lock past
  LOCK_TIMEOUT_SECONDS (core.locking's Busy); try again.
In every case nothing has changed. The 413 and the NUL 400 come earlier, from
tdsystem.core.middleware.BadInputMiddleware.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja.errors import AuthenticationError, HttpError, ValidationError, ValidationErrorContext
from pydantic import ValidationError as PydanticError
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails

from tdsystem.core.locking import Busy

TEXT_ERROR = "text"  # a PlainText field's refusal (schemas): its message says what is wrong


class BodyNotJson(ValueError):
    """The body is not a JSON object (tdsystem.api.body): the message says why, for the
    400; `field` names the body field at fault when there is one (a key given twice)."""

    status = 400

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field

    def answer(self) -> dict:
        return {"error": str(self)} | ({"field": self.field} if self.field else {})


class BodyNotJsonType(BodyNotJson):
    """A body sent with a Content-Type other than application/json: 415."""

    status = 415


class Refused(HttpError):
    """A valid token whose user may not do this (403)."""

    def __init__(self, message: str) -> None:
        super().__init__(403, message)


class NotFound(HttpError):
    def __init__(self, message: str) -> None:
        super().__init__(404, message)


class InputError(ValidationError):
    """A request body that breaks its schema: the message and the body field at fault."""

    def __init__(self, message: str, field: str | None) -> None:
        super().__init__([{"msg": message, "loc": ("body", field) if field else ("body",)}])
        self.message = message
        self.field = field


def input_error(contexts: list[ValidationErrorContext]) -> InputError:
    """The first problem of a request, said with the field's own description."""
    context = contexts[0]
    problem = context.pydantic_validation_error.errors(include_url=False)[0]
    loc = problem["loc"]
    params = context.model.model_fields
    if not loc or loc[0] not in params:
        return InputError(_("the request is not valid"), None)
    schema = params[loc[0]].annotation
    fields = getattr(schema, "model_fields", {})
    if len(loc) > 1 or "field" in (problem.get("ctx") or {}):
        return _described(problem, loc[1:], fields)
    if problem["type"] == "missing" and fields:
        try:  # an empty body answers as {} would
            schema.model_validate({})
        except PydanticError as exc:
            first = exc.errors(include_url=False)[0]
            return _described(first, first["loc"], fields)
    return InputError(_("the body must be a JSON object"), None)


def _described(
    problem: ErrorDetails, loc: tuple[int | str, ...], fields: dict[str, FieldInfo]
) -> InputError:
    ctx = problem.get("ctx") or {}
    if "field" in ctx:  # a rule across fields (a model validator) names its field itself
        return InputError(problem["msg"], ctx["field"])
    if not loc:
        return InputError(_("the body must be a JSON object"), None)
    name = str(loc[0])
    if problem["type"] == TEXT_ERROR:  # what is wrong with the text is what to say
        return InputError(f"{_path(loc)}: {problem['msg']}", name)
    # A description is the English text (schemas marks it with gettext_noop): said here
    # in the request's language.
    described = fields[name].description if name in fields else None
    return InputError(f"{name}: {_(described) if described else problem['msg']}", name)


def _path(loc: tuple[int | str, ...]) -> str:
    """("levels", 2, "note") as levels[2].note: where in the body."""
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc)[1:]


def _json(api, request: HttpRequest, status: int, body: dict) -> HttpResponse:
    return api.create_response(request, body, status=status)


def install(api) -> None:
    """The handlers of the contract above, on a NinjaAPI."""

    @api.exception_handler(ValidationError)
    def bad_input(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        if not isinstance(exc, InputError):
            exc = InputError(_("the request is not valid"), None)
        body = {"error": exc.message}
        if exc.field:
            body["field"] = exc.field
        return _json(api, request, 400, body)

    @api.exception_handler(AuthenticationError)
    def unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
        return _json(api, request, 401, {"error": _("authentication required")})

    @api.exception_handler(BodyNotJson)
    def bad_body(request: HttpRequest, exc: BodyNotJson) -> HttpResponse:
        return _json(api, request, exc.status, exc.answer())

    @api.exception_handler(HttpError)
    def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        cause = exc.__cause__
        if exc.status_code == 400 and cause is not None:
            # ninja's "Cannot parse request body": say what is wrong with it.
            if isinstance(cause, BodyNotJson):
                return bad_body(request, cause)
            return _json(api, request, 400, {"error": _("the body is not valid JSON")})
        return _json(api, request, exc.status_code, {"error": str(exc)})

    @api.exception_handler(Http404)
    def not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
        return _json(api, request, 404, {"error": str(exc) or _("not found")})

    @api.exception_handler(PydanticError)
    def answer_off_schema(request: HttpRequest, exc: PydanticError) -> HttpResponse:
        raise exc  # an answer that does not fit its schema is a bug: a 500, not a 409

    @api.exception_handler(Busy)
    def busy(request: HttpRequest, exc: Busy) -> HttpResponse:
        response = _json(api, request, 503, {"error": exc.message})
        response["Retry-After"] = "1"
        return response

    @api.exception_handler(ValueError)
    def refused_by_the_rules(request: HttpRequest, exc: ValueError) -> HttpResponse:
        field = getattr(exc, "field", None)
        if field:
            return _json(api, request, 400, {"error": str(exc), "field": field})
        return _json(api, request, 409, {"error": str(exc)})

    @api.exception_handler(Exception)
    def server_error(request: HttpRequest, exc: Exception) -> HttpResponse:
        # Django answers (the JSON 500, the 503 of an unreachable database), in DEBUG too.
        raise exc
