"""Staff pages: the seating console, move slips, and the table pages.

Every action is a POST answered, under HTMX, with the fragment it changed and a
`seating-changed` client event that makes the other fragments reload; without HTMX it
redirects back with a message.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import push_url, trigger_client_event

from tdsystem.core.access import has_right, refuse, staff_required
from tdsystem.core.actors import Actor
from tdsystem.events.models import Event
from tdsystem.results.errors import ResultsError
from tdsystem.results.selectors import hand_for_hand
from tdsystem.results.services import bustout_record, handforhand_hand_finish

from . import balancing, selectors, services
from .errors import SeatingError
from .forms import (
    BreakOrderForm,
    ImportForm,
    PurchaseForm,
    RedrawForm,
    RegisterForm,
    TablesForm,
    first_error,
)
from .models import Entry, Move, TableDevice

CONSOLE = "seating/console.html"
CONSOLE_PARTS = ("status", "tables", "slips", "register", "setup")
CHANGED = "seating-changed"


def _event(event_id: int) -> Event:
    return get_object_or_404(Event, pk=event_id)


def _context(
    event: Event, *, page: int = 1, table=None, mark=None, cards: bool = False, **extra
) -> dict:
    """The console's context; `cards` for the table grid, the only part that shows seats."""
    overview = SimpleLazyObject(
        lambda: selectors.seating_overview(event, page=page, table=table, mark=mark, cards=cards)
    )
    return {"event": event, "overview": overview, **extra}


def _number(raw: str, what: str) -> tuple[int | None, str]:
    """A positive whole number typed or put in the URL, or why it is not one."""
    raw = raw.strip().lstrip("#").strip()
    if not raw:
        return None, ""
    if raw.isascii() and raw.isdigit() and 0 < int(raw) < 100_000:
        return int(raw), ""
    return None, f"“{raw[:12]}” is not a {what}."


def _answer(request, event, part: str, error: str | None, message: str | None, **extra):
    """The changed fragment (HTMX) or a redirect to the console with a flash."""
    if not request.htmx:
        if error or message:
            (messages.error if error else messages.success)(request, error or message)
        return redirect("seating:console", event.pk)
    context = _context(event, error=error, message=message, **extra)
    response = render(request, f"{CONSOLE}#{part}", context)
    return response if error else trigger_client_event(response, CHANGED)


def _attempt(action: Callable, describe: Callable) -> tuple[str | None, str | None]:
    try:
        result = action()
    except (SeatingError, ResultsError) as exc:
        return str(exc), None
    return None, describe(result)


