"""The console's editor of an event's levels: one form, saved by `event_levels_edit`."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _

from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor
from tdsystem.core.locking import Busy
from tdsystem.structures import editing
from tdsystem.structures.models import Betting
from tdsystem.structures.services import StructureError
from tdsystem.structures.views import editor_render, editor_saved

from .models import Clock, Event
from .services import event_levels_edit


@staff_required("events")
def event_levels(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event.objects.select_related("clock", "structure"), pk=event_id)
    clock = event.clock
    started = clock.status != Clock.Status.NOT_STARTED
    current = clock.level_index if started else None
    post = request.POST if request.method == "POST" else None
    rows, operation, confirm = editing.editor_context(
        post, editing.stored_rows(event.structure), current=current
    )
    posted = str(post.get("version", "")) if post is not None else ""
    version = int(posted) if posted.isdigit() else None
    errors: list[str] = []
    if clock.status == Clock.Status.FINISHED:
        errors = [_("the event is finished: its levels no longer change")]
    elif post is not None and not operation:
        try:
            event_levels_edit(
                event_id=event.pk,
                rows=rows,
                actor=Actor.of(request.user),
                confirm_warnings=confirm,
                expected_version=version,
            )
        except StructureError as exc:
            errors = exc.errors
            if getattr(exc, "field", "") == "version":  # seen now: the next save may go
                version = Clock.objects.get(pk=event.pk).version
        except Busy as exc:
            errors = [exc.message]
        else:
            messages.success(request, _("Saved the levels of %(name)s") % {"name": event.name})
            return editor_saved(request, reverse("console:event", args=[event.pk]))
    return editor_render(
        request,
        rows=rows,
        current=current,
        errors=errors,
        operation=operation,
        show_bets=event.betting == Betting.FIXED_LIMIT,
        title=event.name,
        event=event,
        finished=clock.status == Clock.Status.FINISHED,
        version=clock.version if version is None else version,
        back_url=reverse("console:event", args=[event.pk]),
    )
