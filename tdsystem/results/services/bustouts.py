"""Recording bust-outs: places, prizes, the balancing they set off, and the end of the event.

Built as the clock is: one lock, one read, one pure decision, one write, the follow-ups
on commit. A report takes the event's lock (`core.locking.event_lock`), reads what it decides
on in one snapshot with the players' entries locked (`snapshot.bustout_snapshot`), has
the engine decide the places, prizes, antes and winner (`engine/bustout.py`), and writes
that: the report and its finishes, the seats freed, the log; then the winner crowned, or
the tables rebalanced by seating's one service in the same transaction, so a report and
the move slips it causes commit together (the floor never sees a bust-out without its
moves, and undo finds them linked). The clock's changes (hand-for-hand's time, the finish)
wait for the commit (`transaction.on_commit`), because the clock service locks the clock
row before the event's: taking it while holding the event's lock could deadlock with a
director's pause.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Grouped, Text, log_record
from tdsystem.core.numbers import grouped
from tdsystem.core.sql import update_rows
from tdsystem.engine import bustout as decision
from tdsystem.engine import clock as clockrules
from tdsystem.engine import payouts as rules
from tdsystem.events.models import Event
from tdsystem.events.services import clock_action
from tdsystem.seating.balancing import Rebalance, tables_rebalance
from tdsystem.seating.errors import SeatingError
from tdsystem.seating.models import Entry
from tdsystem.seating.texts import SEMICOLONS, text_list
from tdsystem.structures.models import AnteType

from ..errors import ResultsError
from ..models import BustOut, BustOutGroup, BustOutMove, Finish, HandForHand
from ..signals import players_out
from . import bounties, handforhand, snapshot, standings

TABLE_STATE = ("button", "small_blind", "big_blind", "seats", "sitting_out", "break_rank")


@dataclass
class Recorded:
    """What a report did: its finishes (the whole group's, for a hand-for-hand hand)."""

    bustout: BustOut
    finishes: list[Finish]
    group: list[Finish]
    rebalance: Rebalance | None
    players_left: int
    winner: Finish | None = None
    hfh_charge: int | None = None  # a hand-for-hand hand completed: seconds off the clock
    # Big-blind-ante events ranking by the stack after the ante (`stack_after_ante`): the
    # ante the big blind paid, by entry; their finish's starting_stack is net of it.
    antes: dict[int, int] = field(default_factory=dict)
    stacks_typed: dict[int, int | None] = field(default_factory=dict)  # as the floor gave them


def bustout_record(
    *,
    event_id: int,
    entry_ids: Sequence[int],
    actor: Actor,
    table_number: int | None = None,
    stacks: Mapping[int, int] | None = None,
    hand: int | None = None,
    rng_seed: int | None = None,
    eliminated_by: Sequence[int] | None = None,
) -> Recorded:
    """The floor reports players out on one hand at one table.

    `eliminated_by` names the entries who knocked them out (several: a split pot, each
    player out shared by all); required in a bounty event, whose bounties it pays.

    Two or more players on the same hand need their stacks at the start of the hand
    (the bigger finishes higher; equal stacks tie). During hand-for-hand every report
    needs them, since other tables' reports of the same hand join it; `hand` is then the
    hand-for-hand hand (the current one unless given).

    The values come typed and in range from the API's schema or the pages' form (entry
    ids, chips 0 to MAX_CHIPS, a hand 1 to HAND_MAX); what is checked here are the rules:
    at least one player, none named twice, all in this event, seated and at one table.
    """
    ids = _entry_ids(entry_ids)
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=ResultsError)
        entries = snapshot.entries_locked(event, ids)
        hfh = snapshot.hand_for_hand(event)
        need_stacks = len(entries) > 1 or hfh is not None
        clean_stacks = _stacks(entries, stacks, required=need_stacks)
        snap = snapshot.bustout_snapshot(
            event,
            entries,
            hfh=hfh,
            table_number=table_number,
            hand=hand,
            stacks=clean_stacks,
            eliminated_by=eliminated_by,
        )
        outcome = _decide(snap)
        recorded = _write(snap, outcome, actor=actor, kind=BustOut.Kind.HAND, rng_seed=rng_seed)
        _follow_up(event_id, recorded, actor)
    return recorded


