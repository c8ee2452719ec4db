"""The one NinjaAPI of the project, mounted at /api/: the reference at /api/docs and
/api/openapi.json is generated from the routers and schemas below it."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from ninja import NinjaAPI
from ninja.errors import ValidationError, ValidationErrorContext
from ninja.openapi.docs import Swagger
from ninja.parser import Parser

from . import errors
from .dayend import router as dayend_router
from .events import router as events_router
from .flights import router as flights_router
from .floor import router as floor_router
from .results import router as results_router
from .rulings import router as rulings_router
from .seating import router as seating_router
from .tickets import router as tickets_router

DESCRIPTION = """\
Reads are public, but the floor plan's. Writes (and that read) need a staff API token sent
as `Authorization: Bearer <token>` (create one at `/console/tokens/` or with
`python manage.py create_api_token USERNAME`) and take a JSON object body; unknown fields
are ignored.

Every error is a JSON object with `error`, a sentence for people:

| status | when |
|---|---|
| 400 | bad input: `field` names the body field at fault (the body does not parse: no `field`) |
| 401 | no token, or not a valid one |
| 403 | the token's user lacks the right |
| 404 | no such event or move slip |
| 409 | the rules or the current state refuse it |
| 413 | the body is larger than `DATA_UPLOAD_MAX_MEMORY_SIZE` |
| 503 | busy: someone else is changing this event right now; retry after `Retry-After` seconds |

**A write that answers an error has changed nothing**: retrying after fixing the input is
always safe. A NUL character anywhere in a request answers 400. Players are named by their
entry number in the event, not by a database id.
"""


class JsonBody(Parser):
    """A reason for every body that is not JSON. (NaN parses, and no schema field takes it,
    so a 400 names the field it was sent for.)"""

    def parse_body(self, request: HttpRequest):
        try:
            text = request.body.decode("utf-8")
        except UnicodeDecodeError:
            raise errors.BodyNotJson(_("the body is not UTF-8 text")) from None
        try:
            return json.loads(text)
        except RecursionError:
            raise errors.BodyNotJson(_("the body is nested too deeply")) from None
        except ValueError:
            raise errors.BodyNotJson(_("the body is not valid JSON")) from None


class Api(NinjaAPI):
    def validation_error_from_error_contexts(
        self, error_contexts: list[ValidationErrorContext]
    ) -> ValidationError:
        return errors.input_error(error_contexts)

    def create_response(self, request: HttpRequest, data, **kwargs) -> HttpResponse:
        # Screens poll these answers: no cache between them and the server may keep one.
        response = super().create_response(request, data, **kwargs)
        add_never_cache_headers(response)
        return response


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
api.add_router("/", events_router)
api.add_router("/", seating_router)
api.add_router("/", dayend_router)
api.add_router("/", flights_router)
api.add_router("/", results_router)
api.add_router("/", tickets_router)
api.add_router("/", floor_router)
api.add_router("/", rulings_router)
