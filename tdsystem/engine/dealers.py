"""The dealers' rotation: who deals at which table, who rests, and when the next push is.

Pure functions of a `Rotation` (the dealers clocked in, the tables in play) and the time,
passed in. A push moves every dealer at a table to the next table in play (by number,
round the room); the dealers due a break (`Rules.break_every` downs since their last one)
go to the break room, those with the most downs since their last break first, as far as
the dealers available cover every table; the rested ones fill the tables left. A table put
into play takes the dealer available longest, a table that breaks releases its dealer to a
table waiting, else to a break when one is due, else to the dealers' room. A table the
director keeps (the final table) keeps its dealer through the pushes.

No push falls in the minute either side of a level change (TDA RP-7: every table plays
the new level from the same moment): `push_time` moves it to a minute after the change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

DEALING = "table"
RESTING = "break"
FREE = "free"

# The minute either side of a level change when no push is made.
LEVEL_HOLD = timedelta(minutes=1)


class RotationError(ValueError):
    """A change the rotation cannot make (a table already in play, a dealer unknown)."""


@dataclass(frozen=True)
class Rules:
    down: timedelta = timedelta(minutes=30)
    break_every: int = 3  # downs between two breaks
    break_length: timedelta = timedelta(minutes=30)

    def __post_init__(self) -> None:
        if self.down <= timedelta(0) or self.break_length <= timedelta(0):
            raise RotationError("a down and a break last some time")
        if self.break_every < 1:
            raise RotationError("a break comes after one down at least")


@dataclass(frozen=True)
class Dealer:
    id: int
    status: str = FREE
    table: int | None = None  # set while dealing
    since: datetime | None = None  # when this status began
    downs: int = 0  # downs finished since the last break
    breaks: int = 0  # breaks taken

    def available(self, rules: Rules, now: datetime) -> bool:
        """In the dealers' room and ready: waiting, or back from a break that is over."""
        if self.status == FREE:
            return True
        return self.status == RESTING and self.break_ends(rules) <= now

    def break_ends(self, rules: Rules) -> datetime:
        assert self.since is not None
        return self.since + rules.break_length

    def ready_at(self, rules: Rules) -> datetime | None:
        """Since when the dealer has been ready (None: always): the longest ready deal first."""
        if self.since is None:
            return None
        return self.break_ends(rules) if self.status == RESTING else self.since


@dataclass(frozen=True)
class Rotation:
    dealers: tuple[Dealer, ...] = ()
    tables: tuple[int, ...] = ()  # in play, by number
    kept: frozenset[int] = field(default_factory=frozenset)  # tables keeping their dealer

    def dealer(self, dealer_id: int) -> Dealer:
        for dealer in self.dealers:
            if dealer.id == dealer_id:
                return dealer
        raise RotationError(f"dealer {dealer_id} is not clocked in")

    def at_tables(self) -> dict[int, Dealer]:
        return {d.table: d for d in self.dealers if d.status == DEALING and d.table is not None}

    def waiting(self) -> tuple[int, ...]:
        """The tables in play without a dealer."""
        dealt = self.at_tables()
        return tuple(t for t in self.tables if t not in dealt)


def _sorted_key(rules: Rules) -> Callable[[Dealer], tuple]:
    def key(dealer: Dealer) -> tuple:
        ready = dealer.ready_at(rules)
        when = (0, ready) if ready is None else (1, ready)
        return (dealer.breaks, when, dealer.id)

    return key


def _with(rotation: Rotation, changed: Iterable[Dealer]) -> Rotation:
    new = {d.id: d for d in changed}
    return replace(rotation, dealers=tuple(new.get(d.id, d) for d in rotation.dealers))


def fill(rotation: Rotation, rules: Rules, now: datetime) -> Rotation:
    """Every table waiting takes a dealer available, the one ready longest first."""
    waiting = rotation.waiting()
    if not waiting:
        return rotation
    ready = sorted((d for d in rotation.dealers if d.available(rules, now)), key=_sorted_key(rules))
    seated = [
        replace(dealer, status=DEALING, table=table, since=now)
        for table, dealer in zip(waiting, ready, strict=False)
    ]
    return _with(rotation, seated)


def _due(dealer: Dealer, rules: Rules) -> bool:
    return dealer.downs >= rules.break_every


