"""The seating console's table actions: set up and release tables, the break order, the
draw, a rebalance and a redraw. Each answers with the console fragment it changed."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_POST

from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor
from tdsystem.core.forms import form_errors_text

from . import balancing, services
from .forms import BreakOrderForm, RedrawForm, TablesForm
from .views_console import answer, attempt, event_or_404


def _numbers(numbers) -> str:
    return ", ".join(map(str, numbers))


@require_POST
@staff_required("seating")
def tables(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    form = TablesForm(request.POST)
    if not form.is_valid():
        return answer(request, event, "setup", form_errors_text(form), None, tables_form=form)
    error, message = attempt(
        lambda: services.tables_setup(
            event=event, actor=Actor.of(request.user), **form.cleaned_data
        ),
        lambda made: _("%(count)s tables in play") % {"count": len(made)},
    )
    return answer(request, event, "setup", error, message, tables_form=form)


@require_POST
@staff_required("seating")
def release(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    form = BreakOrderForm(request.POST)
    numbers = form.cleaned_data["numbers"] if form.is_valid() else []
    if not numbers:
        error = form_errors_text(form) if form.errors else _("give the numbers of empty tables")
        return answer(
            request, event, "setup", error, None, tables_form=TablesForm(), release_form=form
        )
    error, message = attempt(
        lambda: services.tables_release(
            event_id=event.pk, numbers=numbers, actor=Actor.of(request.user)
        ),
        lambda _done: _("Released table %(tables)s") % {"tables": _numbers(numbers)},
    )
    return answer(request, event, "setup", error, message, tables_form=TablesForm())


@require_POST
@staff_required("seating")
def break_order(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    form = BreakOrderForm(request.POST)
    if not form.is_valid():
        return answer(request, event, "status", form_errors_text(form), None, break_form=form)
    error, message = attempt(
        lambda: services.tables_reorder(
            event_id=event.pk, numbers=form.cleaned_data["numbers"], actor=Actor.of(request.user)
        ),
        lambda order: _("Break order: %(tables)s") % {"tables": _numbers(order)},
    )
    return answer(request, event, "status", error, message, break_form=form if error else None)


@require_POST
@staff_required("seating")
def draw(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    error, message = attempt(
        lambda: services.seats_draw(event=event, actor=Actor.of(request.user)),
        lambda count: _("Seats drawn for %(count)s players") % {"count": count},
    )
    return answer(request, event, "status", error, message)


@require_POST
@staff_required("seating")
def rebalance(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    error, message = attempt(
        lambda: balancing.tables_rebalance(event_id=event.pk, actor=Actor.of(request.user)),
        _rebalanced,
    )
    return answer(request, event, "status", error, message)


def _rebalanced(result: balancing.Rebalance) -> str:
    if result.kind is None:
        return _("Nothing to do: the tables are balanced")
    moves = len(result.moves)
    if result.broken:
        return _("Table %(tables)s breaks: %(moves)s moves") % {
            "tables": _numbers(result.broken),
            "moves": moves,
        }
    kinds = {
        "balance": pgettext("a kind of table moves", "Balance"),
        "break": pgettext("a kind of table moves (a table broken)", "Break"),
        "redraw": pgettext("a kind of table moves", "Redraw"),
    }
    kind = kinds.get(result.kind, result.kind)
    return ngettext("%(kind)s: %(moves)s move slip", "%(kind)s: %(moves)s move slips", moves) % {
        "kind": kind,
        "moves": moves,
    }


@require_POST
@staff_required("seating")
def redraw(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    form = RedrawForm(request.POST)
    if not form.is_valid():
        return answer(request, event, "status", form_errors_text(form), None)
    error, message = attempt(
        lambda: balancing.tables_redraw(
            event_id=event.pk,
            table_count=form.cleaned_data["tables"],
            actor=Actor.of(request.user),
        ),
        lambda result: _("Redraw: %(moves)s move slips") % {"moves": len(result.moves)},
    )
    return answer(request, event, "status", error, message)
