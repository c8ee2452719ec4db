"""Hands at a table: "hand finished" moves the button and blinds (D11).

A stud table has no button and no blinds (`seatmap.has_blinds`): its hands are counted and
nothing moves; everyone seated is dealt the next hand.
"""

from __future__ import annotations

import random
from typing import Any

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Text, log_record
from tdsystem.core.numbers import HAND
from tdsystem.engine import seating as rules
from tdsystem.events.models import Event

from ..balancing import button_options
from ..errors import SeatingError
from ..models import Entry, EventTable
from ..seatmap import (
    engine_call,
    engine_table,
    has_blinds,
    new_seed,
)
from ..selectors import HaltState, pending_slips_at, table_halt
from ..texts import text_list
from .dayend import hand_count_down

# The most hands a table's count may claim: far beyond any event, and within the 32-bit
# columns that store hand numbers. The API's schema and the pages' form both state it.
HAND_MAX = HAND.high
_HAND_FIELDS = ("button", "small_blind", "big_blind", "hand_number", "sitting_out", "hands_left")


class TableHalted(SeatingError):
    """A hand at a halted table, not confirmed: the floor deals on only on purpose."""

    def __init__(self, halt: HaltState) -> None:
        super().__init__(
            gettext(
                "table %(table)s is halted (%(rule)s): %(reason)s. Play resumes once it is "
                "balanced; confirm the hand to deal on"
            )
            % {"table": halt.table, "rule": halt.rule, "reason": halt.reason}
        )
        self.halt = halt


def table_hand_finish(
    *,
    event_id: int,
    table_number: int,
    actor: Actor,
    expected_hand: int,
    confirm_halted: bool = False,
    rng_seed: int | None = None,
) -> EventTable:
    """The hand at a table is over: move the button and blinds by the event's rule (D11).

    `expected_hand` is the table's hand count the caller saw (0 to HAND_MAX, as the API's
    schema and the pages' form have it): a retried request or a second tap on the same
    hand is refused, as is a page that is out of date, and nothing changes.

    A halted table (see `selectors.table_halt`) deals on only with `confirm_halted`;
    without it the hand is refused (TableHalted) and nothing changes.

    At a stud table the hand is counted and no positions are kept (any a row still holds
    are cleared); nobody waits.
    """
    seed = new_seed(rng_seed)
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=SeatingError)
        row = (
            EventTable.objects.select_for_update(no_key=True)
            .filter(event=event, number=table_number, in_play=True)
            .first()
        )
        if row is None:
            raise SeatingError(
                gettext("table %(table)s is not in play") % {"table": table_number}, field="table"
            )
        if row.hands_left == 0:  # the day's last hands are played (R125)
            raise SeatingError(
                gettext("table %(table)s has played its last hand of the day: bag the chips")
                % {"table": table_number}
            )
        if expected_hand < row.hand_number:
            raise SeatingError(
                gettext("table %(table)s: hand %(hand)s was already finished")
                % {"table": table_number, "hand": expected_hand + 1}
            )
        if expected_hand > row.hand_number:
            raise SeatingError(
                gettext(
                    "table %(table)s has finished %(count)s hands, not %(seen)s: reload the page"
                )
                % {"table": table_number, "count": row.hand_number, "seen": expected_hand}
            )
        occupants = list(
            Entry.objects.filter(table=row, status=Entry.Status.ACTIVE).values_list("seat", "pk")
        )
        table = engine_table(row, occupants)
        if table.count < 2:
            raise SeatingError(
                gettext("table %(table)s has %(count)s player: no hand to deal")
                % {"table": table_number, "count": table.count}
            )
        # The table's own slips' five columns, not model rows; the others' only counted.
        mine: list[Any] = list(
            pending_slips_at(event, table_number)
            .order_by()
            .values_list("entry_id", "from_table", "from_seat", "to_table", "to_seat", named=True)
        )
        halted = table_halt(event, row, occupants, mine)
        if halted is not None and not confirm_halted:
            raise TableHalted(halted)
        if not has_blinds(event):
            return _stud_hand_finish(event, row, actor, halted)
        sitting_out = []
        if table.started:
            options = button_options(event)
            new = engine_call(rules.next_hand, table, **options)
            # Asked of the table before the move: who the coming hand's button passes by.
            sitting_out = [
                seat
                for seat in table.occupied_seats
                if not rules.is_dealt_in(table, seat, **options)
            ]
        else:
            new = engine_call(rules.start_hands, table, random.Random(seed))
        row.button, row.small_blind, row.big_blind = new.button, new.small_blind, new.big_blind
        row.hand_number += 1
        row.sitting_out = sitting_out
        hand_count_down(row)
        row.save(update_fields=[*_HAND_FIELDS])
        notes: list[Text] = []
        if new.entry_at(new.button) is None:
            notes.append(Text(gettext_noop("dead button")))
        if new.entry_at(new.small_blind) is None:
            notes.append(Text(gettext_noop("dead small blind")))
        if new.button == new.small_blind:
            notes.append(Text(gettext_noop("heads-up")))
        if sitting_out:
            notes.append(
                Text(
                    gettext_noop("seat %(seats)s waits for the button"),
                    seats=", ".join(map(str, sitting_out)),
                )
            )
        if halted is not None:
            notes.append(_halted_note(halted))
        positions = Text(
            gettext_noop(
                "Table %(table)s, hand %(hand)s: button seat %(button)s, "
                "blinds seats %(small)s and %(big)s"
            ),
            table=table_number,
            hand=row.hand_number + 1,
            button=new.button,
            small=new.small_blind,
            big=new.big_blind,
        )
        log_record(
            event=event,
            actor=actor,
            action="table.hand",
            summary=(
                Text(
                    gettext_noop("%(sentence)s (%(notes)s)"),
                    sentence=positions,
                    notes=text_list(notes),
                )
                if notes
                else positions
            ),
            data={
                "table": table_number,
                "hand": row.hand_number,
                "positions": [new.button, new.small_blind, new.big_blind],
                "sitting_out": sitting_out,
                "seed": None if table.started else seed,
                **({"halted": halted.reason} if halted is not None else {}),
            },
        )
    return row


def _stud_hand_finish(
    event: Event, row: EventTable, actor: Actor, halted: HaltState | None
) -> EventTable:
    """Count the hand at a stud table: no button, no blinds, nobody waits."""
    row.button = row.small_blind = row.big_blind = None
    row.hand_number += 1
    row.sitting_out = []
    hand_count_down(row)
    row.save(update_fields=[*_HAND_FIELDS])
    summary = Text(
        gettext_noop("Table %(table)s, hand %(hand)s: stud, no button or blinds"),
        table=row.number,
        hand=row.hand_number + 1,
    )
    if halted is not None:
        summary = Text(
            gettext_noop("%(sentence)s (%(notes)s)"), sentence=summary, notes=_halted_note(halted)
        )
    log_record(
        event=event,
        actor=actor,
        action="table.hand",
        summary=summary,
        data={
            "table": row.number,
            "hand": row.hand_number,
            "positions": None,
            "sitting_out": [],
            "seed": None,
            **({"halted": halted.reason} if halted is not None else {}),
        },
    )
    return row


def _halted_note(halted: HaltState) -> Text:
    return Text(
        gettext_noop("dealt on at a halted table, %(rule)s: %(reason)s"),
        rule=halted.rule,
        reason=halted.reason,
    )
