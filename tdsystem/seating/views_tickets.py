"""The registration panel's tickets: give one by hand, register a holder with theirs.

Both answer, under HTMX, with the registration panel (the tickets are in it), as
registering a player does."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor

from .forms import RegisterForm, first_error
from .services.tickets import NOTE_MAX, ticket_issue, ticket_register
from .views_console import answer, attempt, enrolled, event_or_404


class TicketForm(forms.Form):
    name = forms.CharField(max_length=120)
    note = forms.CharField(max_length=NOTE_MAX, required=False)


@require_POST
@staff_required("seating")
def ticket_give(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    form = TicketForm(request.POST)
    if not form.is_valid():
        return _panel(request, event, first_error(form)[1], None)
    error, message = attempt(
        lambda: ticket_issue(event_id=event.pk, actor=Actor.of(request.user), **form.cleaned_data),
        lambda ticket: _("Ticket given to %(name)s") % {"name": ticket.player.name},
    )
    return _panel(request, event, error, message)


@require_POST
@staff_required("seating")
def ticket_use(request: HttpRequest, event_id: int, ticket_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    error, message = attempt(
        lambda: ticket_register(
            ticket_id=ticket_id, event_id=event.pk, actor=Actor.of(request.user)
        ),
        lambda used: enrolled(used.enrolment),
    )
    return _panel(request, event, error, message)


def _panel(request: HttpRequest, event, error: str | None, message: str | None) -> HttpResponse:
    return answer(request, event, "register", error, message, register_form=RegisterForm())
