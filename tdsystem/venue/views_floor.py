"""The floor plan: which event holds which of the room's tables, and free tables given to
an event (through seating's own table setup, as the seating console does)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from tdsystem.core.access import event_refusal, has_right, staff_event_roles, staff_required
from tdsystem.core.actors import Actor
from tdsystem.events.selectors_life import staff_events
from tdsystem.seating import services as seating
from tdsystem.seating.errors import SeatingError

from .forms_floor import FloorGiveForm
from .selectors_floor import OPEN, FloorPlan, Holder, Tile, floor_plan

PAGE = "venue/floor.html"
POLL_SECONDS = 12


def tile_rows(plan: FloorPlan) -> list[tuple[Tile, str]]:
    """Each tile with its second line ("7 / 9 seated", "9 seats"), each wording translated
    once: a room of 600 tables has a few dozen, and the page renders in a blink."""
    said: dict[tuple[bool, int, int], str] = {}
    rows = []
    for tile in plan.tiles:
        key = (tile.free, tile.players, tile.seats)
        if key not in said:
            said[key] = (
                ngettext("%(n)s seat", "%(n)s seats", tile.seats) % {"n": tile.seats}
                if tile.free
                else _("%(n)s / %(seats)s seated") % {"n": tile.players, "seats": tile.seats}
            )
        rows.append((tile, said[key]))
    return rows


# A table number no URL holds: a tile's link is its holder's, with the number put in.
_NUMBER = 987654321


def tiles_html(rows: list[tuple[Tile, str]], may_give: bool) -> SafeString:
    """The tiles' markup, built here and not by the template: 600 tiles took the template
    some 15,000 variable look-ups and 600 URL reversals at each poll (about 30 ms of CPU),
    while a tile is only its number put into its holder's markup, which is built (and
    escaped) once per event. The same HTML as a template loop would give."""
    free, table_word = escape(_("free")), escape(_("Table"))
    holders: dict[int, tuple[str, tuple[str, str, str, str]]] = {}
    words: dict[str, str] = {}
    parts = []
    for tile, label in rows:
        n = tile.number
        said = words.get(label)
        if said is None:
            said = words[label] = escape(label)
        holder = tile.holder
        if holder is None:
            pick = (
                f'<input type="checkbox" name="numbers" value="{n}" id="pick-{n}" hx-preserve '
                f'aria-label="{table_word} {n}">'
                if may_give
                else ""
            )
            parts.append(
                f'<li><label class="tile free" data-table="{n}"><b class="n">{n}</b>'
                f'<span class="ev">{free}</span><span class="p">{said}</span>{pick}</label></li>'
            )
            continue
        link = holders.get(holder.id)
        if link is None:
            link = holders[holder.id] = _holder_markup(holder)
        head, tail = link
        parts.append(f"{head}{n}{tail[0]}{n}{tail[1]}{n}{tail[2]}{said}{tail[3]}")
    return mark_safe("".join(parts))  # every piece is escaped above


def _holder_markup(holder: Holder) -> tuple[str, tuple[str, str, str, str]]:
    """A held tile's markup around its number (three times) and its second line."""
    url = reverse("results:table", args=[holder.id, _NUMBER])
    before, after = url.rsplit(str(_NUMBER), 1)
    name = escape(holder.name)
    flight = f'<span class="fl">{escape(holder.flight)}</span>' if holder.flight else ""
    head = '<li><a class="tile held" data-table="'
    return head, (
        f'" data-event="{holder.id}" style="--c: {holder.colour}" href="{escape(before)}',
        f'{escape(after)}" title="{name}"><b class="n">',
        f'</b><span class="ev"><bdi>{name}</bdi></span><span class="p">',
        f"</span>{flight}</a></li>",
    )


def _render(request: HttpRequest, **extra) -> HttpResponse:
    plan = floor_plan()
    rows = tile_rows(plan)
    may_give = has_right(request.user, "seating")
    context = {
        "plan": plan,
        "rows": rows,
        "tiles": tiles_html(rows, may_give),
        "may_give": may_give,
        "poll": POLL_SECONDS,
        **extra,
    }
    if not request.htmx:
        # The room is everyone's to see; tables go only to the user's own events.
        mine = staff_events(staff_event_roles(request.user))
        context["events"] = mine.filter(OPEN).order_by("scheduled_start", "pk")
    return render(request, f"{PAGE}#floor" if request.htmx else PAGE, context)


@require_GET
@staff_required("console")
def floor(request: HttpRequest) -> HttpResponse:
    return _render(request)


@require_POST
@staff_required("seating")
def floor_give(request: HttpRequest) -> HttpResponse:
    form = FloorGiveForm(request.POST)
    error: str | None = None
    message: str | None = None
    if not form.is_valid():
        error = str(next(iter(form.errors.values()))[0])  # the field's own sentence
    else:
        event, numbers = form.cleaned_data["event"], form.cleaned_data["numbers"]
        refused = event_refusal(request, "seating", event.pk)
        if refused:
            return refused
        try:
            seats = seating.tables_seats(event)
            seating.tables_setup(
                event=event, numbers=numbers, seats=seats, actor=Actor.of(request.user)
            )
            message = _("Tables %(numbers)s given to %(event)s") % {
                "numbers": ", ".join(map(str, numbers)),
                "event": event.name,
            }
        except SeatingError as exc:
            error = str(exc)
    if request.htmx:
        return _render(request, error=error, message=message)
    (messages.error if error else messages.success)(request, error or message)
    return redirect("console:floor")
