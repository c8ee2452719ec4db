"""The screens' clock poll answered ahead of the middleware (docs/clock.md, Figures).

Every TV and phone in the room asks `GET /api/events/<id>/clock` each second. Through the
whole middleware list such a poll pays for the session, the user, the CSRF check, the
messages, htmx, django-axes, the language and the security headers (the policy built
twice by django-csp) before and after the answer itself, and none of them changes it:
the answer is public, the same for every reader of one language, and sets no cookie.

ClockPollMiddleware, first in the list, answers such a poll itself with the headers the
whole list put on the same answer: the first poll of each language (and scheme) goes
through the whole list as any request, and the headers it came back with are kept (the
per-answer ones, Expires and Content-Length, are made again for each answer). So the
answer stays what the list would make of it, header for header, whatever the list holds.

Anything else goes through the list as before: another method or path, a reader with a
session cookie (a staff user's saved language is in the session, and reading it adds
`Vary: Cookie`), a query other than a `?lang=` the language cookie already holds (the
list would set the cookie), a NUL in a cookie, a host not allowed, an unknown event, an
error while answering (the list answers it as it always has), or settings under which a
middleware would answer otherwise (an HTTPS redirect, `PREPEND_WWW`, refused user agents,
language-prefixed URLs).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.conf.urls.i18n import is_language_prefix_patterns_used
from django.core.exceptions import DisallowedHost
from django.core.signals import setting_changed
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.http import http_date

from tdsystem.core import languages

from .events import JSON, NEVER_CACHE, SERVER_TIME, clock_body, unchanged

# The route of tdsystem/urls.py's `clock_json` (<int:event_id>: digits).
CLOCK_PATH = re.compile(r"/api/events/([0-9]+)/clock")

Variant = tuple[str, bool]  # the answer's language, HTTPS


class ClockPollMiddleware:
    """Answers a public clock poll at once, with the headers the middleware list gave the
    same poll before. See the module's docstring for what goes on through the list."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]):
        self.get_response = get_response
        # variant -> the headers, in order, of an answer the whole list made for it
        self._learned: dict[Variant, tuple[tuple[str, str], ...]] = {}
        self._usable: bool | None = None
        setting_changed.connect(self._forget)  # a weak reference: tests make many

    def _forget(self, **kwargs) -> None:
        self._learned = {}
        self._usable = None

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method != "GET":
            return self.get_response(request)
        match = CLOCK_PATH.fullmatch(request.path_info)
        variant = self._variant(request) if match else None
        if match is None or variant is None:
            return self.get_response(request)
        headers = self._learned.get(variant)
        if headers is None:
            response = self.get_response(request)
            self._learn(variant, response)
            return response
        try:
            with translation.override(variant[0]):
                found = clock_body(int(match[1]))
        except Exception:  # the list answers it as it always has (a 503, a 500 page)
            return self.get_response(request)
        if found is None:  # an unknown event: the API's own 404
            return self.get_response(request)
        fresh = {
            "expires": http_date(),
            "content-length": str(len(found.body)),
            "etag": found.tag,
            SERVER_TIME.lower(): found.server_time,
        }
        if unchanged(request, found.tag):  # as clock_answer: no body, no type
            kept = [
                (n, v) for n, v in headers if n.lower() not in ("content-type", "content-length")
            ]
            response = HttpResponse(
                status=304, headers={name: fresh.get(name.lower(), value) for name, value in kept}
            )
            del response.headers["Content-Type"]
            return response
        return HttpResponse(
            found.body, headers={name: fresh.get(name.lower(), value) for name, value in headers}
        )

    def _settings_usable(self) -> bool:
        if self._usable is None:
            self._usable = not (
                settings.SECURE_SSL_REDIRECT
                or settings.PREPEND_WWW
                or settings.DISALLOWED_USER_AGENTS
                or _prefixed_urls()
                or not _routed_to_the_clock()
            )
        return self._usable

    def _variant(self, request: HttpRequest) -> Variant | None:
        """The poll's language and scheme, None when the list must answer it."""
        if not self._settings_usable():
            return None
        cookies = request.COOKIES
        if settings.SESSION_COOKIE_NAME in cookies:
            return None
        if any("\x00" in name or "\x00" in value for name, value in cookies.items()):
            return None
        code = None
        if request.META.get("QUERY_STRING"):
            query = request.GET
            if list(query) != [languages.PARAM] or len(query.getlist(languages.PARAM)) != 1:
                return None
            code = languages.asked(request)
            if code is None or cookies.get(settings.LANGUAGE_COOKIE_NAME) != code:
                return None
        try:
            request.get_host()
        except DisallowedHost:
            return None
        return code or translation.get_language_from_request(request), request.is_secure()

    def _learn(self, variant: Variant, response: HttpResponseBase) -> None:
        """Keeps the headers of the list's answer to a poll of this variant, when it is
        the clock's JSON and nothing in it belongs to this one reader."""
        if (
            response.status_code != 200
            or response.cookies
            or response.get("Content-Type") != JSON
            or response.get("Cache-Control") != NEVER_CACHE
            or response.get("Content-Language") != variant[0]
            or "cookie" in response.get("Vary", "").lower()
            or "nonce-" in response.get("Content-Security-Policy", "")
            or "Content-Length" not in response
            or "ETag" not in response
        ):
            return
        self._learned[variant] = tuple(response.items())


def _prefixed_urls() -> bool:
    return is_language_prefix_patterns_used(settings.ROOT_URLCONF)[0]


def _routed_to_the_clock() -> bool:
    """The project's URLs send CLOCK_PATH to the clock's view (a bench's URLs include them)."""
    try:
        return resolve("/api/events/1/clock").url_name == "clock_json"
    except Resolver404:
        return False
