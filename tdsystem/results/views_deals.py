"""The deal page: the players left, their counts, ICM or chip-chop, preview, confirm, cancel."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor
from tdsystem.core.forms import form_errors_text
from tdsystem.engine import deals as rules
from tdsystem.events.models import Event

from .errors import ResultsError
from .forms import chips_value
from .models import Deal
from .services import deals as service

PAGE = "results/deal.html"


class DealForm(forms.Form):
    """The method, the amount kept to play for; the counts come as "chips-<entry id>"."""

    method = forms.ChoiceField(choices=Deal.Method.choices, label=_("Share by"))
    play_for = forms.DecimalField(
        min_value=0,
        max_digits=12,
        decimal_places=2,
        required=False,
        label=_("Keep back to play for"),
        help_text=_("Taken off the top prize(s) before the deal; the winner takes it."),
    )

    def __init__(self, *args, entries=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.entry_ids = [e.pk for e in entries]

    def clean(self):
        data = super().clean()
        chips: dict[int, int] = {}
        for pk in self.entry_ids:
            try:
                value = chips_value(self.data.get(f"chips-{pk}"))
            except ValueError as exc:
                raise forms.ValidationError(str(exc)) from None
            if value is not None:
                chips[pk] = value
        data["chips"] = chips
        data["play_for"] = data.get("play_for") or Decimal(0)
        return data


def _event(event_id: int) -> Event:
    return get_object_or_404(Event, pk=event_id)


@require_http_methods(["GET", "POST"])
@staff_required("events")
def deal_page(request: HttpRequest, event_id: int) -> HttpResponse:
    """GET: the players left with their latest counts. POST: preview, or confirm the deal."""
    event = _event(event_id)
    entries = service.players_left(event)
    posted = request.method == "POST"
    form = DealForm(request.POST if posted else {"method": rules.ICM}, entries=entries)
    preview = error = None
    if form.is_valid():
        data = form.cleaned_data
        args = {"method": data["method"], "chips": data["chips"], "play_for": data["play_for"]}
        try:
            if posted and request.POST.get("action") == "confirm":
                service.deal_make(event_id=event.pk, actor=Actor.of(request.user), **args)
                messages.success(request, gettext("Deal recorded"))
                return redirect("results:deal", event.pk)
            preview = service.deal_preview(event=event, **args)
        except ResultsError as exc:
            error = str(exc)
    elif posted:
        error = form_errors_text(form)
    counts = {**service.latest_counts(entries), **form.cleaned_data.get("chips", {})}
    context = {
        "event": event,
        "form": form,
        "deal": service.standing_deal(event),
        "players": [(e, counts.get(e.pk)) for e in entries],
        "preview": preview,
        "error": error,
    }
    template = f"{PAGE}#deal" if request.htmx else PAGE
    return render(request, template, context)


@require_POST
@staff_required("events")
def deal_cancel(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    try:
        service.deal_cancel(event_id=event.pk, actor=Actor.of(request.user))
    except ResultsError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, gettext("Deal cancelled"))
    return redirect("results:deal", event.pk)
