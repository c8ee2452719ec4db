"""The dealers' rotation beside a simulated event (`simulate_event --dealers N`).

The simulation plays bust-outs one after another with no time between them; here each of
its steps takes a share of a simulated evening (`EVENING` over the field), the level clock's
changes fall where the clock's row puts them, and the rotation runs on that time through
the real services: the dealers clock in at the start, a push is made when it is due (held
in the minute of a level change, as the scheduled task is), and after every step the
rotation is brought to the tables the step left in play. The receivers, which use the
wall clock, are held off meanwhile. The summary's figures: breaks per dealer (fewest,
most), downs dealt per dealer, pushes made and held, and the longest a table waited for
a dealer.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import datetime, timedelta

from tdsystem.core.actors import Actor
from tdsystem.dealers import receivers, selectors, services
from tdsystem.dealers.models import Rotation, Shift
from tdsystem.events.models import Clock
from tdsystem.seating.models import EventTable, Move
from tdsystem.seating.signals import moves_applied, tables_changed

from .event import Simulation

ACTOR = Actor(label="simulation")
EVENING_MINUTES = 600
EVENING = timedelta(minutes=EVENING_MINUTES)


@contextmanager
def receivers_held() -> Iterator[None]:
    """The dealers' receivers off for a while: they follow the tables on the wall clock,
    and the rotation here is brought to the tables on the simulated one after each step."""
    moves_applied.disconnect(sender=Move, dispatch_uid="dealers-moves")
    tables_changed.disconnect(sender=EventTable, dispatch_uid="dealers-tables")
    try:
        yield
    finally:
        moves_applied.connect(receivers.tables_broken, sender=Move, dispatch_uid="dealers-moves")
        tables_changed.connect(
            receivers.tables_set_up, sender=EventTable, dispatch_uid="dealers-tables"
        )


class DealersAlongside:
    def __init__(self, count: int) -> None:
        if not 1 <= count <= 2000:
            raise ValueError("--dealers takes 1 to 2,000 dealers")
        self.count = count
        self.stack = ExitStack()
        self.pushes = self.held = 0
        self.waiting_since: dict[int, datetime] = {}
        self.longest_wait = timedelta(0)
        self.kept_from: datetime | None = None

    def setup(self, simulation: Simulation) -> None:
        self.stack.enter_context(receivers_held())
        event = simulation.event
        clock = Clock.objects.get(pk=event.pk)
        assert clock.ends_at is not None
        # The evening starts when the clock did: its level changes are the simulated ones.
        first = event.structure.levels.order_by("position").first()
        assert first is not None
        self.start = clock.ends_at - timedelta(seconds=first.duration_seconds)
        self.now = self.start
        self.step_time = EVENING / max(simulation.players, 1)
        for i in range(1, self.count + 1):
            dealer = services.dealer_add(name=f"Dealer {simulation.seed}-{i:03d}", actor=ACTOR)
            services.dealer_clock_in(
                event_id=event.pk, dealer_id=dealer.pk, actor=ACTOR, now=self.now
            )
        services.rotation_settings(
            event_id=event.pk,
            down_minutes=30,
            break_every=3,
            break_minutes=30,
            automatic=False,  # the simulation pushes on its own clock
            keep_final_table=True,
            actor=ACTOR,
            now=self.now,
        )
        self._waits(simulation)

    def step(self, simulation: Simulation, n: int) -> None:
        event_id = simulation.event.pk
        self.now += self.step_time
        services.rotation_sync(event_id=event_id, actor=ACTOR, now=self.now)
        row = Rotation.objects.get(pk=event_id)
        if row.next_push_at <= self.now:
            moved = services.rotation_push(
                event_id=event_id, actor=ACTOR, now=self.now, expected_version=row.version
            )
            if moved is None:
                self.held += 1
            else:
                self.pushes += 1
        self._waits(simulation)

    def _waits(self, simulation: Simulation) -> None:
        board = selectors.board(simulation.event, self.now)
        for table in board.waiting:
            self.waiting_since.setdefault(table, self.now)
        for table in list(self.waiting_since):
            if table not in board.waiting:
                self.longest_wait = max(self.longest_wait, self.now - self.waiting_since.pop(table))
        if board.kept and self.kept_from is None:
            self.kept_from = self.now

    def summary(self, simulation: Simulation) -> dict:
        for since in self.waiting_since.values():
            self.longest_wait = max(self.longest_wait, self.now - since)
        shifts = list(Shift.objects.filter(event=simulation.event))
        breaks = [s.breaks for s in shifts]
        downs = [s.downs_dealt for s in shifts]
        return {
            "dealers": self.count,
            "simulated_minutes": round((self.now - self.start).total_seconds() / 60),
            "pushes": self.pushes,
            "pushes_held_at_a_level_change": self.held,
            "breaks_per_dealer": {"min": min(breaks, default=0), "max": max(breaks, default=0)},
            "downs_per_dealer": {
                "min": min(downs, default=0),
                "median": statistics.median(downs) if downs else 0,
                "max": max(downs, default=0),
            },
            "max_table_wait_minutes": round(self.longest_wait.total_seconds() / 60, 1),
            "final_table_kept_from_minute": (
                round((self.kept_from - self.start).total_seconds() / 60)
                if self.kept_from
                else None
            ),
        }

    def close(self) -> None:
        self.stack.close()
