"""The alternates list: a queue instead of a line, for an event that is full or not open.

Players join with a name (at the desk or from the seat lookup) and follow their place on
their own page. When a seat opens the next waiting player is called: their seat is held
for the list's hold time (`due_at`), their page says "Seat ready", and the desk seats them
through seating's one registration service, whose rules (late registration, re-entry
limits, the money) apply as at the desk. A called player who does not come in time drops
one place and the hold passes to the next.

Every change takes the event's lock, then the list's row (`select_for_update`), in that
order: the event's lock is what registration and bust-outs take, so "is there room at the
tables?" is read while no seat changes, and two desks never call the same player. What
follows a call (the page's signal, the hold's end) runs on commit.

When a seat opens by itself (a bust-out: results' `players_out`; tables put into play:
seating's `tables_changed`) the receivers (`receivers.py`) call `alternates_seats_opened`:
one call per seat opened, never more than the seats free minus the players already called,
and only while the event takes a registration. The desk can call by hand at any time.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, ngettext

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Text, log_record
from tdsystem.core.sql import fetch_one, sql_names
from tdsystem.events.models import Event
from tdsystem.events.selectors import screen_cached
from tdsystem.results.models import Finish
from tdsystem.seating.entry_rules import entries_closed, refusal_text
from tdsystem.seating.models import Entry, name_key
from tdsystem.seating.seatmap import head_counts
from tdsystem.seating.services import entry_reenter, player_register
from tdsystem.seating.services.registration import registration_closed_reason

from .errors import PlayersRefused
from .links import link_of_alternate
from .models import Alternate, AlternateList, PlayerLink
from .signals import seat_ready

logger = logging.getLogger(__name__)

NAME_MAX = 120  # Alternate.name's max_length
SIZE_MAX = 1000
HOLD_MAX = 120  # minutes: the model's check constraint
# The bust-outs of this window give the rate an alternate's wait is estimated from.
RATE_WINDOW = timedelta(minutes=60)
# The public join: at most this many a minute from one address (a phone, not a script).
JOINS_PER_MINUTE = 5
ACTIVE = (Alternate.Status.WAITING, Alternate.Status.CALLED)
W, C = Alternate.Status.WAITING, Alternate.Status.CALLED


@dataclass(frozen=True)
class Joined:
    alternate: Alternate
    link: PlayerLink


# --- reads -----------------------------------------------------------------------------


def list_of(event: Event) -> AlternateList:
    """The event's list, with the defaults until the director sets it."""
    found = AlternateList.objects.filter(event=event).first()
    return found or AlternateList(event=event)


def queue(event_id: int) -> list[Alternate]:
    """The players still waiting or called, in the list's order (position = index + 1)."""
    return list(Alternate.objects.filter(event_id=event_id, status__in=ACTIVE).order_by("rank"))


def position_of(alternate: Alternate) -> int | None:
    """1 for the first still on the list; None once seated or removed."""
    if alternate.status not in ACTIVE:
        return None
    ahead = Alternate.objects.filter(
        event_id=alternate.event_id, status__in=ACTIVE, rank__lt=alternate.rank
    ).count()
    return ahead + 1


def seats_free(event: Event) -> int | None:
    """The empty seats at the tables in play; None before the draw (no seat is needed to
    register then: there is room for anyone)."""
    counts = head_counts(event)
    if not any(row.players for row in counts):
        return None
    return sum(max(0, row.seats - row.players) for row in counts)


def registration_refusal(event: Event) -> str | None:
    """Why the event takes no new entry now (its level, the field), or None."""
    reason = registration_closed_reason(event)
    if reason is None:
        closed = entries_closed(event)
        if closed is not None:
            reason = refusal_text(closed)
    return reason


def join_allowed(event_id: int, address: str | None) -> bool:
    """The public join (the lookup's form, the API's POST without a token): at most
    JOINS_PER_MINUTE from one address and event, counted in the cache."""
    key = f"alternates-join:{event_id}:{address}"
    cache.add(key, 0, 60)
    try:
        return cache.incr(key) <= JOINS_PER_MINUTE
    except ValueError:  # expired between the two
        return True


