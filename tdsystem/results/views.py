"""Pages: the bust-out console (overview, hand-for-hand, undo), payouts, the public results.

Every action is a POST answered, under HTMX, with the fragment it changed and a
`results-changed` client event that makes the other fragments reload; without HTMX it
redirects back to the console with a message.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)
from django_htmx.http import trigger_client_event

from tdsystem.core import csv as export_csv
from tdsystem.core.access import has_right, staff_required
from tdsystem.core.actors import Actor
from tdsystem.core.forms import form_errors_text, whole_number
from tdsystem.core.languages import screen_language
from tdsystem.core.numbers import TABLE_NUMBER, grouped
from tdsystem.engine.payouts import PayoutError, auto_unit
from tdsystem.events.models import Event
from tdsystem.seating import selectors as seating_selectors
from tdsystem.seating.models import Entry
from tdsystem.seating.services import TableHalted
from tdsystem.seating.texts import SEMICOLONS, text_list

from . import selectors, services
from .errors import ResultsError
from .forms import (
    BustOutForm,
    ChipCountForm,
    HandFinishedForm,
    HandForHandForm,
    PayoutPlanForm,
    ShortBigBlindForm,
)
from .selectors_chips import chip_total, count_rows
from .services import deals, standings
from .services.cashier import prize_paid_set
from .templatetags.results_tags import money, ordinal
from .views_table import table_answer

CONSOLE = "results/console.html"
PARTS = ("overview", "hfh", "record", "players", "recent", "tools", "counts", "cashier")
CHANGED = "results-changed"


def _event(event_id: int) -> Event:
    return get_object_or_404(Event, pk=event_id)


def _context(request: HttpRequest, event: Event, **extra) -> dict:
    table = extra.pop("table", None) or request.GET.get("table", "")
    number = whole_number(table, high=TABLE_NUMBER.high)
    rows = SimpleLazyObject(lambda: count_rows(event))  # the count list and its total
    return {
        "event": event,
        "overview": SimpleLazyObject(lambda: selectors.overview(event)),
        "recent": SimpleLazyObject(lambda: selectors.recent_bustouts(event)),
        "tables": SimpleLazyObject(lambda: selectors.tables_in_play(event)),
        "chip_history": SimpleLazyObject(
            lambda: selectors.chip_history(event, extra.get("counted_entry"))
        ),
        "count_rows": rows,
        "chip_total": SimpleLazyObject(lambda: chip_total(event, list(rows))),
        "table": number,
        "players": selectors.table_players(event, number) if number else [],
        "can_hfh": has_right(request.user, "clock", event=event.pk),
        "can_payouts": has_right(request.user, "events", event=event.pk),
        "can_pay": has_right(request.user, "seating", event=event.pk),
        "to_pay": SimpleLazyObject(lambda: selectors.prizes_to_pay(event)),
        "hfh_form": HandForHandForm(),
        "ticked": [],
        "eliminators": [],
        **extra,
    }


def _answer(request, event, part: str, error=None, message=None, **extra) -> HttpResponse:
    """The changed fragment (HTMX) or a redirect to the console with a flash."""
    if not request.htmx:
        if error or message:
            (messages.error if error else messages.success)(request, error or message)
        return redirect("results:console", event.pk)
    context = _context(request, event, error=error, message=message, **extra)
    response = render(request, f"{CONSOLE}#{part}", context)
    return response if error else trigger_client_event(response, CHANGED)


@require_GET
@staff_required("bustout")
def console(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    part = request.GET.get("part")
    template = f"{CONSOLE}#{part}" if request.htmx and part in PARTS else CONSOLE
    return render(request, template, _context(request, event))


@require_POST
@staff_required("bustout")
def bustout(request: HttpRequest, event_id: int) -> HttpResponse:
    """Every page that busts a player posts here, to the one bust-out service.

    The bust-out console, the seating console's entry panel (answer=entry) and the table
    page (answer=table) each get their own fragment back.
    """
    event = _event(event_id)
    form = BustOutForm(request.POST)
    done = error = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            done = services.bustout_record(
                event_id=event.pk,
                entry_ids=data["entries"],
                table_number=data["table"],
                stacks=data["stacks"],
                hand=data["hand"],
                eliminated_by=data["eliminated_by"],
                actor=Actor.of(request.user),
            )
        except ResultsError as exc:
            error = str(exc)
    else:
        error = form_errors_text(form)
    slips = list(done.bustout.moves.select_related("entry__player").order_by("pk")) if done else []
    data = form.cleaned_data
    if data.get("answer") == "entry" and form.ticked:
        message = _out_note(done, slips) if done else None
        return _entry_panel_answer(request, event, form.ticked[0], error, message, slips)
    if data.get("answer") == "table" and data.get("table"):
        response = table_answer(
            request, event, data["table"], error, done and _out_note(done, slips)
        )
        # The table's chip counts follow: the player out leaves them.
        return trigger_client_event(response, CHANGED) if done and request.htmx else response
    return _console_bustout_answer(request, event, form, error, done, slips)


def _entry_panel_answer(request, event, entry_id: int, error, message, slips) -> HttpResponse:
    """A bust-out sent from the seating console's entry panel answers with that panel (what
    `seating.selectors.entry_panel` shows), or the seating console with a flash."""
    if not request.htmx:
        (messages.error if error else messages.success)(request, error or message)
        return redirect("seating:console", event.pk)
    entry = get_object_or_404(
        Entry.objects.select_related("player", "table"), pk=entry_id, event=event
    )
    context = {
        **seating_selectors.entry_panel(event, entry),
        "error": error,
        "message": message,
        "slips": slips,
    }
    response = render(request, "seating/console.html#entry", context)
    if error or not message:
        return response
    for name in ("seating-changed", CHANGED):
        response = trigger_client_event(response, name)
    return response


def _console_bustout_answer(request, event, form, error, done, slips) -> HttpResponse:
    table = request.POST.get("table", "")
    if done:
        return _answer(request, event, "record", None, _recorded(done), table=table, slips=slips)
    # Refused: the boxes as they were ticked and typed, each bad stack said under it.
    return _answer(
        request,
        event,
        "record",
        error,
        table=table,
        ticked=form.ticked,
        typed=form.typed,
        eliminators=form.eliminators,
        stack_errors=form.stack_errors,
    )


def _out_note(done: services.Recorded, slips: list) -> str:
    """What the seat's "Out" did: the place (and prize), the move slips it set off."""
    text = _recorded(done)
    if slips:
        text += ngettext("; %(count)s move slip", "; %(count)s move slips", len(slips)) % {
            "count": len(slips)
        }
    return text


