"""The ruling page: the rules engine in the floor's hands.

One view. A GET opens the page (``?event=<id>`` fills the table from the event's current
level); every POST re-reads the whole form, applies the button pressed (``op``) and asks the
engine again. HTMX gets the ruling alone while typing, the whole workspace after a button.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor
from tdsystem.engine import rulesets
from tdsystem.engine.errors import RuleError

from . import citations, hooks, selectors, services, shares
from .forms import TableForm

TEMPLATE = "rulings/ruling.html"
# "layout": a setting that moves the positions (the dead button, the game) redraws the seat
# rows; "first:<street>:<seat>": in stud, the floor names who opens a street.
EDITS = (
    "add-seat",
    "remove-seat",
    "add-action",
    "remove-action",
    "clear-actions",
    "append",
    "layout",
    "first",
)


@require_http_methods(["GET", "POST"])
@staff_required("ruling")
def ruling(request: HttpRequest) -> HttpResponse:
    op = request.POST.get("op", "")[:40]
    at = None
    if request.method == "POST":
        post = request.POST
        same = post.get("event") == post.get("loaded_event")  # else: the event was changed
        table = selectors.event_table_of(post.get("event"), post.get("level") if same else None)
        data = _loaded(post, table) if op == "load" else post
    else:
        table = selectors.event_table_of(request.GET.get("event"))
        at = _table_hand(table, request.GET.get("table", ""))
        data = _opening(table, at)
    context = _workspace(data, op, table)
    if op == "share":
        context.update(_share(request, context))
    context = citations.workspace_cited(context, context["rules"])
    context["dead_button_rule"] = context["rules"].cite("dead_button")
    asked = request.GET.get("event", "") if request.method == "GET" else ""
    context["missing_event"] = asked[:20] if asked and table is None else ""
    context["from_table"] = at.number if request.method == "GET" and at else None
    if request.htmx:  # typing: the ruling alone; a button: the rows changed too
        rebuilt = op == "load" or op.partition(":")[0] in EDITS
        return render(request, f"{TEMPLATE}#{'workspace' if rebuilt else 'result'}", context)
    return render(request, TEMPLATE, context)


def _share(request: HttpRequest, context: dict) -> dict:
    """Keep the ruling shown under a permanent link (only a hand ruled in full: a ruling on
    the part before a faulty action is not the hand's)."""
    outcome = context["outcome"]
    if outcome.hand is None or outcome.ruling is None or context["problems"]:
        return {"share_refused": gettext("Fix the hand first: only a full ruling is shared.")}
    table = context["table"]
    try:
        kept = shares.ruling_share(
            hand=outcome.hand,
            event_id=table.event.pk if table else None,
            actor=Actor.of(request.user),
        )
    except RuleError:  # the page ruled on it a moment ago
        return {"share_refused": gettext("Fix the hand first: only a full ruling is shared.")}
    return {"shared": request.build_absolute_uri(reverse("rulings:shared", args=[kept.token]))}


@require_GET
def shared(request: HttpRequest, token: str) -> HttpResponse:
    """A shared ruling, as it was given: open to anyone with the link (the player who
    disputes it), read-only."""
    kept = shares.shared_ruling(token)
    if kept is None:
        raise Http404("no such ruling")
    show = services.ruling_display(kept.ruling, hand=kept.hand)
    rules = rulesets.rule_set(kept.rule_set)
    context = citations.workspace_cited({"show": show, "problems": []}, rules)
    return render(
        request,
        "rulings/shared.html",
        {
            **context,
            "kept": kept,
            "rules": rules,
            "actions": services.actions_display(kept.hand),
            "hand_json": services.hand_json(kept.hand),
        },
    )


def _table_hand(table: selectors.EventTable | None, raw: str) -> hooks.TableHand | None:
    """The hand at the event's table ``?table=<number>``, when an app above knows it."""
    text = raw.strip()
    if table is None or not (text.isascii() and text.isdigit() and len(text) < 6):
        return None
    return hooks.table_hand(table.event, int(text))


def _opening(table: selectors.EventTable | None, at: hooks.TableHand | None = None) -> QueryDict:
    """The form as the page opens: the event's current level, one row per seat (the players
    of the event's table and its dead button, when the page is opened for one)."""
    data = QueryDict(mutable=True)
    data.update(table.settings if table else selectors.NO_EVENT)
    if table is not None:
        level = table.level_index
        data.update({"event": str(table.event.pk), "level": "" if level is None else str(level)})
    event = table.event if table else None
    seats = services.default_seats(
        event.seats_per_table if event else 9,
        event.starting_stack if event else selectors.DEFAULT_STACK,
    )
    if at is not None and len(at.players) >= services.MIN_SEATS:
        seats = tuple(services.SeatRow(name, str(chips)) for name, chips in at.players)
        data.update(
            {
                "dead_small_blind": "on" if at.dead_small_blind else "",
                "dead_button": "on" if at.dead_button else "",
            }
        )
    data.setlist("seat_name", [s.name for s in seats])
    data.setlist("seat_stack", [s.stack for s in seats])
    return data


def _loaded(posted: QueryDict, table: selectors.EventTable | None) -> QueryDict:
    """The posted form with the settings of the event's level chosen (seats and actions kept)."""
    data = posted.copy()
    for name, value in (table.settings if table else {}).items():
        data[name] = value
    if table is not None:
        data["level"] = str(table.level_index if table.level_index is not None else "")
    return data


def _with_opener(data: QueryDict, arg: str) -> QueryDict:
    """The form with a stud street's first player set from a tap (``<street>:<seat>``)."""
    street, _, seat = arg.partition(":")
    if street not in services.LATER_STREETS or not (seat.isascii() and seat.isdigit()):
        return data
    data = data.copy()
    data[f"first_{street}"] = seat[:3]
    return data


def _workspace(data: QueryDict, op: str, table: selectors.EventTable | None) -> dict:
    verb, _, arg = op.partition(":")
    if verb == "first":
        data = _with_opener(data, arg)
    form = TableForm(
        data,
        events=selectors.event_choices(),
        levels=table.levels if table else (),
        rule_set=table.event.rule_set if table else rulesets.DEFAULT,
    )
    settings = form.table_settings()
    rows = services.rows_from_data(data)
    if op.partition(":")[0] in EDITS:
        before = services.hand_rule(
            services.hand_build(settings=settings, seats=rows.seats, actions=rows.actions)
        )
        rows = services.rows_edit(rows, op=op, next_seat=services.next_seat(before))
    draft = services.hand_build(settings=settings, seats=rows.seats, actions=rows.actions)
    outcome = services.hand_rule(draft)
    problems = form.problems() + outcome.problems
    invalid = {t for p in problems for t in p.targets}
    form.mark_invalid(invalid)
    return {
        "form": form,
        "table": table,
        # The rule set whose numbers the ruling cites: the one chosen, else the event's.
        "rules": rulesets.rule_set(settings.rule_set if settings else form.default_rule_set),
        "seats": _seat_rows(rows, settings, invalid),
        "actions": _action_rows(rows, draft, outcome, invalid),
        "outcome": outcome,
        "problems": problems,
        "show": (
            services.ruling_display(outcome.ruling, hand=outcome.hand)
            if outcome.ruling and outcome.hand
            else None
        ),
        "hand_json": services.hand_json(outcome.hand) if outcome.hand else "",
        "invalid": " ".join(sorted(invalid)),
        "skipped": draft.skipped,
        "skipped_numbers": ", ".join(str(i + 1) for i in draft.skipped),
        "dos": services.ROW_DOS,
        "said_words": services.SAID_WORDS,
        "stud": settings is not None and settings.game == "stud",
        "bring_in_seat": settings.bring_in_seat if settings else None,
        "first_to_act": settings.first_to_act if settings else (),
    }


def _seat_rows(rows: services.Rows, settings, invalid: set[str]) -> list[dict]:
    two_blinds = settings is None or bool(settings.small_blind)
    if settings is not None and settings.game == "stud":
        labels = services.stud_positions(len(rows.seats), settings.bring_in_seat)
    else:
        labels = services.positions(
            len(rows.seats),
            two_blinds,
            dead_small_blind=bool(settings and settings.dead_small_blind),
            dead_button=bool(settings and settings.dead_button),
        )
    return [
        {
            "index": i,
            "name": seat.name,
            "stack": seat.stack,
            "position": labels[i] if i < len(labels) else "",
            "name_invalid": f"seat-{i}-name" in invalid,
            "stack_invalid": f"seat-{i}-stack" in invalid,
        }
        for i, seat in enumerate(rows.seats)
    ]


def _action_rows(rows: services.Rows, draft, outcome, invalid: set[str]) -> list[dict]:
    return [
        {
            "index": i,
            "player": action.player.strip(),
            "do": action.do,
            "to": action.to,
            "said": action.said,
            "invalid": f"action-{i}" in invalid,
            "skipped": i in draft.skipped,
            "after_error": outcome.partial_before is not None and i > outcome.partial_before,
        }
        for i, action in enumerate(rows.actions)
    ]