def bustout_short_big_blind(
    *, event_id: int, entry_id: int, chips: int, actor: Actor, rng_seed: int | None = None
) -> Recorded:
    """House rule (D8): a big blind who cannot cover the small blind is out.

    The chips the player has left (0 to MAX_CHIPS, as the form states) are taken out of
    play (Entry.chips_removed); the player finishes in the place of a bust-out on this hand.
    """
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=ResultsError)
        if not event.bb_must_cover_sb:
            raise ResultsError(
                gettext(
                    "this event does not play the house rule: a short big blind is all in "
                    "for what is left (D8)"
                )
            )
        (entry,) = snapshot.entries_locked(event, [entry_id])
        need, small_blind, ante = _small_blind_due(event)
        if chips >= need:
            values = {"chips": grouped(chips), "blind": grouped(small_blind), "ante": grouped(ante)}
            text = (
                gettext(
                    "%(chips)s chips cover the small blind of %(blind)s and the ante of "
                    "%(ante)s: the big blind posts and plays on"
                )
                if ante
                else gettext(
                    "%(chips)s chips cover the small blind of %(blind)s: the big blind posts "
                    "and plays on"
                )
            )
            raise ResultsError(text % values, field="chips")
        table = entry.table
        if table and table.big_blind is not None and table.big_blind != entry.seat:
            raise ResultsError(
                gettext(
                    "#%(number)s %(name)s is in seat %(seat)s; the big blind at table "
                    "%(table)s is seat %(big)s"
                )
                % {
                    "number": entry.number,
                    "name": entry.player.name,
                    "seat": entry.seat,
                    "table": table.number,
                    "big": table.big_blind,
                },
                field="entry",
            )
        hfh = snapshot.hand_for_hand(event)
        snap = snapshot.bustout_snapshot(
            event,
            [entry],
            hfh=hfh,
            table_number=None,
            hand=None,
            stacks={entry.pk: chips},
            short_big_blind=True,
        )
        outcome = _decide(snap)
        recorded = _write(
            snap,
            outcome,
            actor=actor,
            kind=BustOut.Kind.SHORT_BIG_BLIND,
            rng_seed=rng_seed,
            chips_removed=chips,
        )
        _follow_up(event_id, recorded, actor)
    return recorded


def _small_blind_due(event: Event) -> tuple[int, int, int]:
    """What the big blind must hold under the house rule (the small blind and own ante),
    the small blind, and the ante."""
    level = snapshot.level_now(event)
    own_ante = event.ante_type in (
        AnteType.EACH,
        AnteType.BIG_BLIND,
        AnteType.BIG_BLIND_ANTE_FIRST,
    )
    ante = level.ante if own_ante else 0
    return level.small_blind + ante, level.small_blind, ante


# The work of a report ----------------------------------------------------------------------


def _entry_ids(entry_ids: Sequence[int]) -> list[int]:
    ids = list(entry_ids)
    if not ids:
        raise ResultsError(gettext("name at least one player who is out"), field="entries")
    if len(set(ids)) != len(ids):
        raise ResultsError(gettext("a player is named twice"), field="entries")
    return ids


def _stacks(
    entries: Sequence[Entry], stacks: Mapping[int, int] | None, *, required: bool
) -> dict[int, int | None]:
    stacks = dict(stacks or {})
    out: dict[int, int | None] = {}
    for entry in entries:
        value = stacks.get(entry.pk)
        if value is None:
            if required:
                raise ResultsError(
                    gettext(
                        "give the chips #%(number)s %(name)s had at the start of the hand: "
                        "several players out on one hand finish by starting stack"
                    )
                    % {"number": entry.number, "name": entry.player.name},
                    field="stacks",
                )
            out[entry.pk] = None
            continue
        out[entry.pk] = value
    return out


def _decide(snap: snapshot.BustoutSnapshot) -> decision.Outcome:
    try:
        return decision.decide(snap.situation, snap.report)
    except rules.PayoutError as exc:
        raise ResultsError(str(exc), field="entries") from exc


