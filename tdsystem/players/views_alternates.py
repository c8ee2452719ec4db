"""The alternates list's pages: the desk's list on the console, the public join, and the
small JSON a player's page polls while waiting."""

from __future__ import annotations

import hashlib
import json

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST, require_safe

from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor
from tdsystem.core.auth_views import client_ip
from tdsystem.core.forms import form_errors_text
from tdsystem.core.languages import screen_language
from tdsystem.events.models import Event

from . import alternates as alt
from .errors import PlayersRefused
from .forms import JoinForm, SettingsForm
from .links import link_by_token
from .models import Alternate

DESK = "players/alternates.html"
PLAYER = Actor(label="player")


def _desk_context(event: Event, **extra) -> dict:
    alist = alt.list_of(event)
    settings_form = extra.pop("settings_form", None) or SettingsForm(
        initial={"is_open": alist.is_open, "size": alist.size, "hold_minutes": alist.hold_minutes}
    )
    return {
        "event": event,
        "alist": alist,
        "queue": alt.queue(event.pk),
        "now": timezone.now(),
        "seats_free": alt.seats_free(event),
        "refusal": alt.registration_refusal(event),
        "settings_form": settings_form,
        "join_form": extra.pop("join_form", None) or JoinForm(),
        **extra,
    }


def _desk_answer(
    request: HttpRequest, event: Event, error: str | None, message: str | None, **extra
):
    if not request.htmx:
        return redirect("players:alternates", event.pk)
    context = _desk_context(event, error=error, message=message, **extra)
    return render(request, f"{DESK}#desk", context)


@require_GET
@staff_required("seating")
def desk(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    part = request.GET.get("part")
    template = f"{DESK}#{part}" if request.htmx and part in ("desk", "list") else DESK
    return render(request, template, _desk_context(event))


@require_POST
@staff_required("seating")
def desk_join(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    form = JoinForm(request.POST)
    error = message = None
    if form.is_valid():
        try:
            joined = alt.alternate_join(
                event=event, name=form.cleaned_data["name"], actor=Actor.of(request.user)
            )
        except PlayersRefused as exc:
            error = str(exc)
        else:
            message = _("%(name)s joined the list") % {"name": joined.alternate.name}
            form = JoinForm()
    else:
        error = form_errors_text(form)
    return _desk_answer(request, event, error, message, join_form=form)


@require_POST
@staff_required("events")
def desk_settings(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    form: SettingsForm | None = SettingsForm(request.POST)
    error = message = None
    if form is not None and form.is_valid():
        try:
            alt.alternates_settings(event=event, actor=Actor.of(request.user), **form.cleaned_data)
        except PlayersRefused as exc:
            error = str(exc)
        else:
            message, form = _("Saved"), None
    else:
        error = form_errors_text(form) if form is not None else None
    return _desk_answer(request, event, error, message, settings_form=form)


ACTIONS = {
    "seat": alt.alternate_seat,
    "skip": alt.alternate_skip,
    "remove": alt.alternate_remove,
}


@require_POST
@staff_required("seating")
def desk_action(
    request: HttpRequest, event_id: int, action: str, alternate_id: int = 0
) -> HttpResponse:
    """Call the next; seat, skip or remove one. Registration's refusal is shown as is."""
    event = get_object_or_404(Event, pk=event_id)
    actor = Actor.of(request.user)
    error = message = None
    try:
        if action == "call":
            called = alt.alternate_call_next(event=event, actor=actor)
            message = _("%(name)s called") % {"name": called.name}
        elif action in ACTIONS:
            alternate = get_object_or_404(Alternate, pk=alternate_id, event=event)
            result = ACTIONS[action](alternate=alternate, actor=actor)
            if action == "seat":
                message = _("%(name)s seated: table %(table)s seat %(seat)s") % {
                    "name": alternate.name,
                    "table": result.table.number if result.table else "—",
                    "seat": result.seat or "—",
                }
        else:
            raise Http404
    except ValueError as exc:  # PlayersRefused, and registration's SeatingError
        error = str(exc)
    return _desk_answer(request, event, error, message)


def join_public(request: HttpRequest, event_id: int) -> HttpResponse:
    """The seat lookup's "Join the alternates list": a name, then the player's own page."""
    event = get_object_or_404(Event, pk=event_id)
    screen_language(request, event.screen_language)
    form = JoinForm(request.POST or None)
    error = None
    if request.method == "POST":
        if not alt.join_allowed(event.pk, client_ip(request)):
            error = _("Too many tries from this phone: wait a minute, or ask at the desk.")
        elif form.is_valid():
            try:
                joined = alt.alternate_join(
                    event=event, name=form.cleaned_data["name"], actor=PLAYER
                )
            except PlayersRefused as exc:
                error = str(exc)
            else:
                return redirect("players:me", joined.link.token)
        else:
            error = form_errors_text(form)
    elif request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405)
    context = {"event": event, "form": form, "error": error, "offered": alt.join_offered(event)}
    return render(request, "players/alternates_join.html", context, status=400 if error else 200)


@require_safe
def me_alternate_poll(request: HttpRequest, token: str) -> HttpResponse:
    """The waiting player's page asks here every second: its place, estimate and hold, as
    a small JSON with an ETag (304 when nothing changed but the clock)."""
    link = link_by_token(token)
    if link is None or link.alternate_id is None:
        raise Http404
    screen_language(request, link.event.screen_language)
    state = alt.alternate_state(link)
    state["seated"] = link.entry_id is not None
    state["wait_text"] = alt.wait_text(state["wait_minutes"])
    stable = {k: v for k, v in state.items() if k not in ("seconds_left", "now")}
    digest = hashlib.sha1(json.dumps(stable, sort_keys=True).encode()).hexdigest()[:20]
    etag = f'"{digest}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        response = JsonResponse(state)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response
