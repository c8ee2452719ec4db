"""The words of the page scripts (static/js), in one language: Django's JavaScript catalog.

The language is in the address (`/jsi18n/ja.js`), not taken from the request: a screen
shows its event's screen language, which the catalog's own request knows nothing of. The
catalog is built once per language and process (the translations load at start-up and
never change while it runs) and browsers keep it for an hour: 300 screens load it.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET
from django.views.i18n import JavaScriptCatalog

from .languages import CODES

CATALOG_SECONDS = 60 * 60

_catalog = JavaScriptCatalog.as_view(domain="djangojs")
_built: dict[str, tuple[bytes, str]] = {}


@require_GET
def js_catalog(request: HttpRequest, code: str) -> HttpResponse:
    if code not in CODES:
        raise Http404("no such language")
    if code not in _built:
        with translation.override(code):
            answer = _catalog(request)
        assert isinstance(answer, HttpResponse)  # the catalog renders at once, no streaming
        _built[code] = (answer.content, answer["Content-Type"])
    content, content_type = _built[code]
    response = HttpResponse(content, content_type=content_type)
    patch_cache_control(response, public=True, max_age=CATALOG_SECONDS)
    return response