@require_GET
@staff_required("seating")
def console(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    part = request.GET.get("part")
    template = f"{CONSOLE}#{part}" if request.htmx and part in CONSOLE_PARTS else CONSOLE
    # The table grid: ?tables=<page>, or ?table=<number> for the page holding that table
    # (marked); ?mark=<number> keeps a table marked while the grid refreshes.
    page, page_error = _number(request.GET.get("tables", ""), "page number")
    table, table_error = _number(request.GET.get("table", ""), "table number")
    mark, _ = _number(request.GET.get("mark", ""), "table number")
    seats = event.tables.filter(in_play=True).values_list("seats", flat=True).first()
    forms = {
        "register_form": RegisterForm(),
        "tables_form": TablesForm(initial={"seats": seats or event.seats_per_table}),
    }
    grid_error = table_error or page_error
    context = _context(
        event,
        page=page or 1,
        table=table,
        mark=mark,
        cards=template == CONSOLE or part == "tables",
        grid_error=grid_error,
        **forms,
    )
    response = render(request, template, context)
    jumped = request.htmx and part == "tables" and request.htmx.trigger != "tables"
    if jumped and table and context["overview"].marked == table:
        # A jump to a table (not the grid refreshing itself): the address bar keeps it,
        # so reload and back show it again.
        push_url(response, f"{reverse('seating:console', args=[event.pk])}?table={table}")
    return response


@require_POST
@staff_required("seating")
def register(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    form = RegisterForm(request.POST)
    error = message = None
    duplicate = False
    if form.is_valid():
        try:
            enrolment = services.player_register(
                event=event, actor=Actor.of(request.user), **form.cleaned_data
            )
        except services.DuplicateName as exc:
            error, duplicate = str(exc), True
        except (SeatingError, ResultsError) as exc:
            error = str(exc)
        else:
            message = _enrolled(enrolment)
    else:
        error = first_error(form)[1]
    fresh = RegisterForm() if message else form
    if message:
        fresh.fields["name"].widget.attrs["autofocus"] = True  # ready for the next player
    elif duplicate:
        fresh.fields["note"].widget.attrs["autofocus"] = True  # the note tells them apart
    return _answer(
        request, event, "register", error, message, register_form=fresh, duplicate=duplicate
    )


def _enrolled(enrolment: services.Enrolment) -> str:
    entry = enrolment.entry
    text = f"#{entry.number} {entry.player}: "
    if entry.table is None:
        return text + "registered, seated at the draw"
    text += f"table {entry.table.number} seat {entry.seat}"
    return text + ("" if enrolment.dealt_in else " (waits for the button)")


@require_POST
@staff_required("seating")
def register_many(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    form = ImportForm(request.POST)
    error = message = None
    if not form.is_valid():
        error = first_error(form)[1]
    else:
        error, message = _attempt(
            lambda: services.players_import(
                event_id=event.pk,
                names=form.cleaned_data["names"],
                confirm_duplicates=form.cleaned_data["confirm_duplicates"],
                actor=Actor.of(request.user),
            ),
            lambda count: f"{count} players registered",
        )
    # A refused list stays in the box, so the director can tick "anyway" or edit it.
    pasted = request.POST.get("names", "") if error else ""
    return _answer(
        request, event, "register", error, message, register_form=RegisterForm(), pasted=pasted
    )


@require_POST
@staff_required("seating")
def tables(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    form = TablesForm(request.POST)
    if not form.is_valid():
        return _answer(request, event, "setup", first_error(form)[1], None, tables_form=form)
    error, message = _attempt(
        lambda: services.tables_setup(
            event=event, actor=Actor.of(request.user), **form.cleaned_data
        ),
        lambda made: f"{len(made)} tables in play",
    )
    return _answer(request, event, "setup", error, message, tables_form=form)


@require_POST
@staff_required("seating")
def release(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    form = BreakOrderForm(request.POST)
    numbers = form.cleaned_data["numbers"] if form.is_valid() else []
    if not numbers:
        error = "give the numbers of empty tables"
        return _answer(request, event, "setup", error, None, tables_form=TablesForm())
    error, message = _attempt(
        lambda: services.tables_release(
            event_id=event.pk, numbers=numbers, actor=Actor.of(request.user)
        ),
        lambda _: f"Released table {', '.join(map(str, numbers))}",
    )
    return _answer(request, event, "setup", error, message, tables_form=TablesForm())


@require_POST
@staff_required("seating")
def break_order(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    form = BreakOrderForm(request.POST)
    if not form.is_valid():
        return _answer(request, event, "status", first_error(form)[1], None)
    error, message = _attempt(
        lambda: services.tables_reorder(
            event_id=event.pk, numbers=form.cleaned_data["numbers"], actor=Actor.of(request.user)
        ),
        lambda order: "Break order: " + ", ".join(map(str, order)),
    )
    return _answer(request, event, "status", error, message)


@require_POST
@staff_required("seating")
def draw(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    error, message = _attempt(
        lambda: services.seats_draw(event=event, actor=Actor.of(request.user)),
        lambda count: f"Seats drawn for {count} players",
    )
    return _answer(request, event, "status", error, message)


@require_POST
@staff_required("seating")
def rebalance(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    error, message = _attempt(
        lambda: balancing.tables_rebalance(event_id=event.pk, actor=Actor.of(request.user)),
        _rebalanced,
    )
    return _answer(request, event, "status", error, message)


def _rebalanced(result: balancing.Rebalance) -> str:
    if result.kind is None:
        return "Nothing to do: the tables are balanced"
    if result.broken:
        return f"Table {', '.join(map(str, result.broken))} breaks: {len(result.moves)} moves"
    return f"{result.kind.capitalize()}: {len(result.moves)} move slip(s)"


@require_POST
@staff_required("seating")
def redraw(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    form = RedrawForm(request.POST)
    if not form.is_valid():
        return _answer(request, event, "status", first_error(form)[1], None)
    error, message = _attempt(
        lambda: balancing.tables_redraw(
            event_id=event.pk,
            table_count=form.cleaned_data["tables"],
            actor=Actor.of(request.user),
        ),
        lambda result: f"Redraw: {len(result.moves)} move slips",
    )
    return _answer(request, event, "status", error, message)


# One entry: the panel the console opens for a player --------------------------------------


def _entry(event: Event, entry_id: int) -> Entry:
    entries = Entry.objects.select_related("player", "table")
    return get_object_or_404(entries, pk=entry_id, event=event)


def _entry_panel(request, event, entry_id: int, error=None, message=None) -> HttpResponse:
    entry = _entry(event, entry_id)
    context = {
        "event": event,
        "entry": entry,
        "purchases": list(entry.purchases.all()),
        "moves": selectors.moves_of([entry.pk], minutes=24 * 60).get(entry.pk, []),
        "error": error,
        "message": message,
        "purchase_form": PurchaseForm(),
    }
    response = render(request, "seating/console.html#entry", context)
    return response if error or not message else trigger_client_event(response, CHANGED)


@require_GET
@staff_required("seating")
def entry_panel(request: HttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    return _entry_panel(request, _event(event_id), entry_id)


@require_GET
@staff_required("seating")
def entry_search(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    results = selectors.seat_search(event.pk, request.GET.get("q", "")[:80])
    return render(request, f"{CONSOLE}#search", {"event": event, "results": results})


@require_POST
@staff_required("seating")
def entry_action(request: HttpRequest, event_id: int, entry_id: int, action: str) -> HttpResponse:
    event, actor = _event(event_id), Actor.of(request.user)
    entry = _entry(event, entry_id)
    if action == "eliminate":
        # One player out on a hand of their own: a bust-out, with its place, prize and undo.
        error, message = _attempt(
            lambda: bustout_record(event_id=event.pk, entry_ids=[entry.pk], actor=actor),
            lambda done: (
                f"Out in place {done.finishes[0].place}"
                + (_moves_note(done.rebalance) if done.rebalance else "")
            ),
        )
    elif action == "reenter":
        error, message = _attempt(
            lambda: services.entry_reenter(event_id=event.pk, entry_id=entry.pk, actor=actor),
            _enrolled,
        )
    elif action == "buy":
        form = PurchaseForm(request.POST)
        if not form.is_valid():
            return _entry_panel(request, event, entry.pk, error=first_error(form)[1])
        error, message = _attempt(
            lambda: services.entry_purchase(
                event_id=event.pk, entry_id=entry.pk, actor=actor, **form.cleaned_data
            ),
            lambda buy: f"{buy.get_kind_display()}: {buy.chips:,} chips",
        )
    else:
        raise Http404
    return _after_entry_action(request, event, entry, error, message)


def _moves_note(result: balancing.Rebalance) -> str:
    return f"; {len(result.moves)} move slip(s)" if result.moves else ""


def _after_entry_action(request, event, entry, error, message) -> HttpResponse:
    if not request.htmx:
        (messages.error if error else messages.success)(request, error or message)
        return redirect("seating:console", event.pk)
    return _entry_panel(request, event, entry.pk, error, message)


# Move slips ---------------------------------------------------------------------------------


@require_GET
@staff_required("seating")
def moves_page(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    table = request.GET.get("table", "")
    slips = selectors.move_slips(event.pk, table=int(table) if table.isdigit() else None)
    template = "seating/moves.html#slips" if request.htmx else "seating/moves.html"
    return render(request, template, {"event": event, "slips": slips, "table": table})


@require_POST
def move_ack(request: HttpRequest, event_id: int, move_id: int) -> HttpResponse:
    """Floor staff confirm any slip; a table device the slips into or out of its table."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    event = _event(event_id)
    move = get_object_or_404(Move, pk=move_id, event=event)
    denied = _deny_table(request, event, move.to_table, move.from_table)
    if denied:
        return denied
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


# Table pages (a tablet at the table, or the floor's phone) ---------------------------------


def _deny_table(request: HttpRequest, event: Event, *numbers: int) -> HttpResponse | None:
    """Floor staff open every table; a table device only its own (untied, none at all)."""
    user = request.user
    if not user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if has_right(user, "seating"):
        return None
    if has_right(user, "table"):
        device = TableDevice.objects.filter(user=user).select_related("venue_table").first()
        if device is not None and device.venue_table.number in numbers:
            return None
    return refuse(request)


def table_access(view: Callable) -> Callable:
    """Page decorator for table pages: the "table" right, or any seating staff."""

    @wraps(view)
    def wrapped(request, event_id: int, number: int, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        event = _event(event_id)
        return _deny_table(request, event, number) or view(request, event, number, *args, **kwargs)

    wrapped.staff_right = "table"  # type: ignore[attr-defined]
    return wrapped


def _table_answer(request, event, number, error=None, message=None) -> HttpResponse:
    card = selectors.table_view(event, number)
    if card is None:
        raise Http404
    context = {"event": event, "card": card, "error": error, "message": message}
    context["can_console"] = has_right(request.user, "seating")
    context["can_bust"] = has_right(request.user, "bustout")
    context["hfh"] = hand_for_hand(event)
    template = "seating/table.html#table" if request.htmx else "seating/table.html"
    return render(request, template, context)


def _hand_reported(report) -> str:
    table = report.table
    text = f"Hand {table.hand_number + 1}: button on seat {table.button}"
    if report.hand is None:
        return text
    if report.completed:
        return f"Hand-for-hand hand {report.hand} is over everywhere: deal the next hand. {text}"
    waiting = ", ".join(map(str, report.waiting_for))
    return f"Hand-for-hand hand {report.hand}: wait for table {waiting} before dealing. {text}"


@require_GET
@table_access
def table_page(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    return _table_answer(request, event, number)


@require_POST
@table_access
def table_hand(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    hand = request.POST.get("hand", "")
    error, message = _attempt(
        lambda: handforhand_hand_finish(
            event_id=event.pk,
            table_number=number,
            expected_hand=int(hand)
            if hand.isascii() and hand.isdigit() and len(hand) < 10
            else None,
            actor=Actor.of(request.user),
        ),
        _hand_reported,
    )
    if not request.htmx:
        (messages.error if error else messages.success)(request, error or message)
        return redirect("seating:table", event.pk, number)
    return _table_answer(request, event, number, error, message)