def _write(
    snap: snapshot.BustoutSnapshot,
    outcome: decision.Outcome,
    *,
    actor: Actor,
    kind: str,
    rng_seed: int | None,
    chips_removed: int = 0,
) -> Recorded:
    """Write what the engine decided: the report, its finishes, the players' seats freed,
    the log; the winner crowned, or the tables balanced."""
    event, table, hfh, fld = snap.event, snap.table, snap.hfh, snap.field
    now = timezone.now()
    group = snap.group or BustOutGroup.objects.create(
        event=event, seq=snap.last_seq + 1, hfh_hand=snap.hand if hfh is not None else None
    )
    bustout = BustOut.objects.create(
        event=event,
        group=group,
        kind=kind,
        table_number=table.number,
        hand=snap.hand,
        recorded_at=now,
        recorded_by=actor.user,
        actor_label=actor.label,
    )
    placings = outcome.placings
    rows = [
        Finish(
            event=event,
            entry=entry,
            group=group,
            bustout=bustout,
            starting_stack=outcome.stacks[entry.pk],
            chips_removed=chips_removed,
            from_table=entry.table,
            from_seat=entry.seat,
            # Without figures here (None), the full refresh below sets them.
            **(
                _figures(placings[entry.pk])
                if placings
                else {"place": fld.active, "place_to": fld.active}
            ),
        )
        for entry in snap.entries
    ]
    # The group's earlier players first: their places may be the ones the new rows take.
    others = list(snap.others)
    standings.write_changes([f for f in others if placings and _placed(f, placings)])
    try:
        # No savepoint: a refusal fails the whole report (the caller's transaction).
        with transaction.atomic(savepoint=False):
            Finish.objects.bulk_create(rows)
    except IntegrityError:
        # Only a change that skipped the event's lock can get here: the constraints hold.
        raise ResultsError(
            gettext("one of these players is already out, or the place is taken")
        ) from None
    _leave_seats(list(snap.entries), chips_removed)
    after = replace(fld, active=outcome.players_left)
    if placings is None:
        standings.standings_refresh(event=event, plan=snap.plan, field=after)
        for row in rows:
            row.refresh_from_db(fields=["place", "place_to", "slot", "prize"])
    recorded = Recorded(
        bustout, rows, others + rows, None, outcome.players_left, antes=dict(outcome.antes)
    )
    recorded.stacks_typed = {p.entry: p.stack for p in snap.report.players}
    _log(event, actor, recorded, table, snap.hand, hfh, now)
    if outcome.winner is not None:
        assert snap.winner is not None and snap.winner.pk == outcome.winner
        recorded.winner = _crown(snap, outcome, bustout, actor, now)
    else:
        recorded.rebalance = _rebalance(event, bustout, actor, rng_seed)
        if hfh is not None:
            # A table that broke may have been the last one playing the hand.
            recorded.hfh_charge = handforhand.complete_if_done(event, hfh, actor, now)
    bounties.knocks_write(event, bustout, outcome.knocks)
    out = [row.pk for row in rows] + ([recorded.winner.pk] if recorded.winner else [])
    players_out.send(sender=Finish, event_id=event.pk, finish_ids=out)
    return recorded


def _figures(placing: decision.Placing) -> dict:
    return {
        "place": placing.place,
        "place_to": placing.place_to,
        "slot": placing.slot,
        "prize": placing.prize,
    }


def _placed(row: Finish, placings: Mapping[int, decision.Placing]) -> bool:
    """Give an earlier row of the group its new figures; True if they changed."""
    new = _figures(placings[row.entry_id])
    if all(getattr(row, k) == v for k, v in new.items()):
        return False
    for k, v in new.items():
        setattr(row, k, v)
    return True


def _leave_seats(entries: list[Entry], chips_removed: int) -> None:
    for entry in entries:
        entry.status, entry.table, entry.seat = Entry.Status.BUSTED, None, None
        entry.chips_removed += chips_removed
    fields = ["status", "table", "seat", "chips_removed"]
    update_rows(Entry, fields, [(e.pk, *(getattr(e, name) for name in fields)) for e in entries])


def _rebalance(event: Event, bustout: BustOut, actor: Actor, rng_seed: int | None):
    """Balance or break tables now, in this transaction; keep what undo needs.

    Undo puts back the buttons and seats of the tables the rebalance changed, as the
    seating service read them just before it wrote them.
    """
    try:
        result = tables_rebalance(event_id=event.pk, actor=actor, rng_seed=rng_seed, locked=event)
    except SeatingError as exc:
        raise ResultsError(
            gettext("the tables could not be balanced: %(reason)s") % {"reason": exc}
        ) from exc
    if result.kind is None:
        return result
    BustOutMove.objects.bulk_create(BustOutMove(bustout=bustout, move=m) for m in result.moves)
    bustout.rebalance = {
        "kind": result.kind,
        "seed": result.seed,
        "broken": result.broken,
        "tables": {str(number): state for number, state in result.before.items()},
    }
    BustOut.objects.filter(pk=bustout.pk).update(rebalance=bustout.rebalance)
    return result


def _crown(snap: snapshot.BustoutSnapshot, outcome: decision.Outcome, bustout, actor, now):
    """One player left: the winner takes place 1 and first prize; the event is over."""
    event, hfh, winner = snap.event, snap.hfh, snap.winner
    assert winner is not None and outcome.winner_prize is not None
    prize = outcome.winner_prize
    finish = Finish.objects.create(
        event=event,
        entry=winner,
        bustout=bustout,
        is_winner=True,
        place=1,
        place_to=1,
        slot=1,
        prize=prize,
        from_table=winner.table,
        from_seat=winner.seat,
    )
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    event.status = Event.Status.FINISHED
    if hfh is not None:
        HandForHand.objects.filter(pk=hfh.pk).update(active=False, stopped_at=now)
    log_record(
        event=event,
        actor=actor,
        action="event.winner",
        summary=Text(
            gettext_noop("#%(number)s %(name)s wins (%(prize)s prize)"),
            number=winner.number,
            name=winner.player.name,
            prize=Grouped(prize),
        ),
        at=now,
        data={"entry": winner.pk, "prize": str(prize)},
    )
    return finish


