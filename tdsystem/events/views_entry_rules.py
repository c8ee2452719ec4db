"""The console's page of an existing event's entry rules, saved by
`event_entry_rules_update`."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor
from tdsystem.core.locking import Busy

from . import selectors
from .forms import EntryRulesForm
from .models import Event
from .services import EntryRulesError, event_entry_rules_update


@staff_required("events")
def event_entry_rules(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    finished = event.status == Event.Status.FINISHED
    # The form writes the posted values on its instance: a copy, so the page shows the
    # event as it is stored.
    form = EntryRulesForm(request.POST or None, instance=Event.objects.get(pk=event.pk))
    if request.method == "POST" and form.is_valid():
        try:
            saved, changed = event_entry_rules_update(
                event_id=event.pk, changes=form.changes(), actor=Actor.of(request.user)
            )
        except EntryRulesError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        except Busy as exc:
            form.add_error(None, exc.message)
        else:
            if not changed:
                messages.info(request, _("Nothing changed in the entry rules."))
            else:
                messages.success(
                    request, _("The entry rules of %(name)s are saved.") % {"name": saved.name}
                )
            return redirect("console:event", event.pk)
    notices = None if finished else _notices_now(event)
    context = {"event": event, "form": form, "finished": finished, "notices": notices}
    return render(request, "events/entry_rules.html", context, status=400 if form.errors else 200)


def _notices_now(event: Event) -> list[dict]:
    """The entry notices the clock screen shows now (from the stored rules)."""
    return selectors.event_clock_payload(event.pk)["entry_notices"]