def join_offered(event: Event) -> bool:
    """Whether the seat lookup offers to join: the list is open and the event is full
    (no seat free after the draw) or not taking entries now; not once it has finished."""
    if event.status == Event.Status.FINISHED or not list_of(event).is_open:
        return False
    if registration_refusal(event) is not None:
        return True
    free = seats_free(event)
    return free is not None and free <= 0


def bustouts_per_hour(event: Event, *, now: datetime | None = None) -> float | None:
    """Players out per hour over the last RATE_WINDOW; None when nobody went out."""
    now = now or timezone.now()
    out = Finish.objects.filter(
        event=event,
        undone_at__isnull=True,
        is_winner=False,
        bustout__recorded_at__gte=now - RATE_WINDOW,
    ).count()
    if not out:
        return None
    return out * (timedelta(hours=1) / RATE_WINDOW)


def wait_minutes(event: Event, position: int, *, now: datetime | None = None) -> int | None:
    """About how long until the player at `position` is called, from the recent bust-out
    rate (each player out opens a seat); None when unknown. The rate is the same for every
    waiting phone: kept with the screens (read afresh after each change to the event)."""
    if now is None:
        # In a tuple: an answer of None would read as not kept.
        (rate,) = screen_cached(
            ("alternates-rate",), lambda: (bustouts_per_hour(event),), event=event.pk
        )
    else:
        rate = bustouts_per_hour(event, now=now)
    if rate is None:
        return None
    return max(1, round(position * 60 / rate))


def alternate_state(link: PlayerLink, *, now: datetime | None = None) -> dict:
    """What the player's page (and its JSON) shows of a place on the list: status,
    position, the estimate, and while called the time the hold ends."""
    now = now or timezone.now()
    alternate = link.alternate  # read with the link (links.link_by_token)
    if alternate is None:
        raise PlayersRefused(gettext("this link is not a place on the alternates list"))
    position = position_of(alternate)
    called = alternate.status == C
    return {
        "status": alternate.status,
        "name": alternate.name,
        "position": position,
        "wait_minutes": wait_minutes(link.event, position) if position and not called else None,
        "called_at": alternate.called_at.isoformat() if called and alternate.called_at else None,
        "due_at": alternate.due_at.isoformat() if called and alternate.due_at else None,
        "seconds_left": max(0, int((alternate.due_at - now).total_seconds()))
        if called and alternate.due_at
        else None,
        "hold_minutes": list_of(link.event).hold_minutes,
        "missed": alternate.missed,
        "now": now.isoformat(),
    }


def wait_text(minutes: int | None) -> str:
    """The estimate as the page says it, in the reader's language; "—" when unknown."""
    if minutes is None:
        return "—"
    return ngettext("about %(n)s minute", "about %(n)s minutes", minutes) % {"n": minutes}


def mmss(seconds: int | None) -> str:
    if seconds is None:
        return ""
    return f"{seconds // 60:d}:{seconds % 60:02d}"


# --- changes ---------------------------------------------------------------------------


def _locked(event_id: int) -> tuple[Event, AlternateList]:
    """The event's lock, then the list's row, locked (made with the defaults if new)."""
    event = event_lock(Event.objects, event_id, error=PlayersRefused)
    AlternateList.objects.get_or_create(event=event)
    return event, AlternateList.objects.select_for_update(no_key=True).get(event=event)


def _alternate(event: Event, alternate_id: int) -> Alternate:
    found = Alternate.objects.filter(pk=alternate_id, event=event).first()
    if found is None:
        raise PlayersRefused(gettext("no such player on the alternates list"), field="alternate")
    return found


def _log(event: Event, actor: Actor, action: str, summary: Text, alternate: Alternate) -> None:
    log_record(
        event=event,
        actor=actor,
        action=f"alternate.{action}",
        summary=summary,
        data={"alternate": alternate.pk},
    )