def _rest(dealer: Dealer, now: datetime) -> Dealer:
    return replace(dealer, status=RESTING, table=None, since=now, downs=0, breaks=dealer.breaks + 1)


def clock_in(rotation: Rotation, rules: Rules, dealer_id: int, now: datetime) -> Rotation:
    if any(d.id == dealer_id for d in rotation.dealers):
        raise RotationError(f"dealer {dealer_id} is clocked in already")
    dealer = Dealer(id=dealer_id, status=FREE, since=now)
    return fill(replace(rotation, dealers=(*rotation.dealers, dealer)), rules, now)


def clock_out(rotation: Rotation, rules: Rules, dealer_id: int, now: datetime) -> Rotation:
    rotation.dealer(dealer_id)
    left = tuple(d for d in rotation.dealers if d.id != dealer_id)
    return fill(replace(rotation, dealers=left), rules, now)


def table_open(rotation: Rotation, rules: Rules, table: int, now: datetime) -> Rotation:
    """A table put into play: it takes a dealer available, if any."""
    if table in rotation.tables:
        raise RotationError(f"table {table} is in play already")
    tables = tuple(sorted((*rotation.tables, table)))
    return fill(replace(rotation, tables=tables), rules, now)


def table_break(rotation: Rotation, rules: Rules, table: int, now: datetime) -> Rotation:
    """A table out of play: its dealer goes to a table waiting, else to a break when one
    is due, else to the dealers' room."""
    if table not in rotation.tables:
        raise RotationError(f"table {table} is not in play")
    dealer = rotation.at_tables().get(table)
    rotation = replace(
        rotation,
        tables=tuple(t for t in rotation.tables if t != table),
        kept=rotation.kept - {table},
    )
    if dealer is not None:
        fewest = min(d.breaks for d in rotation.dealers)
        if _due(dealer, rules) and dealer.breaks == fewest and not rotation.waiting():
            released = _rest(dealer, now)
        else:
            released = replace(dealer, status=FREE, table=None, since=now)
        rotation = _with(rotation, [released])
    return fill(rotation, rules, now)


def tables_set(rotation: Rotation, rules: Rules, tables: Iterable[int], now: datetime) -> Rotation:
    """The rotation brought to these tables in play: those gone break, the new ones open."""
    wanted = set(tables)
    for table in [t for t in rotation.tables if t not in wanted]:
        rotation = table_break(rotation, rules, table, now)
    for table in sorted(wanted - set(rotation.tables)):
        rotation = table_open(rotation, rules, table, now)
    return fill(rotation, rules, now)


def keep(rotation: Rotation, table: int, kept: bool) -> Rotation:
    """The director's word: this table (the final table) keeps its dealer at the pushes."""
    if table not in rotation.tables:
        raise RotationError(f"table {table} is not in play")
    new = rotation.kept | {table} if kept else rotation.kept - {table}
    return replace(rotation, kept=frozenset(new))


def keep_final(rotation: Rotation, *, on: bool) -> Rotation:
    """The director's switch: with one table left (the final table), it keeps its dealer."""
    kept = frozenset(rotation.tables) if on and len(rotation.tables) == 1 else frozenset()
    return replace(rotation, kept=kept)


