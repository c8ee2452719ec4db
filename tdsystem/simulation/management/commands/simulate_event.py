"""Play a whole tournament through the real services and check it after every step.

    python manage.py simulate_event --players 1000 --seed 1 [--seats-per-table 9]

With `--dealers 40`, the dealers' rotation runs alongside on a simulated evening
(docs/dealers.md): pushes, breaks, tables breaking down to the final table; the summary
gains a "dealers" part with the fairness figures.

It runs on the configured database and creates its own event, "Simulation <seed>",
with venue tables of its own. It prints a JSON summary; a broken invariant stops it
with an error naming the step.

With flights, the whole festival (docs/festivals.md, "Simulating a festival"):

    python manage.py simulate_event --players 25000 --flights 4 --seed 1

a main event "Festival <seed>" with its flights 1A, 1B, ... played at once, each down to
its end of day (the last hands, bags for every survivor), then Day 2 combined from the
bags and played to a winner. `--players` is the entries at the flights' draws (some
players play two flights); re-entries come on top. The summary has the entries, each
flight's entries and bags, the Day 2 field, the winner, the bust-outs' timings and query
counts, and the time taken.

The room's screens never show a simulated event (`Event.simulated`: never the current
event). On a database that holds real events (any not made by a simulation) it refuses
to start, exit status 3, unless `--allow-real-events` says that database is meant.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tdsystem.events.models import Event
from tdsystem.simulation.dealers import DealersAlongside
from tdsystem.simulation.event import InvariantBroken, Simulation

# The exit status of a refusal to play beside real events (1 is a broken invariant).
REAL_EVENTS_STATUS = 3


class Command(BaseCommand):
    help = "Simulate a tournament from registration to the winner, checking the invariants."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--seed", type=int, required=True)
        parser.add_argument("--seats-per-table", type=int, default=9)
        parser.add_argument(
            "--flights",
            type=int,
            default=None,
            help="play a festival: a main event with this many Day 1 flights, then Day 2",
        )
        parser.add_argument(
            "--dealers",
            type=int,
            default=None,
            help="run the dealers' rotation alongside with this many dealers (docs/dealers.md)",
        )
        parser.add_argument(
            "--full-check-every",
            type=int,
            default=None,
            help="steps between full checks (default: every step up to 200 players, else "
            "every players/20 steps, at least 100); the step checks run after every step",
        )
        parser.add_argument(
            "--allow-real-events",
            action="store_true",
            help="play on a database that holds real events too (the simulation's events "
            "never show on the room's screens)",
        )

    def handle(self, *args, **options) -> None:
        if not options["allow_real_events"]:
            self.refuse_real_events()

        def progress(text: str) -> None:
            if options["verbosity"] > 1:
                self.stderr.write(text)

        if options["dealers"] is not None and options["flights"] is not None:
            raise CommandError("--dealers runs beside one event, not a festival's --flights")
        try:
            if options["flights"] is not None:
                from tdsystem.simulation.festival import Festival

                summary = Festival(
                    players=options["players"],
                    flights=options["flights"],
                    seed=options["seed"],
                    seats_per_table=options["seats_per_table"],
                    full_every=options["full_check_every"],
                    progress=progress,
                ).run()
            else:
                alongside = {}
                if options["dealers"] is not None:
                    alongside["dealers"] = DealersAlongside(options["dealers"])
                summary = Simulation(
                    players=options["players"],
                    seed=options["seed"],
                    seats_per_table=options["seats_per_table"],
                    full_every=options["full_check_every"],
                    progress=progress,
                    alongside=alongside,
                ).run()
        except (ValueError, InvariantBroken) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(json.dumps(summary, indent=2))

    def refuse_real_events(self) -> None:
        """A rehearsal on the room's own database is a choice, never an accident."""
        real = Event.objects.filter(simulated=False)
        count = real.count()
        if count:
            names = ", ".join(real.order_by("-created_at").values_list("name", flat=True)[:3])
            more = ", ..." if count > 3 else ""
            raise CommandError(
                f"This database holds {count} real event(s) ({names}{more}): simulate on a "
                "database of its own, or add --allow-real-events to play beside them (the "
                "simulation's events never show on the room's screens).",
                returncode=REAL_EVENTS_STATUS,
            )