def alternates_settings(
    *, event: Event, is_open: bool, size: int, hold_minutes: int, actor: Actor
) -> AlternateList:
    """The director opens or closes the list, sets how long it may grow and the hold."""
    if not 1 <= size <= SIZE_MAX:
        raise PlayersRefused(
            gettext("the list's size is a whole number from 1 to %(max)s") % {"max": SIZE_MAX},
            field="size",
        )
    if not 1 <= hold_minutes <= HOLD_MAX:
        raise PlayersRefused(
            gettext("the hold is a whole number of minutes from 1 to %(max)s") % {"max": HOLD_MAX},
            field="hold_minutes",
        )
    with transaction.atomic():
        event, alist = _locked(event.pk)
        alist.is_open, alist.size, alist.hold_minutes = is_open, size, hold_minutes
        alist.save()
        log_record(
            event=event,
            actor=actor,
            action="alternate.settings",
            summary=Text(
                gettext_noop(
                    "Alternates list %(state)s: at most %(size)s players, seats held "
                    "%(minutes)s minutes"
                ),
                state=gettext_noop("open") if is_open else gettext_noop("closed"),
                size=size,
                minutes=hold_minutes,
            ),
            data={"is_open": is_open, "size": size, "hold_minutes": hold_minutes},
        )
    return alist


def alternate_join(*, event: Event, name: str, actor: Actor) -> Joined:
    """A player joins the end of the list; the place and its page's link."""
    name = " ".join(name.split())
    if not name:
        raise PlayersRefused(gettext("the player needs a name"), field="name")
    if len(name) > NAME_MAX:
        raise PlayersRefused(
            gettext("the name is longer than %(max)s characters") % {"max": NAME_MAX},
            field="name",
        )
    key = name_key(name)
    with transaction.atomic():
        event, alist = _locked(event.pk)
        if not alist.is_open:
            raise PlayersRefused(gettext("the alternates list is closed"))
        waiting = queue(event.pk)
        if len(waiting) >= alist.size:
            raise PlayersRefused(gettext("the alternates list is full"))
        if any(name_key(a.name) == key for a in waiting):
            raise PlayersRefused(
                gettext("%(name)s is on the alternates list already") % {"name": name}
            )
        playing = Entry.objects.filter(
            event=event, status=Entry.Status.ACTIVE, player__name_key=key
        )
        if playing.exists():
            raise PlayersRefused(gettext("%(name)s is playing in this event") % {"name": name})
        last = Alternate.objects.filter(event=event).aggregate(last=Max("rank"))["last"] or 0
        alternate = Alternate.objects.create(
            event=event, name=name, rank=last + 1, actor_label=actor.label[:150]
        )
        link = link_of_alternate(alternate)
        _log(
            event,
            actor,
            "join",
            Text(
                gettext_noop("%(name)s joined the alternates list (%(position)s)"),
                name=name,
                position=len(waiting) + 1,
            ),
            alternate,
        )
    return Joined(alternate, link)


def _call(event: Event, alist: AlternateList, alternate: Alternate, now: datetime) -> None:
    alternate.status = C
    alternate.called_at = now
    alternate.due_at = now + timedelta(minutes=alist.hold_minutes)
    alternate.save(update_fields=["status", "called_at", "due_at"])
    pk, due_at = alternate.pk, alternate.due_at
    transaction.on_commit(lambda: _after_call(pk, due_at), robust=True)


def _after_call(alternate_id: int, due_at: datetime) -> None:
    """On commit: the page's signal, and the hold's end scheduled at its time."""
    from . import tasks

    alternate = Alternate.objects.filter(pk=alternate_id).first()
    if alternate is None:
        return
    seat_ready.send(sender=Alternate, alternate=alternate, due_at=due_at)
    try:
        tasks.alternates_hold_end.apply_async(args=[alternate.event_id], eta=due_at)
    except Exception:  # no broker: the periodic sweep ends the hold
        logger.exception("the hold's end of alternate %s could not be queued", alternate_id)