def _recorded(done: services.Recorded) -> str:
    """ "#12 Ann is out: 57th place" or "#3 Bo and #9 Cy are out: they tie for places 5-6"."""
    ties: dict[tuple[int, int], list] = {}
    for f in sorted(done.finishes, key=lambda f: (f.place, f.entry.number)):
        ties.setdefault((f.place, f.place_to), []).append(f)
    parts = []
    for (place, place_to), finishes in ties.items():
        names = _names([f"#{f.entry.number} {f.entry.player.name}" for f in finishes])
        prize = sum(f.prize for f in finishes)
        values = {
            "names": names,
            "place": ordinal(place),
            "low": place,
            "high": place_to,
            "prize": money(prize),
            "each": money(finishes[0].prize),
        }
        if place == place_to:
            text = (
                gettext("%(names)s is out: %(place)s place, prize %(prize)s")
                if prize
                else gettext("%(names)s is out: %(place)s place")
            )
        elif len(finishes) == place_to - place + 1:
            text = (
                gettext("%(names)s are out: they tie for places %(low)s-%(high)s, %(each)s each")
                if prize
                else gettext("%(names)s are out: they tie for places %(low)s-%(high)s")
            )
        else:  # the rest of the tie was reported by another table (hand-for-hand)
            text = (
                gettext("%(names)s is out: shares places %(low)s-%(high)s, prize %(prize)s")
                if prize
                else gettext("%(names)s is out: shares places %(low)s-%(high)s")
            )
        parts.append(text % values)
    for f in done.finishes:  # the rule set ranks by the stack after the big blind ante
        if f.entry_id in done.antes:
            parts.append(
                gettext("#%(number)s ranked on %(chips)s chips, after the %(ante)s big blind ante")
                % {
                    "number": f.entry.number,
                    "chips": grouped(f.starting_stack),
                    "ante": grouped(done.antes[f.entry_id]),
                }
            )
    text = str(text_list(parts, SEMICOLONS))
    if done.winner:
        winner = done.winner.entry
        text = gettext("%(text)s. #%(number)s %(name)s wins (%(prize)s)!") % {
            "text": text,
            "number": winner.number,
            "name": winner.player.name,
            "prize": money(done.winner.prize),
        }
    return text


