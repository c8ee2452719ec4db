"""Recording bust-outs: places, prizes, the balancing they set off, and the end of the event.

One transaction per report: the event's row is locked first (as every seating change
does), then the players' entries; the places follow from the players still in; the
tables are rebalanced by the seating service in the same transaction, so a report and
the move slips it causes commit together (the floor never sees a bust-out without its
moves, and undo finds them linked). The clock is stopped after the commit, because the
clock service locks the clock row before the event's: taking it while holding the event's
lock could deadlock with a director's pause.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.log import Grouped, Text, log_record
from tdsystem.core.numbers import grouped
from tdsystem.engine import clock as clockrules
from tdsystem.engine import payouts as rules
from tdsystem.events.models import Event
from tdsystem.events.services import clock_action
from tdsystem.seating.balancing import Rebalance, tables_rebalance
from tdsystem.seating.errors import SeatingError
from tdsystem.seating.models import Bag, Entry, EventTable
from tdsystem.seating.seatmap import update_rows
from tdsystem.seating.texts import SEMICOLONS, text_list
from tdsystem.structures.models import AnteType

from ..errors import ResultsError
from ..models import BustOut, BustOutGroup, BustOutMove, Finish, HandForHand, HandForHandReport
from ..signals import players_out
from . import bounties, handforhand, standings
from .locks import event_lock

TABLE_STATE = ("button", "small_blind", "big_blind", "seats", "sitting_out", "break_rank")
BIG_BLIND_ANTES = (AnteType.BIG_BLIND, AnteType.BIG_BLIND_ANTE_FIRST)
FINAL_TABLE_MAX = 10  # the final table is drawn once its players fit it (at most 10 seats)


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
        event = event_lock(event_id)
        entries = _lock_entries(event, ids)
        hfh = HandForHand.objects.filter(event=event, active=True).first()
        need_stacks = len(entries) > 1 or hfh is not None
        clean_stacks = _stacks(entries, stacks, required=need_stacks)
        eliminators = bounties.eliminators_for(event, entries, eliminated_by)
        recorded = _bust(
            event,
            entries,
            actor=actor,
            kind=BustOut.Kind.HAND,
            table_number=table_number,
            stacks=clean_stacks,
            hand=hand,
            hfh=hfh,
            rng_seed=rng_seed,
        )
        _bounties(event, recorded, entries, eliminators)
    _after_commit(event_id, recorded, actor)
    return recorded


def _bounties(event: Event, recorded: Recorded, out: list[Entry], eliminators: list[Entry]):
    bounties.bounties_settle(
        event=event, bustout=recorded.bustout, out=out, eliminators=eliminators
    )
    if recorded.winner is not None:
        bounties.bounty_own_head(event=event, bustout=recorded.bustout, winner=recorded.winner)


def bustout_short_big_blind(
    *, event_id: int, entry_id: int, chips: int, actor: Actor, rng_seed: int | None = None
) -> Recorded:
    """House rule (D8): a big blind who cannot cover the small blind is out.

    The chips the player has left (0 to MAX_CHIPS, as the form states) are taken out of
    play (Entry.chips_removed); the player finishes in the place of a bust-out on this hand.
    """
    with transaction.atomic():
        event = event_lock(event_id)
        if not event.bb_must_cover_sb:
            raise ResultsError(
                gettext(
                    "this event does not play the house rule: a short big blind is all in "
                    "for what is left (D8)"
                )
            )
        (entry,) = _lock_entries(event, [entry_id])
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
        hfh = HandForHand.objects.filter(event=event, active=True).first()
        recorded = _bust(
            event,
            [entry],
            actor=actor,
            kind=BustOut.Kind.SHORT_BIG_BLIND,
            table_number=None,
            stacks={entry.pk: chips},
            hand=None,
            hfh=hfh,
            rng_seed=rng_seed,
            chips_removed=chips,
        )
        _bounties(event, recorded, [entry], [])  # no eliminator: the player keeps the head
    _after_commit(event_id, recorded, actor)
    return recorded


def _level_now(event: Event):
    """The level being played (the next one during a break), from the clock."""
    from tdsystem.events.selectors import schedule

    clock = event.clock
    state = clockrules.ClockState(
        clock.status, clock.level_index, clock.ends_at, clock.remaining_ms, clock.version
    )
    rows = schedule(event)
    if not rows:
        raise ResultsError(gettext("the event has no levels"))
    state, _ = clockrules.settle(state, [s.duration_seconds for s in rows], timezone.now())
    index = min(state.level_index, len(rows) - 1)
    return next((s for s in rows[index:] if not s.is_break), rows[index])


def _small_blind_due(event: Event) -> tuple[int, int, int]:
    """What the big blind must hold under the house rule (the small blind and own ante),
    the small blind, and the ante."""
    level = _level_now(event)
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


def _lock_entries(event: Event, ids: Sequence[int]) -> list[Entry]:
    """The entries, locked in primary-key order (after the event's row)."""
    if event.status == Event.Status.FINISHED:  # before "no seat": the winner's seat went back
        raise ResultsError(gettext("the event has finished"))
    entries = list(
        Entry.objects.select_for_update(of=("self",))
        .select_related("player", "table")
        .filter(event=event, pk__in=ids)
        .order_by("pk")
    )
    missing = set(ids) - {e.pk for e in entries}
    if missing:
        raise ResultsError(
            gettext("no entry %(id)s in this event") % {"id": min(missing)}, field="entries"
        )
    for entry in entries:
        if entry.status != Entry.Status.ACTIVE:
            values = {"number": entry.number, "name": entry.player.name, "place": entry.place}
            raise ResultsError(
                (
                    gettext("#%(number)s %(name)s is already out (place %(place)s)")
                    if entry.place
                    else gettext("#%(number)s %(name)s is already out")
                )
                % values
            )
        if entry.table is None:
            raise ResultsError(
                gettext("#%(number)s %(name)s has no seat yet")
                % {"number": entry.number, "name": entry.player.name}
            )
    return entries


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


def _bust(
    event: Event,
    entries: list[Entry],
    *,
    actor: Actor,
    kind: str,
    table_number: int | None,
    stacks: dict[int, int | None],
    hand: int | None,
    hfh: HandForHand | None,
    rng_seed: int | None,
    chips_removed: int = 0,
) -> Recorded:
    if event.status == Event.Status.FINISHED:
        raise ResultsError(gettext("the event has finished"))
    table = _table_of(entries, table_number)
    if table.hands_left is not None:
        _refuse_bagged(event, entries)
    now = timezone.now()
    fld = standings.field_read(event)
    if len(entries) >= fld.active:
        raise ResultsError(
            gettext("%(out)s cannot be out when %(left)s are left: one must win")
            % {"out": len(entries), "left": fld.active},
            field="entries",
        )
    plan = standings.plan_for(event)
    group, hand_no, joined = _group_for(event, hfh, hand, table)
    typed = dict(stacks)
    antes = (
        _antes_paid(event, table, entries, stacks, hand_no, hfh)
        if kind == BustOut.Kind.HAND
        else {}
    )
    stacks = {pk: (s - antes.get(pk, 0) if s is not None else None) for pk, s in stacks.items()}
    bustout = BustOut.objects.create(
        event=event,
        group=group,
        kind=kind,
        table_number=table.number,
        hand=hand_no,
        recorded_at=now,
        recorded_by=actor.user,
        actor_label=actor.label,
    )
    others = (
        list(
            Finish.objects.filter(group=group, undone_at__isnull=True).select_related(
                "entry__player", "bustout"
            )
        )
        if joined
        else []
    )
    placed = _places(event, plan, fld, group, joined, others, entries, stacks, table)
    rows = [
        Finish(
            event=event,
            entry=entry,
            group=group,
            bustout=bustout,
            starting_stack=stacks[entry.pk],
            chips_removed=chips_removed,
            from_table=entry.table,
            from_seat=entry.seat,
            # Without figures here (None), the full refresh below sets them.
            **(placed.of(entry.pk) if placed else {"place": fld.active, "place_to": fld.active}),
        )
        for entry in entries
    ]
    # The group's earlier players first: their places may be the ones the new rows take.
    standings.write_changes([f for f in others if placed and placed.update(f)])
    try:
        # No savepoint: a refusal fails the whole report (the caller's transaction).
        with transaction.atomic(savepoint=False):
            Finish.objects.bulk_create(rows)
    except IntegrityError:
        # Only a change that skipped the event's lock can get here: the constraints hold.
        raise ResultsError(
            gettext("one of these players is already out, or the place is taken")
        ) from None
    _leave_seats(entries, rows, now, chips_removed)
    if placed is None:
        standings.standings_refresh(event=event, plan=plan, field=_after(fld, entries))
        for row in rows:
            row.refresh_from_db(fields=["place", "place_to", "slot", "prize"])
    players_left = fld.active - len(entries)
    recorded = Recorded(bustout, rows, others + rows, None, players_left, antes=antes)
    recorded.stacks_typed = typed
    _log(event, actor, recorded, table, hand_no, hfh, now)
    if players_left == 1:
        recorded.winner = _crown(event, plan, _after(fld, entries), hfh, bustout, actor, now)
    else:
        recorded.rebalance = _rebalance(event, bustout, actor, rng_seed)
        if hfh is not None:
            # A table that broke may have been the last one playing the hand.
            recorded.hfh_charge = handforhand.complete_if_done(event, hfh, actor, now)
    out = [row.pk for row in rows] + ([recorded.winner.pk] if recorded.winner else [])
    players_out.send(sender=Finish, event_id=event.pk, finish_ids=out)
    return recorded


def _seated_at(entry: Entry) -> EventTable:
    assert entry.table is not None  # the entries were checked seated before
    return entry.table


def _refuse_bagged(event: Event, entries: Sequence[Entry]) -> None:
    """In the last hands of a day (the table counts its hands down), a player whose stack
    is already in its bag is through to the next day: not out."""
    bag = (
        Bag.objects.filter(event=event, day=event.day, entry__in=entries)
        .select_related("entry__player")
        .first()
    )
    if bag is not None:
        raise ResultsError(
            gettext("#%(number)s %(name)s has bagged for the day (bag %(bag)s): not out")
            % {"number": bag.entry.number, "name": bag.entry.player.name, "bag": bag.number},
            field="entries",
        )


def _table_of(entries: Sequence[Entry], table_number: int | None) -> EventTable:
    """The table of the report: where the players sit (one table per report)."""
    if table_number is not None:
        strangers = [e for e in entries if _seated_at(e).number != table_number]
        if strangers:
            e = strangers[0]
            raise ResultsError(
                gettext("#%(number)s %(name)s sits at table %(table)s, not table %(asked)s")
                % {
                    "number": e.number,
                    "name": e.player.name,
                    "table": _seated_at(e).number,
                    "asked": table_number,
                },
                field="table",
            )
    tables = {_seated_at(e).number for e in entries}
    if len(tables) > 1:
        raise ResultsError(
            gettext(
                "these players sit at tables %(tables)s: record each table's bust-out on its own"
            )
            % {"tables": ", ".join(map(str, sorted(tables)))},
            field="entries",
        )
    return _seated_at(entries[0])


@dataclass(frozen=True)
class _Placed:
    """The group's places, slots and prizes, worked out from this report."""

    finishes: dict[int, rules.Finish]
    slots: dict[int, int]
    won: dict[int, Decimal]

    def of(self, entry: int) -> dict:
        f = self.finishes[entry]
        return {
            "place": f.place,
            "place_to": f.place_to,
            "slot": self.slots[entry],
            "prize": self.won[entry],
        }

    def update(self, row: Finish) -> bool:
        """Give an earlier row of the group its new figures; True if they changed."""
        new = self.of(row.entry_id)
        if all(getattr(row, k) == v for k, v in new.items()):
            return False
        for k, v in new.items():
            setattr(row, k, v)
        return True


def _places(event, plan, fld, group, joined, others, entries, stacks, table) -> _Placed | None:
    """Places for a group at the end of the order, with prizes still current.

    None when the full refresh must do it: the field or pool changed since the prizes
    were worked out, or a late hand-for-hand report joins a group that is not the last.
    """
    if not standings.is_current(plan, fld):
        return None
    if (
        joined
        and group.seq != BustOutGroup.objects.filter(event=event).aggregate(m=Max("seq"))["m"]
    ):
        return None
    members = [
        standings.Out(f.entry_id, f.starting_stack or 0, f.bustout.table_number) for f in others
    ]
    members += [standings.Out(e.pk, stacks[e.pk] or 0, table.number) for e in entries]
    prizes = standings.prizes_by_place(plan, fld.entries, fld.pool)
    try:
        placed = standings.group_places(
            fld.active + len(others),
            members,
            event.rules,
            len(prizes),
            hand_for_hand=group.hfh_hand is not None,
        )
    except rules.PayoutError as exc:
        raise ResultsError(str(exc), field="entries") from exc
    return _Placed(
        {f.entry: f for f in placed.finishes},
        dict(placed.slots),
        placed.prizes(prizes, plan.rounding),
    )


def _antes_paid(
    event: Event,
    table: EventTable,
    entries: Sequence[Entry],
    stacks: Mapping[int, int | None],
    hand_no: int,
    hfh: HandForHand | None,
) -> dict[int, int]:
    """The big blind ante paid by a player out on this hand, when the rule set ranks by
    the stack after it (`stack_after_ante`, TDA 2026): {entry: chips}.

    The floor gives each stack as it was before the hand; the big blind of the hand (the
    table's, while this is the hand it is playing) paid the level's ante, or what was left
    (blind first: after the big blind; ante first: before it). Empty when the rule does not
    apply or the big blind of that hand is no longer known (the table has moved on).
    """
    if not event.rules.stack_after_ante or event.ante_type not in BIG_BLIND_ANTES:
        return {}
    big = next((e for e in entries if e.seat == table.big_blind), None)
    if big is None or stacks.get(big.pk) is None:
        return {}
    if hfh is not None:
        moved_on = (
            hand_no != hfh.hand
            or HandForHandReport.objects.filter(
                hand__event=event, hand__number=hand_no, table_number=table.number
            ).exists()
        )
    else:
        moved_on = hand_no != table.hand_number + 1
    if moved_on:
        return {}
    level = _level_now(event)
    stack = stacks[big.pk] or 0
    if event.ante_type == AnteType.BIG_BLIND:  # blind first, the ante from what is left
        paid = min(level.ante, max(0, stack - level.big_blind))
    else:
        paid = min(level.ante, stack)
    return {big.pk: paid} if paid else {}


def _leave_seats(entries: list[Entry], rows: list[Finish], now, chips_removed: int) -> None:
    for entry, row in zip(entries, rows, strict=True):
        entry.status, entry.table, entry.seat = Entry.Status.BUSTED, None, None
        entry.busted_at, entry.place, entry.prize = now, row.place, row.prize
        entry.chips_removed += chips_removed
    fields = ["status", "table", "seat", "busted_at", "place", "prize", "chips_removed"]
    update_rows(Entry, fields, [(e.pk, *(getattr(e, name) for name in fields)) for e in entries])


def _after(fld: standings.Field, entries: Sequence[Entry]) -> standings.Field:
    return replace(fld, active=fld.active - len(entries))


def _group_for(
    event: Event, hfh: HandForHand | None, hand: int | None, table: EventTable
) -> tuple[BustOutGroup, int, bool]:
    """The group this report belongs to, the hand number, and whether the group existed."""
    if hfh is not None:
        number = hfh.hand if hand is None else hand
        if not 1 <= number <= hfh.hand:
            raise ResultsError(
                gettext("the hand-for-hand hand is 1 to %(hand)s (the one being played)")
                % {"hand": hfh.hand},
                field="hand",
            )
        group = BustOutGroup.objects.filter(event=event, hfh_hand=number).first()
        if group is not None:
            return group, number, True
        return _new_group(event, hfh_hand=number), number, False
    number = hand if hand is not None else table.hand_number + 1
    return _new_group(event, hfh_hand=None), number, False


def _new_group(event: Event, *, hfh_hand: int | None) -> BustOutGroup:
    seq = BustOutGroup.objects.filter(event=event).aggregate(m=Max("seq"))["m"] or 0
    return BustOutGroup.objects.create(event=event, seq=seq + 1, hfh_hand=hfh_hand)


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


def _crown(event, plan, fld, hfh, bustout, actor, now) -> Finish:
    """One player left: the winner takes place 1 and first prize; the event is over."""
    winner = Entry.objects.select_related("player").get(event=event, status=Entry.Status.ACTIVE)
    prizes = standings.prizes_by_place(plan, fld.entries, fld.pool)
    prize = prizes[0] if prizes else Decimal(0)
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
    Entry.objects.filter(pk=winner.pk).update(place=1, prize=prize)
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


def _after_commit(event_id: int, recorded: Recorded, actor: Actor) -> None:
    """Clock changes, each in the clock's own transaction (see the module doc)."""
    if recorded.hfh_charge:
        handforhand.clock_take(event_id, recorded.hfh_charge, actor)
    if recorded.winner is None:
        return
    with contextlib.suppress(clockrules.ClockError):  # finished already
        clock_action(event_id=event_id, action="finish", actor=actor)
