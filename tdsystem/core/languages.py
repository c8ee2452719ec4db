"""The reader's language (docs/languages.md).

In order, the first that says: `?lang=xx` on the URL (a TV set up once with its venue's
language; kept in the language cookie so the page's own refreshes follow), the language a
signed-in staff user chose (saved, and held in the session), the language cookie (the
switcher's choice on this browser), an event's screen language on that event's public
screens (`screen_language`), then the browser's Accept-Language (Django's
LocaleMiddleware), then English.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db import DatabaseError
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation

CODES = frozenset(code for code, _name in settings.LANGUAGES)
SESSION_KEY = "language"
PARAM = "lang"


def asked(request: HttpRequest) -> str | None:
    """The language of `?lang=`, when it is one of ours."""
    code = request.GET.get(PARAM, "")
    return code if code in CODES else None


def chosen(request: HttpRequest) -> str | None:
    """A language the reader chose: ?lang=, a staff user's choice, or the cookie."""
    code = asked(request)
    if code:
        return code
    session = getattr(request, "session", None)
    code = session.get(SESSION_KEY) if session is not None else None
    if code in CODES:
        return code
    code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    return code if code in CODES else None


def use(request: HttpRequest, code: str) -> None:
    translation.activate(code)
    request.LANGUAGE_CODE = code


def screen_language(request: HttpRequest, event_language: str) -> None:
    """On an event's public screen: the event's screen language, unless the reader chose."""
    if event_language in CODES and not chosen(request):
        use(request, event_language)


def remember(response: HttpResponse, code: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite="Lax",
        httponly=False,
    )


class LanguageMiddleware:
    """After LocaleMiddleware (cookie, Accept-Language): ?lang= and a staff user's choice."""

    def __init__(self, get_response):
        self.get_response = get_response

    @staticmethod
    def _saved(request: HttpRequest) -> str | None:
        """A staff user's choice, held in their session (set at login and by the
        switcher; a logout flushes it). Only a request with a session cookie reads the
        session, and a database that cannot be reached leaves it to the pages' own
        handling (the session is read again, and fails there as before)."""
        session = getattr(request, "session", None)
        if session is None or settings.SESSION_COOKIE_NAME not in request.COOKIES:
            return None
        try:
            saved = session.get(SESSION_KEY)
        except DatabaseError:
            return None
        return saved if saved in CODES else None

    def __call__(self, request: HttpRequest) -> HttpResponse:
        wanted = asked(request)
        code = wanted or self._saved(request)
        if code:
            use(request, code)
        response = self.get_response(request)
        if wanted and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != wanted:
            remember(response, wanted)
        return response


@receiver(user_logged_in)
def _saved_language(sender, request, user, **kwargs) -> None:
    """A staff user's saved language follows them to every browser they sign in on."""
    from .models import StaffLanguage

    code = StaffLanguage.objects.filter(user=user).values_list("language", flat=True).first()
    if code and request is not None and hasattr(request, "session"):
        request.session[SESSION_KEY] = code