def _names(names: list[str]) -> str:
    """ "#3 Bo and #9 Cy", "#3 Bo, #5 Di and #9 Cy" in the reader's language."""
    if len(names) < 2:
        return "".join(names)
    return gettext("%(names)s and %(last)s") % {
        "names": str(text_list(names[:-1])),
        "last": names[-1],
    }


@require_POST
@staff_required("bustout")
def bustout_undo(request: HttpRequest, event_id: int, bustout_id: int) -> HttpResponse:
    event = _event(event_id)
    try:
        undone = services.bustout_undo(
            event_id=event.pk, bustout_id=bustout_id, actor=Actor.of(request.user)
        )
    except ResultsError as exc:
        return _answer(request, event, "recent", str(exc))
    names = str(text_list([f"#{e.number} {e.player.name}" for e in undone.entries]))
    message = gettext("Undone: %(names)s back in their seats") % {"names": names}
    if undone.moves_reverted:
        message = ngettext(
            "Undone: %(names)s back in their seats; %(count)s move slip withdrawn",
            "Undone: %(names)s back in their seats; %(count)s move slips withdrawn",
            undone.moves_reverted,
        ) % {"names": names, "count": undone.moves_reverted}
    return _answer(request, event, "recent", None, message)


@require_POST
@staff_required("bustout")
def short_big_blind(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    form = ShortBigBlindForm(request.POST)
    if not form.is_valid():
        return _answer(request, event, "tools", form_errors_text(form), bb_form=form)
    entry = event.entries.filter(number=form.cleaned_data["entry"]).first()
    try:
        if entry is None:
            raise ResultsError(
                gettext("no entry #%(number)s in this event")
                % {"number": form.cleaned_data["entry"]}
            )
        done = services.bustout_short_big_blind(
            event_id=event.pk,
            entry_id=entry.pk,
            chips=form.cleaned_data["chips"],
            actor=Actor.of(request.user),
        )
    except ResultsError as exc:
        return _answer(request, event, "tools", str(exc), bb_form=form)
    return _answer(request, event, "tools", None, _recorded(done))


@require_POST
@staff_required("bustout")
def chip_count(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    form = ChipCountForm(request.POST)
    if not form.is_valid():
        return _answer(request, event, "tools", form_errors_text(form), chips_form=form)
    try:
        count = services.chip_count_record(
            event_id=event.pk,
            entry_number=form.cleaned_data["entry"],
            chips=form.cleaned_data["chips"],
            actor=Actor.of(request.user),
        )
    except ResultsError as exc:
        return _answer(request, event, "tools", str(exc), chips_form=form)
    message = gettext("#%(number)s: %(chips)s chips") % {
        "number": count.entry.number,
        "chips": grouped(count.chips),
    }
    return _answer(request, event, "tools", None, message, counted_entry=count.entry.number)


@require_GET
@staff_required("bustout")
def chip_history(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """One player's counts, newest first, with who and when (the count list's "History")."""
    event = _event(event_id)
    context = _context(request, event, counted_entry=number)
    return render(request, f"{CONSOLE}#tools" if request.htmx else CONSOLE, context)


@require_POST
@staff_required("clock")
def hand_for_hand(request: HttpRequest, event_id: int) -> HttpResponse:
    """The director starts or stops hand-for-hand."""
    event, actor = _event(event_id), Actor.of(request.user)
    action = request.POST.get("action")
    form = HandForHandForm(request.POST)
    try:
        if action == "start":
            if not form.is_valid():
                raise ResultsError(form_errors_text(form))
            hfh = services.handforhand_start(
                event_id=event.pk, actor=actor, minutes_per_hand=form.cleaned_data["minutes"]
            )
            message = gettext("Hand-for-hand: deal hand %(hand)s at every table") % {
                "hand": hfh.hand
            }
        elif action == "stop":
            services.handforhand_stop(event_id=event.pk, actor=actor)
            message = gettext("Hand-for-hand is over: tables play on at their own pace")
        else:
            raise ResultsError(gettext("start or stop?"))
    except ResultsError as exc:
        return _answer(request, event, "hfh", str(exc))
    return _answer(request, event, "hfh", None, message)


@require_POST
@staff_required("bustout")
def hand_finished(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """The floor reports a table's hand finished (during hand-for-hand, from the console)."""
    event = _event(event_id)
    form = HandFinishedForm(request.POST)
    if not form.is_valid():
        return _answer(request, event, "hfh", form_errors_text(form))
    try:
        report = services.handforhand_hand_finish(
            event_id=event.pk,
            table_number=number,
            expected_hand=form.cleaned_data["hand"],
            confirm_halted=form.cleaned_data["confirm_halted"],
            actor=Actor.of(request.user),
        )
    except ResultsError as exc:
        # A halted table: the same confirm step as the table page's, on the console.
        halted = {"table": number, "hand": form.cleaned_data["hand"]}
        extra = {"halted": halted} if isinstance(exc.__cause__, TableHalted) else {}
        return _answer(request, event, "hfh", str(exc), **extra)
    if report.completed:
        message = gettext("Hand %(hand)s is finished everywhere: deal hand %(next)s") % {
            "hand": report.hand,
            "next": report.hand + 1,
        }
    elif report.hand:
        message = gettext(
            "Table %(table)s finished hand %(hand)s; waiting for table %(waiting)s"
        ) % {
            "table": number,
            "hand": report.hand,
            "waiting": ", ".join(map(str, report.waiting_for)),
        }
    else:
        message = gettext("Table %(table)s: next hand") % {"table": number}
    return _answer(request, event, "hfh", None, message)


@require_POST
@staff_required("seating")
def prize_paid(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """The cashier marks a prize paid (or, a director, not paid after all)."""
    event = _event(event_id)
    paid = request.POST.get("paid") != "0"
    if not paid and not has_right(request.user, "events"):
        return _answer(request, event, "cashier", gettext("a director takes a payment back"))
    try:
        finish = prize_paid_set(
            event_id=event.pk, entry_number=number, paid=paid, actor=Actor.of(request.user)
        )
    except ResultsError as exc:
        return _answer(request, event, "cashier", str(exc))
    who = {"number": number, "name": finish.entry.player.name, "prize": money(finish.prize)}
    message = (
        gettext("#%(number)s %(name)s: %(prize)s paid") % who
        if paid
        else gettext("#%(number)s %(name)s: %(prize)s marked not paid") % who
    )
    return _answer(request, event, "cashier", None, message)


@require_http_methods(["GET", "POST"])
@staff_required("events")
def payouts(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    plan = standings.plan_or_default(event)
    posted = request.method == "POST"
    form = PayoutPlanForm(request.POST) if posted else PayoutPlanForm.for_plan(plan)
    form.automatic_shown(auto_unit(event.buy_in))
    error = None
    if posted and form.is_valid():
        try:
            services.payout_plan_update(
                event_id=event.pk, actor=Actor.of(request.user), **form.cleaned_data
            )
        except ResultsError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        else:
            messages.success(request, gettext("Payouts saved; prizes worked out again"))
            return redirect("results:payouts", event.pk)
    prizes = selectors.prizes_now(event, plan)
    try:
        preview = selectors.payout_preview(plan, prizes.entries, prizes.pool)
    except PayoutError as exc:  # a stored plan the field cannot use: say so
        preview, error = [], str(exc)
    context = {"event": event, "form": form, "plan": plan, "prizes": prizes, "preview": preview}
    context |= {"error": error, "fees": selectors.fees_total(event)}
    return render(request, "results/payouts.html", context)


@require_safe
def results_page(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    screen_language(request, event.screen_language)
    bounties = selectors.bounty_totals(event) if event.has_bounties else None
    progressive = event.bounty_type == Event.BountyType.PROGRESSIVE
    context = {
        "event": event,
        "rows": selectors.result_rows(event, bounties),
        "deal": deals.standing_deal(event),
        "bounties": bounties,
        "heads": selectors.head_rows(event, bounties) if bounties and progressive else [],
        "overview": selectors.overview(event),
        "prizes": selectors.prizes_now(event),
        "carried": selectors.carried_rows(event),
    }
    template = "results/results.html#results" if request.htmx else "results/results.html"
    return render(request, template, context)


@require_safe
def results_csv(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="results-{event.pk}.csv"'
    writer = export_csv.writer(response)
    head = ["place", "place_to", "place_label", "player", "entry", "prize"]
    bounty = event.has_bounties
    deal = deals.deal_amounts(event)  # a column only while a deal stands
    writer.writerow([*head, *(["bounties"] if bounty else []), *(["deal"] if deal else [])])
    for row in selectors.result_rows(event):
        line = [row.place, row.place_to, row.label, row.name, row.entry, row.prize]
        line += [row.bounty] if bounty else []
        writer.writerow([*line, deal.get(row.entry, "")] if deal else line)
    return response
