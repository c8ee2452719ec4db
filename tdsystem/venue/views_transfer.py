"""Console pages moving an event between installations: its file downloaded (Export) and
a file uploaded (Import). The work is `transfer`'s."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor
from tdsystem.core.locking import Busy
from tdsystem.events.models import Event

from . import transfer
from .forms_transfer import EventImportForm


@require_GET
@staff_required("events")
def event_export(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    response = HttpResponse(
        transfer.event_export_json(event_id=event.pk), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{transfer.export_filename(event)}"'
    return response


@staff_required("events")
def event_import(request: HttpRequest) -> HttpResponse:
    form = EventImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            done = transfer.event_import(
                data=upload.read(), actor=Actor.of(request.user), name=upload.name
            )
        except (transfer.TransferError, Busy) as exc:
            form.add_error("file", str(exc))
        else:
            messages.success(
                request,
                ngettext(
                    "Imported %(name)s: %(count)s event, %(rows)s rows.",
                    "Imported %(name)s: %(count)s events, %(rows)s rows.",
                    done.events,
                )
                % {"name": done.event.name, "count": done.events, "rows": done.rows},
            )
            return redirect("console:event", done.event.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "venue/event_import.html", {"form": form}, status=status)
