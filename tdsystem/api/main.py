"""The one NinjaAPI of the project, mounted at /api/: the reference at /api/docs and
/api/openapi.json is generated from the routers and schemas below it."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers
from ninja import NinjaAPI
from ninja.errors import ValidationError, ValidationErrorContext
from ninja.openapi.docs import Swagger
from ninja.openapi.schema import OpenAPISchema
from ninja.parser import Parser

from tdsystem.core import idempotency

from . import body, errors
from .alternates import router as alternates_router
from .dayend import router as dayend_router
from .events import router as events_router
from .flights import router as flights_router
from .floor import router as floor_router
from .player_links import router as player_links_router
from .players import router as players_router
from .results import router as results_router
from .rulings import router as rulings_router
from .seating import router as seating_router
from .shotclock import router as shotclock_router
from .tickets import router as tickets_router

DESCRIPTION = """\
Reads are public, but the floor plan's. Writes (and that read) need a staff API token sent
as `Authorization: Bearer <token>` (create one at `/console/tokens/` or with
`python manage.py create_api_token USERNAME`) and take a JSON object body sent with
`Content-Type: application/json` (a write without a body needs neither); unknown fields
are ignored, a key given twice is refused. A whole number may be written `5` or `5.0`.
Text (names, notes, labels) is kept in Unicode NFC with its spaces trimmed and collapsed;
control and invisible characters in it (bidi overrides, zero-width spaces...) are refused.

Every error is a JSON object with `error`, a sentence for people:

| status | when |
|---|---|
| 400 | bad input: `field` names the body field at fault (a body that is not a JSON object: none) |
| 401 | no token, or not a valid one |
| 403 | the token's user lacks the right |
| 404 | no such event or move slip |
| 409 | the rules or the current state refuse it (or the key's first request still runs) |
| 413 | the body is larger than `DATA_UPLOAD_MAX_MEMORY_SIZE` |
| 415 | a write's body is sent with a Content-Type other than `application/json` |
| 422 | the `Idempotency-Key` was sent before with another method, path or body |
| 503 | busy: someone else is changing this event right now; retry after `Retry-After` seconds |

**A write that answers an error has changed nothing**: retrying after fixing the input is
always safe. A NUL character anywhere in a request answers 400. Players are named by their
entry number in the event, not by a database id.

**Send a write again safely with `Idempotency-Key`**: a write sent with the header
`Idempotency-Key: <a new unique string for each write>` (a UUID; 1 to 255 visible ASCII
characters) keeps its answer for 24 hours. Sent again with the same key, method, path and
body (after a timeout or a dropped connection), it changes nothing and gets that answer
again, the same status and body, marked `Idempotent-Replayed: true`. An answer of 400 or
more keeps nothing: the key may be sent again. Keys are the token's user's own.
"""

# The header every write takes (DESCRIPTION; tdsystem/core/idempotency.py), on each
# write operation of the document.
IDEMPOTENCY_KEY = {
    "name": idempotency.HEADER,
    "in": "header",
    "required": False,
    "description": "A new unique string for each write (a UUID). The same write sent again "
    "with the same key changes nothing and answers the first answer again "
    "(`Idempotent-Replayed: true`); kept 24 hours.",
    "schema": {
        "type": "string",
        "minLength": 1,
        "maxLength": idempotency.KEY_MAX,
        "pattern": "^[!-~]+$",
    },
}
WRITE_METHODS = ("post", "put", "patch", "delete")


class JsonBody(Parser):
    """A write's body as tdsystem.api.body reads it: a JSON object, or a reason why not.
    (NaN parses, and no schema field takes it, so a 400 names the field it was sent for.)"""

    def parse_body(self, request: HttpRequest):
        return body.json_object(request)


class Api(NinjaAPI):
    def validation_error_from_error_contexts(
        self, error_contexts: list[ValidationErrorContext]
    ) -> ValidationError:
        return errors.input_error(error_contexts)

    def get_openapi_schema(self, **kwargs) -> OpenAPISchema:
        schema = super().get_openapi_schema(**kwargs)
        for item in schema["paths"].values():
            for method, operation in item.items():
                if method in WRITE_METHODS:
                    operation.setdefault("parameters", []).append(IDEMPOTENCY_KEY)
                    operation["responses"].setdefault(422, _reused_key(operation))
        return schema

    def create_response(self, request: HttpRequest, data, **kwargs) -> HttpResponse:
        # Screens poll these answers: no cache between them and the server may keep one.
        response = super().create_response(request, data, **kwargs)
        add_never_cache_headers(response)
        return response


def _reused_key(operation: dict) -> dict:
    """The 422 of a reused key: an Error, as the operation's 400."""
    error = operation["responses"][400]
    return {
        "description": "the Idempotency-Key was sent with another request",
        "content": error["content"],
    }


api = Api(
    title="tdsystem API",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api",
    parser=JsonBody(),
    # From the project's own static files: a venue's network may have no Internet.
    docs=Swagger(settings={"validatorUrl": None, "defaultModelsExpandDepth": 0}),
)
errors.install(api)
api.add_decorator(body.body_checked, mode="operation")  # after auth and the schemas
api.add_router("/", events_router)
api.add_router("/", seating_router)
api.add_router("/", dayend_router)
api.add_router("/", flights_router)
api.add_router("/", results_router)
api.add_router("/", tickets_router)
api.add_router("/", floor_router)
api.add_router("/", rulings_router)
api.add_router("/", shotclock_router)
api.add_router("/", players_router)
api.add_router("/", player_links_router)
api.add_router("/", alternates_router)
