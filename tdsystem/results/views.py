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
from .views_table import table_render

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
    return render(request, template, _context(request, event, part=part))


@require_POST
@staff_required("bustout")
def bustout(request: HttpRequest, event_id: int) -> HttpResponse:
    """Every page that busts a player posts here, to the one bust-out service.

    Under HTMX a bust-out recorded answers with one fragment of its own (what was
    recorded: `results/_bustout_done.html`) and the `results-changed` and `seating-changed`
    client events: the parts of each page that show the players reload themselves. A
    refusal answers the form that was sent, with the reason: the bust-out console's
    (`answer=console`), the table page's (`answer=table`), or, for the seating console's
    entry panel (`answer=entry`), this view's own fragment.
    """
    event = _event(event_id)
    form = BustOutForm(request.POST)
    done, error = _record(request, event, form)
    answer, table = form.cleaned_data.get("answer"), form.cleaned_data.get("table")
    if not request.htmx:
        slips = list(done.bustout.moves.order_by("pk")) if done else []
        (messages.error if error else messages.success)(request, error or _out_note(done, slips))
        if answer == "entry":
            return redirect("seating:console", event.pk)
        if answer == "table" and table:
            return redirect("results:table", event.pk, table)
        return redirect("results:console", event.pk)
    if done:
        return _done_answer(request, event, done)
    if answer == "entry":
        return _done_render(request, event, error=error)
    if answer == "table" and table:
        # The seats again, with the reason, where the answer would have gone.
        return _refused_at(table_render(request, event, table, error), "#table", "outerHTML")
    # The bust-out console: the boxes as they were ticked and typed, each bad stack
    # said under it.
    context = _context(
        request,
        event,
        error=error,
        table=request.POST.get("table", ""),
        ticked=form.ticked,
        typed=form.typed,
        eliminators=form.eliminators,
        stack_errors=form.stack_errors,
    )
    response = render(request, f"{CONSOLE}#record", context)
    return _refused_at(response, "#record", "outerHTML show:top")


def _record(request, event, form: BustOutForm) -> tuple[services.Recorded | None, str | None]:
    """The bust-out service called with the form's values: what it recorded, or why not."""
    if not form.is_valid():
        return None, form_errors_text(form)
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
        return None, str(exc)
    return done, None


DONE = "results/_bustout_done.html"


def _done_render(request, event, **context) -> HttpResponse:
    """The bust-out's own fragment: what it (or its undo) recorded, or why not."""
    return render(request, DONE, {"event": event, **context})


def _done_answer(request, event, done: services.Recorded) -> HttpResponse:
    """What the bust-out recorded (who, place, prize, the move slips of the rebalance and
    the undo), with the events that make each page's other parts reload themselves.

    The events are sent to `body`: the form that posted may sit in a part that was
    replaced meanwhile, and an event on an element out of the page reaches no listener."""
    slips = list(done.bustout.moves.select_related("entry__player").order_by("pk"))
    response = _done_render(
        request,
        event,
        message=_recorded(done),
        slips=slips,
        # Undo until the event is over (the winner crowned), as the list of bust-outs.
        undo=done.bustout if done.winner is None else None,
    )
    return changed(response)


def changed(response: HttpResponse) -> HttpResponse:
    """The client events of a change to the players: results' and seating's parts reload."""
    for name in (CHANGED, "seating-changed"):
        response = trigger_client_event(response, name, {"target": "body"})
    return response


def _refused_at(response: HttpResponse, target: str, swap: str) -> HttpResponse:
    """A refusal goes where the form that was sent is, not where a recorded bust-out's
    answer goes."""
    response["HX-Retarget"] = target
    response["HX-Reswap"] = swap
    return response


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
    """Undo from the list of bust-outs (answered with the list) or from what a bust-out
    answered (`answer=done`: answered in its place, with the same client events)."""
    event = _event(event_id)
    in_place = request.htmx and request.POST.get("answer") == "done"
    try:
        undone = services.bustout_undo(
            event_id=event.pk, bustout_id=bustout_id, actor=Actor.of(request.user)
        )
    except ResultsError as exc:
        if in_place:
            return _done_render(request, event, error=str(exc))
        return _answer(request, event, "recent", str(exc))
    names = str(text_list([f"#{e.number} {e.player.name}" for e in undone.entries]))
    message = gettext("Undone: %(names)s back in their seats") % {"names": names}
    if undone.moves_reverted:
        message = ngettext(
            "Undone: %(names)s back in their seats; %(count)s move slip withdrawn",
            "Undone: %(names)s back in their seats; %(count)s move slips withdrawn",
            undone.moves_reverted,
        ) % {"names": names, "count": undone.moves_reverted}
    if in_place:
        return changed(_done_render(request, event, message=message))
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
