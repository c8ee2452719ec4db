"""An existing event's screen language (docs/languages.md): the language of its public
screens for every reader who has not chosen one. One way in: the console's event page."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Text, log_record

from ..models import Event

# The languages by their own names ("日本語"), as the language menu shows them.
_NAMES = dict(settings.LANGUAGES)


class ScreenLanguageError(ValueError):
    """A language the site does not speak, or no such event; nothing was changed."""


def _language_text(code: str) -> Text | str:
    return _NAMES[code] if code else Text(gettext_noop("each screen's browser"))


def event_screen_language_set(*, event_id: int, language: str, actor: Actor) -> tuple[Event, bool]:
    """Set the event's screen language ("" : each screen follows its browser). Returns the
    event and whether it changed; the same language again writes and logs nothing."""
    if language and language not in _NAMES:
        raise ScreenLanguageError(_("The site does not speak %(code)s.") % {"code": language})
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=ScreenLanguageError)
        before = event.screen_language
        if before == language:
            return event, False
        event.screen_language = language
        event.save(update_fields=["screen_language"])
        log_record(
            event=event,
            actor=actor,
            action="event.screen_language",
            summary=Text(
                gettext_noop("Screen language: %(before)s → %(after)s"),
                before=_language_text(before),
                after=_language_text(language),
            ),
            data={"before": before, "after": language},
        )
    return event, True
