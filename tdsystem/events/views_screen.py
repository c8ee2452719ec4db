"""The console's change of an existing event's screen language, saved by
`event_screen_language_set`."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor
from tdsystem.core.locking import Busy

from .forms import EventForm
from .models import Event
from .services import ScreenLanguageError, event_screen_language_set


class ScreenLanguageForm(forms.Form):
    """The new-event form's field, stated once."""

    screen_language = EventForm.declared_fields["screen_language"]


@require_POST
@staff_required("events")
def event_screen_language(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    form = ScreenLanguageForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form.errors["screen_language"]))
        return redirect("console:event", event.pk)
    try:
        _event, changed = event_screen_language_set(
            event_id=event.pk,
            language=form.cleaned_data["screen_language"],
            actor=Actor.of(request.user),
        )
    except (ScreenLanguageError, Busy) as exc:
        messages.error(request, str(exc))
    else:
        if changed:
            messages.success(
                request, _("The screen language of %(name)s is saved.") % {"name": event.name}
            )
        else:
            messages.info(request, _("The screen language did not change."))
    return redirect("console:event", event.pk)