def _call_next(
    event: Event,
    alist: AlternateList,
    actor: Actor,
    now: datetime,
    count: int = 1,
    skip: Collection[int] = (),
) -> list[Alternate]:
    rows = Alternate.objects.filter(event=event, status=W).exclude(pk__in=skip).order_by("rank")
    called = list(rows[:count])
    for alternate in called:
        _call(event, alist, alternate, now)
        _log(
            event,
            actor,
            "call",
            Text(
                gettext_noop("%(name)s called from the alternates list, due by %(due)s"),
                name=alternate.name,
                due=timezone.localtime(alternate.due_at).strftime("%H:%M"),
            ),
            alternate,
        )
    return called


def alternate_call_next(*, event: Event, actor: Actor) -> Alternate:
    """The desk calls the next waiting player: their seat is held for the hold time."""
    with transaction.atomic():
        event, alist = _locked(event.pk)
        called = _call_next(event, alist, actor, timezone.now())
        if not called:
            raise PlayersRefused(gettext("nobody is waiting on the alternates list"))
    return called[0]


def alternates_seats_opened(
    *, event_id: int, opened: int | None, actor: Actor, waiting: bool | None = None
) -> int:
    """Seats opened: call one waiting player per seat opened (`opened`; None: tables put
    into play, as many as the seats free), never more than the seats free minus the
    players already called, while the event takes a registration. How many were called.
    Before the draw there is no seat to count: only players out (never then) call.
    `waiting`: whether anyone waits on the list, when the caller has asked already."""
    if opened == 0 or not (_anyone_waiting(event_id) if waiting is None else waiting):
        return 0
    with transaction.atomic():
        event, alist = _locked(event_id)
        if event.status == Event.Status.FINISHED or registration_refusal(event) is not None:
            return 0
        free = seats_free(event)
        if free is None:
            return 0
        called = Alternate.objects.filter(event=event, status=C).count()
        room = free - called if opened is None else min(opened, free - called)
        if room <= 0:
            return 0
        return len(_call_next(event, alist, actor, timezone.now(), count=room))


def anyone_waiting_sql() -> tuple[str, list]:
    """Whether anyone waits on an event's list, as an expression a statement can select and
    its parameters after the event's id (asked after every bust-out's commit, without the
    ORM's compiling; almost always: nobody)."""
    table, c = sql_names(Alternate)
    return f"EXISTS (SELECT 1 FROM {table} WHERE {c['event']} = %s AND {c['status']} = %s)", [W]


def _anyone_waiting(event_id: int) -> bool:
    sql, params = anyone_waiting_sql()
    row = fetch_one(f"SELECT {sql}", [event_id, *params])
    return bool(row and row[0])


def _drop_one_place(event: Event, alternate: Alternate) -> Alternate | None:
    """Swap ranks with the next waiting player behind; the one passed, or None (last)."""
    behind = (
        Alternate.objects.filter(event=event, status=W, rank__gt=alternate.rank)
        .order_by("rank")
        .first()
    )
    if behind is None:
        return None
    mine, theirs = alternate.rank, behind.rank
    spare = (Alternate.objects.filter(event=event).aggregate(m=Max("rank"))["m"] or 0) + 1
    Alternate.objects.filter(pk=alternate.pk).update(rank=spare)  # ranks are unique
    Alternate.objects.filter(pk=behind.pk).update(rank=mine)
    Alternate.objects.filter(pk=alternate.pk).update(rank=theirs)
    alternate.rank, behind.rank = theirs, mine
    return behind


def _back_to_waiting(alternate: Alternate, *, missed: bool) -> None:
    alternate.status = W
    alternate.called_at = alternate.due_at = None
    if missed:
        alternate.missed += 1
    alternate.save(update_fields=["status", "called_at", "due_at", "missed"])


def alternate_skip(*, alternate: Alternate, actor: Actor) -> Alternate:
    """The floor drops a player one place (a called player waits again); the hold, if
    any, passes to the player now ahead."""
    with transaction.atomic():
        event, alist = _locked(alternate.event_id)
        alternate = _alternate(event, alternate.pk)
        if alternate.status not in ACTIVE:
            raise PlayersRefused(gettext("%(name)s is not waiting") % {"name": alternate.name})
        was_called = alternate.status == C
        if was_called:
            _back_to_waiting(alternate, missed=False)
        _drop_one_place(event, alternate)
        _log(
            event,
            actor,
            "skip",
            Text(
                gettext_noop("%(name)s dropped one place on the alternates list"),
                name=alternate.name,
            ),
            alternate,
        )
        if was_called:
            _call_next(event, alist, actor, timezone.now(), skip=[alternate.pk])
    return alternate