def _log(event, actor, recorded: Recorded, table, hand_no, hfh, now: datetime) -> None:
    names = {f.entry_id: f for f in recorded.finishes}
    parts: list[Text | str] = []
    for f in recorded.finishes:
        parts.append(_finish_text(f, recorded))
    where = Text(
        gettext_noop("table %(table)s, hand-for-hand hand %(hand)s")
        if hfh
        else gettext_noop("table %(table)s, hand %(hand)s"),
        table=table.number,
        hand=hand_no,
    )
    rule = _rule_cited(event, recorded, hfh)
    kind = recorded.bustout.kind
    short = kind == BustOut.Kind.SHORT_BIG_BLIND
    sentence = {
        (False, False): gettext_noop("Out, %(where)s: %(finishes)s"),
        (False, True): gettext_noop("Out, %(where)s (%(rule)s): %(finishes)s"),
        (True, False): gettext_noop(
            "Out (short big blind, chips removed), %(where)s: %(finishes)s"
        ),
        (True, True): gettext_noop(
            "Out (short big blind, chips removed), %(where)s (%(rule)s): %(finishes)s"
        ),
    }[(short, bool(rule))]
    log_record(
        event=event,
        actor=actor,
        action="bustout.record",
        summary=Text(
            sentence,
            where=where,
            finishes=text_list(parts, SEMICOLONS),
            **({"rule": rule} if rule else {}),
        ),
        at=now,
        data={
            "bustout": recorded.bustout.pk,
            "kind": kind,
            "table": table.number,
            "hand": hand_no,
            "hfh": bool(hfh),
            "rule": rule,
            "finishes": [
                [e, f.place, f.place_to, str(f.prize), f.starting_stack] for e, f in names.items()
            ],
            "antes": {str(e): paid for e, paid in recorded.antes.items()},
        },
    )


def _finish_text(f: Finish, recorded: Recorded) -> Text:
    """One player's finish in the log: "#12 Ann 17, prize 300 (41,000 before the hand,
    40,000 after the 1,000 big blind ante)"."""
    paid = recorded.antes.get(f.entry_id)
    sentence = {
        (False, False): gettext_noop("#%(number)s %(name)s %(place)s"),
        (True, False): gettext_noop("#%(number)s %(name)s %(place)s, prize %(prize)s"),
        (False, True): gettext_noop(
            "#%(number)s %(name)s %(place)s (%(before)s before the hand, %(after)s after the "
            "%(ante)s big blind ante)"
        ),
        (True, True): gettext_noop(
            "#%(number)s %(name)s %(place)s, prize %(prize)s (%(before)s before the hand, "
            "%(after)s after the %(ante)s big blind ante)"
        ),
    }[(bool(f.prize), bool(paid))]
    values: dict = {"number": f.entry.number, "name": f.entry.player.name, "place": f.place_label}
    if f.prize:
        values["prize"] = Grouped(f.prize)
    if paid:  # an ante paid: the stack before the hand was given, and the one after set
        values |= {
            "before": Grouped(recorded.stacks_typed[f.entry_id] or 0),
            "after": Grouped(f.starting_stack or 0),
            "ante": Grouped(paid),
        }
    return Text(sentence, **values)


def _rule_cited(event: Event, recorded: Recorded, hfh: HandForHand | None) -> str:
    """The rule that placed the report's players: hand-for-hand's during hand-for-hand,
    the one on players out on the same hand for several at one table, else none."""
    if hfh is not None:
        return event.cite("hand_for_hand")
    if len(recorded.finishes) > 1:
        return event.cite("simultaneous")
    return ""


def _follow_up(event_id: int, recorded: Recorded, actor: Actor) -> None:
    """The clock's changes once the report commits, each in the clock's own transaction
    (see the module doc); under an outer transaction (a page's write) they wait for it."""
    if recorded.hfh_charge or recorded.winner is not None:
        transaction.on_commit(functools.partial(_after_commit, event_id, recorded, actor))


def _after_commit(event_id: int, recorded: Recorded, actor: Actor) -> None:
    if recorded.hfh_charge:
        handforhand.clock_take(event_id, recorded.hfh_charge, actor)
    if recorded.winner is None:
        return
    with contextlib.suppress(clockrules.ClockError):  # finished already
        clock_action(event_id=event_id, action="finish", actor=actor)
