"""The registration panel's tickets: give one by hand, register a holder with theirs.

Both answer, under HTMX, with the registration panel (the tickets are in it), as
registering a player does."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor
from tdsystem.core.forms import TextField, form_errors_text

from .entry_rules import ChangesToConfirm
from .errors import SeatingError
from .forms import RegisterForm
from .selectors_tickets import ticket_players as ticket_players_found
from .services.tickets import NOTE_MAX, ticket_issue, ticket_register
from .views_console import answer, attempt, enrolled, event_or_404


class TicketForm(forms.Form):
    # The player picked from the search; else the member id finds one; else the name
    # makes a new player (a name already known is asked about, unless `new_player`).
    player = forms.IntegerField(min_value=1, required=False)
    member_id = TextField(max_length=40, required=False)
    name = TextField(max_length=120, required=False)
    note = TextField(max_length=NOTE_MAX, required=False)
    new_player = forms.BooleanField(required=False)


@require_GET
@staff_required("seating")
def ticket_players(request: HttpRequest, event_id: int) -> HttpResponse:
    """The players a ticket may go to, for the search of "Give a ticket"."""
    event = event_or_404(event_id)
    query = request.GET.get("q", "")[:120]
    context = {"event": event, "found": ticket_players_found(query), "q": query, "picked": ""}
    return render(request, "seating/_tickets.html#players", context)


@require_POST
@staff_required("seating")
def ticket_give(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    form = TicketForm(request.POST)
    if not form.is_valid():
        return _panel(request, event, form_errors_text(form), None, ticket_form=form)
    data = form.cleaned_data
    error, message = attempt(
        lambda: ticket_issue(
            event_id=event.pk,
            player_id=data["player"],
            member_id=data["member_id"],
            name=data["name"],
            note=data["note"],
            new_player=data["new_player"],
            actor=Actor.of(request.user),
        ),
        lambda ticket: _("Ticket given to %(name)s") % {"name": ticket.player.name},
    )
    return _panel(request, event, error, message, ticket_form=form if error else None)


@require_POST
@staff_required("seating")
def ticket_use(request: HttpRequest, event_id: int, ticket_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    try:
        used = ticket_register(
            ticket_id=ticket_id,
            event_id=event.pk,
            confirm_changes=request.POST.get("confirm_changes") == "1",
            actor=Actor.of(request.user),
        )
    except ChangesToConfirm as exc:
        confirm = {
            "changes": exc.changes,
            "url": reverse("seating:ticket_use", args=[event.pk, ticket_id]),
            "hidden": [],
            "button": _("Register anyway"),
        }
        return _panel(request, event, str(exc), None, confirm=confirm)
    except SeatingError as exc:
        return _panel(request, event, str(exc), None)
    return _panel(request, event, None, enrolled(used.enrolment))


def _panel(
    request: HttpRequest, event, error: str | None, message: str | None, **extra
) -> HttpResponse:
    form = extra.get("ticket_form")
    if form is not None:  # refused: the search's players again, to pick from
        query = form.data.get("q", "")[:120]
        extra |= {"found": ticket_players_found(query), "q": query}
        extra["picked"] = form.data.get("player", "")
    return answer(request, event, "register", error, message, register_form=RegisterForm(), **extra)
