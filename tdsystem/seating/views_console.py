"""The seating console: registration, the table grid, and the panel of one entry.

Every action is a POST answered, under HTMX, with the fragment it changed and a
`seating-changed` client event that makes the other fragments reload; without HTMX it
redirects back with a message. A bust-out is not recorded here: the entry panel's "Bust
out" posts to the results app's bust-out route, which answers with this panel
(`selectors.entry_panel` is what the panel shows).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import push_url, trigger_client_event

from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor
from tdsystem.core.forms import form_errors_text
from tdsystem.core.numbers import grouped, money
from tdsystem.events.models import Event

from . import selectors, services
from .entry_rules import ChangesToConfirm
from .errors import SeatingError
from .forms import (
    DoNotMoveForm,
    ImportForm,
    RegisterForm,
    ReserveForm,
    TablesForm,
)
from .forms_buys import BuyForm
from .models import Entry, Purchase

CONSOLE = "seating/console.html"
CONSOLE_PARTS = ("status", "tables", "slips", "register", "setup")
CHANGED = "seating-changed"


def event_or_404(event_id: int) -> Event:
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
    return None, _("“%(raw)s” is not a %(what)s.") % {"raw": raw[:12], "what": what}


def answer(request, event, part: str, error: str | None, message: str | None, **extra):
    """The changed console fragment (HTMX) or a redirect to the console with a flash."""
    if not request.htmx:
        if error or message:
            (messages.error if error else messages.success)(request, error or message)
        return redirect("seating:console", event.pk)
    context = _context(event, error=error, message=message, **extra)
    response = render(request, f"{CONSOLE}#{part}", context)
    return response if error else trigger_client_event(response, CHANGED)


def attempt(action: Callable, describe: Callable) -> tuple[str | None, str | None]:
    """(error, None) if the seating service refused, else (None, what it did)."""
    try:
        result = action()
    except SeatingError as exc:
        return str(exc), None
    return None, describe(result)


@require_GET
@staff_required("seating")
def console(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    part = request.GET.get("part")
    template = f"{CONSOLE}#{part}" if request.htmx and part in CONSOLE_PARTS else CONSOLE
    # The table grid: ?tables=<page>, or ?table=<number> for the page holding that table
    # (marked); ?mark=<number> keeps a table marked while the grid refreshes.
    page, page_error = _number(request.GET.get("tables", ""), _("page number"))
    table, table_error = _number(request.GET.get("table", ""), _("table number"))
    mark, _unused = _number(request.GET.get("mark", ""), _("table number"))
    seats = event.tables.filter(in_play=True).values_list("seats", flat=True).first()
    forms = {
        "register_form": RegisterForm(),
        "tables_form": TablesForm(initial={"seats": seats or event.seats_per_table}),
    }
    context = _context(
        event,
        page=page or 1,
        table=table,
        mark=mark,
        cards=template == CONSOLE or part == "tables",
        grid_error=table_error or page_error,
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
    event = event_or_404(event_id)
    form = RegisterForm(request.POST)
    error = message = None
    duplicate = False
    changes: list = []
    registered = None
    if form.is_valid():
        try:
            enrolment = services.player_register(
                event=event, actor=Actor.of(request.user), **form.cleaned_data
            )
        except services.DuplicateName as exc:
            error, duplicate = str(exc), True
        except ChangesToConfirm as exc:
            error, changes = str(exc), exc.changes
        except SeatingError as exc:
            error = str(exc)
        else:
            message = enrolled(enrolment)
            registered = enrolment.entry  # its seat card and page, a tap away
    else:
        error = form_errors_text(form)
    fresh = RegisterForm() if message else form
    if message:
        fresh.fields["name"].widget.attrs["autofocus"] = True  # ready for the next player
    elif duplicate:
        fresh.fields["note"].widget.attrs["autofocus"] = True  # the note tells them apart
    confirm = None
    if changes:
        keep = ("name", "member_id", "note", "country", "confirm_duplicate")
        confirm = {
            "changes": changes,
            "url": reverse("seating:register", args=[event.pk]),
            "hidden": [(k, request.POST.get(k, "")) for k in keep],
            "button": _("Register anyway"),
        }
    return answer(
        request,
        event,
        "register",
        error,
        message,
        register_form=fresh,
        duplicate=duplicate,
        confirm=confirm,
        registered=registered,
    )


def enrolled(enrolment: services.Enrolment) -> str:
    entry = enrolment.entry
    who = {"number": entry.number, "player": entry.player}
    if entry.table is None:
        return _("#%(number)s %(player)s: registered, seated at the draw") % who
    where = who | {"table": entry.table.number, "seat": entry.seat}
    if enrolment.dealt_in:
        return _("#%(number)s %(player)s: table %(table)s seat %(seat)s") % where
    return _("#%(number)s %(player)s: table %(table)s seat %(seat)s (waits for the button)") % where


@require_POST
@staff_required("seating")
def register_many(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    form = ImportForm(request.POST)
    error = message = None
    if not form.is_valid():
        error = form_errors_text(form)
    else:
        error, message = attempt(
            lambda: services.players_import(
                event_id=event.pk,
                names=form.cleaned_data["names"],
                confirm_duplicates=form.cleaned_data["confirm_duplicates"],
                actor=Actor.of(request.user),
            ),
            lambda count: _("%(count)s players registered") % {"count": count},
        )
    # A refused list stays in the box, so the director can tick "anyway" or edit it.
    pasted = request.POST.get("names", "") if error else ""
    return answer(
        request, event, "register", error, message, register_form=RegisterForm(), pasted=pasted
    )


# One entry: the panel the console opens for a player --------------------------------------


def _entry(event: Event, entry_id: int) -> Entry:
    entries = Entry.objects.select_related("player", "table")
    return get_object_or_404(entries, pk=entry_id, event=event)


def entry_panel_render(
    request,
    event,
    entry_id: int,
    error=None,
    message=None,
    *,
    slips=(),
    changes: ChangesToConfirm | None = None,
    **forms,
) -> HttpResponse:
    """The entry panel fragment, with what an action did.

    `slips` are move slips the action caused; `changes` is a re-entry or a buy waiting
    for the desk to confirm what it changes among the players in the money; `forms` a
    refused form, shown as typed (`reserve_form=...`).
    """
    context = {
        **selectors.entry_panel(event, _entry(event, entry_id)),
        "error": error,
        "message": message,
        "slips": slips,
        "reserve_form": ReserveForm(),
        "hold_form": DoNotMoveForm(),
        **forms,
    }
    if changes is not None:
        context["to_confirm"] = _confirm(request, event, context["entry"], changes)
    response = render(request, f"{CONSOLE}#entry", context)
    if error or not message:
        return response
    return trigger_client_event(response, CHANGED)


def _confirm(request, event: Event, entry: Entry, changes: ChangesToConfirm) -> dict:
    """The question of a re-entry or a buy that changes prizes: what it changes, and the
    form that sends it again, confirmed."""
    reenter = request.POST.get("kind") is None
    action = "reenter" if reenter else "buy"
    hidden = [] if reenter else [(k, request.POST.get(k, "")) for k in ("kind", "stack")]
    return {
        "changes": changes.changes,
        "url": reverse("seating:entry_action", args=[event.pk, entry.pk, action]),
        "hidden": hidden,
        "button": _("Re-enter anyway") if reenter else _("Buy anyway"),
    }


def entry_answer(request, event, entry_id: int, error, message, **panel) -> HttpResponse:
    """After an action on an entry: its panel (HTMX), or the console with a flash."""
    if not request.htmx:
        (messages.error if error else messages.success)(request, error or message)
        return redirect("seating:console", event.pk)
    return entry_panel_render(request, event, entry_id, error, message, **panel)


@require_GET
@staff_required("seating")
def entry_panel(request: HttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    return entry_panel_render(request, event_or_404(event_id), entry_id)


@require_GET
@staff_required("seating")
def entry_search(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    results = selectors.seat_search(event.pk, request.GET.get("q", "")[:80])
    return render(request, f"{CONSOLE}#search", {"event": event, "results": results})


@require_POST
@staff_required("seating")
def entry_action(request: HttpRequest, event_id: int, entry_id: int, action: str) -> HttpResponse:
    """Re-enter or buy chips for one entry (a bust-out posts to the results app); keep a
    seat for them or keep them from being moved, and clear either."""
    event, actor = event_or_404(event_id), Actor.of(request.user)
    entry = _entry(event, entry_id)
    if action in HOLD_ACTIONS:
        return _hold_action(request, event, entry, action, actor)
    if action == "reenter":
        confirmed = request.POST.get("confirm_changes") == "1"
        try:
            enrolment = services.entry_reenter(
                event_id=event.pk, entry_id=entry.pk, confirm_changes=confirmed, actor=actor
            )
        except ChangesToConfirm as exc:
            return entry_panel_render(request, event, entry.pk, error=str(exc), changes=exc)
        except SeatingError as exc:
            error, message = str(exc), None
        else:
            error, message = None, enrolled(enrolment)
    elif action == "buy":
        return _buy(request, event, entry, actor)
    else:
        raise Http404
    return entry_answer(request, event, entry.pk, error, message)


def _buy(request, event: Event, entry: Entry, actor: Actor) -> HttpResponse:
    """A rebuy or the add-on at the event's price; from the table page (`table` posted),
    back to that page with the answer."""
    form = BuyForm(request.POST)
    valid = form.is_valid()
    to_confirm: list[ChangesToConfirm] = []
    table = form.cleaned_data.get("table") if valid else None
    if not valid:
        error, message = form_errors_text(form), None
    else:

        def buy() -> Purchase:
            try:
                return services.entry_purchase(
                    event_id=event.pk,
                    entry_id=entry.pk,
                    kind=form.cleaned_data["kind"],
                    stack=form.cleaned_data["stack"],
                    confirm_changes=form.cleaned_data["confirm_changes"],
                    actor=actor,
                )
            except ChangesToConfirm as exc:
                to_confirm.append(exc)
                raise

        error, message = attempt(
            buy,
            lambda buy: (
                _("%(kind)s for #%(number)s %(player)s: %(chips)s chips, %(amount)s")
                % {
                    "kind": buy.get_kind_display(),
                    "number": entry.number,
                    "player": entry.player.name,
                    "chips": grouped(buy.chips),
                    "amount": money(buy.amount + buy.fee),
                }
            ),
        )
    if table is not None and to_confirm:  # the question on a page, then back to the table
        confirm = _confirm(request, event, entry, to_confirm[0])
        confirm["hidden"].append(("table", table))
        context = {"event": event, "entry": entry, "table": table, "confirm": confirm}
        return render(request, "seating/buy_confirm.html", context)
    if table is not None:
        (messages.error if error else messages.success)(request, error or message)
        return redirect("results:table", event.pk, table)
    if not valid:
        return entry_panel_render(request, event, entry.pk, error=error)
    if to_confirm:  # the question, with a button that buys anyway
        return entry_panel_render(request, event, entry.pk, error=error, changes=to_confirm[0])
    return entry_answer(request, event, entry.pk, error, message)


HOLD_ACTIONS = ("reserve", "unreserve", "hold", "unhold")


def _hold_action(request, event: Event, entry: Entry, action: str, actor: Actor) -> HttpResponse:
    """A reserved seat (TDA 9) or "do not move": set with a reason, or cleared."""
    form = {"reserve": ReserveForm, "hold": DoNotMoveForm}.get(action)
    bound = form(request.POST) if form else None
    if bound is not None and not bound.is_valid():
        return entry_panel_render(
            request, event, entry.pk, error=form_errors_text(bound), **{f"{action}_form": bound}
        )
    data = bound.cleaned_data if bound is not None else {}
    ids = {"event_id": event.pk, "entry_id": entry.pk, "actor": actor}
    slips: list = []

    def reserved(done: services.Reservation) -> str:
        slips.extend(done.moves)
        if data["table"] is None:
            return _("Seat %(seat)s kept for the player at any table") % data
        return _("Table %(table)s seat %(seat)s kept for the player") % data

    if action == "reserve":
        error, message = attempt(lambda: services.entry_reserve(**ids, **data), reserved)
    elif action == "unreserve":
        error, message = attempt(
            lambda: services.entry_reserve_clear(**ids), lambda _e: _("Reserved seat given up")
        )
    else:
        keep = action == "hold"
        error, message = attempt(
            lambda: services.entry_do_not_move(
                **ids, do_not_move=keep, reason=data.get("reason", "")
            ),
            lambda _e: _("Not moved when balancing") if keep else _("May be moved to balance"),
        )
    return entry_answer(request, event, entry.pk, error, message, slips=slips)
