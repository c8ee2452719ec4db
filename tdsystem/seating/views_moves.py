"""Move slips: the floor's list, and the confirmation that a player sits in the new seat."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor
from tdsystem.core.forms import quoted, whole_number
from tdsystem.core.numbers import TABLE_NUMBER

from . import selectors, services
from .forms import TABLE_NUMBER_MAX
from .models import Move
from .table_access import table_refusal
from .views_console import CHANGED, event_or_404


@require_GET
@staff_required("seating")
def moves_page(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    table = request.GET.get("table", "").strip()
    number = whole_number(table, high=TABLE_NUMBER_MAX)
    # A filter that is not a table number says so, and shows every table's slips.
    refused = (
        _("%(typed)s is not a table number: %(rule)s; every table's slips are shown.")
        % {"typed": quoted(table), "rule": TABLE_NUMBER.rule()}
        if table and number is None
        else ""
    )
    slips = selectors.move_slips(event.pk, table=number)
    context = {
        "event": event,
        "slips": slips,
        "groups_pending": [slip for slip in slips if slip.acknowledged_at is None],
        "done": [slip for slip in slips if slip.acknowledged_at is not None],
        "table": table if number is not None else "",
        "typed": table,
        "refused": refused,
    }
    template = "seating/moves.html#slips" if request.htmx else "seating/moves.html"
    return render(request, template, context)


@require_POST
@staff_required("seating")
def moves_ack(request: HttpRequest, event_id: int) -> HttpResponse:
    """ "Acknowledge all": every slip still waiting, or those to one table (`to_table`)."""
    event = event_or_404(event_id)
    raw = request.POST.get("to_table", "")
    to_table = whole_number(raw, high=TABLE_NUMBER_MAX) if raw else None
    count = services.moves_acknowledge(
        event_id=event.pk, actor=Actor.of(request.user), to_table=to_table
    )
    if not request.htmx:
        message = ngettext("%(count)s move slip done", "%(count)s move slips done", count)
        messages.success(request, message % {"count": count})
        back = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(back, {request.get_host()}):
            back = reverse("seating:moves", args=[event.pk])
        return redirect(back)
    return trigger_client_event(HttpResponse(status=204), CHANGED)


@require_POST
def move_ack(request: HttpRequest, event_id: int, move_id: int) -> HttpResponse:
    """Floor staff confirm any slip; a table device the slips into or out of its table."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    event = event_or_404(event_id)
    move = get_object_or_404(Move, pk=move_id, event=event)
    refused = table_refusal(request, event, move.to_table, move.from_table)
    if refused:
        return refused
    slip = services.move_acknowledge(
        event_id=event.pk, move_id=move.pk, actor=Actor.of(request.user)
    )
    if not request.htmx:
        back = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(back, {request.get_host()}):
            back = reverse("seating:moves", args=[event.pk])
        return redirect(back)
    response = render(request, "seating/_slip.html", {"event": event, "slip": slip})
    return trigger_client_event(response, CHANGED)


move_ack.staff_right = "table"  # type: ignore[attr-defined]