def push(rotation: Rotation, rules: Rules, now: datetime) -> Rotation:
    """Every dealer at a table (but a kept one's) has finished a down. As many as the
    tables do not need sit the next down out, taken from the dealers due a break and those
    in the dealers' room: the fewest breaks first, then the most downs since the last one.
    A dealer leaving a table starts a break; one ready in the room who stays there rests
    through this down too, and it counts as a break (from when they came off a table or
    clocked in) when they have had the fewest, so that nobody gets ahead. The others at
    the tables move one table on, and the rested fill the tables left."""
    moving = [
        replace(d, downs=d.downs + 1)
        for d in rotation.dealers
        if d.status == DEALING and d.table not in rotation.kept
    ]
    order = [t for t in rotation.tables if t not in rotation.kept]
    ready = [d for d in rotation.dealers if d.available(rules, now)]
    # Never more than the dealers ready: each dealer moving holds a table in play.
    surplus = max(0, len(moving) + len(ready) - len(order))
    fewest = min((d.breaks for d in rotation.dealers), default=0)

    def rest_first(dealer: Dealer) -> tuple:
        # A dealer due with more breaks than the fewest deals on (a ready one sits out
        # instead): resting them would put them two breaks ahead.
        if dealer.status == DEALING:
            group = 0 if dealer.breaks == fewest else 2
        else:
            group = 0 if dealer.breaks == fewest else 1
        return (group, dealer.breaks, -dealer.downs, dealer.id)

    candidates = sorted([d for d in moving if _due(d, rules)] + ready, key=rest_first)
    out = {d.id for d in candidates[:surplus]}
    changed: list[Dealer] = []
    for dealer in ready:
        if dealer.id in out and dealer.breaks == fewest:
            changed.append(replace(_rest(dealer, now), since=dealer.since))
    for dealer in moving:
        if dealer.id in out:
            changed.append(_rest(dealer, now))
            continue
        assert dealer.table is not None
        position = order.index(dealer.table)
        changed.append(replace(dealer, table=order[(position + 1) % len(order)], since=now))
    rotation = _with(rotation, changed)
    # Those who sit out stay out: the tables left go to the others ready.
    staying = {d.id for d in ready if d.id in out}
    held = replace(rotation, dealers=tuple(d for d in rotation.dealers if d.id not in staying))
    filled = fill(held, rules, now)
    return _with(rotation, filled.dealers)


def push_time(planned: datetime, level_changes: Sequence[datetime]) -> datetime:
    """The first time from `planned` that is not within a minute of a level change."""
    at = planned
    for change in sorted(level_changes):
        if change - LEVEL_HOLD < at < change + LEVEL_HOLD:
            at = change + LEVEL_HOLD
    return at


def push_times(
    first: datetime, rules: Rules, level_changes: Sequence[datetime], count: int
) -> list[datetime]:
    """The next `count` pushes from the first one planned, each a down after the last."""
    times: list[datetime] = []
    at = first
    for _ in range(count):
        at = push_time(at, level_changes)
        times.append(at)
        at = at + rules.down
    return times


@dataclass(frozen=True)
class Step:
    """Where a dealer goes at a push: a table, a break, or the dealers' room."""

    at: datetime
    status: str
    table: int | None


def forecast(
    rotation: Rotation, rules: Rules, dealer_id: int, times: Sequence[datetime]
) -> list[Step]:
    """Where the dealer goes at each of these pushes, if nothing else changes."""
    steps: list[Step] = []
    for at in times:
        rotation = push(rotation, rules, at)
        dealer = rotation.dealer(dealer_id)
        steps.append(Step(at, dealer.status, dealer.table))
    return steps


def moves(before: Rotation, after: Rotation) -> dict[int, tuple[str, int | None]]:
    """The dealers whose place changes from `before` to `after`: id -> (status, table)."""
    was = {d.id: (d.status, d.table) for d in before.dealers}
    return {
        d.id: (d.status, d.table) for d in after.dealers if was.get(d.id) != (d.status, d.table)
    }


def problems(rotation: Rotation, rules: Rules, now: datetime) -> list[str]:
    """What must always hold: one place per dealer, one dealer per table, a table waits
    only while nobody is available."""
    found: list[str] = []
    seen: dict[int, int] = {}
    for dealer in rotation.dealers:
        if dealer.status not in (DEALING, RESTING, FREE):
            found.append(f"dealer {dealer.id} has no place")
        if (dealer.status == DEALING) != (dealer.table is not None):
            found.append(f"dealer {dealer.id} is {dealer.status} at table {dealer.table}")
        if dealer.status == DEALING and dealer.table is not None:
            if dealer.table not in rotation.tables:
                found.append(f"dealer {dealer.id} deals at table {dealer.table}, not in play")
            if dealer.table in seen:
                found.append(
                    f"table {dealer.table} has dealers {seen[dealer.table]} and {dealer.id}"
                )
            seen[dealer.table] = dealer.id
    ids = [d.id for d in rotation.dealers]
    if len(ids) != len(set(ids)):
        found.append("a dealer is clocked in twice")
    if rotation.waiting() and any(d.available(rules, now) for d in rotation.dealers):
        found.append(f"tables {rotation.waiting()} wait while a dealer is available")
    return found
