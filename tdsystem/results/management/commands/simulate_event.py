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
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tdsystem.results.simulation import ALONGSIDE, InvariantBroken, Simulation


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

    def handle(self, *args, **options) -> None:
        def progress(text: str) -> None:
            if options["verbosity"] > 1:
                self.stderr.write(text)

        if options["dealers"] is not None and options["flights"] is not None:
            raise CommandError("--dealers runs beside one event, not a festival's --flights")
        try:
            if options["flights"] is not None:
                from tdsystem.results.simulation_festival import Festival

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
                    if "dealers" not in ALONGSIDE:
                        raise CommandError("--dealers needs the dealers app installed")
                    alongside["dealers"] = ALONGSIDE["dealers"](options["dealers"])
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