def alternate_remove(*, alternate: Alternate, actor: Actor) -> Alternate:
    """The floor takes a player off the list (their page says so)."""
    with transaction.atomic():
        event, _alist = _locked(alternate.event_id)
        alternate = _alternate(event, alternate.pk)
        if alternate.status not in ACTIVE:
            raise PlayersRefused(gettext("%(name)s is not waiting") % {"name": alternate.name})
        alternate.status = Alternate.Status.REMOVED
        alternate.save(update_fields=["status"])
        _log(
            event,
            actor,
            "remove",
            Text(gettext_noop("%(name)s removed from the alternates list"), name=alternate.name),
            alternate,
        )
    return alternate


def alternate_seat(*, alternate: Alternate, actor: Actor, confirm_changes: bool = False) -> Entry:
    """The player came: registered through seating's registration (a player out of this
    event re-enters: the re-entry limits apply), marked seated, and their link now follows
    the new entry. Registration's refusal (SeatingError, EntryRefused) changes nothing."""
    with transaction.atomic():
        event, _alist = _locked(alternate.event_id)
        alternate = _alternate(event, alternate.pk)
        if alternate.status not in ACTIVE:
            raise PlayersRefused(gettext("%(name)s is not waiting") % {"name": alternate.name})
        out = (
            Entry.objects.filter(
                event=event, player__name_key=name_key(alternate.name), status=Entry.Status.BUSTED
            )
            .order_by("-number")
            .first()
        )
        if out is not None:
            enrolment = entry_reenter(
                event_id=event.pk, entry_id=out.pk, actor=actor, confirm_changes=confirm_changes
            )
        else:
            enrolment = player_register(
                event=event, name=alternate.name, actor=actor, confirm_changes=confirm_changes
            )
        entry = enrolment.entry
        alternate.status = Alternate.Status.SEATED
        alternate.entry = entry
        alternate.player_id = entry.player_id
        alternate.save(update_fields=["status", "entry", "player"])
        # The page's link follows the entry: unless the entry has a live link already.
        if not PlayerLink.objects.filter(entry=entry, revoked_at__isnull=True).exists():
            PlayerLink.objects.filter(alternate=alternate, revoked_at__isnull=True).update(
                entry=entry
            )
        _log(
            event,
            actor,
            "seat",
            Text(
                gettext_noop("%(name)s seated from the alternates list as entry #%(number)s"),
                name=alternate.name,
                number=entry.number,
            ),
            alternate,
        )
    return entry


def alternates_expire(*, event_id: int, actor: Actor, now: datetime | None = None) -> int:
    """The hold's end: each called player past their time drops one place (waiting again,
    one more missed call) and the next waiting player is called in their stead. A
    compare-and-set under the lock: a late or second run finds nothing due. How many."""
    with transaction.atomic():
        event, alist = _locked(event_id)
        now = now or timezone.now()
        late = list(
            Alternate.objects.filter(event=event, status=C, due_at__lte=now).order_by("rank")
        )
        passed = [alternate.pk for alternate in late]
        for alternate in late:
            _back_to_waiting(alternate, missed=True)
            _drop_one_place(event, alternate)
            _log(
                event,
                actor,
                "expire",
                Text(
                    gettext_noop("%(name)s did not come in time: one place lower"),
                    name=alternate.name,
                ),
                alternate,
            )
            _call_next(event, alist, actor, now, skip=passed)
    return len(late)


def alternates_expire_due(*, actor: Actor, now: datetime | None = None) -> int:
    """The sweep: every event with a hold past its time (a hold's task lost)."""
    now = now or timezone.now()
    events = (
        Alternate.objects.filter(status=C, due_at__lte=now)
        .values_list("event_id", flat=True)
        .distinct()
    )
    return sum(alternates_expire(event_id=pk, actor=actor, now=now) for pk in list(events))
